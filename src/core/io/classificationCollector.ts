/**
 * The rows of a classification file stored as they are read (see loadClassification.ts for the
 * input rules): typed arrays for numbers, labels and lines, string arrays for ids, groups and
 * splits, dictionary-encoded text columns. One collector reads a whole file, or one part of a
 * large CSV/TSV file when the parts are read on several threads (./parallelClassification.ts);
 * the parts are then joined in file order into the first part's collector, which builds the data.
 */
import { basename } from 'node:path';
import { fail, type Warnings } from '../diagnostics';
import { CONFIG_DEFAULTS, type ResolvedConfig } from '../config/types';
import {
  classIndexType,
  type ClassIndices,
  type ClassificationData,
  type ProbabilityTerms,
} from '../data/classificationData';
import { textHash } from '../data/stringIndex';
import { canonicalIntegerOfBytes, isCanonicalInteger, RowIds } from '../data/rowIds';
import { cellAsText, TextColumnBuilder, type TextColumn } from '../data/textColumn';
import { COMMA, TAB } from './bytes';
import { ClassSet, MAX_CLASSES, sortedClassUnion } from './classSet';
import {
  acceptValue,
  cellNumber,
  checkDuplicateIds,
  ClassScoreRowChecks,
  classText,
  inProbRange,
  PROB_MAX,
  PROB_MIN,
  probRangeMessage,
  shiftClassScoreChecks,
  show,
  type ClassScoreChecksState,
} from './classificationChecks';
import {
  ACCEPT,
  ARRAY,
  CLASS_SCORE,
  GROUP,
  ID,
  LABEL,
  planClassificationColumns,
  PRED,
  SCORE,
  SKIP,
  SPLIT,
  TEXT,
  WEIGHT,
  type LoadClassificationOptions,
  type PendingWarning,
} from './classificationColumns';
import { listNames } from './columns';
import type { TableFormat } from './format';
import { tooDeepAt, TOO_DEEP } from '../config/jsonDepth';
import { ClassOfBytes } from './classOfBytes';
import {
  BYTES_FIELD,
  NUMBER_FIELD,
  scanQuoteFreeRows,
  SKIP_FIELD,
  STORED_FIELD,
  TEXT_FIELD,
  type QuoteFreeRowSink,
} from './quoteFreeRows';
import { RowProblems, shiftProblems, type RowProblemsState } from './rowProblems';
import { rowScore, softmaxRow, type ScoreKind } from '../metrics/scores';
import { emptyProbabilityTerms, storeProbabilityTerms } from '../metrics/probabilityTerms';
import type { Cell } from '../data/textColumn';
import type { ByteRowHandler, TableSink } from './table';
import { checkWeightSum, scaleTinyWeights } from './weights';

/** The texts of the first `n` numeric ids of `key`, whose slots then hold the texts' hashes. */
function idTexts(key: Float64Array, n: number): string[] {
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    out[i] = String(key[i]);
    key[i] = textHash(out[i]);
  }
  return out;
}

/** Growable typed array helper: copies into a larger array of the same type. */
function grown<T extends RowArray>(a: T, cap: number): T {
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}

type RowArray = Float64Array | Int32Array | Uint16Array | Uint8Array;
/** The typed arrays of the rows, by name. */
type RowArrayName =
  | 'lines'
  | 'labels'
  | 'preds'
  | 'probs'
  | 'score'
  | 'weight'
  | 'accept'
  | 'nllTerm'
  | 'brierTerm'
  | 'trueRank'
  | 'probScore'
  | 'idKey';
const ROW_ARRAY_TYPES: Record<RowArrayName, new (b: ArrayBufferLike, offset: number, length: number) => RowArray> = {
  lines: Int32Array,
  labels: Int32Array,
  preds: Int32Array,
  probs: Float64Array,
  score: Float64Array,
  weight: Float64Array,
  accept: Uint8Array,
  nllTerm: Float64Array,
  brierTerm: Float64Array,
  trueRank: Int32Array,
  probScore: Float64Array,
  idKey: Float64Array,
};

/** The array type of a row array; labels and predictions the narrowest for the `C` classes (classIndexType). */
function rowArrayType(
  name: RowArrayName,
  C: number,
): new (b: ArrayBufferLike, offset: number, length: number) => RowArray {
  if (name === 'labels' || name === 'preds')
    return classIndexType(C) as unknown as new (b: ArrayBufferLike, offset: number, length: number) => RowArray;
  return ROW_ARRAY_TYPES[name];
}

/**
 * Row storage shared by the parts of a file read on several threads: one buffer per row array,
 * part t writing its rows from row `regions[t].first` on (room for `regions[t].cap` rows), so that
 * the joined arrays are made in place, without a second copy of the parts.
 */
export interface SharedRows {
  buffers: Partial<Record<RowArrayName, SharedArrayBuffer>>;
  regions: { first: number; cap: number }[];
  /** Values per row of the class-score matrix. */
  C: number;
}

/** One part's rows, as handed to the collector of the first part (plain data: it crosses threads). */
export interface CollectorPart {
  n: number;
  count: number;
  /** The row arrays when the part outgrew its shared region (its own copies), else null. */
  own: Partial<Record<RowArrayName, RowArray>> | null;
  labelRaw: string[] | null;
  predRaw: string[] | null;
  /** The part's ids as texts when they are not all canonical integers (else they are in `idKey`). */
  ids: string[] | null;
  group: string[] | null;
  split: string[] | null;
  /** Kept text columns by column index: distinct values and per-row codes. */
  text: ({ values: string[]; codes: Int32Array } | null)[];
  problems: RowProblemsState;
  checks: ClassScoreChecksState;
}

/** The class of a label or prediction cell's text (see {@link classText}), or -1 when it names none. */
function classOfText(classes: ClassSet, cell: string): number {
  const s = classText(cell);
  return s === null ? -1 : classes.lookup(s);
}

/**
 * Final arrays: a view when at least 3/4 full (no copy), else a trimmed copy. A copy made while
 * the full array is still alive costs both at once, and every array is trimmed at the same time:
 * when a file's first lines made the row estimate 8% too high, copying raised the peak memory of
 * a 10-million-row read by 90% of its row arrays; the view keeps the 8% instead.
 */
function trimmed<T extends RowArray>(a: T, len: number): T {
  if (a.length === len) return a;
  if (len >= a.length * 0.75) return a.subarray(0, len) as T;
  return a.slice(0, len) as T;
}

/**
 * Collects the rows of a classification file into typed arrays: from string cells
 * ({@link TableSink}, every format) or from the bytes of quote-free CSV/TSV lines
 * ({@link ByteRowHandler}, through {@link scanQuoteFreeRows}); both paths store a cell through
 * the same `put`.
 */
export class ClassificationCollector implements TableSink, ByteRowHandler, QuoteFreeRowSink {
  used: Record<string, string | string[]> = {};
  count = 0; // rows taken by the byte path (ByteRowHandler)
  /** Bytes of row storage that {@link finish} let go (the ids once checked, when not kept): garbage to collect. */
  released = 0;

  private names: string[] = [];
  /** The kind of each column (see classificationColumns.ts). */
  private plan: Uint8Array = new Uint8Array(0);
  /** How the byte scanner reads each column. */
  private fields: Uint8Array = new Uint8Array(0);
  /** Class position of each wide class-score column (by column index). */
  private classPos: Int32Array = new Int32Array(0);
  private classes: ClassSet | null = null;
  private C = 0;
  private scoreKind: 'probs' | 'logits' | null = null;
  private arrayCol = -1;
  private readonly delimiter: number;
  private readonly problems: RowProblems;
  private pendingWarnings: PendingWarning[] = [];
  private hasPredColumn = false;
  /**
   * Each row's class scores are reduced to {@link terms} (and checked) as soon as the row is read:
   * possible when the class set is known from the header, so that each label's class is known.
   */
  private reduceRows = false;
  /** The n×C matrix is kept: asked for, or the class set is known only once every row is read. */
  private keepMatrix = false;
  /** Where the current row's class scores go in {@link probs} (0 when it holds one row). */
  rowBase = 0;
  // Where the byte scanner stores class scores (see QuoteFreeRowSink): the current row's
  // {@link probs}, by class position, when in the range that {@link numberCell} accepts.
  rowValues: Float64Array | null = null;
  storedSlot: Int32Array = new Int32Array(0);
  storedMin = -Infinity;
  storedMax = Infinity;
  private terms: ProbabilityTerms | null = null;
  private readonly termKind: ScoreKind;
  private readonly checks = new ClassScoreRowChecks();
  private classOfBytes: ClassOfBytes | null = null;

  // Row storage (n rows kept, cap allocated).
  private n = 0;
  private cap: number;
  private lines: Int32Array;
  private labels: ClassIndices | null = null;
  private preds: ClassIndices | null = null;
  private labelRaw: string[] | null = null;
  private predRaw: string[] | null = null;
  private probs: Float64Array | null = null;
  private score: Float64Array | null = null;
  private weight: Float64Array | null = null;
  private accept: Uint8Array | null = null;
  private group: string[] | null = null;
  private split: string[] | null = null;
  /**
   * Per row its id as a number while every id read so far is a canonical integer (data/rowIds.ts),
   * else the textHash of its text (for the duplicate-id check); `ids` then holds the texts.
   */
  private idKey: Float64Array | null = null;
  private ids: string[] | null = null;
  /**
   * True while the ids read so far are the row numbers plus a constant ({@link idBase} + i for row
   * i, the common `0, 1, 2, …`) and the ids are not kept: then no two rows can share an id, and
   * {@link idKey} is not even made (8 bytes a row fewer while the file is read) unless an id breaks
   * the rule ({@link explicitIds}).
   */
  private idsCounted = false;
  /** The id of row 0 while {@link idsCounted}. */
  private idBase = 0;

  /** Kept text columns by column index (TEXT in the plan, or a role column kept as text too). */
  private text: (TextColumnBuilder | undefined)[] = [];

  constructor(
    private readonly file: string,
    private readonly config: ResolvedConfig,
    format: TableFormat,
    capacity: number,
    private readonly keep: LoadClassificationOptions = {},
  ) {
    this.problems = new RowProblems(file, config.invalidRows === 'skip');
    this.delimiter = format === 'tsv' ? TAB : COMMA;
    this.cap = Math.max(16, capacity);
    this.lines = new Int32Array(this.cap);
    this.termKind = config.score ?? CONFIG_DEFAULTS.score;
  }

  // ------------------------------------------------------------------ header

  columns(names: string[]): void {
    this.names = names;
    const p = planClassificationColumns(names, this.config, this.file, this.keep);
    this.plan = p.kinds;
    this.used = p.used;
    this.classes = p.classes;
    this.C = p.classes?.size ?? 0;
    this.scoreKind = p.scoreKind;
    this.classPos = p.classPos;
    this.arrayCol = p.arrayCol;
    this.pendingWarnings = p.warnings;
    this.hasPredColumn = p.hasPred;
    if (this.scoreKind) {
      this.reduceRows = this.classes !== null;
      this.keepMatrix = this.keep.keepProbabilities === true || !this.reduceRows;
      // Added up as read when only the point estimates over every row, unweighted, read them
      // (see LoadClassificationOptions.keepTerms): in row order on this one pass, 20 bytes a row fewer.
      const summed =
        this.keep.keepTerms === false && this.sharedRows === 0 && !p.hasWeight && !p.hasSplit && p.fold === null;
      if (this.reduceRows) this.terms = emptyProbabilityTerms(this.cap, this.termKind, summed ? this.C : undefined);
    }
    if (p.hasScore) this.score = new Float64Array(this.cap);
    if (p.hasWeight) this.weight = new Float64Array(this.cap);
    if (p.hasAccept) this.accept = new Uint8Array(this.cap);
    if (p.hasGroup) this.group = [];
    if (p.hasSplit) this.split = [];
    if (p.hasId && this.keep.keepIds === false) this.idsCounted = true;
    else if (p.hasId) this.idKey = new Float64Array(this.cap);
    const kept = p.keepText;
    if (kept) this.text = names.map((name, j) => (kept[j] ? new TextColumnBuilder(name, this.cap) : undefined));
    // The byte path parses numeric cells from the bytes, unless the column is kept as text too.
    // Class scores are stored by the scanner itself (the same rule as numberCell's).
    const stored = this.scoreKind !== null && this.C > 0;
    this.storedSlot = this.classPos;
    if (this.scoreKind === 'probs') {
      this.storedMin = PROB_MIN;
      this.storedMax = PROB_MAX;
    }
    // Labels and predictions of a known class set are looked up from their bytes.
    const classes = this.classes;
    if (classes) this.classOfBytes = new ClassOfBytes((text) => classOfText(classes, text));
    this.fields = this.plan.map((kind, j) => {
      if (kind === SKIP) return SKIP_FIELD;
      if ((kind === LABEL || kind === PRED) && classes && !this.text[j]) return BYTES_FIELD;
      if (kind === ID && !this.text[j]) return BYTES_FIELD;
      if (this.text[j] || !(kind === CLASS_SCORE || kind === SCORE || kind === WEIGHT)) return TEXT_FIELD;
      return kind === CLASS_SCORE && stored ? STORED_FIELD : NUMBER_FIELD;
    });
    if (this.classes) {
      const T = classIndexType(this.C);
      this.labels = new T(this.cap);
      // without a pred column, the arg-max of each row's scores
      if (p.hasPred || this.scoreKind) this.preds = new T(this.cap);
    } else {
      this.labelRaw = [];
      if (p.hasPred) this.predRaw = [];
    }
    if (this.scoreKind && this.C > 0) this.allocateProbs();
    if (this.sharedRows > 0) this.shareRows([{ first: 0, cap: this.sharedRows }]);
  }

  /** Room in rows of the shared row storage {@link readIntoSharedMemory} asked for (0: ordinary arrays). */
  private sharedRows = 0;

  /**
   * Stores the rows in shared memory (SharedArrayBuffers) from the header on, with room for
   * `capacity` rows (call before any row; construct with a small capacity, which these arrays
   * replace): for a bootstrap to come, whose threads then read the run's per-row arrays where
   * they are instead of copies (stats/sharedArrays.ts). The rows read beyond that room go to
   * ordinary arrays, as the values are the same either way.
   */
  readIntoSharedMemory(capacity: number): void {
    if (typeof SharedArrayBuffer === 'function') this.sharedRows = Math.max(16, capacity);
  }

  /** Room for the class scores: every row's when the matrix is kept, else the current row's. */
  private allocateProbs(): void {
    this.probs = new Float64Array(this.keepMatrix ? this.cap * this.C : this.C);
  }

  // ------------------------------------------------------------------ rows

  private begin(line: number): void {
    if (this.n >= this.cap) this.grow();
    this.rowBase = this.keepMatrix ? this.n * this.C : 0;
    this.rowValues = this.probs;
    this.problems.begin(line);
  }

  private grow(): void {
    const cap = Math.ceil(this.cap * 1.5) + 16;
    this.lines = grown(this.lines, cap);
    if (this.labels) this.labels = grown(this.labels, cap);
    if (this.preds) this.preds = grown(this.preds, cap);
    if (this.probs && this.keepMatrix) this.probs = grown(this.probs, cap * this.C);
    const t = this.terms;
    if (t && !t.sums) {
      t.nllTerm = grown(t.nllTerm, cap);
      t.brierTerm = grown(t.brierTerm, cap);
      t.trueRank = grown(t.trueRank, cap);
    }
    if (t) t.score = grown(t.score, cap);
    if (this.score) this.score = grown(this.score, cap);
    if (this.weight) this.weight = grown(this.weight, cap);
    if (this.accept) this.accept = grown(this.accept, cap);
    if (this.idKey) this.idKey = grown(this.idKey, cap);
    this.cap = cap;
  }

  private end(): void {
    if (!this.problems.keepRow()) return;
    const i = this.n++;
    const line = this.problems.line;
    this.lines[i] = line;
    if (this.reduceRows) this.classScoreRow(this.probs!, this.rowBase, i, line, this.labels!, this.preds!);
  }

  /**
   * Row i's class scores `P[o … o+C)`, read in full: logits become probabilities (softmax), the
   * checks see them, the prediction is their arg-max when the file has no `pred` column, and the
   * row is reduced to its {@link terms}.
   */
  private classScoreRow(
    P: Float64Array,
    o: number,
    i: number,
    line: number,
    labels: ClassIndices,
    preds: ClassIndices,
  ): void {
    const C = this.C;
    const logits = this.scoreKind === 'logits';
    if (logits) softmaxRow(P, o, C);
    // One pass over the row for the checks, the arg-max and the terms: each sum runs in class
    // order as in ClassScoreRowChecks.sum and reduceProbabilityRow, so the bits are theirs; the
    // largest score (first maximum on ties) is also the arg-max's and the `msp` score.
    const py = P[o + labels[i]];
    let sum = 0;
    let sq = 0;
    let higher = 0;
    let max = P[o];
    let arg = 0;
    for (let c = 0; c < C; c++) {
      const p = P[o + c];
      sum += p;
      sq += p * p;
      if (p > py) higher++;
      if (p > max) {
        max = p;
        arg = c;
      }
    }
    if (!logits) this.checks.rowSum(sum, line);
    if (this.hasPredColumn) this.checks.predScore(P[o + preds[i]], max, line);
    else preds[i] = arg;
    const t = this.terms!;
    storeProbabilityTerms(t, i, py, sq, higher, t.scoreKind === 'msp' ? max : rowScore(P, o, C, t.scoreKind));
  }

  /** Row n's id (trimmed): a number while every id is a canonical integer, else text from now on. */
  private putId(id: string): void {
    if (!this.ids) {
      if (isCanonicalInteger(id)) {
        this.numericId(Number(id));
        return;
      }
      this.explicitIds();
      this.ids = idTexts(this.idKey!, this.n);
    }
    this.ids[this.n] = id;
    this.idKey![this.n] = textHash(id);
  }

  /** Row n's id when it is a canonical integer: nothing to store while it is the row number plus {@link idBase}. */
  private numericId(v: number): void {
    if (this.idsCounted) {
      // a row dropped at slot 0 leaves it to the next row, whose id is the base then
      if (this.n === 0) this.idBase = v;
      if (v === this.idBase + this.n) return;
      this.explicitIds();
    }
    this.idKey![this.n] = v;
  }

  /** Makes {@link idKey} from the counted ids of the rows read so far (see {@link idsCounted}). */
  private explicitIds(): void {
    if (!this.idsCounted) return;
    this.idsCounted = false;
    const key = new Float64Array(this.cap);
    for (let i = 0; i < this.n; i++) key[i] = this.idBase + i;
    this.idKey = key;
  }

  /** An invalid cell of column `j`: an error, or (skip mode) the row is dropped (see RowProblems). */
  private invalid(j: number, code: string, what: string): void {
    this.problems.invalid(this.names[j], code, what);
  }

  /** Ragged row (both paths): an error, or a dropped row in skip mode. */
  ragged(line: number, got: number, expected: number): void {
    this.problems.ragged(line, got, expected);
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

  /** A numeric cell already parsed (from the bytes, or by `put`): class score, score or weight. */
  numberCell(j: number, v: number): void {
    const kind = this.plan[j];
    if (kind === CLASS_SCORE) {
      if (this.scoreKind === 'probs' && !inProbRange(v)) this.invalid(j, 'invalid-probability', probRangeMessage(v));
      else this.probs![this.rowBase + this.classPos[j]] = v;
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
        if (Number.isFinite(v)) this.numberCell(j, v);
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
          const c = this.classes.lookup(s);
          if (c < 0) {
            this.invalid(
              j,
              kind === LABEL ? 'label-not-in-classes' : 'pred-not-in-classes',
              `expected a ${role} in the class set (${listNames(this.classes.names)}), got "${s}".`,
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
        this.putId(cell === null ? '' : typeof cell === 'string' ? cell.trim() : String(cell));
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
          { file: this.file, line: this.problems.line, column: this.names[j] },
          `an array of ${arr.length} class ${what}, more than the ${MAX_CLASSES} classes that Eval Lens evaluates.`,
        );
      this.C = arr.length;
      this.allocateProbs();
    }
    if (arr.length !== this.C) {
      this.invalid(j, 'invalid-array', `expected ${this.C} class ${what} (one per class), got ${arr.length}.`);
      return;
    }
    const o = this.rowBase;
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
    const before = this.n + this.problems.skipped.length;
    const after = scanQuoteFreeRows(buf, start, end, line, this.fields, this.delimiter, this);
    this.count += this.n + this.problems.skipped.length - before;
    return after;
  }

  beginRow(line: number): void {
    this.begin(line);
  }

  bytesCell(j: number, buf: Buffer, start: number, end: number): void {
    if (this.plan[j] === ID) {
      const v = this.ids ? NaN : canonicalIntegerOfBytes(buf, start, end);
      if (v === v) this.numericId(v);
      else this.put(j, buf.toString('utf8', start, end)); // trimmed, then kept as text
      return;
    }
    const c = this.classOfBytes!.get(buf, start, end);
    if (c >= 0) (this.plan[j] === LABEL ? this.labels! : this.preds!)[this.n] = c;
    else this.put(j, buf.toString('utf8', start, end)); // reports the cell
  }

  textCell(j: number, text: string): void {
    this.put(j, text);
    const keep = this.text[j];
    if (keep && this.plan[j] !== TEXT) keep.set(this.n, text);
  }

  endRow(): void {
    this.end();
  }

  endRaggedRow(line: number, got: number, expected: number): void {
    this.problems.bad = false; // the ragged rule reports the row (once)
    this.ragged(line, got, expected);
  }

  // ------------------------------------------------------------------ parts read on several threads

  /** True when parts of the file can be read separately (an array column fixes the class count on its first row). */
  get splittable(): boolean {
    return this.arrayCol < 0;
  }

  private rowArrays(): Record<RowArrayName, RowArray | null> {
    const { lines, labels, preds, score, weight, accept, terms, idKey } = this;
    // a matrix not kept holds only the current row: each part has its own
    const probs = this.keepMatrix ? this.probs : null;
    return {
      lines,
      labels,
      preds,
      probs,
      score,
      weight,
      accept,
      nllTerm: terms?.nllTerm ?? null,
      brierTerm: terms?.brierTerm ?? null,
      trueRank: terms?.trueRank ?? null,
      probScore: terms?.score ?? null,
      idKey,
    };
  }

  private setRowArrays(a: Partial<Record<RowArrayName, RowArray>>): void {
    if (a.lines) this.lines = a.lines as Int32Array;
    if (a.labels) this.labels = a.labels as ClassIndices;
    if (a.preds) this.preds = a.preds as ClassIndices;
    if (a.probs) this.probs = a.probs as Float64Array;
    if (a.score) this.score = a.score as Float64Array;
    if (a.weight) this.weight = a.weight as Float64Array;
    if (a.accept) this.accept = a.accept as Uint8Array;
    if (a.idKey) this.idKey = a.idKey as Float64Array;
    const t = this.terms;
    if (t) {
      if (a.nllTerm) t.nllTerm = a.nllTerm as Float64Array;
      if (a.brierTerm) t.brierTerm = a.brierTerm as Float64Array;
      if (a.trueRank) t.trueRank = a.trueRank as Int32Array;
      if (a.probScore) t.score = a.probScore as Float64Array;
    }
  }

  /** Moves the row storage (after `columns`, before any row) into shared buffers; this collector takes part 0. */
  shareRows(regions: { first: number; cap: number }[]): SharedRows {
    // parts read apart would add their terms in another order
    if (this.terms?.sums) throw new Error('Expected per-row terms for rows read in parts, but they are summed.');
    // the parts' ids are joined from shared storage
    this.explicitIds();
    const total = regions.reduce((s, r) => s + r.cap, 0);
    const shared: SharedRows = { buffers: {}, regions, C: this.C };
    for (const [name, a] of Object.entries(this.rowArrays()) as [RowArrayName, RowArray | null][]) {
      if (!a) continue;
      const width = name === 'probs' ? this.C : 1;
      shared.buffers[name] = new SharedArrayBuffer(total * width * a.BYTES_PER_ELEMENT);
    }
    this.useSharedRows(shared, 0);
    return shared;
  }

  /** Stores the rows in part `t`'s region of `shared` (after `columns`, before any row). */
  useSharedRows(shared: SharedRows, t: number): void {
    this.explicitIds();
    const { first, cap } = shared.regions[t];
    const views: Partial<Record<RowArrayName, RowArray>> = {};
    for (const [name, buf] of Object.entries(shared.buffers) as [RowArrayName, SharedArrayBuffer][]) {
      const width = name === 'probs' ? shared.C : 1;
      const T = rowArrayType(name, shared.C);
      views[name] = new T(
        buf,
        first * width * (T as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT,
        cap * width,
      );
    }
    this.setRowArrays(views);
    this.cap = cap;
  }

  /** True while the rows are still in the shared region (it was large enough). */
  private get inSharedRegion(): boolean {
    return this.lines.buffer instanceof SharedArrayBuffer;
  }

  /** This part's rows, for the collector of the first part ({@link joinParts}). */
  partState(): CollectorPart {
    const n = this.n;
    let own: CollectorPart['own'] = null;
    if (!this.inSharedRegion) {
      own = {};
      for (const [name, a] of Object.entries(this.rowArrays()) as [RowArrayName, RowArray | null][])
        if (a) own[name] = a.slice(0, n * (name === 'probs' ? this.C : 1));
    }
    const cut = (a: string[] | null): string[] | null => (a ? a.slice(0, n) : null);
    return {
      n,
      count: this.count,
      own,
      labelRaw: cut(this.labelRaw),
      predRaw: cut(this.predRaw),
      ids: cut(this.ids),
      group: cut(this.group),
      split: cut(this.split),
      text: this.text
        .map((b) => (b ? b.finish(n) : null))
        .map((c) => (c ? { values: c.values, codes: c.codes } : null)),
      problems: this.problems.state(),
      checks: this.checks.state(),
    };
  }

  /**
   * Moves part t (read with its lines counted from 0, so that it need not count the lines before
   * it) to its first line in the file: its rows' lines and its bad rows' lines.
   */
  static shiftPart(shared: SharedRows, t: number, part: CollectorPart, delta: number): void {
    const { first } = shared.regions[t];
    const lines =
      (part.own?.lines as Int32Array | undefined) ?? new Int32Array(shared.buffers.lines!, first * 4, part.n);
    for (let i = 0; i < part.n; i++) lines[i] += delta;
    shiftProblems(part.problems, delta);
    shiftClassScoreChecks(part.checks, delta);
  }

  /**
   * The bad rows of the next part, in file order (see {@link RowProblems.absorb}): throws in error
   * mode when the joined list reaches the cap.
   */
  absorbProblems(part: CollectorPart): void {
    this.problems.absorb(part.problems);
  }

  /**
   * Appends the rows of the later parts (in file order, their problems already absorbed) to this
   * collector's (part 0): in place in the shared buffers when every part fitted its region.
   */
  joinParts(shared: SharedRows, parts: CollectorPart[]): void {
    const ns = [this.n, ...parts.map((p) => p.n)];
    const N = ns.reduce((s, k) => s + k, 0);
    const inPlace = this.inSharedRegion && parts.every((p) => !p.own);
    const total = shared.regions.reduce((s, r) => s + r.cap, 0);
    const joined: Partial<Record<RowArrayName, RowArray>> = {};
    const mine = this.rowArrays();
    for (const [name, buf] of Object.entries(shared.buffers) as [RowArrayName, SharedArrayBuffer][]) {
      const w = name === 'probs' ? shared.C : 1;
      const T = rowArrayType(name, shared.C);
      const bpe = (T as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
      const region = (t: number): RowArray => new T(buf, shared.regions[t].first * w * bpe, ns[t] * w);
      if (inPlace) {
        // Each part moves down to just after the previous one (never past its own start).
        const all = new T(buf, 0, total * w);
        let at = ns[0];
        for (let t = 1; t < ns.length; t++) {
          const from = shared.regions[t].first;
          all.copyWithin(at * w, from * w, (from + ns[t]) * w);
          at += ns[t];
        }
        joined[name] = all;
      } else {
        const out = new (T as unknown as new (n: number) => RowArray)(Math.max(16, N) * w);
        let at = 0;
        for (let t = 0; t < ns.length; t++) {
          const src = t === 0 ? mine[name]! : (parts[t - 1].own?.[name] ?? region(t));
          out.set(src.subarray(0, ns[t] * w), at * w);
          at += ns[t];
        }
        joined[name] = out;
      }
    }
    this.setRowArrays(joined);
    this.cap = inPlace ? total : Math.max(16, N);
    // The string columns joined by one concat each (a push per row took about 20 ms for 200,000 ids).
    const joinText = (mine: string[] | null, ofPart: (p: CollectorPart) => string[] | null): string[] | null => {
      if (!mine) return null;
      mine.length = this.n; // beyond: rows dropped at the end of part 0
      return mine.concat(...parts.map((p) => ofPart(p) ?? []));
    };
    this.labelRaw = joinText(this.labelRaw, (p) => p.labelRaw);
    this.predRaw = joinText(this.predRaw, (p) => p.predRaw);
    this.joinIds(parts, ns);
    this.group = joinText(this.group, (p) => p.group);
    this.split = joinText(this.split, (p) => p.split);
    let at = this.n;
    for (const p of parts) {
      for (let j = 0; j < this.text.length; j++) {
        const b = this.text[j];
        const c = p.text[j];
        if (!b || !c) continue;
        // every text of the part in its order of first sight (dropped rows' too, as in one pass)
        const k = c.values.map((v) => b.intern(v));
        for (let i = 0; i < p.n; i++) b.setCode(at + i, k[c.codes[i]]);
      }
      at += p.n;
      this.count += p.count;
      this.checks.absorb(p.checks);
    }
    this.n = N;
  }

  /**
   * The joined ids (after the row arrays): numbers when every part's are, else every id as text,
   * the numeric parts' turned into their texts and hashes. The texts are joined by one concat, as
   * the other string columns are: a push per id cost about 10 ms more for 200,000 ids.
   */
  private joinIds(parts: CollectorPart[], ns: number[]): void {
    if (!this.idKey || (!this.ids && parts.every((p) => !p.ids))) return;
    const key = this.idKey;
    let at = 0;
    const texts = [this.ids, ...parts.map((p) => p.ids)].map((own, t) => {
      const from = at;
      at += ns[t];
      if (!own) return idTexts(key.subarray(from, at), ns[t]);
      own.length = ns[t]; // beyond: rows dropped at the end of part 0
      return own;
    });
    this.ids = texts[0].concat(...texts.slice(1));
  }

  // ------------------------------------------------------------------ finish

  finish(warnings: Warnings): ClassificationData {
    this.problems.throwIfAny();
    const { file } = this;
    const n = this.n;
    this.problems.warnSkipped(warnings);
    if (n === 0)
      fail(
        'no-valid-rows',
        { file },
        `no valid rows are left after skipping ${this.problems.skipped.length} invalid row(s) (expected at least one).`,
      );

    // Class set from the values when nothing gave it.
    let labels = this.labels;
    let preds = this.preds;
    if (!this.classes) {
      this.labelRaw!.length = n;
      if (this.predRaw) this.predRaw.length = n;
      const classes = new ClassSet(this.classesFromValues(n), file, this.config.configFile ?? file);
      this.classes = classes;
      this.C = classes.size;
      const T = classIndexType(classes.size);
      const idx = (raw: string[]): ClassIndices => {
        const out = new T(n);
        for (let i = 0; i < n; i++) out[i] = classes.lookup(raw[i]);
        return out;
      };
      labels = idx(this.labelRaw!);
      if (this.predRaw) preds = idx(this.predRaw);
    }
    for (const w of this.pendingWarnings) warnings.add(w);
    const C = this.C;
    const lines = trimmed(this.lines, n);
    labels = trimmed(labels!, n);
    let probs = this.probs && this.keepMatrix ? trimmed(this.probs, n * C) : null;
    if (this.scoreKind && !this.reduceRows) {
      // The class of each label is known only now: the rows are reduced here, one by one as in a
      // read; the matrix is then dropped unless it was asked for.
      preds ??= new (classIndexType(C))(n);
      this.terms = emptyProbabilityTerms(n, this.termKind);
      for (let i = 0; i < n; i++) this.classScoreRow(probs!, i * C, i, lines[i], labels, preds);
      if (this.keep.keepProbabilities !== true) probs = null;
    }
    this.probs = null;
    this.checks.warn(file, this.hasPredColumn ? (this.used.pred as string) : null, this.scoreKind, warnings);
    preds = trimmed(preds!, n);
    const t = this.terms;
    const probTerms: ProbabilityTerms | null = t
      ? t.sums
        ? { ...t, score: trimmed(t.score, n) }
        : {
            nllTerm: trimmed(t.nllTerm, n),
            brierTerm: trimmed(t.brierTerm, n),
            trueRank: trimmed(t.trueRank, n),
            score: trimmed(t.score, n),
            scoreKind: t.scoreKind,
          }
      : null;

    if (this.group) this.group.length = n;
    if (this.split) this.split.length = n;
    if (this.weight) checkWeightSum(this.file, this.used.weight as string, this.weight, n, lines, warnings);
    const weights = this.weight ? trimmed(this.weight, n) : null;
    const weightShift = weights ? scaleTinyWeights(weights) : 0;
    let ids: RowIds | null = null;
    // Counted ids (idsCounted) are distinct and not kept: nothing to check or let go.
    if (this.idKey) {
      const key = trimmed(this.idKey, n);
      if (this.ids) this.ids.length = n;
      ids = this.ids ? RowIds.ofTexts(this.ids) : RowIds.ofNumbers(key);
      checkDuplicateIds(file, this.used.id as string, ids, this.ids ? key : null, lines, warnings);
      // checked: not kept when no later step reads them (see LoadClassificationOptions.keepIds)
      if (this.keep.keepIds === false) {
        ids = null;
        this.released += key.buffer.byteLength + (this.ids ? 8 * n : 0);
        this.idKey = null;
        this.ids = null;
      }
    }
    return {
      file,
      n,
      classes: this.classes.names,
      labels,
      preds,
      probs,
      probTerms,
      fromLogits: this.scoreKind === 'logits',
      scoreColumn: this.score ? trimmed(this.score, n) : null,
      scoreColumnName: (this.used.score as string | undefined) ?? null,
      weights,
      ...(weightShift !== 0 ? { weightShift } : {}),
      accept: this.accept ? trimmed(this.accept, n) : null,
      groupColumn: this.group,
      split: this.split,
      ids,
      lines,
    };
  }

  /**
   * The class set from the labels and predictions (the sorted union); with an array column, entry
   * c is class `c` when the values are the integers 0…L−1, else the sorted union when it has L values.
   */
  private classesFromValues(n: number): string[] {
    const distinct = new Set<string>();
    const raw = this.labelRaw!;
    for (let i = 0; i < n; i++) distinct.add(raw[i]);
    if (this.predRaw) for (let i = 0; i < n; i++) distinct.add(this.predRaw[i]);
    const { classes, allIntegers: allInt } = sortedClassUnion([...distinct]);
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
}
