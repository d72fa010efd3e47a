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
