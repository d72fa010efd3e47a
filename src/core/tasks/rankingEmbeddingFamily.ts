/**
 * The embedding family of the ranking task (with item embeddings): `diversity@K` and, with user
 * embeddings or train, `alignment@K` (metrics/ranking/embedding.ts), each with its spread over
 * users, `diversity_std@K` and `alignment_std@K` (the population standard deviation over the users
 * where the value is defined). The means are means over users: their statistic of a resample is the
 * resample's mean of their per-user values (shared sums). The spreads describe the users, not the
 * uncertainty of a mean, and get no interval.
 *
 * @see docs/metrics/ranking.md — the definitions and conventions of every key.
 */
import { keysAtK, writeMeans, writeRankingKeys, type RankingFamily, type RankingResampleRun } from './rankingRun';

const MEANS = ['diversity', 'alignment'] as const;

const meanKeys = (run: Pick<RankingResampleRun, 'ks'>): string[] => keysAtK(run.ks, MEANS);

export const rankingEmbeddingFamily: RankingFamily = {
  name: 'embedding',
  // Each mean beside its spread, K by K (the evaluation's order).
  point: (run, ctx) =>
    writeRankingKeys(
      run,
      ctx,
      MEANS.flatMap((m) => run.ks.flatMap((k) => [`${m}@${k}`, `${m}_std@${k}`])),
    ),
  resampledKeys: (run) => meanKeys(run).filter((k) => run.evaluation.perUser[k] !== undefined),
  resample: (run, sums, out) => writeMeans(sums, meanKeys(run), out),
};
