/**
 * The per-row values a query filters and sorts by, held column-wise (typed arrays, dictionary-
 * encoded text) so that a query over 200,000 rows never builds an object per row.
 *
 * Comparison rules of a term `key op value`:
 * - number fields: `value` must be a number; a row whose value is missing (NaN) never matches.
 * - category and text fields: `=` / `!=` compare the text exactly, or as numbers when both the
 *   cell and the value read as numbers, as labels are looked up (`1.0 = 1`): integers digit for
 *   digit, never as rounded doubles (`9007199254740993` is not `9007199254740992`), and a code with
 *   a leading zero is text (`007` is not `7`). `<` `<=` `>` `>=` compare as numbers, integers
 *   exactly (a cell that is not a number never matches).
 * - boolean fields: `=` / `!=` with true/false/1/0/yes/no; a missing value never matches `=`.
 */
import { integerText, isCodeText, numberKey } from '../io/classSet';
import { parseNumberText } from '../io/numbers';
import { float64Argsort } from '../stats/radixArgsort';
import { QueryError } from './queryError';
import type { FilterOp, FilterTerm, SortDirection } from './types';

export type Field =
  /** A number per row; NaN = missing. */
  | { kind: 'number'; values: ArrayLike<number> }
  /** A code per row into `names`; -1 = missing. */
  | { kind: 'category'; codes: ArrayLike<number>; names: readonly string[] }
  /** 0/1 per row; 255 = missing. */
  | { kind: 'bool'; values: ArrayLike<number> };

export type RowPredicate = (i: number) => boolean;

const num = (s: string): number => parseNumberText(s.trim());

/** The key `=` compares numbers by (integers as exact digits); null for text and codes (`007`). */
function equalityKey(s: string): string | null {
  const t = s.trim();
  return isCodeText(t) ? null : numberKey(t);
}

/** The exact integer of a text written as an integer (`1e3`, `-0`), else null. */
function exactInteger(s: string): bigint | null {
  const t = integerText(s);
  return t === null ? null : BigInt(t);
}

/** `a op b` for two numbers, or for two integers exactly. */
function compareNumbers<T extends number | bigint>(op: FilterOp, a: T, b: T): boolean {
  switch (op) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

/** A predicate for one term over one field. */
export function termPredicate(field: Field, term: FilterTerm): RowPredicate {
  const { op, value } = term;
  switch (field.kind) {
    case 'number': {
      const v = num(value);
      if (!Number.isFinite(v))
        throw new QueryError(`\`${term.key}\` is a number; expected a number after ${op}, got "${value}".`, term);
      const a = field.values;
      return (i) => compareNumbers(op, a[i], v);
    }
    case 'bool': {
      const t = value.trim().toLowerCase();
      const b = TRUE.has(t) ? 1 : FALSE.has(t) ? 0 : -1;
      if (b < 0)
        throw new QueryError(
          `\`${term.key}\` is true or false; expected true/false (or 1/0, yes/no), got "${value}".`,
          term,
        );
      if (op !== '=' && op !== '!=')
        throw new QueryError(`\`${term.key}\` is true or false; expected = or !=, got ${op}.`, term);
      const a = field.values;
      return op === '=' ? (i) => a[i] === b : (i) => a[i] !== b && a[i] !== 255;
    }
    case 'category': {
      // Decide per distinct name once; the row test is then a table look-up.
      const names = field.names;
      const hit = new Uint8Array(names.length);
      const v = num(value);
      if (op === '=' || op === '!=') {
        const vk = equalityKey(value);
        for (let k = 0; k < names.length; k++) {
          const eq = names[k] === value || (vk !== null && equalityKey(names[k]) === vk);
          hit[k] = (op === '=') === eq ? 1 : 0;
        }
      } else {
        if (!Number.isFinite(v))
          throw new QueryError(
            `expected a number after ${op} (\`${term.key}\` is compared as numbers), got "${value}".`,
            term,
          );
        const vi = exactInteger(value);
        for (let k = 0; k < names.length; k++) {
          const xi = vi === null ? null : exactInteger(names[k]);
          if (vi !== null && xi !== null) hit[k] = compareNumbers(op, xi, vi) ? 1 : 0;
          else {
            const x = num(names[k]);
            hit[k] = Number.isFinite(x) && compareNumbers(op, x, v) ? 1 : 0;
          }
        }
      }
      const codes = field.codes;
      return (i) => {
        const c = codes[i];
        return c >= 0 && hit[c] === 1;
      };
    }
  }
}

/**
 * An ascending, stable order of rows 0..n-1 by a field (ties keep row order, i.e. line order);
 * missing values last. Numbers: one native sort of the values, then a binary search and a counting
 * sort (no comparator calls). Categories: by name (numerically when every name is a number;
 * exactly, digit for digit, when every name is an integer).
 */
export function ascendingOrder(field: Field, n: number): { order: Int32Array; key: Float64Array } {
  const key = new Float64Array(n);
  if (field.kind === 'number' || field.kind === 'bool') {
    for (let i = 0; i < n; i++) {
      const v = field.values[i];
      key[i] = field.kind === 'bool' && v === 255 ? NaN : v;
    }
  } else {
    const names = field.names;
    const idx = names.map((_, k) => k);
    const ints = names.map(exactInteger);
    const allInt = ints.every((x) => x !== null);
    const nums = names.map(num);
    const allNum = nums.every((x) => Number.isFinite(x));
    const cmp = (a: number, b: number): number => {
      if (allInt) {
        const x = ints[a] as bigint;
        const y = ints[b] as bigint;
        return x < y ? -1 : x > y ? 1 : 0;
      }
      if (allNum) return nums[a] - nums[b];
      return names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0;
    };
    idx.sort(cmp);
    const rank = new Float64Array(names.length);
    // equal names (numeric `1` and `1.0`) share a rank
    idx.forEach((k, r) => (rank[k] = r > 0 && cmp(idx[r - 1], k) === 0 ? rank[idx[r - 1]] : r));
    for (let i = 0; i < n; i++) {
      const c = field.codes[i];
      key[i] = c >= 0 ? rank[c] : NaN;
    }
  }
  return { order: stableArgsort(key), key };
}

/** Stable ascending argsort of `key`, NaN last, −0 read as +0 (a radix sort of the keys' bits). */
export function stableArgsort(key: Float64Array): Int32Array {
  return float64Argsort(key, false).order;
}

/**
 * The rows of `order` (ascending by `key`, ties in row order) in the direction asked: descending
 * reverses the blocks of equal keys but keeps each block in row order, so ties stay in line order
 * both ways; missing values (NaN) come last both ways.
 */
export function directed(order: Int32Array, key: Float64Array, dir: SortDirection): Int32Array {
  if (dir === 'asc') return order;
  const n = order.length;
  const out = new Int32Array(n);
  let end = n;
  while (end > 0 && key[order[end - 1]] !== key[order[end - 1]]) end--; // missing values
  let k = 0;
  let p = end;
  while (p > 0) {
    const v = key[order[p - 1]];
    let b = p - 1;
    while (b > 0 && key[order[b - 1]] === v) b--;
    for (let q = b; q < p; q++) out[k++] = order[q];
    p = b;
  }
  for (let q = end; q < n; q++) out[k++] = order[q];
  return out;
}
