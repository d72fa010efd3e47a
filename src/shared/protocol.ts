/**
 * The messages between the extension host and the report webview. Both bundles import this
 * module; every message is a member of a discriminated union and is checked with the guards
 * below on arrival (a webview is another process: its messages are data, not trusted types).
 *
 * Order: the webview posts `ready`; only then does the host post `show`. Requests the host must
 * answer (`savePng`, `copy`) carry a sequence number `seq`, echoed in the `reply`.
 */
import type { ReportModel } from './model';

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
  | { type: 'reply'; seq: number; ok: boolean; message?: string }
  | { type: 'error'; message: string };

export type HostCommand = 'export' | 'revealJson' | 'reevaluate' | 'openSource';

export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'savePng'; seq: number; fileName: string; dataUrl: string }
  | { type: 'copy'; seq: number; text: string; what: string }
  | { type: 'command'; command: HostCommand }
  | { type: 'cspViolation'; directive: string; blocked: string }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string }
  | { type: 'useOperatingPoint'; seq: number; key: OperatingPointKey; value: number };

/** Config keys the threshold explorer writes. */
export type OperatingPointKey = 'acceptThreshold' | 'targetCoverage' | 'threshold';
const OPERATING_POINT_KEYS: readonly OperatingPointKey[] = ['acceptThreshold', 'targetCoverage', 'threshold'];

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const isStr = (x: unknown): x is string => typeof x === 'string';
const isSeq = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0;
const HOST_COMMANDS: readonly HostCommand[] = ['export', 'revealJson', 'reevaluate', 'openSource'];
const LEVELS = ['info', 'warn', 'error'] as const;

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
      return isSeq(x.seq) && OPERATING_POINT_KEYS.includes(x.key as OperatingPointKey) && typeof x.value === 'number' && Number.isFinite(x.value);
    default:
      return false;
  }
}

/** Checks a message from the host (a shape check; the model's fields are trusted). */
export function isHostMessage(x: unknown): x is HostMessage {
  if (!isObj(x)) return false;
  switch (x.type) {
    case 'show':
      return isObj(x.model) && isStr(x.uri) && Array.isArray((x.model as Obj).tabs) && (x.focus === undefined || isStr(x.focus));
    case 'focus':
      return isStr(x.target);
    case 'reply':
      return isSeq(x.seq) && typeof x.ok === 'boolean' && (x.message === undefined || isStr(x.message));
    case 'error':
      return isStr(x.message);
    default:
      return false;
  }
}

/** Checks a state object restored by the serializer. */
export function isWebviewState(x: unknown): x is WebviewState {
  return isObj(x) && isStr(x.uri) && (x.tab === undefined || isStr(x.tab)) && (x.tableView === undefined || (Array.isArray(x.tableView) && x.tableView.every(isStr)));
}

/** The PNG bytes of a `data:image/png;base64,…` URL. */
export function pngBytes(dataUrl: string): Uint8Array {
  const b64 = dataUrl.slice('data:image/png;base64,'.length);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}
