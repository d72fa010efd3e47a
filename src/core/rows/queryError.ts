/**
 * A mistake in a row query (an unknown key, a value that does not fit the key): the CLI reports it
 * as a usage error (exit 2), the report as a message beside the filter.
 */
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
