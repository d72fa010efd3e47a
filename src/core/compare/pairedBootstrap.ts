/**
 * The paired bootstrap of two runs over every key their families resample (stats/resamplingPlan.ts).
 *
 * Convention: the units (rows by id, users by id, else rows by position) of the two runs are
 * matched one to one; resample b draws one multiplicity per matched unit — from (seed, b) alone
 * (stats/resampleDraws.ts), stratified like the single-run bootstrap when the plan has strata —
 * and BOTH runs are evaluated on those same multiplicities. Each key's Δ* = B* − A* over the
 * resamples gives:
 * - `ci_diff`: the percentile interval of Δ* at the configured level;
 * - `p_boot`: the two-sided bootstrap p-value by inverting the percentile interval,
 *   p = min(1, 2·min(#{Δ* ≤ 0} + 1, #{Δ* ≥ 0} + 1)/(B′ + 1)) over the B′ resamples where Δ* is
 *   defined; it is below 1 − level exactly when the interval (nearly) excludes 0, and never 0
 *   (the "+1" of Davison & Hinkley 1997, eq. 4.11);
 * - `better_by`: the signed relative change in the metric's good direction,
 *   s·(B − A)/|A| with s = +1 when higher is better and −1 when lower is better, and its
 *   percentile interval from s·Δ* ÷ |A*|;
 * - each run's own interval from the same resamples (percentile; basic about the run's point for
 *   the binned calibration errors, as in a single run's report).
 * Resample b depends only on (seed, b), so the values are the same whatever the number of threads.
 *
 * References: B. Efron, R. J. Tibshirani (1993), An Introduction to the Bootstrap, ch. 13 and 16,
 * Chapman & Hall, doi:10.1201/9780429246593; A. C. Davison, D. V. Hinkley (1997), Bootstrap
 * Methods and their Application, Cambridge University Press, doi:10.1017/CBO9780511802843.
 */
import { fail } from '../diagnostics';
import { IdIndex } from '../data/idIndex';
import { intervalOf, percentileInterval, resampleColumns } from '../stats/bootstrap';
import { ResamplePool, type ResampleFn } from '../stats/parallelBootstrap';
import { pairedStat, type PairedJob } from '../stats/pairedStat';
import { stratumPositions } from '../stats/resampleDraws';
import type { ResamplingPlan } from '../stats/resamplingPlan';
import type { Direction } from '../results/types';

/** One key's paired result. */
export interface PairedKey {
  key: string;
  /** A and B on the matched units (every multiplicity 1). */
  a: number | null;
  b: number | null;
  delta: number | null;
  ci_diff: [number, number] | null;
  p_boot: number | null;
  better_by: number | null;
  better_by_ci: [number, number] | null;
  ci_a: [number, number] | null;
  ci_b: [number, number] | null;
  /** Resamples where Δ* is defined. */
  resamples: number;
  /**
   * The interval of Δ does not contain Δ itself: the bootstrap distribution of this statistic is
   * shifted (binned calibration errors, coverage of a union over users), so the interval and p
   * must be read with care; every output marks it beside the number.
   */
  excludes_point: boolean;
}

export interface PairedOptions {
  n: number;
  confidence: number;
  seed: number;
  /** The runs' display names, for messages. */
  names: [string, string];
  /** Match units by id (both plans have ids) or by position. */
  matchBy: 'id' | 'position';
  direction: (key: string) => Direction;
  onResample?: (done: number, total: number) => void;
  threads?: number;
}

/**
 * For each unit of B, the index of the same unit in A (a bijection), or an error naming the first
 * unit that does not pair.
 */
export function matchUnits(
  a: ResamplingPlan,
  b: ResamplingPlan,
  opts: Pick<PairedOptions, 'names' | 'matchBy'>,
): Int32Array {
  const [na, nb] = opts.names;
  const what = a.unit === 'user' ? 'users' : 'rows';
  if (a.n !== b.n)
    fail(
      'compare-paired-mismatch',
      { file: nb },
      `expected the same ${what} as ${na} for a paired comparison, but ${nb} has ${b.n} and ${na} has ${a.n}.`,
    );
  const kOfB = new Int32Array(b.n);
  if (opts.matchBy === 'position' || a.ids === null || b.ids === null) {
    for (let j = 0; j < b.n; j++) kOfB[j] = j;
  } else {
    // not a Map: it holds at most 2^24 ids (data/idIndex.ts)
    const index = new IdIndex(a.ids);
    for (let j = 0; j < b.n; j++) {
      const i = index.indexOfIdIn(b.ids, j);
      if (i < 0)
        fail(
          'compare-paired-mismatch',
          { file: nb },
          `expected every id of ${nb} in ${na} for a paired comparison, but "${b.ids.at(j)}" is not there.`,
        );
      kOfB[j] = i;
    }
    if (index.size !== a.n)
      fail('compare-paired-mismatch', { file: na }, `expected distinct ids in ${na} for a paired comparison.`);
  }
  if (a.truth && b.truth) {
    for (let j = 0; j < b.n; j++) {
      const i = kOfB[j];
      if (a.truth[i] !== b.truth[j]) {
        const id = b.ids ? `id "${b.ids.at(j)}"` : `row ${j + 1}`;
        fail(
          'compare-paired-mismatch',
          { file: nb },
          `expected the same true labels as ${na}, but ${id} is "${b.truth[j]}" there and "${a.truth[i]}" in ${na}.`,
        );
      }
    }
  }
  return kOfB;
}

/** Where each position of a plan's statistic reads from: the matched unit index. */
function gatherOf(plan: ResamplingPlan, unitIndex: (i: number) => number): Int32Array {
  const g = new Int32Array(plan.n);
  for (let i = 0; i < plan.n; i++) g[plan.position ? plan.position[i] : i] = unitIndex(i);
  return g;
}

/**
 * Two-sided bootstrap p-value of Δ = 0 by inverting the percentile interval (see the module's
 * doc): null when fewer than half the resamples define Δ*.
 */
export function bootstrapPValue(deltas: ArrayLike<number>): number | null {
  let le = 0;
  let ge = 0;
  let m = 0;
  for (let i = 0; i < deltas.length; i++) {
    const d = deltas[i];
    if (Number.isNaN(d)) continue;
    m++;
    if (d <= 0) le++;
    if (d >= 0) ge++;
  }
  if (m === 0 || m * 2 < deltas.length) return null;
  return Math.min(1, (2 * (Math.min(le, ge) + 1)) / (m + 1));
}

/** s·(b − a)/|a| (s = +1 higher-better, −1 lower-better); null when a is 0 or either is undefined. */
export function betterBy(a: number, b: number, direction: Direction): number | null {
  if (!Number.isFinite(a) || !Number.isFinite(b) || a === 0) return null;
  return ((direction === 'lower' ? -1 : 1) * (b - a)) / Math.abs(a);
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/**
 * The paired bootstrap of B against A over the keys both plans have: see the module's doc.
 * The plans' units must match one to one ({@link matchUnits}).
 */
export async function pairedBootstrap(a: ResamplingPlan, b: ResamplingPlan, opts: PairedOptions): Promise<PairedKey[]> {
  if (!Number.isInteger(opts.n) || opts.n < 1)
    throw new RangeError(`Expected \`n\` to be a positive integer, but got ${opts.n}.`);
  const kOfB = matchUnits(a, b, opts);
  const n = a.n;
  const gatherA = gatherOf(a, (i) => i);
  const gatherB = gatherOf(b, (j) => kOfB[j]);
  const KA = a.keys.length;
  const KB = b.keys.length;
  const K = KA + KB;
  const sameWorker = a.worker && b.worker && a.worker.file !== null && a.worker.file === b.worker.file;
  const job: PairedJob | null = sameWorker
    ? { paired: true, a: a.worker!.job, b: b.worker!.job, gatherA, gatherB, KA, KB }
    : null;
  const build = (): ResampleFn => pairedStat(a.build(), b.build(), gatherA, gatherB, KA, KB);
  // The point values: every matched unit once.
  const ones = new Int32Array(n).fill(1);
  const point = new Float64Array(K).fill(NaN);
  build()(ones, point);
  const pool = new ResamplePool({
    nRows: n,
    K,
    totalResamples: opts.n,
    seed: opts.seed,
    strata: stratumPositions(n, a.strata),
    stat: { build },
    job,
    workerFile: job ? a.worker!.file : null,
    threads: opts.threads,
  });
  let values: Float64Array;
  try {
    values = await pool.run(0, opts.n, (done) => opts.onResample?.(done, opts.n));
  } finally {
    await pool.close();
  }
  const cols = resampleColumns(values, K, opts.n);
  const out: PairedKey[] = [];
  const d = new Float64Array(opts.n);
  const rel = new Float64Array(opts.n);
  b.keys.forEach((key, kb) => {
    const ka = a.keys.indexOf(key);
    if (ka < 0) return;
    const dir = opts.direction(key);
    const s = dir === 'lower' ? -1 : 1;
    const A = cols[ka];
    const B = cols[KA + kb];
    for (let r = 0; r < opts.n; r++) {
      d[r] = B[r] - A[r];
      rel[r] = A[r] !== 0 ? (s * d[r]) / Math.abs(A[r]) : NaN;
    }
    const pa = point[ka];
    const pb = point[KA + kb];
    let defined = 0;
    for (let r = 0; r < opts.n; r++) if (!Number.isNaN(d[r])) defined++;
    // Δ's interval is the percentile interval of the paired differences for every key, the
    // calibration errors included: both runs, evaluated on the same resampled rows, carry an upward
    // resampling bias, and much of it cancels in the difference when the runs are similarly
    // calibrated — not when one is much better calibrated than the other, and then the interval
    // can miss Δ (excludes_point, ‡ in the view). Each run's own interval (ci_a, ci_b) follows the
    // single-run rule: basic about its point for the calibration errors, percentile otherwise, as in
    // that run's report.
    const ci = percentileInterval(d, opts.confidence);
    const delta = finite(pb - pa);
    out.push({
      key,
      a: finite(pa),
      b: finite(pb),
      delta,
      ci_diff: ci,
      p_boot: bootstrapPValue(d),
      better_by: betterBy(pa, pb, dir),
      better_by_ci: percentileInterval(rel, opts.confidence),
      ci_a: intervalOf(key, A, pa, opts.confidence),
      ci_b: intervalOf(key, B, pb, opts.confidence),
      resamples: defined,
      excludes_point: ci !== null && delta !== null && (delta < ci[0] || delta > ci[1]),
    });
  });
  return out;
}
