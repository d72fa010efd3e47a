/**
 * Number formatting for everything a person reads in the extension: report cards, tree items,
 * CodeLens, the status bar, exported HTML. Values stay the stored fractions (the stable metric keys of src/core/glossary),
 * printed with 4 decimals like the CLI's table, so a number on screen can be found in the JSON.
 */
import { countText } from '../core/text/countText';
import { formatP, pStatement } from '../core/text/pValue';

/** Keys whose values are counts or unbounded quantities, printed as integers when integral. */
const COUNT_KEYS = /^(users_evaluated|users_skipped|users|rows|support|count|epochs?|steps?|k)$/i;

/** `0.8200`; `—` for null/undefined/non-finite; integers as integers for count keys; tiny values as `1.23e-5`. */
export function formatNumber(v: number | null | undefined, key = '', digits = 4): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  if (COUNT_KEYS.test(key) && Number.isInteger(v)) return formatCount(v);
  if (v !== 0 && Math.abs(v) < 10 ** -(digits - 1)) return v.toExponential(2);
  if (Math.abs(v) >= 1e6) return v.toExponential(3);
  return v.toFixed(digits);
}

/**
 * `[0.7812, 0.8590]`, or '' without an interval. Both bounds in one notation: fixed decimals,
 * unless one bound needs an exponent (then both get one), so `[8.32e-4, 0.0012]` cannot happen.
 */
export function formatCi(ci: readonly [number, number] | undefined | null, key = '', digits = 4): string {
  if (!ci) return '';
  const [lo, hi] = ci;
  if (COUNT_KEYS.test(key) && Number.isInteger(lo) && Number.isInteger(hi))
    return `[${formatCount(lo)}, ${formatCount(hi)}]`;
  const needsExp = (v: number): boolean =>
    Number.isFinite(v) && ((v !== 0 && Math.abs(v) < 10 ** -(digits - 1)) || Math.abs(v) >= 1e6);
  if (needsExp(lo) || needsExp(hi)) {
    const e = (v: number): string => (Number.isFinite(v) ? (v === 0 ? '0' : v.toExponential(2)) : '—');
    return `[${e(lo)}, ${e(hi)}]`;
  }
  return `[${formatNumber(lo, key, digits)}, ${formatNumber(hi, key, digits)}]`;
}

/**
 * A value on a chart axis or in a tooltip: integers as integers (`epoch 10`, `users 200`,
 * `K 20`), other numbers as {@link formatNumber}.
 */
export function formatAxisValue(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  if (Number.isInteger(v)) return Math.abs(v) >= 1e4 ? formatCount(v) : String(v);
  return formatNumber(v);
}

/** `12,345`: rounded, then written as every surface writes a count ({@link countText}). */
export function formatCount(n: number): string {
  return countText(Math.round(n));
}

/** A p-value, written as everywhere else (core/text/pValue.ts). */
export { formatP, pStatement };

/** Significance stars from a p-value: `***` < 0.001, `**` < 0.01, `*` < 0.05, '' otherwise. */
export function significanceMark(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '';
  return p < 0.001 ? '***' : p < 0.01 ? '**' : p < 0.05 ? '*' : '';
}

/** "95%" from 0.95 without float noise. */
export function formatLevel(confidence: number): string {
  return `${Number((confidence * 100).toPrecision(4))}%`;
}

/** Bytes as `34.3 KB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}
