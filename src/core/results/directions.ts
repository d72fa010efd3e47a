/**
 * Which way is better for a metric key (docs/comparisons.md: error, risk, AURC, ECE, NLL, Brier,
 * STD, DR are lower-is-better). Used for `direction` in results and for best/second/third marking.
 */
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

/** Direction inferred from a metric name (case-insensitive). */
export function directionOf(key: string): Direction {
  const k = key.toLowerCase();
  return LOWER.some((re) => re.test(k)) ? 'lower' : 'higher';
}
