/**
 * The accuracy family of the ranking task: `recall@K`, `precision@K`, `ndcg@K`, `map@K` and
 * `hit_rate@K` at every K of `k`, the spread over users of nDCG, `ndcg_std@K`, and the whole-list
 * metrics (`mrr`, `r_precision`) (metrics/ranking/accuracy.ts, evaluateLists.ts). Each but the
 * spread is a mean over the evaluated users, so its statistic of a resample is the resample's mean
 * of its per-user values, read from the shared sums. The spread describes the users, not the
 * uncertainty of the mean, and gets no interval (it has no per-user values, so the filter below
 * leaves it out).
 *
 * @see docs/metrics/ranking.md — the definitions and conventions of every key.
 */
import { ACCURACY_METRICS, ACCURACY_SPREADS, WHOLE_LIST_METRICS } from '../metrics/ranking/accuracy';
import { keysAtK, writeMeans, writeRankingKeys, type RankingFamily, type RankingResampleRun } from './rankingRun';

const WHOLE_LIST_KEYS = Object.keys(WHOLE_LIST_METRICS);

/**
 * Its keys in the order the evaluation lists them: each metric at every K (a metric with a spread
 * followed by its spread at every K), then the whole-list metrics.
 */
function keysOf(run: Pick<RankingResampleRun, 'ks'>): string[] {
  const atK = ACCURACY_METRICS.flatMap((m) => keysAtK(run.ks, ACCURACY_SPREADS.includes(m) ? [m, `${m}_std`] : [m]));
  return [...atK, ...WHOLE_LIST_KEYS];
}

export const rankingAccuracyFamily: RankingFamily = {
  name: 'accuracy',
  point: (run, ctx) => writeRankingKeys(run, ctx, keysOf(run)),
  resampledKeys: (run, wrote) => wrote.filter((k) => run.evaluation.perUser[k] !== undefined),
  // recall and NDCG at each cutoff in turn, the only family with slice keys
  sliceKeys: (run) =>
    run.ks
      .flatMap((k) => [`recall@${k}`, `ndcg@${k}`])
      .filter((k) => run.evaluation.perUser[k])
      .map((key, rank) => ({ key, rank })),
  resample: (run, sums, out) => {
    writeMeans(sums, keysAtK(run.ks, ACCURACY_METRICS), out);
    writeMeans(sums, WHOLE_LIST_KEYS, out);
  },
};
