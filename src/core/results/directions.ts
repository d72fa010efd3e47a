/**
 * Which way is better for a metric key: the glossary's `direction` for every key it knows (one
 * owner), else — a column of another tool's table — a guess from the name (error, risk, AURC,
 * ECE, NLL, Brier, loss, STD, DR are lower-is-better). Used for `direction` in results and for
 * best/second/third marking.
 */
import { explainKey } from '../glossary';
import type { Direction } from './types';

const LOWER = [
  /(^|[._])error/,
  /(^|[._])err($|[._@])/,
  /(^|_)(r?mse|mae)($|_|@)/,
  /risk/,
  /aurc/,
  /(^|_)m?ce($|_|\b)/,
  /ece/,
  /nll/,
  /brier/,
  /(^|_)std$/,
  /(^|_)dr$/,
  /loss/,
  /(^|_)fpr$/,
  /^users_skipped$/,
];

/** The glossary's direction of `key`, else the one guessed from its name (case-insensitive). */
export function directionOf(key: string): Direction {
  const known = explainKey(key)?.direction;
  if (known === 'higher' || known === 'lower') return known;
  const k = key.toLowerCase();
  return LOWER.some((re) => re.test(k)) ? 'lower' : 'higher';
}

/**
 * The direction to show beside a stored value: the results file stores `higher` or `lower` for
 * every key (its schema has two), but a spread over users (`ndcg_std@K`, `diversity_std@K`) or a
 * count (`users_evaluated`) has no better direction — the glossary says `none` — so a table or a
 * card shows no "higher is better" for it.
 */
export function shownDirection(key: string, stored: Direction): Direction | 'none' {
  return explainKey(key)?.direction === 'none' ? 'none' : stored;
}
