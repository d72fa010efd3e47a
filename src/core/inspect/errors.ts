/**
 * A {@link StaleSourceError} says that the source file changed since the results were written: the
 * rows of the file would not be the rows behind the numbers, so the caller should offer to
 * re-evaluate instead of showing them. (A mistake in the query itself is a QueryError,
 * rows/queryError.ts.)
 */
import { EvalLensError } from '../diagnostics';

export class StaleSourceError extends EvalLensError {
  readonly file: string;
  /** SHA-256 the results were computed from. */
  readonly expected: string;
  /** SHA-256 of the file now. */
  readonly actual: string;

  constructor(file: string, expected: string, actual: string) {
    super(
      'stale-source',
      `${file}: the file changed since it was evaluated (SHA-256 ${actual.slice(0, 12)}…, the results were computed from ${expected.slice(0, 12)}…); re-evaluate it to inspect its rows.`,
      { file },
    );
    this.name = 'StaleSourceError';
    this.file = file;
    this.expected = expected;
    this.actual = actual;
  }
}
