/**
 * Long-tail metrics of docs/metrics/classification.md: shot groups (`acc_many|medium|few`), class
 * groups (`acc_group.<g>`) and train-frequency reweighting (`weighted_accuracy`,
 * `weighted_error_group.<g>`).
 *
 * Every value here is a function of the per-class weighted sums ({@link ClassStats}), so the
 * bootstrap calls {@link aggregateLongTail} with the stats of each resample: O(C).
 *
 * References:
 * - Z. Liu, Z. Miao, X. Zhan, J. Wang, B. Gong, S. X. Yu (2019). Large-Scale Long-Tailed Recognition in an Open
 *   World. IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR). https://arxiv.org/abs/1904.05160
 * - H. Shimodaira (2000). Improving predictive inference under covariate shift by weighting the log-likelihood
 *   function. Journal of Statistical Planning and Inference 90(2):227–244.
 *   https://doi.org/10.1016/S0378-3758(00)00115-4
 * - Z. C. Lipton, Y.-X. Wang, A. J. Smola (2018). Detecting and Correcting for Label Shift with Black Box
 *   Predictors. International Conference on Machine Learning (ICML). https://arxiv.org/abs/1802.03916
 *
 * @see docs/metrics/classification.md — the definitions, conventions and worked examples.
 */
import type { ClassStats } from './classification';
import type { GroupSpec, TrainDistribution } from './trainDistribution';

export type Shot = 'many' | 'medium' | 'few';
export const SHOTS: readonly Shot[] = ['many', 'medium', 'few'];

export interface LongTailOptions {
  /** `shotThresholds`: many `n_c > many`, medium `few ≤ n_c ≤ many`, few `n_c < few`. Default {many: 100, few: 20}. */
  shotThresholds?: { many?: number; few?: number };
  /** ε of e_g(w) (`reweightEpsilon`). Default 1e-12. */
  reweightEpsilon?: number;
}

/** What the long-tail aggregate needs, fixed for a run (no per-row data). */
export interface LongTailSetup {
  C: number;
  train: TrainDistribution | null;
  /** Shot per class (0 many, 1 medium, 2 few), or null without train counts. */
  shotOf: Int8Array | null;
  groups: GroupSpec | null;
  /** w^trn per class = n_c / N_train (the train share), or null without a train distribution. */
  trainWeight: Float64Array | null;
  epsilon: number;
}

/** Shot index per class from train counts (0 many, 1 medium, 2 few). */
export function shotOfCounts(counts: ArrayLike<number>, thresholds: { many?: number; few?: number } = {}): Int8Array {
  const many = thresholds.many ?? 100;
  const few = thresholds.few ?? 20;
  const out = new Int8Array(counts.length);
  for (let c = 0; c < counts.length; c++) out[c] = counts[c] > many ? 0 : counts[c] < few ? 2 : 1;
  return out;
}

export function prepareLongTail(
  C: number,
  train: TrainDistribution | null,
  groups: GroupSpec | null,
  opts: LongTailOptions = {},
): LongTailSetup {
  return {
    C,
    train,
    shotOf: train?.counts ? shotOfCounts(train.counts, opts.shotThresholds) : null,
    groups,
    trainWeight: train ? train.shares : null,
    epsilon: opts.reweightEpsilon ?? 1e-12,
  };
}

/** Mean of acc_c over the member classes that have test rows; null when none has. */
export function classMeanAccuracy(stats: ClassStats, member: (c: number) => boolean): number | null {
  let sum = 0;
  let m = 0;
  for (let c = 0; c < stats.support.length; c++) {
    if (member(c) && stats.support[c] > 0) {
      sum += stats.correct[c] / stats.support[c];
      m++;
    }
  }
  return m > 0 ? sum / m : null;
}

/**
 * The reweighted group error e_g(w) with every row accepted (A = 1) and w = w_i·w^trn_{y_i}:
 * `Σ_{i∈g} w·1[ŷ≠y] / (Σ_{i∈g} w + ε)`. A group with no rows (zero total row weight) is 1.0
 * (nothing accepted counts as a total failure); a group whose rows all have train share 0 is null (0/ε would be a silent 0).
 *
 * @example CIFAR-100-LT head/tail: head rows with train weights [0.046, 0.044, 0.042, 0.040, 0.038, 0.037], the
 * last three wrong → (0.042+0.038+0.037)/0.247 = 0.4737.
 */
export function reweightedGroupError(
  stats: ClassStats,
  trainWeight: ArrayLike<number>,
  member: (c: number) => boolean,
  epsilon: number,
): number | null {
  let num = 0;
  let den = 0;
  let rows = 0;
  for (let c = 0; c < stats.support.length; c++) {
    if (!member(c)) continue;
    rows += stats.support[c];
    num += trainWeight[c] * (stats.support[c] - stats.correct[c]);
    den += trainWeight[c] * stats.support[c];
  }
  if (!(rows > 0)) return 1.0;
  if (!(den > 0)) return null;
  return num / (den + epsilon);
}

/**
 * Every long-tail scalar from the per-class sums. Keys (those whose inputs exist):
 * `acc_many`, `acc_medium`, `acc_few` (train counts), `acc_group.<g>` (groups), `weighted_accuracy`
 * (train distribution), `weighted_error_group.<g>` (both).
 */
export function aggregateLongTail(setup: LongTailSetup, stats: ClassStats): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  const { shotOf, groups, trainWeight } = setup;
  if (shotOf) {
    SHOTS.forEach((s, si) => {
      out[`acc_${s}`] = classMeanAccuracy(stats, (c) => shotOf[c] === si);
    });
  }
  if (groups) {
    groups.names.forEach((g, gi) => {
      out[`acc_group.${g}`] = classMeanAccuracy(stats, (c) => groups.groupOf[c] === gi);
    });
  }
  if (trainWeight) {
    let num = 0;
    let den = 0;
    for (let c = 0; c < stats.support.length; c++) {
      num += trainWeight[c] * stats.correct[c];
      den += trainWeight[c] * stats.support[c];
    }
    out.weighted_accuracy = den > 0 ? num / den : null;
    if (groups) {
      groups.names.forEach((g, gi) => {
        out[`weighted_error_group.${g}`] = reweightedGroupError(
          stats,
          trainWeight,
          (c) => groups.groupOf[c] === gi,
          setup.epsilon,
        );
      });
    }
  }
  return out;
}
