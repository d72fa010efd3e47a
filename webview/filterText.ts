/** A filter term as the person reads it (and as the CLI's `--where` accepts it). */
import type { FilterTerm } from '../src/core/inspect/types';

export function formatTerm(t: FilterTerm): string {
  return `${t.key} ${t.op} ${t.value}`;
}

export function formatWhereText(where: FilterTerm[]): string {
  return where.map(formatTerm).join(' and ');
}
