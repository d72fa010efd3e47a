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

/** A bad input that stops the evaluation. Caught by the CLI (exit 1) and the extension. */
export class EvalLensError extends Error {
  readonly code: string;
  readonly location?: Location;

  constructor(code: string, message: string, location?: Location) {
    super(message);
    this.name = 'EvalLensError';
    this.code = code;
    this.location = location;
  }
}

/** `file:line` / `file:line, column "x"` prefix used in every message. */
export function where(loc: Location): string {
  let s = loc.file;
  if (loc.line !== undefined) s += `:${loc.line}`;
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
    this.list.push(w);
  }

  /** Convenience: a warning with a message only. */
  note(code: string, message: string, extra: Omit<EvalWarning, 'code' | 'message'> = {}): void {
    this.list.push({ code, message, ...extra });
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
