/**
 * Reads an importance-weighted binary file (docs/inputs.md and docs/metrics/importance.md) into {@link IwBinaryData}:
 * columns `label`, `score`, `stratum` (B / Bc), optional `weight` and `id`, found by name
 * (case-insensitive, with aliases) or given in `columns`. Rows stream through
 * {@link IwRowCollector}, a {@link TableSink} of the generic reader, so large files are never held
 * as text.
 *
 * Row rules (docs/inputs.md): a bad label, score, stratum or weight is an error naming the file, the
 * 1-based physical line and the column, unless `invalidRows: "skip"`, which drops the row and lists
 * the dropped lines in one warning.
 * - label: 0/1 (numbers, "0"/"1", booleans); with `positiveLabel`, the value equal to it is positive
 *   and one other value is negative — a third distinct value is invalid.
 * - score: a finite number (NaN/±Inf are invalid).
 * - stratum: `B` / `biased` → B; `Bc` / `B^c` / `B_c` / `random` / `complement` → Bc (case-insensitive).
 * - weight: a finite number ≥ 0.
 */
import { checkWeightSum } from './weights';
import { EvalLensError, fail, type Progress, type Warnings } from '../diagnostics';
import type { ColumnsConfig } from '../config/types';
import { STRATUM_B, STRATUM_BC, type IwBinaryData } from '../data/iwBinaryData';
import { IdIndex } from '../data/idIndex';
import { RowIds } from '../data/rowIds';
import type { Cell } from '../data/textColumn';
import { readTable, type TableSink } from './table';
import type { TableFormat } from './format';
import { COLUMN_ALIASES, findColumn, listNames, missingColumn } from './columns';
import { cellAsText, TextColumnBuilder, type TextColumn } from '../data/textColumn';

/**
 * Accepted column names per role, lower-case, in order of preference: the shared aliases of
 * `columns.ts` first, then names common for binary scores and importance weights.
 */
export const IW_COLUMN_ALIASES = {
  label: [...COLUMN_ALIASES.label],
  score: [...COLUMN_ALIASES.score, 'y_score', 'prob', 'proba', 'probability', 'prob_1', 'p_1'],
  stratum: [...COLUMN_ALIASES.stratum, 'strata'],
  weight: [...COLUMN_ALIASES.weight, 'weights', 'sample_weight', 'importance_weight'],
  id: [...COLUMN_ALIASES.id, 'row_id', 'example_id'],
} as const;

type Role = keyof typeof IW_COLUMN_ALIASES;

export interface IwReadOptions {
  /** Explicit column names (`columns` in eval-lens.json). */
  columns?: ColumnsConfig;
  invalidRows: 'error' | 'skip';
  /** The label value that is positive (`positiveLabel`); default: labels must be 0/1. */
  positiveLabel?: string | number;
  /** Columns to keep as written (dictionary-encoded text) by name, for slicing and row filters. */
  keepText?: string[];
  /** Also keep every column without a role. */
  keepOther?: boolean;
}

const B_NAMES = new Set(['b', 'biased']);
const BC_NAMES = new Set(['bc', 'b^c', 'b_c', 'random', 'complement']);
const MAX_LINES_LISTED = 20;

function cellText(c: Cell): string {
  if (c === null || c === undefined) return '';
  if (typeof c === 'object') return JSON.stringify(c);
  return String(c);
}

function asNumber(c: Cell): number {
  if (typeof c === 'number') return c;
  if (typeof c === 'string') {
    const t = c.trim();
    return t === '' ? NaN : Number(t);
  }
  return NaN;
}

function isMissing(c: Cell | undefined): boolean {
  return c === null || c === undefined || (typeof c === 'string' && c.trim() === '');
}

/** Two label spellings are the same value when equal as text, or as numbers ("1.0" and 1). */
function sameLabel(a: string, b: string): boolean {
  if (a === b) return true;
  const x = Number(a);
  const y = Number(b);
  return a !== '' && b !== '' && Number.isFinite(x) && Number.isFinite(y) && x === y;
}

/** Why a row is invalid: the column and what was expected. */
class RowProblem {
  constructor(
    readonly column: string,
    readonly what: string,
  ) {}
}

/**
 * A {@link TableSink} that checks and collects the rows of an iw-binary file. Call
 * {@link IwRowCollector.finish} after the reader is done.
 */
export class IwRowCollector implements TableSink {
  private col: Partial<Record<Role, { name: string; index: number }>> = {};
  /** Kept text columns by column index. */
  private text: (TextColumnBuilder | undefined)[] = [];
  /** Column names of the header. */
  header: string[] = [];
  private readonly labels: number[] = [];
  private readonly scores: number[] = [];
  private readonly strata: number[] = [];
  private readonly weights: number[] = [];
  private readonly ids: string[] = [];
  private readonly lines: number[] = [];
  private negativeLabel: string | null = null;
  private readonly skipped: number[] = [];
  private skippedCount = 0;
  private firstSkipReason: string | null = null;
  private rowsSeen = 0;

  constructor(
    readonly file: string,
    private readonly opts: IwReadOptions,
  ) {}

  columns(names: string[]): void {
    const config = { columns: this.opts.columns };
    for (const role of Object.keys(IW_COLUMN_ALIASES) as Role[]) {
      const index = findColumn(names, role, config, this.file, IW_COLUMN_ALIASES[role]);
      if (index >= 0) this.col[role] = { name: names[index], index };
    }
    if (!this.col.label) throw missingColumn(names, 'label', this.file, IW_COLUMN_ALIASES.label);
    if (!this.col.score) throw missingColumn(names, 'score', this.file, IW_COLUMN_ALIASES.score);
    if (!this.col.stratum && !this.col.weight) {
      const e = missingColumn(names, 'stratum', this.file, IW_COLUMN_ALIASES.stratum);
      throw new EvalLensError(
        e.code,
        `${e.message.replace(/\.$/, '')} (values B / Bc), or give a \`weight\` column with the importance weights.`,
        e.location,
      );
    }
    this.header = names;
    if (this.opts.keepText?.length || this.opts.keepOther) {
      const roles = new Set(Object.values(this.col).map((c) => c!.index));
      const want = new Set(this.opts.keepText ?? []);
      const missing = [...want].filter((w) => !names.includes(w));
      if (missing.length > 0)
        fail(
          'missing-column',
          { file: this.file, line: 1 },
          `no column ${listNames(missing)} to slice or filter by (expected one of ${listNames(names)}).`,
        );
      this.text = names.map((name, j) =>
        want.has(name) || (this.opts.keepOther && !roles.has(j)) ? new TextColumnBuilder(name, 1024) : undefined,
      );
    }
  }

  textColumns(): Record<string, TextColumn> {
    const out: Record<string, TextColumn> = {};
    for (const b of this.text) if (b) out[b.name] = b.finish(this.lines.length);
    return out;
  }

  row(cells: Cell[], line: number): void {
    this.rowsSeen++;
    try {
      this.parse(cells, line);
    } catch (e) {
      if (!(e instanceof RowProblem)) throw e;
      const msg = `${this.file}:${line}, column "${e.column}": ${e.what}`;
      if (this.opts.invalidRows !== 'skip')
        throw new EvalLensError('invalid-value', msg, { file: this.file, line, column: e.column });
      this.skip(line, msg);
    }
  }

  private cell(cells: Cell[], role: Role): Cell | undefined {
    const c = this.col[role];
    return c ? cells[c.index] : undefined;
  }

  /** A CSV/TSV row with the wrong number of fields, under `invalidRows: "skip"`. */
  ragged(line: number, got: number, expected: number): void {
    this.rowsSeen++;
    this.skip(line, `${this.file}:${line}: expected ${expected} fields, got ${got}`);
  }

  private skip(line: number, msg: string): void {
    this.skippedCount++;
    if (this.skipped.length < MAX_LINES_LISTED) this.skipped.push(line);
    this.firstSkipReason ??= msg;
  }

  private parse(cells: Cell[], line: number): void {
    const label = this.parseLabel(this.cell(cells, 'label'));
    const score = this.parseScore(this.cell(cells, 'score'));
    const stratum = this.col.stratum ? this.parseStratum(this.cell(cells, 'stratum')) : -1;
    const weight = this.col.weight ? this.parseWeight(this.cell(cells, 'weight')) : NaN;
    const id = this.col.id ? cellText(this.cell(cells, 'id') ?? null) : '';
    this.labels.push(label);
    this.scores.push(score);
    this.strata.push(stratum);
    this.weights.push(weight);
    this.ids.push(id);
    this.lines.push(line);
    for (let j = 0; j < this.text.length; j++) this.text[j]?.set(this.lines.length - 1, cellAsText(cells[j]));
  }

  private parseLabel(c: Cell | undefined): number {
    const name = this.col.label!.name;
    if (isMissing(c)) throw new RowProblem(name, 'expected a label, got an empty cell');
    const pos = this.opts.positiveLabel;
    if (pos === undefined) {
      if (typeof c === 'boolean') return c ? 1 : 0;
      const t = typeof c === 'string' ? c.trim().toLowerCase() : '';
      if (t === 'true') return 1;
      if (t === 'false') return 0;
      const v = asNumber(c as Cell);
      if (v === 0 || v === 1) return v;
      throw new RowProblem(
        name,
        `expected 0 or 1 (set \`positiveLabel\` for other label values), got "${cellText(c as Cell)}"`,
      );
    }
    const text = cellText(c as Cell).trim();
    if (sameLabel(text, String(pos))) return 1;
    if (this.negativeLabel === null) {
      this.negativeLabel = text;
      return 0;
    }
    if (sameLabel(text, this.negativeLabel)) return 0;
    throw new RowProblem(
      name,
      `expected one of the two label values "${String(pos)}" (positive) and "${this.negativeLabel}" (negative), got "${text}"`,
    );
  }

  private parseScore(c: Cell | undefined): number {
    const name = this.col.score!.name;
    if (isMissing(c)) throw new RowProblem(name, 'expected a finite number, got an empty cell');
    const v = asNumber(c as Cell);
    if (!Number.isFinite(v)) throw new RowProblem(name, `expected a finite number, got "${cellText(c as Cell)}"`);
    return v;
  }

  private parseStratum(c: Cell | undefined): number {
    const name = this.col.stratum!.name;
    if (isMissing(c)) throw new RowProblem(name, 'expected a stratum (B or Bc), got an empty cell');
    const t = cellText(c as Cell)
      .trim()
      .toLowerCase();
    if (B_NAMES.has(t)) return STRATUM_B;
    if (BC_NAMES.has(t)) return STRATUM_BC;
    throw new RowProblem(name, `expected a stratum B or Bc (also biased / random), got "${cellText(c as Cell)}"`);
  }

  private parseWeight(c: Cell | undefined): number {
    const name = this.col.weight!.name;
    const v = isMissing(c) ? NaN : asNumber(c as Cell);
    if (!(Number.isFinite(v) && v >= 0))
      throw new RowProblem(name, `expected a finite weight ≥ 0, got "${cellText(c ?? null)}"`);
    return v;
  }

  /** Builds the data, adding warnings for skipped rows and duplicate ids. */
  finish(warnings: Warnings): IwBinaryData {
    const n = this.labels.length;
    if (this.skippedCount > 0) {
      warnings.add({
        code: 'rows-skipped',
        message: `${this.skippedCount} invalid row(s) skipped (invalidRows: "skip"); first: ${this.firstSkipReason}`,
        file: this.file,
        line: this.skipped[0],
        count: this.skippedCount,
        lines: [...this.skipped],
      });
    }
    if (n === 0) {
      fail(
        'no-rows',
        { file: this.file },
        this.rowsSeen === 0
          ? 'expected data rows, got none.'
          : `expected valid rows, but all ${this.rowsSeen} were skipped.`,
      );
    }
    const strata = this.col.stratum ? Int32Array.from(this.strata) : null;
    let b = 0;
    let m = 0;
    if (strata) for (let i = 0; i < n; i++) if (strata[i] === STRATUM_B) b++;
    if (strata) m = n - b;
    const ids = this.col.id ? RowIds.ofTexts(this.ids) : null;
    if (ids) {
      // not a Map: it holds at most 2^24 ids (data/idIndex.ts)
      const repeats = new IdIndex(ids).repeats;
      const dupCount = repeats.length;
      const dupLines = repeats.slice(0, MAX_LINES_LISTED).map((i) => this.lines[i]);
      if (dupCount > 0) {
        warnings.add({
          code: 'duplicate-ids',
          message: `${dupCount} row(s) repeat an id already seen (column "${this.col.id!.name}"); comparisons by id need unique ids.`,
          file: this.file,
          line: dupLines[0],
          column: this.col.id!.name,
          count: dupCount,
          lines: dupLines,
        });
      }
    }
    if (this.col.weight) checkWeightSum(this.file, this.col.weight.name, this.weights, n, this.lines, warnings);
    const columns: Record<string, string> = {};
    for (const [role, c] of Object.entries(this.col)) if (c) columns[role] = c.name;
    const pos = this.opts.positiveLabel;
    return {
      file: this.file,
      n,
      labels: Uint8Array.from(this.labels),
      scores: Float64Array.from(this.scores),
      strata,
      weightColumn: this.col.weight ? Float64Array.from(this.weights) : null,
      ids,
      lines: Int32Array.from(this.lines),
      positiveLabel: pos === undefined ? '1' : String(pos),
      negativeLabel: pos === undefined ? '0' : this.negativeLabel,
      b,
      m,
      columns,
    };
  }
}

export interface LoadedIwBinary {
  data: IwBinaryData;
  format: TableFormat;
  /** Data rows read (before skipping). */
  rows: number;
  /** Every column name of the file, in header order. */
  header: string[];
  /** The columns asked for by `keepText`, as written, by name. */
  text: Record<string, TextColumn>;
}

/** Streams `path` through an {@link IwRowCollector}. */
export async function loadIwBinary(
  path: string,
  opts: IwReadOptions & { warnings: Warnings; progress?: Progress },
): Promise<LoadedIwBinary> {
  const sink = new IwRowCollector(path, opts);
  const r = await readTable(path, sink, {
    progress: opts.progress,
    onRagged: opts.invalidRows === 'skip' ? (line, got, expected) => sink.ragged(line, got, expected) : undefined,
  });
  const data = sink.finish(opts.warnings);
  return { data, format: r.format, rows: r.rows, header: sink.header, text: sink.textColumns() };
}
