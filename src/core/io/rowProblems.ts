/**
 * The invalid rows of a file being read, under the `invalidRows` rule: in error mode every bad row
 * is listed (its first problem only; a ragged row's length replaces its cell problems) and the
 * error is thrown at {@link MAX_LISTED_PROBLEMS} rows or when the file is read; under
 * `invalidRows: "skip"` the rows are dropped and listed in one `rows-skipped` warning.
 */
import { basename } from 'node:path';
import {
  failMany,
  isRowAddressedFile,
  lineRef,
  MAX_LISTED_PROBLEMS,
  type LocatedProblem,
  type Warnings,
} from '../diagnostics';

/** How many lines a warning lists (EvalWarning.lines). */
export const FIRST_LINES = 20;

/** What {@link RowProblems} found in one part of a file (plain data: it crosses threads). */
export interface RowProblemsState {
  skipped: number[];
  problems: LocatedProblem[];
  /** The first dropped row's line and what was wrong with it (after its line reference). */
  firstLine: number;
  firstReason: string;
}

/** A part's state (its lines counted from 0) with `delta` added to every line: the file's line numbers. */
export function shiftProblems(s: RowProblemsState, delta: number): void {
  for (let i = 0; i < s.skipped.length; i++) s.skipped[i] += delta;
  for (const p of s.problems) if (p.location.line !== undefined) p.location.line += delta;
  s.firstLine += delta;
}

export class RowProblems {
  /** Physical line of the current row. */
  line = 0;
  /** The current row has an invalid cell. */
  bad = false;
  /** Lines of the rows dropped (skip mode) or found bad, in file order. */
  readonly skipped: number[] = [];
  /** Error mode: the bad cells and rows found so far (one per row). */
  private readonly problems: LocatedProblem[] = [];
  private firstLine = 0;
  private firstReason = '';

  constructor(
    private readonly file: string,
    private readonly skip: boolean,
  ) {}

  /** A row starts on `line`. */
  begin(line: number): void {
    this.line = line;
    this.bad = false;
  }

  /** The row ends: false when it is to be dropped (an invalid cell), recorded as skipped. */
  keepRow(): boolean {
    if (this.bad) {
      this.skipped.push(this.line);
      return false;
    }
    return true;
  }

  /**
   * An invalid cell in `column`: an error, or (skip mode) the row is marked to be dropped. In error
   * mode the reading goes on to list every bad row; the error is thrown at the cap or by {@link throwIfAny}.
   */
  invalid(column: string, code: string, what: string): void {
    if (!this.skip) this.problem({ code, location: { file: this.file, line: this.line, column }, what });
    if (!this.bad) {
      this.bad = true;
      if (this.skipped.length === 0) {
        this.firstLine = this.line;
        this.firstReason = `, column "${column}": ${what}`;
      }
    }
  }

  /** Ragged row: an error, or a dropped row in skip mode. */
  ragged(line: number, got: number, expected: number): void {
    const what = `expected ${expected} fields (as in the header), got ${got}.`;
    if (!this.skip) {
      // The ragged row is the real problem of its line (its cells are misaligned): it replaces cell problems there.
      while (this.problems.length > 0 && this.problems[this.problems.length - 1]!.location.line === line)
        this.problems.pop();
      this.problem({ code: 'ragged-row', location: { file: this.file, line }, what });
    }
    if (this.skipped.length === 0) {
      this.firstLine = line;
      this.firstReason = `: ${what}`;
    }
    if (this.bad) return; // already recorded by keepRow()
    this.skipped.push(line);
  }

  /** Records a problem (the first of its row only); throws at the cap. */
  private problem(p: LocatedProblem): void {
    const last = this.problems[this.problems.length - 1];
    if (last && last.location.line === p.location.line) return;
    this.problems.push(p);
    if (this.problems.length >= MAX_LISTED_PROBLEMS) failMany(this.problems, true);
  }

  /** The bad rows found so far, to be joined after an earlier part's by {@link absorb}. */
  state(): RowProblemsState {
    return { skipped: this.skipped, problems: this.problems, firstLine: this.firstLine, firstReason: this.firstReason };
  }

  /**
   * Appends the bad rows of the next part of the file (read separately, in file order), as if its
   * rows had come after these: the first reason stays the earliest, and in error mode the error is
   * thrown when the joined list reaches the cap, with the same rows as one pass would list.
   */
  absorb(next: RowProblemsState): void {
    if (this.skipped.length === 0 && next.skipped.length > 0) {
      this.firstLine = next.firstLine;
      this.firstReason = next.firstReason;
    }
    for (const line of next.skipped) this.skipped.push(line);
    for (const p of next.problems) {
      this.problems.push(p);
      if (this.problems.length >= MAX_LISTED_PROBLEMS) failMany(this.problems, true);
    }
  }

  /** Error mode: throws the bad rows found, if any. */
  throwIfAny(): void {
    if (this.problems.length > 0) failMany(this.problems, false);
  }

  /** Skip mode: one `rows-skipped` warning (count and first lines) when rows were dropped. */
  warnSkipped(warnings: Warnings): void {
    const { file } = this;
    const k = this.skipped.length;
    if (k === 0) return;
    warnings.add({
      code: 'rows-skipped',
      message: `${basename(file)}: ${k} invalid row${k === 1 ? '' : 's'} skipped (invalidRows: "skip"), at ${isRowAddressedFile(file) ? 'row' : 'line'}${k === 1 ? '' : 's'} ${this.skipped
        .slice(0, FIRST_LINES)
        .map((l) => (isRowAddressedFile(file) ? l - 1 : l))
        .join(', ')}${k > FIRST_LINES ? ', …' : ''}. First: ${lineRef(file, this.firstLine)}${this.firstReason}`,
      file,
      line: this.skipped[0],
      count: k,
      lines: this.skipped.slice(0, FIRST_LINES),
    });
  }
}
