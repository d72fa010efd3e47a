/**
 * The catalogue family of the ranking task: `coverage@K`, `cold_start_coverage@K` (with train) and
 * `novelty@K` (with train or an item popularity column) (metrics/ranking/catalog.ts). Novelty is a
 * mean over users: its statistic is the resample's mean of its per-user values (shared sums).
 * Coverage is not a mean over users, and a run's own report gives it no interval (a resample draws
 * about 63% of the users, so its coverage sits below the point and the interval would not cover
 * it); a paired comparison, where both runs carry the same bias, resamples it as the coverage of the
 * users a resample draws at least once — with the lists the runner keeps for it (`run.catalog`).
 *
 * @see docs/metrics/ranking.md — the definitions and conventions of every key.
 */
import type { RankedLists, RankingData } from '../data/rankingData';
import { catalogMetrics } from '../metrics/ranking/catalog';
import type { CatalogDefinition } from '../metrics/ranking/evaluateLists';
import {
  keysAtK,
  type CatalogResample,
  writeMeans,
  writeRankingKeys,
  type RankingFamily,
  type RankingResampleRun,
} from './rankingRun';

const NOVELTY = ['novelty'];
const noveltyKeys = (run: Pick<RankingResampleRun, 'ks'>): string[] => keysAtK(run.ks, NOVELTY);

export const rankingCatalogFamily: RankingFamily = {
  name: 'catalog',
  point: (run, ctx) =>
    writeRankingKeys(run, ctx, [
      ...run.ks.map((k) => `coverage@${k}`),
      ...run.ks.map((k) => `cold_start_coverage@${k}`),
      ...noveltyKeys(run),
    ]),
  // Novelty where it has per-user values; the coverages (defined ones, K by K) only when kept for a comparison.
  resampledKeys: (run) => {
    const novelty = noveltyKeys(run).filter((k) => run.evaluation.perUser[k] !== undefined);
    if (!run.catalog) return novelty;
    const defined = (k: string): boolean => (run.evaluation.values.get(k) ?? null) !== null;
    return [...novelty, ...run.ks.flatMap((k) => [`coverage@${k}`, `cold_start_coverage@${k}`].filter(defined))];
  },
  resample: (run, sums, out) => {
    writeMeans(sums, noveltyKeys(run), out);
    const kept = run.catalog;
    if (!kept) return;
    const { counts } = sums;
    let drawn = run.evaluated;
    if (counts) {
      const users = new Int32Array(run.evaluated.length);
      let m = 0;
      for (let e = 0; e < counts.length; e++) if (counts[e] > 0) users[m++] = run.evaluated[e]!;
      drawn = users.subarray(0, m);
    }
    const cat = catalogMetrics(kept.lists, drawn, kept.options);
    run.ks.forEach((k, q) => {
      out[`coverage@${k}`] = cat.coverage[q] ?? null;
      if (cat.coldCoverage) out[`cold_start_coverage@${k}`] = cat.coldCoverage[q] ?? null;
    });
  },
};

/**
 * What the family's statistic needs to resample the coverages in a paired comparison: the run's
 * lists (kept: the runner lets the slots go after the point estimates) and the options of the
 * catalogue metrics, as the run's own evaluation used them.
 */
export function catalogResampleOf(
  lists: RankedLists,
  data: RankingData,
  catalog: CatalogDefinition,
  ks: number[],
  coldThreshold: number,
): CatalogResample {
  return {
    lists,
    options: {
      ks,
      nItems: data.items.size,
      catalogSize: catalog.size,
      inCatalog: catalog.members,
      trainCounts: data.train?.itemCounts ?? null,
      trainTotal: data.train?.total ?? 0,
      coldThreshold,
      keepPerUser: false,
    },
  };
}
