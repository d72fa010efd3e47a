/**
 * The value rules of a classification file: what a cell must hold (finite numbers, probabilities
 * in [0, 1], accept values, class names), the checks of each row's class scores as it is read
 * (probabilities that do not sum to 1, a `pred` that is not the arg-max of the scores) and of the
 * ids once every row is read (repeated ids), each one warning with the count and the first lines.
 */
import { basename } from 'node:path';
import { lineRef, printable, type Warnings } from '../diagnostics';
import { IdIndex } from '../data/idIndex';
import { openTableSize } from '../data/stringIndex';
import type { RowIds } from '../data/rowIds';
import { parseNumberText } from './numbers';
import { FIRST_LINES } from './rowProblems';
import type { Cell } from '../data/textColumn';

/** Tolerance of the probability-sum check (docs/inputs.md). */
export const PROB_SUM_TOLERANCE = 1e-3;
/**
 * A probability below 0 or above 1 by more than this is an invalid value (an error naming file,
 * line and column; skipped rows under `invalidRows: "skip"`). The slack accepts a float32 softmax
 * written as text (`1.0000001`, `-1e-9`), which is used as written.
 */
export const PROB_RANGE_TOLERANCE = 1e-6;
/** The range a probability cell must fall in: [0, 1] widened by {@link PROB_RANGE_TOLERANCE}. */
export const PROB_MIN = -PROB_RANGE_TOLERANCE;
export const PROB_MAX = 1 + PROB_RANGE_TOLERANCE;

/** A cell for a message: quoted, control characters escaped, at most 200 characters. */
export function show(cell: Cell): string {
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

export function cellNumber(cell: Cell): number {
  if (typeof cell === 'number') return cell;
  if (typeof cell === 'string') return parseNumberText(cell);
  return NaN;
}

/** Class-name text of a label/prediction cell, or null when it is empty or not a scalar. */
export function classText(cell: Cell): string | null {
  if (typeof cell === 'string') {
    const t = cell.trim();
    return t === '' ? null : t;
  }
  if (typeof cell === 'number' || typeof cell === 'boolean') return String(cell);
  return null;
}

export function inProbRange(v: number): boolean {
  return v >= PROB_MIN && v <= PROB_MAX;
}

export function probRangeMessage(v: number): string {
  return `expected a probability in [0, 1], got ${v}. Probabilities are used as written; if these are logits or unnormalised scores, name the columns logit_<class> (or an array column logits), or set \`columns.logits\` in eval-lens.json.`;
}

/** 1 or 0 for an accept cell (1/0, also written 1.0/0.0, true/false); -1 when it is neither. */
export function acceptValue(cell: Cell): number {
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

/** The rows a check flags: how many, and the lines of the first {@link FIRST_LINES} (a warning's `lines`). */
class FlaggedRows {
  count = 0;
  readonly first: number[] = [];

  add(line: number): void {
    if (this.count < FIRST_LINES) this.first.push(line);
    this.count++;
  }

  /** The rows flagged in a later part of the file (in file order). */
  absorb(count: number, first: readonly number[]): void {
    for (const line of first) if (this.first.length < FIRST_LINES) this.first.push(line);
    this.count += count;
  }
}

/** What {@link ClassScoreRowChecks} found in one part of a file (plain data: it crosses threads). */
export interface ClassScoreChecksState {
  sumCount: number;
  sumFirst: number[];
  /** The sum of the first row whose probabilities do not sum to 1. */
  firstSum: number;
  argmaxCount: number;
  argmaxFirst: number[];
}

/** A part's state (its lines counted from 0) with `delta` added to every line: the file's line numbers. */
export function shiftClassScoreChecks(s: ClassScoreChecksState, delta: number): void {
  for (let i = 0; i < s.sumFirst.length; i++) s.sumFirst[i] += delta;
  for (let i = 0; i < s.argmaxFirst.length; i++) s.argmaxFirst[i] += delta;
}

/**
 * The checks of the class scores, one row at a time as the rows are read (each part of a file
 * read on several threads has its own; they are joined in file order): probabilities that do not
 * sum to 1 (within {@link PROB_SUM_TOLERANCE}), and a `pred` that is not one of the row's maximal
 * class scores. {@link warn} gives one warning per check (count and first lines).
 */
export class ClassScoreRowChecks {
  private readonly sums = new FlaggedRows();
  private firstSum = 0;
  private readonly argmax = new FlaggedRows();

  /** The probability row `P[o … o+C)` of the row on `line`. */
  sum(P: Float64Array, o: number, C: number, line: number): void {
    let s = 0;
    for (let c = 0; c < C; c++) s += P[o + c];
    this.rowSum(s, line);
  }

  /** The sum `s` (in class order) of the probability row on `line`. */
  rowSum(s: number, line: number): void {
    if (!(Math.abs(s - 1) <= PROB_SUM_TOLERANCE)) {
      if (this.sums.count === 0) this.firstSum = s;
      this.sums.add(line);
    }
  }

  /** The class scores `P[o … o+C)` and the `pred` column's class of the row on `line`. */
  predIsArgmax(P: Float64Array, o: number, C: number, pred: number, line: number): void {
    let max = P[o];
    for (let c = 1; c < C; c++) if (P[o + c] > max) max = P[o + c];
    this.predScore(P[o + pred], max, line);
  }

  /** The `pred` column's class score `p` and the row's largest class score `max`, of the row on `line`. */
  predScore(p: number, max: number, line: number): void {
    if (p < max) this.argmax.add(line);
  }

  state(): ClassScoreChecksState {
    return {
      sumCount: this.sums.count,
      sumFirst: [...this.sums.first],
      firstSum: this.firstSum,
      argmaxCount: this.argmax.count,
      argmaxFirst: [...this.argmax.first],
    };
  }

  /** The rows of a later part of the file (in file order, its lines already the file's). */
  absorb(s: ClassScoreChecksState): void {
    if (this.sums.count === 0) this.firstSum = s.firstSum;
    this.sums.absorb(s.sumCount, s.sumFirst);
    this.argmax.absorb(s.argmaxCount, s.argmaxFirst);
  }

  /** The warnings: probability sums, then `pred` not the arg-max (`predColumn` null: no `pred` column). */
  warn(file: string, predColumn: string | null, scoreKind: 'probs' | 'logits' | null, warnings: Warnings): void {
    if (this.sums.count > 0) {
      const { count, first } = this.sums;
      warnings.add({
        code: 'probabilities-not-normalised',
        message: `${basename(file)}: ${count} row${count === 1 ? '' : 's'} of class probabilities do${count === 1 ? 'es' : ''} not sum to 1 (off by more than ${PROB_SUM_TOLERANCE}); they are used as written. First: ${lineRef(file, first[0])} (sum ${+this.firstSum.toPrecision(6)}).`,
        file,
        line: first[0],
        count,
        lines: [...first],
      });
    }
    if (this.argmax.count > 0 && predColumn !== null) {
      const { count, first } = this.argmax;
      const what = scoreKind === 'logits' ? 'logits' : 'probabilities';
      const one = scoreKind === 'logits' ? 'logit' : 'probability';
      warnings.add({
        code: 'pred-not-argmax',
        message: `${basename(file)}: on ${count} row${count === 1 ? '' : 's'} the \`pred\` column is not the class with the highest ${one} (first: ${lineRef(file, first[0])}). The metrics of the predicted class (accuracy, F1, confusion matrix, per-class and long-tail accuracy) use the \`pred\` column; the metrics of the scores (nll, brier, top-k, confidence, calibration) use the ${what}.`,
        file,
        line: first[0],
        column: predColumn,
        count,
        lines: [...first],
      });
    }
  }
}

/**
 * The smallest value and max − min + 1 of integer values when they span at most 64 times their
 * count (a bit per possible value then costs at most 8 bytes a row), else null.
 */
function denseRange(v: Float64Array): { min: number; span: number } | null {
  if (v.length === 0) return null;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < v.length; i++) {
    if (v[i] < min) min = v[i];
    if (v[i] > max) max = v[i];
  }
  const span = max - min + 1;
  return span <= 64 * v.length ? { min, span } : null;
}

/**
 * Ids seen on an earlier row: one warning (runs cannot be matched by id while ids repeat).
 * Numeric ids are compared as numbers ({@link IdIndex}); text ids through `hashes[i]` =
 * {@link textHash}(ids[i]), computed while reading: an open-addressing table of row numbers, probed
 * by hash, where two ids are the same only when their texts are equal (equal hashes alone decide nothing).
 */
export function checkDuplicateIds(
  file: string,
  idColumn: string,
  ids: RowIds,
  hashes: ArrayLike<number> | null,
  lines: Int32Array,
  warnings: Warnings,
): void {
  const flagged = new FlaggedRows();
  let example = '';
  const range = ids.numbers ? denseRange(ids.numbers) : null;
  if (ids.numbers && range) {
    // Row numbers (0…n−1 in any order, or nearly): one bit a possible value instead of a table.
    const v = ids.numbers;
    const min = range.min;
    const seen = new Uint8Array(Math.ceil(range.span / 8));
    for (let i = 0; i < v.length; i++) {
      const k = v[i] - min;
      const bit = 1 << (k & 7);
      if (seen[k >>> 3] & bit) {
        if (flagged.count === 0) example = ids.at(i);
        flagged.add(lines[i]);
      } else seen[k >>> 3] |= bit;
    }
  } else if (!ids.texts || !hashes) {
    const repeats = new IdIndex(ids).repeats;
    for (const i of repeats) flagged.add(lines[i]);
    if (repeats.length > 0) example = ids.at(repeats[0]);
  } else {
    const texts = ids.texts;
    const n = texts.length;
    const size = openTableSize(n);
    const mask = size - 1;
    const table = new Int32Array(size); // row + 1 of the first row with each id; 0 = empty
    for (let i = 0; i < n; i++) {
      const h = hashes[i] | 0;
      const id = texts[i];
      for (let at = (h ^ (h >>> 16)) & mask; ; at = (at + 1) & mask) {
        const r = table[at] - 1;
        if (r < 0) {
          table[at] = i + 1;
          break;
        }
        if ((hashes[r] | 0) === h && texts[r] === id) {
          if (flagged.count === 0) example = id;
          flagged.add(lines[i]);
          break;
        }
      }
    }
  }
  const { count, first } = flagged;
  if (count === 0) return;
  warnings.add({
    code: 'duplicate-ids',
    message: `${basename(file)}: ${count} row${count === 1 ? ' repeats an' : 's repeat an'} id seen on an earlier line (first: "${example}" at ${lineRef(file, first[0])}). Runs cannot be matched by id while ids repeat.`,
    file,
    line: first[0],
    column: idColumn,
    count,
    lines: first,
  });
}
