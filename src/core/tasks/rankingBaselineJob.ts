/**
 * The random baseline's job (./rankingBaselines.ts): what it is scored from and the scoring itself,
 * the same function on the calling thread and on the worker thread (./rankingBaselineWorker.ts).
 * Kept apart from the thread's handling so that the worker's script holds only the scoring code.
 */
import type { RankingData } from '../data/rankingData';
import { randomRecommender } from '../metrics/ranking/baselines';
import { evaluateRecommender, type EvaluateListsOptions, type ScoringData } from '../metrics/ranking/evaluateLists';

/** Everything the random baseline is scored from (all of it copied to the worker). */
export interface RandomBaselineJob {
  /** The users to make lists for, in list order (the run's evaluated users). */
  users: Int32Array;
  depth: number;
  seed: number;
  /** The rank of each item id in string order (../metrics/ranking/baselines `idOrderRank`). */
  idRank: Int32Array;
  data: ScoringData;
  opts: EvaluateListsOptions;
}

/** What the results keep of a baseline's evaluation. */
export interface BaselineScores {
  /** Metric key → value (null when undefined), in display order. */
  values: Map<string, number | null>;
  /** Mean at K = 1..depth: recall, precision, ndcg, map, hit_rate, coverage. */
  curves: Record<string, Float64Array>;
}

export type BaselineWorkerMessage = { scored: BaselineScores } | { failed: string };

/** The job's data: only what scoring reads, so that nothing else is copied to the worker. */
export function randomBaselineJob(
  data: RankingData,
  users: Int32Array,
  depth: number,
  seed: number,
  idRank: Int32Array,
  opts: EvaluateListsOptions,
): RandomBaselineJob {
  const t = data.train;
  return {
    users,
    depth,
    seed,
    idRank,
    data: {
      items: { size: data.items.size },
      relOffsets: data.relOffsets,
      relItems: data.relItems,
      relGrades: data.relGrades,
      binary: data.binary,
      train: t
        ? { itemCounts: t.itemCounts, total: t.total, seenOffsets: t.seenOffsets, seenItems: t.seenItems }
        : null,
      itemEmbeddings: data.itemEmbeddings,
      // User vectors are read only beside item vectors (for alignment): not copied without them.
      userEmbeddings: data.itemEmbeddings ? data.userEmbeddings : null,
    },
    opts: { ...opts, keepPerUser: false },
  };
}

/** The seeded random baseline's values and curves (on whichever thread runs it). */
export function scoreRandomBaseline(job: RandomBaselineJob): BaselineScores {
  const train = job.data.train;
  if (!train) throw new Error('the random baseline needs train data');
  const recommend = randomRecommender(train, job.idRank, job.depth, job.seed);
  const ev = evaluateRecommender(job.users, recommend, job.depth, job.data, { ...job.opts, keepPerUser: false });
  return { values: ev.values, curves: ev.curves };
}
