/**
 * Errors and warnings of the metric core. Every problem with an input names the file, the
 * 1-based physical line (the header is line 1) and, where it applies, the column, and says what
 * was expected (docs/inputs.md). The extension turns these into Problems-panel entries; the
 * CLI prints them.
 */

/** Where in an input a problem is. `line` is 1-based and physical (header = line 1). */
export interface Location {
  file: string;
  line?: number;
  column?: string;
}

/** A structured warning stored in `results.warnings`. */
export interface EvalWarning {
  /** Stable machine-readable code, e.g. `probabilities-not-normalised`, `empty-class`. */
  code: string;
  message: string;
  file?: string;
  /** First offending line (1-based, physical). */
  line?: number;
  column?: string;
  /** How many rows/items the warning covers, when it is about many. */
  count?: number;
  /** Up to the first 20 offending lines. */
  lines?: number[];
}

/**
 * Control characters from a file (ESC sequences that recolour or clear a terminal, a carriage
 * return that overwrites the line, NUL, …) as `\u00XX` escapes; line breaks are kept, since
 * messages list problems one per line.
 */
export function escapeControl(s: string): string {
  return s.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Text from a file shown on one line of a terminal table (a cell, a column name): line breaks and
 * tabs as `\n`, `\r` and `\t`, every other control character as {@link escapeControl} writes it.
 */
export function escapeControlLine(s: string): string {
  return escapeControl(s.replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/\t/g, '\\t'));
}

/**
 * Text from a file made safe to print in a message: control characters (which could move the
 * cursor or recolour a terminal) become `\u00XX` escapes, and long text is cut at 200 characters.
 */
export function printable(s: string): string {
  const t = escapeControl(s.replace(/\n/g, '\\n'));
  return t.length > 200 ? `${t.slice(0, 200)}…` : t;
}

/** A bad input that stops the evaluation. Caught by the CLI (exit 1) and the extension. */
export class EvalLensError extends Error {
  readonly code: string;
  readonly location?: Location;
  /** Every located problem found before stopping (the first is this error's own), when more than one. */
  readonly problems?: LocatedProblem[];

  constructor(code: string, message: string, location?: Location, problems?: LocatedProblem[]) {
    // Every message may quote file content; it is printed to terminals and shown in the editor.
    super(escapeControl(message));
    this.name = 'EvalLensError';
    this.code = code;
    this.location = location;
    if (problems && problems.length > 1) this.problems = problems;
  }
}

/** One bad cell or row: its code, where it is, and what was expected (without the location prefix). */
export interface LocatedProblem {
  code: string;
  location: Location;
  what: string;
}

/** How many bad rows a loader lists before it stops reading. */
export const MAX_LISTED_PROBLEMS = 100;

/** One error for several problems: the first one's message, plus how many more and where. */
export function failMany(problems: readonly LocatedProblem[], capped: boolean): never {
  const first = problems[0]!;
  const rest = problems.slice(1);
  const byRow = isRowAddressedFile(first.location.file);
  const lines = rest
    .map((p) => p.location.line)
    .filter((l): l is number => l !== undefined)
    .map((l) => (byRow ? l - 1 : l));
  const unit = byRow ? 'row' : 'line';
  const more =
    rest.length === 0
      ? ''
      : ` ${capped ? 'At least' : 'And'} ${rest.length} more invalid row${rest.length === 1 ? '' : 's'}${lines.length > 0 ? ` (${unit}${lines.length === 1 ? '' : 's'} ${lines.slice(0, 10).join(', ')}${lines.length > 10 ? ', …' : ''})` : ''}${capped ? '; reading stopped there' : ''}.`;
  throw new EvalLensError(first.code, `${where(first.location)}: ${first.what}${more}`, first.location, [...problems]);
}

/**
 * Binary inputs without lines (Parquet, NumPy `.npz`): their rows are located as if the schema
 * were line 1, so data row N is `line` N + 1, and messages say "row N".
 */
export function isRowAddressedFile(file: string): boolean {
  return /\.(parquet|pq|npz)$/i.test(file);
}

/** "line 7" for a text file; "row 6" (the 1-based data row) for a Parquet or `.npz` file. */
export function lineRef(file: string | undefined, line: number): string {
  return file !== undefined && isRowAddressedFile(file) ? `row ${line - 1}` : `line ${line}`;
}

/** `file:line` / `file:line, column "x"` prefix used in every message (`file, row N` for Parquet/.npz). */
export function where(loc: Location): string {
  let s = loc.file;
  if (loc.line !== undefined && isRowAddressedFile(loc.file)) {
    if (loc.line > 1) s += `, row ${loc.line - 1}`;
  } else if (loc.line !== undefined) s += `:${loc.line}`;
  if (loc.column !== undefined) s += `, column "${loc.column}"`;
  return s;
}

/** Throws an {@link EvalLensError} whose message starts with the location. */
export function fail(code: string, loc: Location, what: string): never {
  throw new EvalLensError(code, `${where(loc)}: ${what}`, loc);
}

/** Collects warnings; one entry per code+subject, with counts and first lines. */
export class Warnings {
  readonly list: EvalWarning[] = [];

  add(w: EvalWarning): void {
    this.list.push({ ...w, message: escapeControl(w.message) });
  }

  /** Convenience: a warning with a message only. */
  note(code: string, message: string, extra: Omit<EvalWarning, 'code' | 'message'> = {}): void {
    this.list.push({ code, message: escapeControl(message), ...extra });
  }
}

/** Optional progress/cancellation hooks passed down long computations. */
export interface Progress {
  /** Called now and then with a stage name and a fraction in [0, 1] (or rows done). */
  report?(stage: string, done: number, total?: number): void;
  /** Checked between chunks; when true the computation throws {@link CancelledError}. */
  isCancelled?(): boolean;
}

export class CancelledError extends Error {
  constructor() {
    super('Evaluation cancelled.');
    this.name = 'CancelledError';
  }
}

export function checkCancelled(p: Progress | undefined): void {
  if (p?.isCancelled?.()) throw new CancelledError();
}

/** "a user", "an item": the article a role or task name takes in a message. */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}
