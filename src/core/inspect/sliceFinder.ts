/**
 * The slice finder (`evaluate --find-slices`, `diff --find-slices`): among the slices of a file —
 * every value of a categorical column, every quantile bin of a numeric column, and the
 * conjunctions of two of them from different columns — the slices whose accuracy is significantly
 * below the whole file (one run), or where run B is significantly worse than run A (two runs).
 *
 * It follows Slice Finder (Chung, Kraska, Polyzotis, Tae & Whang, "Slice Finder: Automated Data
 * Slicing for Model Validation", ICDE 2019, doi:10.1109/ICDE.2019.00139): slices are conjunctions
 * of feature predicates (here of one or two literals, the first two levels of its lattice search),
 * each slice is tested against its counterpart (the rest of the rows), slices smaller than a
 * minimum support are not considered, and a slice that is already problematic is not refined —
 * here a flagged two-literal slice is not listed when one of its literals is flagged on its own
 * (it is counted as `subsumed`). Where Slice Finder controls false discoveries with α-investing
 * over a search order, every slice is tested here and the family of all slices tried is controlled
 * by Benjamini–Hochberg (1995) at `alpha`: a slice is flagged when its BH-adjusted p-value q ≤ alpha
 * and its effect is negative.
 *
 * Conventions:
 * - Candidates: each column sliced as the slice table cuts it (sliceValues.ts) with `bins`
 *   quantile bins (default 4, quartiles) for a numeric column with more distinct values than
 *   that, by value otherwise; a non-numeric column with more than 50 distinct values (ids, free
 *   text) is not sliced. Empty cells form their own value. Two-literal slices pair values of two
 *   different columns; one whose rows are exactly those of one of its literals is the same slice
 *   and is not tried again. A slice is tried when its support n ≥ `minSupport` (default
 *   max(30, ⌈1% of the rows⌉)) and it is not every row.
 * - The per-row metric is correctness (accuracy), every row counted once (weights are not used):
 *   exact tests and one pass over the rows per pair of columns.
 * - One run: Δ = accuracy of the slice − accuracy of the whole file. Test: Fisher's exact test,
 *   two-sided, of the 2×2 table (slice, rest) × (right, wrong) — the p-value sums the
 *   hypergeometric probabilities of the tables no more likely than the observed one, with R's
 *   relative tolerance 10⁻⁷ (scipy's `fisher_exact` gives the same values). Interval of the
 *   slice's accuracy: Wilson's score interval; interval of Δ: Newcombe's hybrid score interval
 *   (method 10) of slice − rest, times (1 − n_slice/n), since slice − whole = (1 − n_s/n)·(slice − rest).
 * - Two runs (rows paired as `diff` pairs them; slices defined on run A's rows and columns,
 *   confidence included): Δ = accuracy of B − accuracy of A over the slice's rows. Test:
 *   McNemar's exact test of the slice's discordant rows (lost: A right and B wrong; gained: the
 *   other way round). Interval of Δ: Agresti & Min's adjusted Wald interval for matched
 *   proportions (half a row added to each of the four cells), clipped to [−1, 1].
 * - Listed: the flagged slices, most negative Δ first (ties: smaller p, then the order tried),
 *   at most `limit`.
 *
 * References: Chung et al. 2019 (above); Y. Benjamini & Y. Hochberg (1995), JRSS B 57(1):289–300;
 * R. A. Fisher (1922), JRSS 85(1):87–94; E. B. Wilson (1927), JASA 22(158):209–212;
 * R. G. Newcombe (1998), Statistics in Medicine 17(8):873–890; Q. McNemar (1947), Psychometrika
 * 12(2):153–157; A. Agresti & Y. Min (2005), Statistics in Medicine 24(5):729–740.
 */
import type { TextColumn } from '../data/textColumn';
import { normalCdf } from '../stats/distributions';
import { bhAdjust, mcnemarExact } from '../stats/tests';
import { MAX_SLICE_VALUES, sliceValues } from '../rows/sliceValues';
import type { FilterTerm } from '../rows/types';
import type { FoundSlice, SliceFinderOptions, SliceFinderResult } from './sliceFinderTypes';

export type { FoundSlice, SliceFinderOptions, SliceFinderResult };
import { formatWhere } from '../rows/where';

export interface SliceFinderInput {
  /**
   * Columns to slice by, one code per row (the filter key is the column's name); `categorical`
   * columns (e.g. the true class) are sliced by value even when their values are numbers.
   */
  columns: (TextColumn & { categorical?: boolean })[];
  /** 1 when run A (the only run, in one-run mode) got the row right. */
  correct: Uint8Array;
  /** Two runs: 1 when run B got the (paired) row right. */
  correctB?: Uint8Array | null;
}

export function defaultMinSupport(n: number): number {
  return Math.max(30, Math.ceil(0.01 * n));
}

/** Standard normal quantile, by bisection of the library's normal CDF (exact to the last bits). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) return p === 0 ? -Infinity : p === 1 ? Infinity : NaN;
  let lo = -40;
  let hi = 40;
  for (let k = 0; k < 200 && hi - lo > 0; k++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Wilson's score interval of k successes in n trials (NaN for n = 0). */
export function wilsonInterval(k: number, n: number, z: number): [number, number] {
  if (n === 0) return [NaN, NaN];
  const p = k / n;
  const z2 = z * z;
  const den = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / den;
  const half = (z / den) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, center - half), Math.min(1, center + half)];
}

/**
 * Newcombe's hybrid score interval (method 10) of p1 − p2 for independent proportions, as
 * statsmodels' `confint_proportions_2indep(..., method="newcomb")`.
 */
export function newcombeInterval(k1: number, n1: number, k2: number, n2: number, z: number): [number, number] {
  const p1 = k1 / n1;
  const p2 = k2 / n2;
  const [l1, u1] = wilsonInterval(k1, n1, z);
  const [l2, u2] = wilsonInterval(k2, n2, z);
  const d = p1 - p2;
  return [d - Math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + Math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)];
}

/**
 * Agresti & Min's (2005) interval of p_B − p_A for matched pairs, with `lost` pairs A right and B
 * wrong and `gained` the other way round out of n: half a pair is added to each of the four cells
 * (n* = n + 2), Δ* = (gained* − lost*)/n*, se = √((lost* + gained*) − (gained* − lost*)²/n*)/n*,
 * Δ* ± z·se clipped to [−1, 1].
 */
export function agrestiMinInterval(lost: number, gained: number, n: number, z: number): [number, number] {
  const b = lost + 0.5;
  const c = gained + 0.5;
  const m = n + 2;
  const d = (c - b) / m;
  const se = Math.sqrt(b + c - ((c - b) * (c - b)) / m) / m;
  return [Math.max(-1, d - z * se), Math.min(1, d + z * se)];
}

/**
 * Fisher's exact test, two-sided, of the 2×2 table [[a, b], [c, d]]: the sum of the
 * hypergeometric probabilities (margins fixed) of the tables whose probability is at most the
 * observed one's × (1 + 10⁻⁷) (R's `fisher.test`; scipy's `fisher_exact` uses 1 + 10⁻¹⁴, the same
 * values except for near-ties). Computed in log space from the mode outwards, each term from the
 * previous one; terms below e⁻⁴⁰ of the smaller of the observed and modal terms are not summed
 * (a relative error under 10⁻¹² for any table of up to 10⁵ rows per margin).
 *
 * @example fisherExact(1, 9, 11, 3) = 0.0027594561852200836 (scipy: 0.002759456185220088)
 */
export function fisherExact(a: number, b: number, c: number, d: number): number {
  const N = a + b + c + d;
  const r1 = a + b;
  const K = a + c;
  const lo = Math.max(0, r1 - (N - K));
  const hi = Math.min(K, r1);
  if (hi <= lo) return 1;
  // log of P(y + 1)/P(y)
  const step = (y: number): number =>
    Math.log(K - y) + Math.log(r1 - y) - Math.log(y + 1) - Math.log(N - K - r1 + y + 1);
  const mode = Math.min(hi, Math.max(lo, Math.floor(((r1 + 1) * (K + 1)) / (N + 2))));
  let lx = 0; // log P(a) − log P(mode)
  if (a > mode) for (let y = mode; y < a; y++) lx += step(y);
  else for (let y = mode - 1; y >= a; y--) lx -= step(y);
  const cut = lx + Math.log1p(1e-7);
  const floor = Math.min(lx, 0) - 40;
  let total = 1;
  let sel = 0 <= cut ? Math.exp(-lx) : 0; // terms relative to P(a), the mode's first
  for (const dir of [1, -1]) {
    let l = 0;
    for (let y = mode; dir > 0 ? y < hi : y > lo; y += dir) {
      l += dir > 0 ? step(y) : -step(y - 1);
      total += Math.exp(l);
      if (l <= cut) sel += Math.exp(l - lx);
      if (l < floor) break;
    }
  }
  return Math.min(1, (Math.exp(lx) * sel) / total);
}

interface Literal {
  column: number;
  value: number;
  label: string;
  where: FilterTerm[];
}

interface Candidate {
  literals: Literal[];
  n: number;
  rightA: number;
  lost: number;
  gained: number;
}

function literalLabel(column: string, label: string, kind: 'bins' | 'values'): string {
  return kind === 'bins' ? `${column} in ${label}` : `${column} = ${label}`;
}

/** The slice finder (see the module's doc). */
export function findSlices(input: SliceFinderInput, opts: SliceFinderOptions = {}): SliceFinderResult {
  const { correct } = input;
  const B = input.correctB ?? null;
  const n = correct.length;
  if (B && B.length !== n) throw new RangeError(`Expected ${n} rows of run B, but got ${B.length}.`);
  const minSupport = opts.minSupport ?? defaultMinSupport(n);
  const bins = opts.bins ?? 4;
  const alpha = opts.alpha ?? 0.05;
  const confidence = opts.confidence ?? 0.95;
  const limit = opts.limit ?? 20;
  if (!Number.isSafeInteger(minSupport) || minSupport < 1)
    throw new RangeError(`Expected a minimum support that is a whole number ≥ 1, but got ${minSupport}.`);
  if (!Number.isSafeInteger(bins) || bins < 2)
    throw new RangeError(`Expected a number of bins that is a whole number ≥ 2, but got ${bins}.`);
  if (!(alpha > 0 && alpha < 1) || !(confidence > 0 && confidence < 1))
    throw new RangeError(`Expected alpha and confidence in (0, 1), but got ${alpha} and ${confidence}.`);
  const z = normalQuantile(1 - (1 - confidence) / 2);

  // The literals of every column, with each row's literal per column.
  const cols: { name: string; codes: Int32Array; literals: Literal[] }[] = [];
  for (const col of input.columns) {
    if (col.codes.length !== n) throw new RangeError(`Expected ${n} rows in column ${col.name}.`);
    const sv = sliceValues(col, col.categorical ? Infinity : bins);
    if (sv.kind === 'values' && col.values.length > MAX_SLICE_VALUES) continue; // ids, free text
    if (sv.labels.length < 2) continue; // one value: the whole file
    const c = cols.length;
    cols.push({
      name: col.name,
      codes: sv.codes,
      literals: sv.labels.map((label, v) => ({
        column: c,
        value: v,
        label: literalLabel(col.name, label, sv.kind),
        where: sv.where[v],
      })),
    });
  }

  let rightA = 0;
  let rightB = 0;
  for (let i = 0; i < n; i++) {
    rightA += correct[i];
    if (B) rightB += B[i];
  }
  // Counts per cell of one or two columns: rows, A right, lost, gained.
  const count = (cells: number, cellOf: (i: number) => number): Float64Array => {
    const t = new Float64Array(cells * 4);
    for (let i = 0; i < n; i++) {
      const o = cellOf(i) * 4;
      t[o]++;
      t[o + 1] += correct[i];
      if (B) {
        if (correct[i] && !B[i]) t[o + 2]++;
        else if (!correct[i] && B[i]) t[o + 3]++;
      }
    }
    return t;
  };
  const candidates: Candidate[] = [];
  const singleIndex: Int32Array[] = []; // per column and value: the candidate index, or −1
  const singles = cols.map((col) => count(col.literals.length, (i) => col.codes[i]));
  cols.forEach((col, c) => {
    const t = singles[c];
    singleIndex.push(
      Int32Array.from(col.literals, (lit, v) => {
        const size = t[v * 4];
        if (size < minSupport || size >= n) return -1;
        candidates.push({ literals: [lit], n: size, rightA: t[v * 4 + 1], lost: t[v * 4 + 2], gained: t[v * 4 + 3] });
        return candidates.length - 1;
      }),
    );
  });
  const pairParents: [number, number][] = [];
  for (let c1 = 0; c1 < cols.length; c1++)
    for (let c2 = c1 + 1; c2 < cols.length; c2++) {
      const V2 = cols[c2].literals.length;
      const codes1 = cols[c1].codes;
      const codes2 = cols[c2].codes;
      const t = count(cols[c1].literals.length * V2, (i) => codes1[i] * V2 + codes2[i]);
      for (let v1 = 0; v1 < cols[c1].literals.length; v1++)
        for (let v2 = 0; v2 < V2; v2++) {
          const o = (v1 * V2 + v2) * 4;
          const size = t[o];
          if (size < minSupport) continue;
          // the same rows as one of its literals: that slice, already tried
          if (size === singles[c1][v1 * 4] || size === singles[c2][v2 * 4]) continue;
          candidates.push({
            literals: [cols[c1].literals[v1], cols[c2].literals[v2]],
            n: size,
            rightA: t[o + 1],
            lost: t[o + 2],
            gained: t[o + 3],
          });
          pairParents.push([singleIndex[c1][v1], singleIndex[c2][v2]]);
        }
    }
  const nSingles = candidates.length - pairParents.length;

  const wholeA = rightA / n;
  const stats = candidates.map((s) => {
    if (B) {
      const accA = s.rightA / s.n;
      const accB = (s.rightA - s.lost + s.gained) / s.n;
      return {
        delta: accB - accA,
        deltaCi: agrestiMinInterval(s.lost, s.gained, s.n, z),
        p: mcnemarExact(s.lost, s.gained).p,
      };
    }
    const restN = n - s.n;
    const restRight = rightA - s.rightA;
    const f = 1 - s.n / n;
    const [lo, hi] = newcombeInterval(s.rightA, s.n, restRight, restN, z);
    return {
      delta: s.rightA / s.n - wholeA,
      deltaCi: [f * lo, f * hi] as [number, number],
      p: fisherExact(s.rightA, s.n - s.rightA, restRight, restN - restRight),
    };
  });
  const q = bhAdjust(stats.map((s) => s.p));
  const isFlagged = (k: number): boolean => k >= 0 && (q[k] ?? 1) <= alpha && stats[k].delta < 0;
  const listed: number[] = [];
  let flagged = 0;
  let subsumed = 0;
  for (let k = 0; k < candidates.length; k++) {
    if (!isFlagged(k)) continue;
    flagged++;
    if (k >= nSingles) {
      const [p1, p2] = pairParents[k - nSingles];
      if (isFlagged(p1) || isFlagged(p2)) {
        subsumed++;
        continue;
      }
    }
    listed.push(k);
  }
  listed.sort((x, y) => stats[x].delta - stats[y].delta || stats[x].p - stats[y].p || x - y);
  const slices: FoundSlice[] = listed.slice(0, limit).map((k) => {
    const s = candidates[k];
    const where = s.literals.flatMap((l) => l.where);
    const out: FoundSlice = {
      slice: s.literals.map((l) => l.label).join(' and '),
      where,
      whereText: formatWhere(where),
      n: s.n,
      delta: stats[k].delta,
      deltaCi: stats[k].deltaCi,
      p: stats[k].p,
      q: q[k]!,
    };
    if (B) {
      out.accuracyA = s.rightA / s.n;
      out.accuracyB = (s.rightA - s.lost + s.gained) / s.n;
      out.lost = s.lost;
      out.gained = s.gained;
    } else {
      out.accuracy = s.rightA / s.n;
      out.ci = wilsonInterval(s.rightA, s.n, z);
    }
    return out;
  });
  return {
    mode: B ? 'two-runs' : 'one-run',
    n,
    whole: B ? { accuracyA: wholeA, accuracyB: rightB / n, delta: (rightB - rightA) / n } : { accuracy: wholeA },
    minSupport,
    bins,
    alpha,
    confidence,
    columns: cols.map((c) => c.name),
    test: B ? 'mcnemar-exact' : 'fisher-exact',
    interval: B ? 'agresti-min' : 'wilson+newcombe',
    tried: candidates.length,
    flagged,
    subsumed,
    slices,
  };
}
