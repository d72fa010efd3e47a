/**
 * Percentile bootstrap intervals of the ranking task's families (docs/metrics/ranking.md): a
 * resample is a multiplicity vector c over the evaluated users; its shared sums are the user means
 * Σ c_u·v_u / Σ c_u of every per-user key over the users with a defined value (one kernel), from
 * which each family's statistic writes its keys ({@link rankingPlan}). The resamples are those of
 * one sequential generator (stats/resampleStream.ts), split across
 * threads (stats/parallelBootstrap.ts) with the same values as on one.
 *
 * Every numerator is summed with four running sums (user i into sum i mod 4, the last n mod 4
 * users into the first, combined as s0 + s1 + (s2 + s3)): a fixed order of additions, so the same
 * data and seed give the same interval on any number of threads. Denominators are sums of integers
 * (multiplicities), exact in any order.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RowIds } from '../data/rowIds';
import type { ResamplingPlan } from '../stats/resamplingPlan';
import type { ResampleStat } from '../stats/resampleDraws';
import { RANKING_FAMILIES } from './rankingFamilies';
import type { RankingResampleRun, RankingRun, RankingSums } from './rankingRun';
import { familyKeyValues, familyResampledKeys } from './taskFamily';

/** What a thread needs to compute the user means of a resample (structured-cloneable). */
export interface UserMeanJob {
  /** Evaluated users. */
  n: number;
  /** Per key its users' values, 0 where undefined (over a SharedArrayBuffer when threads share them). */
  values: Float64Array[];
  /** The distinct 0/1 masks of the keys undefined for some users (1 = defined). */
  masks: Uint8Array[];
  /** Per key the index of its mask in `masks`, or −1 when it is defined for every user. */
  maskOf: Int32Array;
}

/** The job of `keys` of `perUser` (n users each); `shared` puts the values where threads share them. */
export function userMeanJob(
  perUser: Record<string, Float64Array>,
  keys: readonly string[],
  n: number,
  shared: boolean,
): UserMeanJob {
  const values: Float64Array[] = [];
  const masks: Uint8Array[] = [];
  const maskOf = new Int32Array(keys.length).fill(-1);
  keys.forEach((key, q) => {
    const v = perUser[key];
    if (v.length !== n) throw new RangeError(`Expected ${n} values of ${key}, but got ${v.length}.`);
    const col = shared ? new Float64Array(new SharedArrayBuffer(n * 8)) : v;
    if (!v.some((x) => Number.isNaN(x))) {
      if (col !== v) col.set(v);
      values.push(col);
      return;
    }
    // 0 in the undefined places and a 0/1 mask: Σ c·v / Σ c·mask, without a branch per user.
    const c = col === v ? new Float64Array(n) : col;
    const mask = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const x = v[i];
      c[i] = Number.isNaN(x) ? 0 : x;
      mask[i] = Number.isNaN(x) ? 0 : 1;
    }
    values.push(c);
    // Keys defined for the same users (e.g. one metric at several K) share one mask and one denominator.
    let m = masks.findIndex((other) => sameBytes(other, mask));
    if (m < 0) {
      m = masks.length;
      masks.push(shared ? sharedCopy(mask) : mask);
    }
    maskOf[q] = m;
  });
  return { n, values, masks, maskOf };
}

/** The user means of one resample: multiplicities over the job's users → one value per key (NaN if no user). */
export function userMeanStat(job: UserMeanJob): (counts: Int32Array, out: Float64Array) => void {
  const { n, values, masks, maskOf } = job;
  const K = maskOf.length;
  const den = new Float64Array(masks.length);
  const sums = new Float64Array(K);
  return (counts, out) => {
    let total = 0;
    for (let i = 0; i < n; i++) total += counts[i];
    for (let m = 0; m < masks.length; m++) {
      const mask = masks[m];
      let d = 0;
      for (let i = 0; i < n; i++) d += counts[i] * mask[i];
      den[m] = d;
    }
    // Two keys per pass: each multiplicity is read once for both (about a quarter less time than
    // one key per pass in V8; three or four keys per pass were no faster).
    let q = 0;
    for (; q + 1 < K; q += 2) dot4x2(counts, values[q], values[q + 1], n, sums, q);
    if (q < K) sums[q] = dot4(counts, values[q], n);
    for (q = 0; q < K; q++) {
      const d = maskOf[q] < 0 ? total : den[maskOf[q]];
      out[q] = d > 0 ? sums[q] / d : NaN;
    }
  };
}

/** {@link dot4} of `a` with `b` into out[q] and with `c` into out[q + 1], in one pass. */
function dot4x2(a: Int32Array, b: Float64Array, c: Float64Array, n: number, out: Float64Array, q: number): void {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let t0 = 0;
  let t1 = 0;
  let t2 = 0;
  let t3 = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const a0 = a[i];
    const a1 = a[i + 1];
    const a2 = a[i + 2];
    const a3 = a[i + 3];
    s0 += a0 * b[i];
    s1 += a1 * b[i + 1];
    s2 += a2 * b[i + 2];
    s3 += a3 * b[i + 3];
    t0 += a0 * c[i];
    t1 += a1 * c[i + 1];
    t2 += a2 * c[i + 2];
    t3 += a3 * c[i + 3];
  }
  for (; i < n; i++) {
    s0 += a[i] * b[i];
    t0 += a[i] * c[i];
  }
  out[q] = s0 + s1 + (s2 + s3);
  out[q + 1] = t0 + t1 + (t2 + t3);
}

/** Σ a_i·b_i with four running sums (see the module comment for the order). */
function dot4(a: Int32Array, b: Float64Array, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < n; i++) s0 += a[i] * b[i];
  return s0 + s1 + (s2 + s3);
}

/** `a` copied into a SharedArrayBuffer (worker threads then read it without a copy of their own). */
function sharedCopy(a: Uint8Array): Uint8Array {
  const out = new Uint8Array(new SharedArrayBuffer(a.length));
  out.set(a);
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The worker script next to this module: the bundle's `rankingCiWorker.js`, or the .ts source under tsx. */
export function rankingCiWorkerFile(): string | null {
  for (const f of [join(__dirname, 'rankingCiWorker.js'), join(__dirname, 'rankingCiWorker.ts')])
    if (existsSync(f)) return f;
  return null;
}

/** The options of {@link rankingPlan}. */
export interface UserMeanPlanOptions {
  /** The evaluated users' ids, in the order of the values (null: pair by position). */
  ids: RowIds | null;
  /**
   * Put the values where bootstrap threads share them (a SharedArrayBuffer); otherwise each
   * worker gets a copy. Worth it when the plan runs on several threads.
   */
  shared: boolean;
}

/**
 * What every plan over the evaluated users shares — the task's ({@link rankingPlan}) and the tests'
 * plan of user means alone (test/unit/helpers/bootstrapReference.ts): the units, the draws, the
 * seek cost.
 */
export function streamPlan(
  n: number,
  ids: RowIds | null,
  keys: string[],
  means: number,
): Omit<ResamplingPlan, 'build' | 'worker'> {
  return {
    unit: 'user',
    n,
    ids,
    truth: null,
    strata: null,
    keys,
    position: null,
    // the run's intervals as written since the first version (one sequential generator)
    draws: 'stream',
    // Measured with 100,000 users: stepping through a resample's draws costs about as much as
    // drawing them (≈ 0.45 ms), the statistic ≈ 0.08 ms per key.
    seekCost: 1 / (1 + 0.2 * means),
  };
}

/**
 * What a ranking bootstrap thread needs to compute a resample of the task's families
 * (structured-cloneable): the kernel's job over the per-user keys, the plan's keys, the cutoffs.
 */
export interface RankingJob {
  ranking: true;
  /** The user means of the per-user keys `meanKeys`, in that order (the resample's {@link RankingSums}). */
  means: UserMeanJob;
  meanKeys: string[];
  /** The plan's keys, in its output order. */
  keys: string[];
  ks: number[];
}

export function isRankingJob(job: unknown): job is RankingJob {
  return typeof job === 'object' && job !== null && (job as { ranking?: unknown }).ranking === true;
}

/**
 * The statistic of one resample of the ranking families: the one kernel computes the user means of
 * every per-user key ({@link userMeanStat}: the shared sums), then each family's statistic reads
 * them (and, for the catalogue keys of a comparison, the users drawn) and writes its keys.
 */
export function rankingStat(job: RankingJob, run: RankingResampleRun): ResampleStat {
  const kernel = userMeanStat(job.means);
  const { meanKeys, keys } = job;
  const buf = new Float64Array(meanKeys.length);
  const means: Record<string, number> = {};
  const sums: RankingSums = { means, counts: null };
  // the families' statistics into one record reused by every resample (familyKeyValues)
  const values = familyKeyValues(RANKING_FAMILIES, keys);
  return (counts, out) => {
    kernel(counts, buf);
    for (let q = 0; q < meanKeys.length; q++) means[meanKeys[q]] = buf[q];
    sums.counts = counts;
    values(run, sums, out);
  };
}

/** The run a bootstrap thread has: the cutoffs alone (the catalogue keys never go to a thread). */
export function threadRankingRun(job: RankingJob): RankingResampleRun {
  return { ks: job.ks, evaluated: new Int32Array(0), catalog: null };
}

/**
 * The ranking task's {@link ResamplingPlan}: the keys the registered families' statistics give
 * (rankingFamilies.ts), the means over users first (the kernel's keys), then the keys computed from
 * the users drawn (the catalogue keys of a comparison, which read the lists: the plan then runs on
 * the calling thread).
 */
export function rankingPlan(run: RankingRun, opts: UserMeanPlanOptions): ResamplingPlan {
  const perUser = run.evaluation.perUser;
  const all = familyResampledKeys(RANKING_FAMILIES, run);
  const meanKeys = all.filter((k) => perUser[k] !== undefined);
  const keys = [...meanKeys, ...all.filter((k) => perUser[k] === undefined)];
  const n = run.evaluated.length;
  const job: RankingJob = {
    ranking: true,
    means: userMeanJob(perUser, meanKeys, n, opts.shared),
    meanKeys,
    keys,
    ks: [...run.ks],
  };
  return {
    ...streamPlan(n, opts.ids, keys, meanKeys.length),
    build: () => rankingStat(job, run),
    // keys beyond the means read the lists, which stay on this thread
    worker: keys.length > meanKeys.length ? null : { file: rankingCiWorkerFile(), job },
  };
}
