/**
 * Typed errors of the row query. A {@link QueryError} is a mistake in the query (an unknown key, a
 * value that does not fit the key): the CLI reports it as a usage error (exit 2), the report as a
 * message beside the filter. A {@link StaleSourceError} says that the source file changed since
 * the results were written: the rows of the file would not be the rows behind the numbers, so the
 * caller should offer to re-evaluate instead of showing them.
 */
import { EvalLensError } from '../diagnostics';
import type { FilterTerm } from './types';

export class QueryError extends Error {
  /** The term at fault, when one is. */
  readonly term?: FilterTerm;

  constructor(message: string, term?: FilterTerm) {
    super(message);
    this.name = 'QueryError';
    this.term = term;
  }
}

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
