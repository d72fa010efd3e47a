/**
 * Paired significance tests, effect sizes and the Holm correction used to compare runs
 * (docs/comparisons.md). Each function follows scipy 1.10 where scipy has the function, and the
 * golden values of `scripts/golden/stats.py` check that it does.
 *
 * Undefined values follow scipy rather than being hidden: a statistic whose denominator is zero
 * is ±Infinity (non-zero numerator) or NaN (0/0), and its p-value is what the distribution gives
 * for that statistic (0 for |t| = ∞, NaN for NaN). The comparison layer turns non-finite values
 * into `null` plus a warning when it writes JSON.
 */
import { normalSf, studentTSf } from './distributions';

type Vec = ArrayLike<number>;

function checkPaired(a: Vec, b: Vec): void {
  if (a.length !== b.length) {
    throw new RangeError(`Expected paired samples of equal length, but got ${a.length} and ${b.length}.`);
  }
}

function mean(x: Vec): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return x.length > 0 ? s / x.length : NaN;
}

/** Sample variance with n − 1 in the denominator (two passes, as numpy's `var(ddof=1)`). */
function variance(x: Vec, m = mean(x)): number {
  if (x.length < 2) return NaN;
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (x[i] - m) * (x[i] - m);
  return s / (x.length - 1);
}

function differences(a: Vec, b: Vec): Float64Array {
  checkPaired(a, b);
  const d = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) d[i] = a[i] - b[i];
  return d;
}

export interface PairedTTestResult {
  /** Number of pairs. */
  n: number;
  /** Degrees of freedom, n − 1. */
  df: number;
  /** mean(a − b). */
  meanDiff: number;
  /** sd(a − b) with n − 1. */
  sdDiff: number;
  /** t = mean(d) / (sd(d)/√n). */
  t: number;
  /** Two-sided p-value. */
  p: number;
  /** One-sided p-value for the alternative mean(a − b) > 0 (`alternative='greater'`). */
  pGreater: number;
}

/**
 * Paired t-test of `a` against `b`, as scipy's `ttest_rel(a, b)`:
 * d = a − b, t = mean(d) / (sd(d)/√n) with sd over n − 1, df = n − 1,
 * p = 2·P(T_df > |t|), one-sided p = P(T_df > t).
 *
 * Edge cases (as scipy): n < 2 → t, p NaN; sd(d) = 0 with mean(d) ≠ 0 → t = ±∞, p = 0,
 * one-sided p = 0 (t = +∞) or 1 (t = −∞); every difference zero → t = NaN, p = NaN.
 *
 * @example pairedTTest([1, 2, 3, 5], [0, 1, 2, 3]) — d = [1, 1, 1, 2], mean 1.25, sd 0.5,
 *   t = 1.25 / (0.5/2) = 5, df = 3.
 */
export function pairedTTest(a: Vec, b: Vec): PairedTTestResult {
  const d = differences(a, b);
  const n = d.length;
  const m = mean(d);
  const sd = Math.sqrt(variance(d, m));
  const df = n - 1;
  if (n < 2) return { n, df, meanDiff: m, sdDiff: NaN, t: NaN, p: NaN, pGreater: NaN };
  // m / (sd/√n): 0/0 → NaN and x/0 → ±Infinity, as numpy's division.
  const t = m / (sd / Math.sqrt(n));
  const p = Number.isNaN(t) ? NaN : Math.min(1, 2 * studentTSf(Math.abs(t), df));
  const pGreater = Number.isNaN(t) ? NaN : studentTSf(t, df);
  return { n, df, meanDiff: m, sdDiff: sd, t, p, pGreater };
}

export interface WilcoxonResult {
  /** Number of pairs. */
  n: number;
  /** Pairs whose difference is exactly zero (dropped). */
  nZero: number;
  /** Pairs used: n − nZero. */
  nUsed: number;
  /** Sum of the ranks of |d| over positive differences. */
  wPlus: number;
  /** Sum of the ranks of |d| over negative differences. */
  wMinus: number;
  /** min(W+, W−): the statistic scipy reports for the two-sided test. */
  statistic: number;
  /** (statistic − μ)/σ, no continuity correction. */
  z: number;
  /** Two-sided p-value, 2·P(Z > |z|). */
  p: number;
}

/**
 * Wilcoxon signed-rank test of `a` against `b` with the normal approximation: scipy's
 * `wilcoxon(a, b, zero_method='wilcox', correction=False, method='approx')`, which is what
 * scipy's defaults use for n > 50 or when a difference is zero. Zero differences are dropped;
 * |d| are ranked with average ranks for ties; with m the pairs used,
 * μ = m(m+1)/4, σ² = [m(m+1)(2m+1) − ½Σ t(t² − 1)]/24 over the tie groups of size t,
 * z = (min(W+, W−) − μ)/σ, p = 2·P(Z > |z|).
 *
 * Unlike scipy's `method='auto'`, small samples without zeros also use the approximation (scipy
 * would use the exact null distribution there); the documentation says so. When every
 * difference is zero, scipy raises; here statistic, z and p are NaN.
 *
 * @example wilcoxonSignedRank([3, 1, 4, 1], [1, 2, 1, 1]) — d = [2, −1, 3, 0], zero dropped,
 *   ranks of |d| = [2, 1, 3], W+ = 5, W− = 1, statistic 1, μ = 3, σ = √(3·4·7/24) = √3.5.
 */
export function wilcoxonSignedRank(a: Vec, b: Vec): WilcoxonResult {
  const nz = Array.from(differences(a, b)).filter((x) => x !== 0);
  const n = a.length;
  const m = nz.length;
  const nZero = n - m;
  if (m === 0) return { n, nZero, nUsed: 0, wPlus: 0, wMinus: 0, statistic: NaN, z: NaN, p: NaN };
  const order = nz.map((_, i) => i).sort((i, j) => Math.abs(nz[i]) - Math.abs(nz[j]));
  let wPlus = 0;
  let wMinus = 0;
  let tieTerm = 0;
  for (let start = 0; start < m;) {
    let end = start + 1;
    while (end < m && Math.abs(nz[order[end]]) === Math.abs(nz[order[start]])) end++;
    const size = end - start;
    const rank = (start + 1 + end) / 2; // average of ranks start+1 … end
    for (let k = start; k < end; k++) {
      if (nz[order[k]] > 0) wPlus += rank;
      else wMinus += rank;
    }
    if (size > 1) tieTerm += size * (size * size - 1);
    start = end;
  }
  const statistic = Math.min(wPlus, wMinus);
  const mu = (m * (m + 1)) / 4;
  const sigma = Math.sqrt((m * (m + 1) * (2 * m + 1) - 0.5 * tieTerm) / 24);
  const z = (statistic - mu) / sigma;
  const p = Number.isNaN(z) ? NaN : Math.min(1, 2 * normalSf(Math.abs(z)));
  return { n, nZero, nUsed: m, wPlus, wMinus, statistic, z, p };
}

/**
 * Cohen's d for paired samples, d_z = mean(a − b) / sd(a − b), sd with n − 1.
 * n < 2 → NaN; sd = 0 → ±Infinity (NaN when the mean difference is 0 too).
 *
 * @example cohensDz([1, 2, 3, 5], [0, 1, 2, 3]) = 1.25 / 0.5 = 2.5
 */
export function cohensDz(a: Vec, b: Vec): number {
  const d = differences(a, b);
  if (d.length < 2) return NaN;
  const m = mean(d);
  return m / Math.sqrt(variance(d, m));
}

/**
 * Cohen's d with the pooled SD of two equal-sized samples:
 * (mean(a) − mean(b)) / √((s_a² + s_b²)/2), variances with n − 1.
 * n < 2 → NaN; both variances zero → ±Infinity (NaN when the means are equal).
 *
 * @example cohensDPooled([1, 2, 3], [0, 0, 3]) = (2 − 1)/√((1 + 3)/2) = 1/√2
 */
export function cohensDPooled(a: Vec, b: Vec): number {
  checkPaired(a, b);
  if (a.length < 2) return NaN;
  const ma = mean(a);
  const mb = mean(b);
  return (ma - mb) / Math.sqrt((variance(a, ma) + variance(b, mb)) / 2);
}

/**
 * Holm's step-down adjusted p-values (Holm 1979; R's `p.adjust(p, "holm")`): with the m defined
 * p-values sorted ascending, p̃_(i) = min(1, max_{j ≤ i} (m − j + 1)·p_(j)). Entries that are
 * null or NaN are not part of the family (m counts only defined p-values) and stay null.
 * Ties keep their input order; the result does not depend on it.
 *
 * @example holmAdjust([0.01, 0.04, 0.03, 0.005]) = [0.03, 0.06, 0.06, 0.02]
 */
export function holmAdjust(p: readonly (number | null)[]): (number | null)[] {
  const idx = definedAscending(p);
  const out: (number | null)[] = p.map(() => null);
  const m = idx.length;
  let running = 0;
  idx.forEach((i, k) => {
    running = Math.max(running, Math.min(1, (m - k) * (p[i] as number)));
    out[i] = running;
  });
  return out;
}

/** Indices of the defined p-values (not null, not NaN), ascending by p; ties keep their order. */
function definedAscending(p: readonly (number | null)[]): number[] {
  const idx: number[] = [];
  p.forEach((v, i) => {
    if (v !== null && !Number.isNaN(v)) {
      if (v < 0 || v > 1) throw new RangeError(`Expected p-values in [0, 1], but got ${v}.`);
      idx.push(i);
    }
  });
  return idx.sort((i, j) => (p[i] as number) - (p[j] as number));
}

/**
 * Benjamini–Hochberg step-up adjusted p-values (Benjamini & Hochberg 1995; statsmodels'
 * `multipletests(p, method="fdr_bh")`, R's `p.adjust(p, "BH")`): with the m defined p-values
 * sorted ascending, p̃_(i) = min(1, min_{j ≥ i} m·p_(j)/j). Null or NaN entries are not part of
 * the family and stay null.
 *
 * @example bhAdjust([0.01, 0.04, 0.03, 0.005]) = [0.02, 0.04, 0.04, 0.02]
 */
export function bhAdjust(p: readonly (number | null)[]): (number | null)[] {
  const idx = definedAscending(p);
  const out: (number | null)[] = p.map(() => null);
  const m = idx.length;
  let running = 1;
  for (let k = m - 1; k >= 0; k--) {
    const i = idx[k];
    running = Math.min(running, (m * (p[i] as number)) / (k + 1));
    out[i] = running;
  }
  return out;
}

/**
 * McNemar's exact test of paired 0/1 outcomes (McNemar 1947; the exact form is the two-sided
 * binomial test of the discordant pairs, as statsmodels' `mcnemar(table, exact=True)`): with b
 * pairs the baseline got right and the run wrong and c the other way round, under H0 each
 * discordant pair is either with probability 1/2, so p = min(1, 2·P(X ≤ min(b, c))), X ~
 * Binomial(b + c, 1/2). p = 1 when there is no discordant pair. The binomial terms are summed in
 * log space (log C(n, i+1) = log C(n, i) + ln(n − i) − ln(i + 1)), so any n works.
 *
 * @example mcnemarExact(1, 5).p = 2·(1 + 6)/2^6 = 0.21875
 */
export function mcnemarExact(b: number, c: number): { b: number; c: number; p: number } {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0)
    throw new RangeError(`Expected non-negative integer counts, but got b = ${b}, c = ${c}.`);
  const n = b + c;
  if (n === 0) return { b, c, p: 1 };
  const k = Math.min(b, c);
  const ln2n = n * Math.LN2;
  let logC = 0; // log C(n, 0)
  let maxLog = -Infinity;
  const logs: number[] = [];
  for (let i = 0; i <= k; i++) {
    logs.push(logC - ln2n);
    maxLog = Math.max(maxLog, logC - ln2n);
    logC += Math.log(n - i) - Math.log(i + 1);
  }
  let s = 0;
  for (const l of logs) s += Math.exp(l - maxLog);
  return { b, c, p: Math.min(1, 2 * Math.exp(maxLog + Math.log(s))) };
}

/** Cohen's conventional reading of an effect size |d| (Cohen 1988, ch. 2.2): 0.2 small, 0.5 medium, 0.8 large. */
export function effectReading(d: number): 'negligible' | 'small' | 'medium' | 'large' {
  const a = Math.abs(d);
  return a < 0.2 ? 'negligible' : a < 0.5 ? 'small' : a < 0.8 ? 'medium' : 'large';
}
