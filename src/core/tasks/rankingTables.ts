/**
 * The ranking task's pipeline (ranking.ts runs it): its metric families (rankingFamilies.ts),
 * then the families that write no key — the category breakdown, the item map, the baselines, the
 * metric-vs-K curves and the per-user tables — each the one family contract (taskFamily.ts) over
 * the {@link RankingTaskRun}, writing its typed tables through the results builder. In this order:
 * the category breakdown and the item map read the run's lists, whose slots the runner lets go
 * after them; the curves draw the baselines beside the run.
 */
import { categoryBreakdown } from '../metrics/ranking/categories';
import {
  activityBins,
  histogram,
  PER_USER_HISTOGRAM_BINS,
  trainCountsOf,
  type Histogram,
} from '../metrics/ranking/perUser';
import { METRIC_VS_K_METRICS, metricVsKCurve } from '../results/curves';
import type { MetricVsKCurveName, ResultCurves } from '../results/types';
import { rankingBaselinesFamily } from './rankingBaselinesFamily';
import { RANKING_FAMILIES } from './rankingFamilies';
import { rankingItemMapFamily } from './rankingItemMapFamily';
import type { RankingTaskFamily } from './rankingRun';

/** `tables.categoryBreakdown` (when the item table has a category column): coverage and recall by item category. */
export const rankingCategoryFamily: RankingTaskFamily = {
  name: 'categories',
  point: () => undefined,
  tableNames: ['categoryBreakdown'],
  tables: (run, ctx) => {
    const { data, categoryColumn: column } = run;
    const meta = data.itemMeta;
    if (!meta || column === null) return;
    ctx.results.table(
      'categoryBreakdown',
      categoryBreakdown({
        lists: data.lists,
        evaluated: run.evaluated,
        relOffsets: data.relOffsets,
        relItems: data.relItems,
        itemIds: data.items.ids,
        categoryOf: (id) => meta.byItem.get(id)?.[column],
        metadataIds: meta.byItem.keys(),
        column,
        k: run.ks[run.ks.length - 1],
      }),
    );
  },
};

/**
 * `curves['metricVsK.<m>']`: x = K from 1 to the evaluation depth, y = the run (mean over the
 * evaluated users at each K; coverage: the catalogue's), `extra.popularity` / `extra.random` = the
 * baselines (with train).
 */
export const rankingCurvesFamily: RankingTaskFamily = {
  name: 'metricVsK',
  point: () => undefined,
  tables: (run, ctx) => {
    const { depth, baselineCurves: baselines } = run;
    const curves = run.evaluation.curves;
    const xs = Array.from({ length: depth }, (_, i) => i + 1);
    for (const m of METRIC_VS_K_METRICS) {
      const c: ResultCurves[MetricVsKCurveName] = {
        x: 'K',
        y: m,
        xs,
        ys: toList(curves[m], depth),
        note: m === 'coverage' ? run.options.catalog.note : 'mean over evaluated users at each K',
      };
      if (baselines)
        c.extra = {
          popularity: toList(baselines.popularity[m], depth),
          random: toList(baselines.random[m], depth),
        };
      ctx.results.curve(metricVsKCurve(m), c);
    }
  },
};

/**
 * `tables.perUserHistograms` (per metric: 20 bins, edges + counts, undefined count, mean) and, with
 * train, `tables.activityBins` (metric means by bins of users' train interactions: `activityBins`
 * boundaries, default the tertiles).
 */
export const rankingPerUserFamily: RankingTaskFamily = {
  name: 'perUser',
  point: () => undefined,
  tableNames: ['perUserHistograms', 'activityBins'],
  tables: (run, ctx) => {
    const { data, evaluated } = run;
    const perUser = run.evaluation.perUser;
    ctx.progress?.report?.('per-user tables', 0);
    ctx.results.time('per-user', () => {
      const hist: Record<string, Histogram> = {};
      for (const [key, v] of Object.entries(perUser)) hist[key] = histogram(v, PER_USER_HISTOGRAM_BINS);
      ctx.results.table('perUserHistograms', hist);
      if (data.train) {
        const activity = trainCountsOf(data.train.userCounts, data.lists.user, evaluated);
        ctx.results.table('activityBins', activityBins(activity, perUser, ctx.config.activityBins));
      }
    });
  },
};

/** The families the ranking runner runs, in order (see above). */
export const RANKING_PIPELINE: readonly RankingTaskFamily[] = [
  ...RANKING_FAMILIES,
  rankingCategoryFamily,
  rankingItemMapFamily,
  rankingBaselinesFamily,
  rankingCurvesFamily,
  rankingPerUserFamily,
];

function toList(a: Float64Array, length = a.length): (number | null)[] & number[] {
  return Array.from(a.subarray(0, length), (v) => (Number.isFinite(v) ? v : null)) as (number | null)[] & number[];
}
