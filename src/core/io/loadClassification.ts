/**
 * Reads a classification prediction file into {@link ClassificationData}, applying the input
 * rules of docs/inputs.md:
 *
 * - **Class set**: config `classes` in that order; else the suffixes of the wide class-score columns
 *   in column order; else the sorted union of labels and predictions (numeric order when every value
 *   is an integer — `1` and `1.0` are then the same class, named `1` — else code-unit string order).
 *   With an array column (`probs`/`logits`/`scores`) and no `classes`, entry c of the array is class
 *   `c` when the labels and predictions are integers in 0…L−1; else the sorted union when it has
 *   exactly L values; else an error asking for `classes`.
 *   With config `classes` and wide columns, the columns are matched to classes by suffix; when the
 *   suffixes are not class names but there are as many columns as classes, by position (warning).
 * - **Labels/predictions** are compared as text (trimmed; JSON numbers as written by `String`); a
 *   value not found that reads as a number is looked up again by its canonical form (`1.0` → `1`).
 * - **Prediction**: a `pred` column wins; else the arg-max of the class scores, first maximum on ties.
 * - **Scores**: logits become probabilities by a stable softmax; probabilities are used as written;
 *   rows whose sum is off by more than 1e-3 give one warning (count and first lines).
 * - **Invalid values** (non-numeric, NaN, ±Inf class scores/score/weight; a negative weight; an
 *   accept value other than 0/1 (1.0/0.0) or true/false; a label or prediction outside the class set; a missing
 *   label; a ragged row): an error naming file, line and column, unless `invalidRows: "skip"`, which
 *   drops the rows and lists them in one warning (`rows-skipped`, count + first lines).
 * - **Duplicate ids**: one warning (`duplicate-ids`, count + first lines).
 *
 * Speed: numbers go straight into typed arrays sized from the file size; CSV/TSV lines without
 * quotes are parsed from the bytes (no per-cell strings for numeric cells); quoted lines and
 * JSON/JSONL go through the generic {@link readTable} rows. Both paths share the cell rules.
 */
import { basename } from 'node:path';
import { open, stat } from 'node:fs/promises';
import {
  EvalLensError,
  fail,
  failMany,
  isRowAddressedFile,
  lineRef,
  MAX_LISTED_PROBLEMS,
  type LocatedProblem,
  type Progress,
  type Warnings,
} from '../diagnostics';
import type { ResolvedConfig } from '../config/types';
import type { ClassificationData } from '../data/classificationData';
import { cannotOpen, readTable, type ByteRowHandler, type Cell, type TableSink } from './table';
import { detectFormat, type TableFormat } from './format';
import { COLUMN_ALIASES, findColumn, findWideColumns, listNames, requireColumn, type ColumnRole } from './columns';
import { parseDecimalBytes, parseNumberText } from './numbers';
import { argmaxRows, softmaxRows } from './scores';
import { tooDeepAt, TOO_DEEP } from './jsonDepth';
import { checkWeightSum } from './weights';
import { COMMA, CR, LF, SPACE, TAB } from './bytes';
import { printable } from '../results/validate';
import { cellAsText, TextColumnBuilder, type TextColumn } from '../data/textColumn';

export interface LoadedClassification {
  data: ClassificationData;
  /** Role → column name(s) used. */
  columns: Record<string, string | string[]>;
  format: TableFormat;
  /** Data rows read (before skipping). */
  rows: number;
  /** Every column name of the file, in header order. */
  header: string[];
  /** The columns asked for by {@link LoadClassificationOptions}, as written, by name. */
  text: Record<string, TextColumn>;
}

export interface LoadClassificationOptions {
  /**
   * Columns to keep as written (dictionary-encoded text) by name, for slicing and row filters; a
   * role column keeps its role too. A name not in the file is an error naming the columns there are.
   */
  keepText?: string[];
  /** Also keep every column without a role (not label, pred, class scores, score, weight, accept, group, split or id). */
  keepOther?: boolean;
}

/** Tolerance of the probability-sum check (docs/inputs.md). */
export const PROB_SUM_TOLERANCE = 1e-3;
/**
 * A probability below 0 or above 1 by more than this is an invalid value (an error naming file,
 * line and column; skipped rows under `invalidRows: "skip"`). The slack accepts a float32 softmax
 * written as text (`1.0000001`, `-1e-9`), which is used as written.
 */
export const PROB_RANGE_TOLERANCE = 1e-6;
/**
 * Most classes evaluated. The confusion matrix and the per-class sums are dense (C² cells, and the
 * bootstrap repeats them), so 10,000 classes already mean 10⁸ cells; past that, refuse.
 */
export const MAX_CLASSES = 10000;
/** How many lines a warning lists (EvalWarning.lines). */
const FIRST_LINES = 20;

// Column kinds of the row plan.
const SKIP = 0;
const CLASS_SCORE = 1;
const SCORE = 2;
const WEIGHT = 3;
const LABEL = 4;
const PRED = 5;
const ACCEPT = 6;
const GROUP = 7;
const SPLIT = 8;
const ID = 9;
const ARRAY = 10;
const TEXT = 11;

export async function loadClassification(
  path: string,
  config: ResolvedConfig,
  warnings: Warnings,
  progress?: Progress,
  opts: LoadClassificationOptions = {},
): Promise<LoadedClassification> {
  const format = detectFormat(path);
  const capacity = await estimateRows(path, format);
  const col = new ClassificationCollector(path, config, format, capacity, opts);
  const { rows } = await readTable(path, col, {
    format,
    progress,
    onRagged: (line, got, expected) => col.ragged(line, got, expected),
    byteRows: () => (format === 'csv' || format === 'tsv' ? col : undefined),
  });
  const data = col.finish(warnings);
  return { data, columns: col.used, format, rows, header: col.header, text: col.textColumns(data.n) };
}

/** Initial row capacity: file size over the mean length of the first lines (+2%). */
async function estimateRows(path: string, format: TableFormat): Promise<number> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (e) {
    throw cannotOpen(path, e);
  }
  if (size === 0 || format === 'json' || format === 'parquet' || format === 'npz') return 1024;
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(Math.min(size, 1 << 18));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    let lines = 0;
    for (let i = buf.indexOf(LF); i !== -1 && i < bytesRead; i = buf.indexOf(LF, i + 1)) lines++;
    if (lines < 2 || bytesRead === size) return Math.max(lines + 2, 16);
    return Math.ceil((size / bytesRead) * lines * 1.02) + 64;
  } finally {
    await fh.close();
  }
}

/** A cell for a message: quoted, control characters escaped, at most 200 characters. */
function show(cell: Cell): string {
  if (typeof cell === 'string') return `"${printable(cell)}"`;
  // NaN and ±Infinity (from Parquet or .npz; JSON has none) as themselves, not as JSON's null.
  if (typeof cell === 'number') return String(cell);
  if (cell !== null && typeof cell === 'object') {
    let text: string;
    try {
      text = JSON.stringify(cell);
    } catch {
      return Array.isArray(cell) ? 'a nested array' : 'a nested object';
    }
    return printable(text);
  }
  return JSON.stringify(cell);
}

function cellNumber(cell: Cell): number {
  if (typeof cell === 'number') return cell;
  if (typeof cell === 'string') return parseNumberText(cell);
  return NaN;
}

/** Class-name text of a label/prediction cell, or null when it is empty or not a scalar. */
function classText(cell: Cell): string | null {
  if (typeof cell === 'string') {
    const t = cell.trim();
    return t === '' ? null : t;
  }
  if (typeof cell === 'number' || typeof cell === 'boolean') return String(cell);
  return null;
}

/**
 * A label code with a leading zero (`01`, `007`, `-05`) is text, not a number: `01` and `1` are
 * different labels. Only numbers as numbers are written (`1`, `1.0`, `1e0`) are merged.
 */
function isCodeText(s: string): boolean {
  return /^[+-]?0\d/.test(s);
}

function isIntegerText(s: string): boolean {
  if (isCodeText(s)) return false;
  const v = parseNumberText(s);
  return Number.isInteger(v);
}

/** Growable typed array helper: copies into a larger array of the same type. */
function grown<T extends Float64Array | Int32Array | Uint8Array>(a: T, cap: number): T {
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}

/** Final arrays: a view when nearly full (no copy), else a trimmed copy. */
function trimmed<T extends Float64Array | Int32Array | Uint8Array>(a: T, len: number): T {
  if (a.length === len) return a;
  if (len >= a.length * 0.95) return a.subarray(0, len) as T;
  return a.slice(0, len) as T;
}

class ClassificationCollector implements TableSink, ByteRowHandler {
  readonly used: Record<string, string | string[]> = {};
  count = 0; // rows taken by the byte path (ByteRowHandler)

  private names: string[] = [];
  private plan = new Uint8Array(0);
  /** Class position of each wide class-score column (by column index). */
  private classPos = new Int32Array(0);
  private classes: string[] | null = null;
  private classIndex = new Map<string, number>();
  private C = 0;
  private scoreKind: 'probs' | 'logits' | null = null;
  private hasPred = false;
  private arrayCol = -1;
  private readonly skip: boolean;
  private readonly delimiter: number;

  // Row storage (n rows kept, cap allocated).
  private n = 0;
  private cap: number;
  private lines: Int32Array;
  private labels: Int32Array | null = null;
  private preds: Int32Array | null = null;
  private labelRaw: string[] | null = null;
  private predRaw: string[] | null = null;
  private probs: Float64Array | null = null;
  private score: Float64Array | null = null;
  private weight: Float64Array | null = null;
  private accept: Uint8Array | null = null;
  private group: string[] | null = null;
  private split: string[] | null = null;
  private ids: string[] | null = null;

  /** Kept text columns by column index (TEXT in the plan). */
  private text: (TextColumnBuilder | undefined)[] = [];

  // Current row.
  private line = 0;
  private bad = false;
  private readonly skipped: number[] = [];
  /** Error mode: the bad cells and rows found so far (one per row). */
  private readonly problems: LocatedProblem[] = [];
  private firstReason = '';
  private readonly parsed = { end: 0 };
  private readonly pendingWarnings: Parameters<Warnings['add']>[0][] = [];

  constructor(
    private readonly file: string,
    private readonly config: ResolvedConfig,
    format: TableFormat,
    capacity: number,
    private readonly keep: LoadClassificationOptions = {},
  ) {
    this.skip = config.invalidRows === 'skip';
    this.delimiter = format === 'tsv' ? TAB : COMMA;
    this.cap = Math.max(16, capacity);
    this.lines = new Int32Array(this.cap);
  }

  // ------------------------------------------------------------------ header

  columns(names: string[]): void {
    const { file, config } = this;
    this.names = names;
    const plan = new Uint8Array(names.length);
    const taken = new Set<number>();
    const role = (r: ColumnRole, kind: number, required = false): number => {
      const j = required ? requireColumn(names, r, config, file) : findColumn(names, r, config, file);
      if (j >= 0 && !taken.has(j)) {
        plan[j] = kind;
        taken.add(j);
        this.used[r] = names[j];
      }
      return j;
    };
    role('label', LABEL, true);
    this.hasPred = role('pred', PRED) >= 0;
    if (role('score', SCORE) >= 0) this.score = new Float64Array(this.cap);
    if (role('weight', WEIGHT) >= 0) this.weight = new Float64Array(this.cap);
    if (role('accept', ACCEPT) >= 0) this.accept = new Uint8Array(this.cap);
    if (role('group', GROUP) >= 0) this.group = [];
    if (role('split', SPLIT) >= 0) this.split = [];
    if (role('id', ID) >= 0) this.ids = [];

    if (config.classes && config.classes.length > 0) this.setClasses(config.classes.map(String));

    const wide = findWideColumns(names, config, file, taken);
    if (wide) {
      this.scoreKind = wide.kind;
      this.used[wide.kind] = wide.indices.map((j) => names[j]);
      if (!this.classes) this.setClasses(wide.suffixes.map((s) => s.trim()));
      this.classPos = new Int32Array(names.length).fill(-1);
      const pos = this.matchWideToClasses(
        wide.suffixes,
        wide.indices.map((j) => names[j]),
      );
      wide.indices.forEach((j, k) => {
        plan[j] = CLASS_SCORE;
        this.classPos[j] = pos[k];
      });
    } else {
      let j = findColumn(names, 'probsArray', config, file);
      let kind: 'probs' | 'logits' = 'probs';
      if (j < 0 || taken.has(j)) {
        j = findColumn(names, 'logitsArray', config, file);
        kind = 'logits';
      }
      if (j >= 0 && !taken.has(j)) {
        this.arrayCol = j;
        this.scoreKind = kind;
        plan[j] = ARRAY;
        this.used[kind === 'probs' ? 'probsArray' : 'logitsArray'] = names[j];
      }
    }
    if (!this.hasPred && !this.scoreKind) {
      throw new EvalLensError(
        'missing-column',
        `Cannot evaluate ${basename(file)}: no pred column and no class scores. Found: ${listNames(names)}. Accepted: ${COLUMN_ALIASES.pred.join(', ')}; wide prob_<class>, p_<class>, logit_<class> columns; or an array column ${[...COLUMN_ALIASES.probsArray, ...COLUMN_ALIASES.logitsArray].join(', ')}. Set \`columns.pred\` or \`columns.probs\` in eval-lens.json.`,
        { file, line: 1 },
      );
    }
    if (this.keep.keepText?.length || this.keep.keepOther) {
      const want = new Set(this.keep.keepText ?? []);
      const missing = [...want].filter((w) => !names.includes(w));
      if (missing.length > 0)
        fail(
          'missing-column',
          { file, line: 1 },
          `no column ${listNames(missing)} to slice or filter by (expected one of ${listNames(names)}).`,
        );
      this.text = names.map((name, j) =>
        want.has(name) || (this.keep.keepOther && plan[j] === SKIP) ? new TextColumnBuilder(name, this.cap) : undefined,
      );
      // A role column named in the list is kept as text too, without losing its role.
      names.forEach((_, j) => {
        if (this.text[j] && plan[j] === SKIP) plan[j] = TEXT;
      });
    }
    this.plan = plan;
    if (this.classes) {
      this.labels = new Int32Array(this.cap);
      if (this.hasPred) this.preds = new Int32Array(this.cap);
    } else {
      this.labelRaw = [];
      if (this.hasPred) this.predRaw = [];
    }
    if (this.scoreKind && this.C > 0) this.probs = new Float64Array(this.cap * this.C);
  }

  private setClasses(classes: string[]): void {
    if (classes.length > MAX_CLASSES) {
      fail(
        'too-many-classes',
        { file: this.file },
        `${classes.length} classes, more than the ${MAX_CLASSES} that Eval Lens evaluates (the confusion matrix and per-class sums are dense, C² cells). Group rare classes, or evaluate a subset of the classes.`,
      );
    }
    const index = new Map<string, number>();
    classes.forEach((c, i) => {
      if (index.has(c))
        fail(
          'duplicate-classes',
          { file: this.config.configFile ?? this.file },
          `class "${c}" appears twice in the class list (expected distinct class names).`,
        );
      index.set(c, i);
    });
    this.classes = classes;
    this.classIndex = index;
    this.C = classes.length;
  }

  /** Class position of each wide column (see the module comment). */
  private matchWideToClasses(suffixes: string[], colNames: string[]): number[] {
    const C = this.C;
    const byName = suffixes.map((s) => this.lookup(s.trim()));
    if (byName.every((p) => p >= 0) && new Set(byName).size === byName.length) {
      if (byName.length === C) return byName;
      const missing = this.classes!.filter((_, c) => !byName.includes(c));
      fail(
        'missing-class-column',
        { file: this.file, line: 1 },
        `no class-score column for class(es) ${listNames(missing)} (expected one column per class of \`classes\`; found ${listNames(colNames)}).`,
      );
    }
    if (suffixes.length === C) {
      this.pendingWarnings.push({
        code: 'class-columns-by-position',
        message: `${basename(this.file)}: the class-score columns (${listNames(colNames)}) do not name the classes of \`classes\`; they are matched to the classes by position.`,
        file: this.file,
        line: 1,
      });
      return suffixes.map((_, k) => k);
    }
    fail(
      'class-columns-mismatch',
      { file: this.file, line: 1 },
      `expected ${C} class-score columns (one per class of \`classes\`), got ${suffixes.length}: ${listNames(colNames)}.`,
    );
  }

  /** Index of a class name, trying the canonical number form as a fallback; -1 when absent. */
  private lookup(s: string): number {
    const i = this.classIndex.get(s);
    if (i !== undefined || isCodeText(s)) return i ?? -1;
    const v = parseNumberText(s);
    if (Number.isFinite(v)) {
      const j = this.classIndex.get(String(v));
      if (j !== undefined) return j;
    }
    return -1;
  }

  // ------------------------------------------------------------------ rows

  private begin(line: number): void {
    if (this.n >= this.cap) this.grow();
    this.line = line;
    this.bad = false;
  }

  private grow(): void {
    const cap = Math.ceil(this.cap * 1.5) + 16;
    this.lines = grown(this.lines, cap);
    if (this.labels) this.labels = grown(this.labels, cap);
    if (this.preds) this.preds = grown(this.preds, cap);
    if (this.probs) this.probs = grown(this.probs, cap * this.C);
    if (this.score) this.score = grown(this.score, cap);
    if (this.weight) this.weight = grown(this.weight, cap);
    if (this.accept) this.accept = grown(this.accept, cap);
    this.cap = cap;
  }

  /** Records a problem (the first of its row only); throws at the cap. */
  private problem(p: LocatedProblem): void {
    const last = this.problems[this.problems.length - 1];
    if (last && last.location.line === p.location.line) return;
    this.problems.push(p);
    if (this.problems.length >= MAX_LISTED_PROBLEMS) failMany(this.problems, true);
  }

  private end(): void {
    if (this.bad) {
      this.skipped.push(this.line);
      return;
    }
    this.lines[this.n++] = this.line;
  }

  /**
   * An invalid cell: an error, or (skip mode) the row is marked to be dropped. In error mode the
   * reading goes on to list every bad row (up to {@link MAX_LISTED_PROBLEMS}); the error is thrown
   * at the cap or when the file is read.
   */
  private invalid(j: number, code: string, what: string): void {
    const column = this.names[j];
    if (!this.skip) this.problem({ code, location: { file: this.file, line: this.line, column }, what });
    if (!this.bad) {
      this.bad = true;
      if (this.skipped.length === 0) this.firstReason = `${lineRef(this.file, this.line)}, column "${column}": ${what}`;
    }
  }

  /** Ragged row (both paths): an error, or a dropped row in skip mode. */
  ragged(line: number, got: number, expected: number): void {
    const what = `expected ${expected} fields (as in the header), got ${got}.`;
    if (!this.skip) {
      // The ragged row is the real problem of its line (its cells are misaligned): it replaces cell problems there.
      while (this.problems.length > 0 && this.problems[this.problems.length - 1]!.location.line === line)
        this.problems.pop();
      this.problem({ code: 'ragged-row', location: { file: this.file, line }, what });
    }
    if (this.skipped.length === 0) this.firstReason = `${lineRef(this.file, line)}: ${what}`;
    if (this.bad) return; // already recorded by end()
    this.skipped.push(line);
  }

  row(cells: Cell[], line: number): void {
    this.begin(line);
    const plan = this.plan;
    for (let j = 0; j < plan.length; j++) if (plan[j] !== SKIP) this.put(j, cells[j]);
    for (let j = 0; j < this.text.length; j++)
      if (this.text[j] && plan[j] !== TEXT) this.text[j]!.set(this.n, cellAsText(cells[j]));
    this.end();
  }

  /** Every column name of the file, in header order. */
  get header(): string[] {
    return this.names;
  }

  textColumns(n: number): Record<string, TextColumn> {
    const out: Record<string, TextColumn> = {};
    for (const b of this.text) if (b) out[b.name] = b.finish(n);
    return out;
  }

  /** A numeric cell already parsed (byte path): class score, score or weight. */
  private putNumber(j: number, kind: number, v: number): void {
    if (kind === CLASS_SCORE) {
      if (this.scoreKind === 'probs' && !inProbRange(v)) this.invalid(j, 'invalid-probability', probRangeMessage(v));
      else this.probs![this.n * this.C + this.classPos[j]] = v;
    } else if (kind === SCORE) this.score![this.n] = v;
    else if (v >= 0) this.weight![this.n] = v;
    else this.invalid(j, 'invalid-weight', `expected a finite weight ≥ 0, got ${v}.`);
  }

  private put(j: number, cell: Cell): void {
    const kind = this.plan[j];
    switch (kind) {
      case CLASS_SCORE:
      case SCORE:
      case WEIGHT: {
        const v = cellNumber(cell);
        if (Number.isFinite(v)) this.putNumber(j, kind, v);
        else {
          const what =
            kind === CLASS_SCORE
              ? this.scoreKind === 'logits'
                ? 'logit'
                : 'probability'
              : kind === SCORE
                ? 'score'
                : 'weight ≥ 0';
          this.invalid(j, 'invalid-number', `expected a finite ${what}, got ${show(cell)}.`);
        }
        return;
      }
      case LABEL:
      case PRED: {
        const s = classText(cell);
        const role = kind === LABEL ? 'label' : 'prediction';
        if (s === null) {
          this.invalid(j, 'missing-value', `expected a ${role} (a class name), got ${show(cell)}.`);
          return;
        }
        if (this.classes) {
          const c = this.lookup(s);
          if (c < 0) {
            this.invalid(
              j,
              kind === LABEL ? 'label-not-in-classes' : 'pred-not-in-classes',
              `expected a ${role} in the class set (${listNames(this.classes)}), got "${s}".`,
            );
            return;
          }
          (kind === LABEL ? this.labels! : this.preds!)[this.n] = c;
        } else (kind === LABEL ? this.labelRaw! : this.predRaw!)[this.n] = s;
        return;
      }
      case ACCEPT: {
        const a = acceptValue(cell);
        if (a < 0) this.invalid(j, 'invalid-accept', `expected an accept value 0/1/true/false, got ${show(cell)}.`);
        else this.accept![this.n] = a;
        return;
      }
      case GROUP:
        this.group![this.n] = cell === null ? '' : typeof cell === 'string' ? cell.trim() : String(cell);
        return;
      case SPLIT:
        this.split![this.n] = cell === null ? '' : String(cell).trim().toLowerCase();
        return;
      case ID:
        this.ids![this.n] = cell === null ? '' : typeof cell === 'string' ? cell.trim() : String(cell);
        return;
      case ARRAY:
        this.putArray(j, cell);
        return;
      case TEXT:
        this.text[j]!.set(this.n, cellAsText(cell));
        return;
    }
  }

  private putArray(j: number, cell: Cell): void {
    let arr: Cell = cell;
    if (typeof cell === 'string') {
      if (tooDeepAt(cell) >= 0) {
        this.invalid(j, 'json-too-deep', TOO_DEEP);
        return;
      }
      try {
        arr = JSON.parse(cell) as Cell;
      } catch {
        arr = null;
      }
    }
    const what = this.scoreKind === 'logits' ? 'logits' : 'probabilities';
    if (!Array.isArray(arr)) {
      this.invalid(j, 'invalid-array', `expected an array of class ${what}, got ${show(cell)}.`);
      return;
    }
    if (this.C === 0) {
      if (arr.length === 0) {
        this.invalid(j, 'invalid-array', `expected a non-empty array of class ${what}, got [].`);
        return;
      }
      if (arr.length > MAX_CLASSES)
        fail(
          'too-many-classes',
          { file: this.file, line: this.line, column: this.names[j] },
          `an array of ${arr.length} class ${what}, more than the ${MAX_CLASSES} classes that Eval Lens evaluates.`,
        );
      this.C = arr.length;
      this.probs = new Float64Array(this.cap * this.C);
    }
    if (arr.length !== this.C) {
      this.invalid(j, 'invalid-array', `expected ${this.C} class ${what} (one per class), got ${arr.length}.`);
      return;
    }
    const o = this.n * this.C;
    const P = this.probs!;
    for (let c = 0; c < arr.length; c++) {
      const v = cellNumber(arr[c]);
      if (!Number.isFinite(v)) {
        this.invalid(j, 'invalid-number', `expected finite class ${what}, got ${show(arr[c])} at position ${c}.`);
        return;
      }
      if (this.scoreKind === 'probs' && !inProbRange(v)) {
        this.invalid(j, 'invalid-probability', `${probRangeMessage(v)} (at position ${c})`);
        return;
      }
      P[o + c] = v;
    }
  }

  // ------------------------------------------------------------------ byte path

  /** CSV/TSV lines without quotes, straight from the bytes (see ByteRowHandler). */
  rows(buf: Buffer, start: number, end: number, line: number): number {
    const plan = this.plan;
    const ncols = plan.length;
    const delim = this.delimiter;
    const parsed = this.parsed;
    let p = start;
    let rowStart = p;
    const before = this.n + this.skipped.length;
    try {
      while (p < end) {
        let c = buf[p];
        if (c === LF) {
          line++;
          p++;
          continue;
        }
        if (c === CR || c === SPACE || (c === TAB && delim !== TAB)) {
          const q = blankLineEnd(buf, p, delim);
          if (q > 0) {
            // a line of spaces is blank, as on the string path
            line++;
            p = q;
            continue;
          }
        }
        this.begin(line);
        rowStart = p;
        let j = 0;
        for (;;) {
          const kind = j < ncols ? plan[j] : SKIP;
          let fe: number;
          const keep = this.text[j];
          if ((kind === CLASS_SCORE || kind === SCORE || kind === WEIGHT) && !keep) {
            const v = parseDecimalBytes(buf, p, parsed);
            fe = parsed.end;
            c = buf[fe];
            if (v === v && (c === delim || c === LF || (c === CR && buf[fe + 1] === LF))) this.putNumber(j, kind, v);
            else {
              fe = fieldEnd(buf, p, delim);
              this.put(j, buf.toString('utf8', p, stripCr(buf, p, fe)));
            }
          } else {
            fe = fieldEnd(buf, p, delim);
            if (kind !== SKIP) {
              const t = buf.toString('utf8', p, stripCr(buf, p, fe));
              this.put(j, t);
              if (keep && kind !== TEXT) keep.set(this.n, t);
            }
          }
          c = buf[fe];
          if (c === delim) {
            j++;
            p = fe + 1;
            continue;
          }
          p = c === CR ? fe + 2 : fe + 1;
          break;
        }
        if (j + 1 !== ncols) {
          this.bad = false; // the ragged rule reports the row (once)
          this.ragged(line, j + 1, ncols);
        } else this.end();
        line++;
      }
    } catch (e) {
      // A cell error on a ragged row: the ragged row is the real problem (cells are misaligned).
      const got = countFields(buf, rowStart, delim);
      if (got !== ncols) this.ragged(line, got, ncols);
      throw e;
    }
    this.count += this.n + this.skipped.length - before;
    return line;
  }

  // ------------------------------------------------------------------ finish

  finish(warnings: Warnings): ClassificationData {
    if (this.problems.length > 0) failMany(this.problems, false);
    const { file } = this;
    const n = this.n;
    if (this.skipped.length > 0) {
      const k = this.skipped.length;
      warnings.add({
        code: 'rows-skipped',
        message: `${basename(file)}: ${k} invalid row${k === 1 ? '' : 's'} skipped (invalidRows: "skip"), at ${isRowAddressedFile(file) ? 'row' : 'line'}${k === 1 ? '' : 's'} ${this.skipped
          .slice(0, FIRST_LINES)
          .map((l) => (isRowAddressedFile(file) ? l - 1 : l))
          .join(', ')}${k > FIRST_LINES ? ', …' : ''}. First: ${this.firstReason}`,
        file,
        line: this.skipped[0],
        count: k,
        lines: this.skipped.slice(0, FIRST_LINES),
      });
    }
    if (n === 0)
      fail(
        'no-valid-rows',
        { file },
        `no valid rows are left after skipping ${this.skipped.length} invalid row(s) (expected at least one).`,
      );

    // Class set from the values when nothing gave it.
    let labels = this.labels;
    let preds = this.preds;
    if (!this.classes) {
      this.labelRaw!.length = n;
      if (this.predRaw) this.predRaw.length = n;
      this.setClasses(this.classesFromValues(n));
      const idx = (raw: string[]): Int32Array => {
        const out = new Int32Array(n);
        for (let i = 0; i < n; i++) out[i] = this.lookup(raw[i]);
        return out;
      };
      labels = idx(this.labelRaw!);
      if (this.predRaw) preds = idx(this.predRaw);
    }
    for (const w of this.pendingWarnings) warnings.add(w);
    const C = this.C;
    const lines = trimmed(this.lines, n);
    labels = trimmed(labels!, n);
    const probs = this.probs ? trimmed(this.probs, n * C) : null;
    if (probs && this.scoreKind === 'logits') softmaxRows(probs, C, n);
    if (probs && this.scoreKind === 'probs') this.checkSums(probs, C, n, lines, warnings);
    if (preds) {
      preds = trimmed(preds, n);
      if (probs) this.checkPredIsArgmax(preds, probs, C, n, lines, warnings);
    } else preds = argmaxRows(probs!, C, n);

    if (this.group) this.group.length = n;
    if (this.split) this.split.length = n;
    if (this.weight) checkWeightSum(this.file, this.used.weight as string, this.weight, n, lines, warnings);
    if (this.ids) {
      this.ids.length = n;
      this.checkDuplicateIds(this.ids, lines, warnings);
    }
    return {
      file,
      n,
      classes: this.classes!,
      labels,
      preds,
      probs,
      fromLogits: this.scoreKind === 'logits',
      scoreColumn: this.score ? trimmed(this.score, n) : null,
      scoreColumnName: (this.used.score as string | undefined) ?? null,
      weights: this.weight ? trimmed(this.weight, n) : null,
      accept: this.accept ? trimmed(this.accept, n) : null,
      groupColumn: this.group,
      split: this.split,
      ids: this.ids,
      lines,
    };
  }

  private classesFromValues(n: number): string[] {
    const distinct = new Set<string>();
    const raw = this.labelRaw!;
    for (let i = 0; i < n; i++) distinct.add(raw[i]);
    if (this.predRaw) for (let i = 0; i < n; i++) distinct.add(this.predRaw[i]);
    const values = [...distinct];
    const allInt = values.every(isIntegerText);
    let classes: string[];
    if (allInt)
      classes = [...new Set(values.map((s) => String(parseNumberText(s))))].sort((a, b) => Number(a) - Number(b));
    else classes = values.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (this.arrayCol < 0) return classes;
    const L = this.C;
    if (allInt && classes.every((c) => Number(c) >= 0 && Number(c) < L))
      return Array.from({ length: L }, (_, c) => String(c));
    if (classes.length === L) {
      // As for wide columns named by suffix, say which class each array entry was taken to be.
      this.pendingWarnings.push({
        code: 'class-order-assumed',
        message: `${basename(this.file)}: the class-score arrays of column "${this.names[this.arrayCol]}" do not name their classes; entry k is taken to be the k-th class in sorted order (${listNames(classes)}). If the model's order differs, set \`classes\` in eval-lens.json (in array order).`,
        file: this.file,
        column: this.names[this.arrayCol],
      });
      return classes;
    }
    fail(
      'class-set-unknown',
      { file: this.file, column: this.names[this.arrayCol] },
      `the class-score arrays have ${L} entries, but the labels and predictions (${listNames(classes)}) are not the integers 0…${L - 1} and are not ${L} distinct values, so the class of each entry is unknown. Set \`classes\` in eval-lens.json (in array order).`,
    );
  }

  private checkSums(P: Float64Array, C: number, n: number, lines: Int32Array, warnings: Warnings): void {
    let count = 0;
    const first: number[] = [];
    let firstSum = 0;
    for (let i = 0; i < n; i++) {
      let s = 0;
      const o = i * C;
      for (let c = 0; c < C; c++) s += P[o + c];
      if (!(Math.abs(s - 1) <= PROB_SUM_TOLERANCE)) {
        if (count === 0) firstSum = s;
        if (count < FIRST_LINES) first.push(lines[i]);
        count++;
      }
    }
    if (count === 0) return;
    warnings.add({
      code: 'probabilities-not-normalised',
      message: `${basename(this.file)}: ${count} row${count === 1 ? '' : 's'} of class probabilities do${count === 1 ? 'es' : ''} not sum to 1 (off by more than ${PROB_SUM_TOLERANCE}); they are used as written. First: ${lineRef(this.file, first[0])} (sum ${+firstSum.toPrecision(6)}).`,
      file: this.file,
      line: first[0],
      count,
      lines: first,
    });
  }

  /** A `pred` that is not one of the row's maximal class scores: one warning (count, first lines). */
  private checkPredIsArgmax(
    preds: Int32Array,
    P: Float64Array,
    C: number,
    n: number,
    lines: Int32Array,
    warnings: Warnings,
  ): void {
    let count = 0;
    const first: number[] = [];
    for (let i = 0; i < n; i++) {
      const o = i * C;
      let max = P[o];
      for (let c = 1; c < C; c++) if (P[o + c] > max) max = P[o + c];
      if (P[o + preds[i]] < max) {
        if (count < FIRST_LINES) first.push(lines[i]);
        count++;
      }
    }
    if (count === 0) return;
    const what = this.scoreKind === 'logits' ? 'logits' : 'probabilities';
    warnings.add({
      code: 'pred-not-argmax',
      message: `${basename(this.file)}: on ${count} row${count === 1 ? '' : 's'} the \`pred\` column is not the class with the highest ${what.replace(/s$/, '')} (first: ${lineRef(this.file, first[0])}). The metrics of the predicted class (accuracy, F1, confusion matrix, per-class and long-tail accuracy) use the \`pred\` column; the metrics of the scores (nll, brier, top-k, confidence, calibration) use the ${what}.`,
      file: this.file,
      line: first[0],
      column: this.used.pred as string,
      count,
      lines: first,
    });
  }

  private checkDuplicateIds(ids: string[], lines: Int32Array, warnings: Warnings): void {
    const seen = new Set<string>();
    let count = 0;
    const first: number[] = [];
    let example = '';
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      if (seen.has(id)) {
        if (count === 0) example = id;
        if (count < FIRST_LINES) first.push(lines[i]);
        count++;
      } else seen.add(id);
    }
    if (count === 0) return;
    warnings.add({
      code: 'duplicate-ids',
      message: `${basename(this.file)}: ${count} row${count === 1 ? ' repeats an' : 's repeat an'} id seen on an earlier line (first: "${example}" at ${lineRef(this.file, first[0])}). Runs cannot be matched by id while ids repeat.`,
      file: this.file,
      line: first[0],
      column: this.used.id as string,
      count,
      lines: first,
    });
  }
}

function inProbRange(v: number): boolean {
  return v >= -PROB_RANGE_TOLERANCE && v <= 1 + PROB_RANGE_TOLERANCE;
}

function probRangeMessage(v: number): string {
  return `expected a probability in [0, 1], got ${v}. Probabilities are used as written; if these are logits or unnormalised scores, name the columns logit_<class> (or an array column logits), or set \`columns.logits\` in eval-lens.json.`;
}

function acceptValue(cell: Cell): number {
  if (cell === true || cell === 1) return 1;
  if (cell === false || cell === 0) return 0;
  if (typeof cell === 'string') {
    const t = cell.trim().toLowerCase();
    if (t === 'true') return 1;
    if (t === 'false') return 0;
    const v = parseNumberText(t); // 1, 0, also written 1.0 / 0.0
    if (v === 1 || v === 0) return v;
  }
  return -1;
}

/** Index of the delimiter or `\n` that ends the field starting at `p` (quote-free lines). */
function fieldEnd(buf: Uint8Array, p: number, delim: number): number {
  let c = buf[p];
  while (c !== delim && c !== LF) c = buf[++p];
  return p;
}

/** End (after `\n`) of the line at `p` when it holds only spaces, `\r` and (unless they delimit) tabs; else -1. */
function blankLineEnd(buf: Uint8Array, p: number, delim: number): number {
  let c = buf[p];
  while (c === SPACE || c === CR || (c === TAB && delim !== TAB)) c = buf[++p];
  return c === LF ? p + 1 : -1;
}

/** Number of fields on the quote-free line starting at `p`. */
function countFields(buf: Uint8Array, p: number, delim: number): number {
  let k = 1;
  for (let c = buf[p]; c !== LF && c !== undefined; c = buf[++p]) if (c === delim) k++;
  return k;
}

/** End of a field's text: before a `\r` that precedes the line's `\n`. */
function stripCr(buf: Uint8Array, p: number, fe: number): number {
  return fe > p && buf[fe] === LF && buf[fe - 1] === CR ? fe - 1 : fe;
}
