/**
 * The metric families of the ranking task, in the order they write their keys (the order the
 * results list them in), and the task's users family. Each is the one family contract
 * ({@link RankingFamily}, taskFamily.ts) over the run's evaluation; the runner (ranking.ts) runs
 * their point steps, and the bootstrap (rankingCi.ts `rankingPlan`) resamples the keys their
 * statistics give — on the calling thread, on the ranking bootstrap threads and in a paired
 * comparison alike — so that a new scalar of a family gets its interval, provisional interval and
 * paired interval with no code of its own.
 *
 * Adding a family: a module that exports its {@link RankingFamily}, one line in
 * {@link RANKING_FAMILIES}.
 */
import { rankingAccuracyFamily } from './rankingAccuracyFamily';
import { rankingCatalogFamily } from './rankingCatalogFamily';
import { rankingEmbeddingFamily } from './rankingEmbeddingFamily';
import { writeRankingKeys, type RankingFamily } from './rankingRun';

/** How many users were evaluated and skipped: counts of the run, with no interval. */
const usersFamily: RankingFamily = {
  name: 'users',
  point: (run, ctx) => writeRankingKeys(run, ctx, ['users_evaluated', 'users_skipped']),
};

export const RANKING_FAMILIES: readonly RankingFamily[] = [
  rankingAccuracyFamily,
  rankingCatalogFamily,
  rankingEmbeddingFamily,
  usersFamily,
];
