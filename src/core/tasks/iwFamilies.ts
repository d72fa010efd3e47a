/**
 * The families of the importance-weighted binary task (docs/metrics/importance.md) and its
 * resampling plan: the weighted metrics (`importance`) and the unweighted baseline beside them
 * (`results.baselines.unweighted`), each the one family contract ({@link IwFamily}, taskFamily.ts)
 * over the {@link IwRun}. One resample's shared sums are the metric vectors of the rows in score
 * order, weighted and unweighted, from one pass of metrics/importance.ts `sortedResampler`; each
 * family reads its half. The importance family also writes the curves and tables (its tables step).
 * So the runner (iwBinary.ts) is its loader, its weights and the score order (the run), and these
 * families; the intervals come from the one bootstrap service.
 */
import type { IwBinaryData } from '../data/iwBinaryData';
import {
  blockCounts,
  countsAtBlocks,
  prPoints,
  rocPoints,
  type CurvePoints,
  type ScoreOrder,
} from '../metrics/binaryCurve';
import { IW_KEYS, sortedResampler, type IwKey } from '../metrics/importance';
import type { BinaryCurveColumn, Curve, MetricValue, ResultTables } from '../results/types';
import { directionOf } from '../results/directions';
import type { ResamplingPlan } from '../stats/resamplingPlan';
import { familyKeyValues, familyResampledKeys, type FamilyRecord, type TaskFamily } from './taskFamily';

/** Everything computed once for one importance-weighted file, read by its families. */
export interface IwRun extends FamilyRecord {
  data: IwBinaryData;
  /** Row weights (from the strata sizes or the weight column). */
  weights: Float64Array;
  /** How the weights were obtained, for the notes (e.g. `w_B = 0.001, w_Bc = 0.018`). */
  describe: string;
  /** `tables.importanceWeights`: the weight per stratum, or a summary of the weight column. */
  weightsTable: ResultTables['importanceWeights'];
  threshold: number;
  /** The rows in score order, and the tied blocks at or above the threshold. */
  so: ScoreOrder;
  nAbove: number;
  /** Every key of IW_KEYS (NaN where undefined): weighted, and with every weight 1. */
  weighted: Float64Array;
  unweighted: Float64Array;
}

/** One resample's shared sums: its weighted values at [0, K) and unweighted at [K, 2K), IW_KEYS order. */
export interface IwSums {
  values: Float64Array;
}

/** A family of the importance-weighted task (its statistic needs nothing of the run but the sums). */
export type IwFamily = TaskFamily<IwRun, IwSums, unknown>;

/** A value as the results write it: 6 significant digits, `null` when undefined. */
export const fmt = (v: number | null): string => (v === null ? 'null' : Number(v.toPrecision(6)).toString());

const orNull = (v: number): number | null => (Number.isFinite(v) ? v : null);

const CONVENTION: Record<IwKey, (t: number) => string> = {
  precision: (t) => `TP/(TP+FP) at score ≥ ${t}`,
  recall: (t) => `TP/(TP+FN) at score ≥ ${t}`,
  f1: (t) => `2TP/(2TP+FP+FN) at score ≥ ${t}`,
  aupr_trapz: () => 'trapezoid over recall from (0, 1), as sklearn auc(recall, precision)',
  average_precision: () => 'Σ (R_k − R_{k−1})·P_k, as sklearn average_precision_score',
  roc_auc: () => 'ties count ½, as sklearn roc_auc_score',
  error_rate: (t) => `(FP+FN)/Σw = 1 − weighted accuracy at score ≥ ${t}, as 1 − sklearn accuracy_score(sample_weight)`,
};

function toCurve(p: CurvePoints | null, x: string, y: string, note: string): Curve<BinaryCurveColumn> | null {
  if (!p) return null;
  return { x, y, xs: p.x, ys: p.y, extra: { threshold: p.threshold, ...(p.f1 ? { f1: p.f1 } : {}) }, note };
}

/**
 * The weighted metrics: each note names the convention and the unweighted value beside it. Its
 * tables: the PR and ROC curves, weighted and unweighted (the report draws them as pairs), the
 * weights, and the weighted and unweighted counts at the threshold.
 */
export const importanceFamily: IwFamily = {
  name: 'importance',
  sliceKeys: () => [
    { key: 'precision', rank: 0 },
    { key: 'recall', rank: 1 },
    { key: 'average_precision', rank: 2 },
  ],
  point: (run, ctx) => {
    IW_KEYS.forEach((k, j) => {
      ctx.results.metric('importance', k, orNull(run.weighted[j]), {
        note: `weighted (${run.describe}); ${CONVENTION[k](run.threshold)}; unweighted: ${fmt(orNull(run.unweighted[j]))}`,
      });
    });
  },
  tableNames: ['importanceWeights', 'thresholdCounts'],
  tables: (run, ctx) => {
    const { data, so, describe } = run;
    const { results } = ctx;
    const cw = blockCounts(so, data.labels, run.weights);
    const cu = blockCounts(so, data.labels, null);
    const curves: ['pr' | 'pr_unweighted' | 'roc' | 'roc_unweighted', Curve<BinaryCurveColumn> | null][] = [
      [
        'pr',
        toCurve(
          prPoints(so, cw),
          'recall',
          'precision',
          `importance-weighted (${describe}); start point (0, 1); one point per distinct score; f1 = 2TP/(2TP + FP + FN) at each point`,
        ),
      ],
      [
        'pr_unweighted',
        toCurve(
          prPoints(so, cu),
          'recall',
          'precision',
          'unweighted; start point (0, 1); one point per distinct score; f1 = 2TP/(2TP + FP + FN) at each point',
        ),
      ],
      [
        'roc',
        toCurve(rocPoints(so, cw), 'fpr', 'tpr', `importance-weighted (${describe}); one point per distinct score`),
      ],
      ['roc_unweighted', toCurve(rocPoints(so, cu), 'fpr', 'tpr', 'unweighted; one point per distinct score')],
    ];
    for (const [name, c] of curves) if (c) results.curve(name, c);
    results.table('importanceWeights', run.weightsTable);
    results.table('thresholdCounts', {
      threshold: run.threshold,
      weighted: countsAtBlocks(cw, run.nAbove),
      unweighted: countsAtBlocks(cu, run.nAbove),
    });
  },
  resampledKeys: (run, wrote) => wrote.filter((k) => Number.isFinite(run.weighted[IW_KEYS.indexOf(k as IwKey)])),
  resample: (_run, { values }, out) => {
    for (let j = 0; j < IW_KEYS.length; j++) out[IW_KEYS[j]] = values[j];
  },
};

/** The statistic's keys of the unweighted baseline's values (`results.baselines.unweighted`): this prefix and the key. */
const UNWEIGHTED_PREFIX = 'unweighted:';
/** Made once: a resample writes the same strings each time. */
const UNWEIGHTED_KEYS = IW_KEYS.map((k) => UNWEIGHTED_PREFIX + k);

/** The same keys with every row weight 1, as the baseline `unweighted`, with their own intervals. */
export const unweightedFamily: IwFamily = {
  name: 'unweighted',
  point: (run, ctx) => {
    const baseline: Record<string, MetricValue> = {};
    IW_KEYS.forEach((k, j) => {
      baseline[k] = {
        value: orNull(run.unweighted[j]),
        direction: directionOf(k),
        note: `unweighted (every row weight 1); ${CONVENTION[k](run.threshold)}`,
      };
    });
    ctx.results.baselines = { ...(ctx.results.baselines ?? {}), unweighted: baseline };
  },
  resampledKeys: (run) => UNWEIGHTED_KEYS.filter((_, j) => Number.isFinite(run.unweighted[j])),
  resample: (_run, { values }, out) => {
    const K = IW_KEYS.length;
    UNWEIGHTED_KEYS.forEach((k, j) => (out[k] = values[K + j]));
  },
  // The baseline's intervals go beside its values.
  place: (target, key, ci) => {
    if (!key.startsWith(UNWEIGHTED_PREFIX)) return false;
    const b = target.baselines?.unweighted?.[key.slice(UNWEIGHTED_PREFIX.length)];
    if (b && ci && b.value !== null && Number.isFinite(ci[0]) && Number.isFinite(ci[1])) b.ci = ci;
    return true;
  },
};

export const IW_FAMILIES: readonly IwFamily[] = [importanceFamily, unweightedFamily];

/**
 * Which halves of the sums give `keys`: the weighted values the importance family's keys, the
 * unweighted the baseline's; a key of neither (a value a family derives from the sums) needs both.
 */
export function iwHalvesFor(keys: readonly string[]): { weighted: boolean; unweighted: boolean } {
  let weighted = false;
  let unweighted = false;
  for (const k of keys) {
    if ((IW_KEYS as readonly string[]).includes(k)) weighted = true;
    else if (UNWEIGHTED_KEYS.includes(k)) unweighted = true;
    else return { weighted: true, unweighted: true };
  }
  return { weighted, unweighted };
}

/** The full data's sums: the point vectors. */
export function fullIwSums(run: IwRun): IwSums {
  const values = new Float64Array(2 * IW_KEYS.length);
  values.set(run.weighted, 0);
  values.set(run.unweighted, IW_KEYS.length);
  return { values };
}

/**
 * The task's {@link ResamplingPlan}: the keys the families' statistics give, over the rows, drawn
 * per resample from (seed, b) alone (stats/resampleDraws.ts), stratified by the stratum column, on
 * the calling thread. The rows are in score order once: a resample is a multiplicity per sorted
 * position, so the weights of a resample are w × counts and nothing is re-sorted (strata permuted
 * alike); both the weighted keys and the unweighted baseline's come from the same resamples.
 */
export function iwPlan(run: IwRun): ResamplingPlan {
  const { data, so } = run;
  const keys = familyResampledKeys(IW_FAMILIES, run);
  const position = new Int32Array(data.n);
  for (let p = 0; p < data.n; p++) position[so.order[p]] = p;
  return {
    unit: 'row',
    n: data.n,
    ids: data.ids,
    truth: Array.from(data.labels, String),
    strata: data.strata,
    keys,
    position,
    draws: 'per-resample',
    worker: null,
    build: () => {
      const resampler = sortedResampler(so, data.labels, run.weights, data.strata, run.nAbove);
      // the families' statistics into one record reused by every resample (familyKeyValues)
      const values = familyKeyValues(IW_FAMILIES, keys);
      const sums: IwSums = { values: new Float64Array(0) };
      return (counts, out) => {
        sums.values = resampler.stat(counts);
        values(null, sums, out);
      };
    },
  };
}
