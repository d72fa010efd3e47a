/**
 * The messages between the extension host and the report webview. Both bundles import this
 * module; every message is a member of a discriminated union and is checked with the guards
 * below on arrival (a webview is another process: its messages are data, not trusted types).
 *
 * Order: the webview posts `ready`; only then does the host post `show`. Requests the host must
 * answer (`savePng`, `copy`) carry a sequence number `seq`, echoed in the `reply`.
 */
import type { RowDiff } from '../core/compare/diffTypes';
import type { FilterOp, FilterTerm, RowPage, RowQuery } from '../core/rows/types';
import type { ReportModel } from './model';
import type { SliceCandidate, SliceTable } from './inspectModel';
import type { FileSliceFinderResult } from '../core/inspect/sliceFinderTypes';

/** The panel's view type (package.json does not list it; the serializer registers it). */
export const REPORT_VIEW_TYPE = 'evalLens.report';

/** What the webview keeps with `setState`, and the serializer gets back after a reload. */
export interface WebviewState {
  /** The shown file (`*.eval.json`, `*.compare.json`, or a foreign JSON), as a URI string. */
  uri: string;
  /** Selected tab id. */
  tab?: string;
  /** Chart ids shown as tables instead of charts. */
  tableView?: string[];
  /** Group id → selected option (per-user metric, paired-difference metric). */
  selected?: Record<string, string>;
}

export type HostMessage =
  | { type: 'show'; model: ReportModel; uri: string; focus?: string }
  | { type: 'focus'; target: string }
  /**
   * `stale`: the source file changed since the results were written (its SHA-256 differs); the
   * webview offers Re-evaluate instead of rows.
   */
  | { type: 'reply'; seq: number; ok: boolean; message?: string; stale?: boolean }
  | { type: 'error'; message: string }
  /** One page of rows, the answer to `queryRows`. */
  | { type: 'rows'; seq: number; page: RowPage }
  /** The columns a report can be sliced by, the answer to `sliceCandidates`. */
  | { type: 'sliceCandidates'; seq: number; candidates: SliceCandidate[] }
  /** A slice table computed on demand, the answer to `computeSlices`. */
  | { type: 'slices'; seq: number; table: SliceTable }
  /** The slice finder's answer to `findSlices`: the weak slices of one run, or where B loses to A. */
  | { type: 'foundSlices'; seq: number; result: FileSliceFinderResult }
  /** The rows that changed between the baseline and a run of a comparison, the answer to `diffRows`. */
  | { type: 'diff'; seq: number; diff: RowDiff };

export type HostCommand = 'export' | 'revealJson' | 'reevaluate' | 'openSource';

export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'savePng'; seq: number; fileName: string; dataUrl: string }
  | { type: 'copy'; seq: number; text: string; what: string }
  | { type: 'command'; command: HostCommand }
  | { type: 'cspViolation'; directive: string; blocked: string }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string }
  /** Write a config key of the threshold explorer and evaluate again; answered by a `reply`. */
  | { type: 'useOperatingPoint'; seq: number; key: OperatingPointKey; value: number }
  /** One page of the rows behind a number; answered by `rows` or by a `reply` with ok false. */
  | { type: 'queryRows'; seq: number; query: RowQuery }
  /** Reveal a 1-based line of the source file in an editor beside the report, selected. */
  | { type: 'openLine'; line: number }
  /**
   * Show the report of the rows matching `where` (evaluated anew, same config); an empty `where`
   * goes back to the whole file. Answered by a `show` and a `reply`.
   */
  | { type: 'evaluateSubset'; seq: number; where: FilterTerm[] }
  | { type: 'sliceCandidates'; seq: number }
  | { type: 'computeSlices'; seq: number; by: string[] }
  /**
   * Run the slice finder (off the host's thread): on the report's file, or in a comparison between
   * the baseline and `run` (default: the first other run). Answered by `foundSlices` or a `reply`.
   */
  | { type: 'findSlices'; seq: number; minSupport?: number; limit?: number; run?: string }
  /** The Changed rows tab: the rows that changed from the baseline to a run of the comparison. */
  | { type: 'diffRows'; seq: number; query: DiffQuery }
  /** Open the baseline's line `lineA` and `run`'s line `lineB` side by side, each line selected. */
  | { type: 'openLines'; run: string; lineA: number; lineB: number };

/** What the Changed rows tab asks for: the run (as the comparison names it), metric (default: the task's), filter, rows. */
export interface DiffQuery {
  run: string;
  metric?: string;
  where: FilterTerm[];
  limit: number;
}

/** Config keys the threshold explorer writes. */
export type OperatingPointKey = 'acceptThreshold' | 'targetCoverage' | 'threshold';
const OPERATING_POINT_KEYS: readonly OperatingPointKey[] = ['acceptThreshold', 'targetCoverage', 'threshold'];

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const isStr = (x: unknown): x is string => typeof x === 'string';
const isSeq = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0;
const HOST_COMMANDS: readonly HostCommand[] = ['export', 'revealJson', 'reevaluate', 'openSource'];
const LEVELS = ['info', 'warn', 'error'] as const;
const OPS: readonly FilterOp[] = ['=', '!=', '<', '<=', '>', '>='];
/** Rows per request: a page crosses the boundary at a time, never the whole file. */
export const MAX_PAGE_ROWS = 1000;
/** A slice "other" is every kept value excluded: up to 50 terms. */
const MAX_TERMS = 64;
const isCount = (x: unknown, max = Number.MAX_SAFE_INTEGER): x is number =>
  typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= max;
const isShortStr = (x: unknown): x is string => isStr(x) && x.length > 0 && x.length <= 1000;

export function isFilterTerm(x: unknown): x is FilterTerm {
  return (
    isObj(x) &&
    isShortStr(x.key) &&
    OPS.includes(x.op as FilterOp) &&
    isStr(x.value) &&
    x.value.length <= 1000 &&
    Object.keys(x).length === 3
  );
}

const isWhere = (x: unknown): x is FilterTerm[] => Array.isArray(x) && x.length <= MAX_TERMS && x.every(isFilterTerm);

/** Changed rows per request, at most. */
export const MAX_DIFF_ROWS = 1000;

export function isDiffQuery(x: unknown): x is DiffQuery {
  return (
    isObj(x) &&
    isShortStr(x.run) &&
    (x.metric === undefined || isShortStr(x.metric)) &&
    isWhere(x.where) &&
    isCount(x.limit, MAX_DIFF_ROWS) &&
    x.limit >= 1
  );
}

export function isRowQuery(x: unknown): x is RowQuery {
  if (!isObj(x) || !isWhere(x.where) || !isCount(x.offset) || !isCount(x.limit, MAX_PAGE_ROWS) || x.limit === 0)
    return false;
  if (x.sort === undefined) return true;
  const s = x.sort;
  return isObj(s) && isShortStr(s.key) && (s.dir === 'asc' || s.dir === 'desc');
}

/** Checks a message from the webview; anything else is dropped by the host. */
export function isWebviewMessage(x: unknown): x is WebviewMessage {
  if (!isObj(x)) return false;
  switch (x.type) {
    case 'ready':
      return true;
    case 'savePng':
      return isSeq(x.seq) && isStr(x.fileName) && isStr(x.dataUrl) && x.dataUrl.startsWith('data:image/png;base64,');
    case 'copy':
      return isSeq(x.seq) && isStr(x.text) && isStr(x.what);
    case 'command':
      return HOST_COMMANDS.includes(x.command as HostCommand);
    case 'cspViolation':
      return isStr(x.directive) && isStr(x.blocked);
    case 'log':
      return LEVELS.includes(x.level as (typeof LEVELS)[number]) && isStr(x.message);
    case 'useOperatingPoint':
      return (
        isSeq(x.seq) &&
        OPERATING_POINT_KEYS.includes(x.key as OperatingPointKey) &&
        typeof x.value === 'number' &&
        Number.isFinite(x.value)
      );
    case 'queryRows':
      return isSeq(x.seq) && isRowQuery(x.query);
    case 'openLine':
      return isCount(x.line) && x.line >= 1;
    case 'evaluateSubset':
      return isSeq(x.seq) && isWhere(x.where);
    case 'sliceCandidates':
      return isSeq(x.seq);
    case 'computeSlices':
      return isSeq(x.seq) && Array.isArray(x.by) && x.by.length >= 1 && x.by.length <= 4 && x.by.every(isShortStr);
    case 'diffRows':
      return isSeq(x.seq) && isDiffQuery(x.query);
    case 'openLines':
      return isShortStr(x.run) && isCount(x.lineA) && x.lineA >= 1 && isCount(x.lineB) && x.lineB >= 1;
    case 'findSlices':
      return (
        isSeq(x.seq) &&
        (x.minSupport === undefined || (isCount(x.minSupport) && x.minSupport >= 1)) &&
        (x.limit === undefined || isCount(x.limit, 1000)) &&
        (x.run === undefined || isShortStr(x.run))
      );
    default:
      return false;
  }
}

/** Checks a message from the host (a shape check; the model's fields are trusted). */
export function isHostMessage(x: unknown): x is HostMessage {
  if (!isObj(x)) return false;
  switch (x.type) {
    case 'show':
      return (
        isObj(x.model) &&
        isStr(x.uri) &&
        Array.isArray((x.model as Obj).tabs) &&
        (x.focus === undefined || isStr(x.focus))
      );
    case 'focus':
      return isStr(x.target);
    case 'reply':
      return (
        isSeq(x.seq) &&
        typeof x.ok === 'boolean' &&
        (x.message === undefined || isStr(x.message)) &&
        (x.stale === undefined || x.stale === true)
      );
    case 'error':
      return isStr(x.message);
    case 'rows': {
      const p = x.page as Obj;
      return (
        isSeq(x.seq) &&
        isObj(p) &&
        isCount(p.total) &&
        isCount(p.rowsInFile) &&
        isCount(p.offset) &&
        Array.isArray(p.rows) &&
        p.rows.length <= MAX_PAGE_ROWS &&
        p.rows.every((r) => isObj(r) && (r.kind === 'classification' || r.kind === 'ranking') && isCount(r.line))
      );
    }
    case 'sliceCandidates':
      return isSeq(x.seq) && Array.isArray(x.candidates) && x.candidates.every((c) => isObj(c) && isStr(c.column));
    case 'slices':
      return isSeq(x.seq) && isObj(x.table) && Array.isArray((x.table as Obj).rows);
    case 'diff':
      return isSeq(x.seq) && isObj(x.diff) && Array.isArray((x.diff as Obj).rows) && isCount((x.diff as Obj).n);
    case 'foundSlices': {
      const r = x.result as Obj;
      return (
        isSeq(x.seq) &&
        isObj(r) &&
        (r.mode === 'one-run' || r.mode === 'two-runs') &&
        isCount(r.tried) &&
        Array.isArray(r.runs) &&
        r.runs.every(isStr) &&
        Array.isArray(r.slices) &&
        r.slices.every((f) => isObj(f) && isStr(f.slice) && isCount(f.n) && isWhere(f.where))
      );
    }
    default:
      return false;
  }
}

/** Checks a state object restored by the serializer. */
export function isWebviewState(x: unknown): x is WebviewState {
  return (
    isObj(x) &&
    isStr(x.uri) &&
    (x.tab === undefined || isStr(x.tab)) &&
    (x.tableView === undefined || (Array.isArray(x.tableView) && x.tableView.every(isStr)))
  );
}

/** The PNG bytes of a `data:image/png;base64,…` URL. */
export function pngBytes(dataUrl: string): Uint8Array {
  const b64 = dataUrl.slice('data:image/png;base64,'.length);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}
