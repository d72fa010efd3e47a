/**
 * The `slices` step of every task: `tables.slices` from the columns named by `slices` (kept as
 * text by the loaders; a ranking run's per-user attributes), and the classification task's
 * `tables.folds`. The metrics are the task's families' (their `sliceKeys`), over the task's
 * statistic restricted to each slice (sliceStatistics.ts). See slices.ts for the definitions.
 */
import type { LoadedIwBinary } from '../io/loadIwBinary';
import type { ClassificationRun } from './classificationRun';
import type { TaskContext } from './types';
import { resampleProgress } from '../stats/bootstrap';
import { classificationStrata, computeSlices, familySliceMetrics, sliceOptions, type SliceMetrics } from './slices';
import { classificationStatistic, iwStatistic, rankingStatistic } from './sliceStatistics';
import { CLASSIFICATION_FAMILIES } from './classificationFamilies';
import { IW_FAMILIES, type IwRun } from './iwFamilies';
import { RANKING_FAMILIES } from './rankingFamilies';
import type { RankingRun } from './rankingRun';
import { computeFolds } from './folds';
import type { RankingData } from '../data/rankingData';
import type { TextColumn } from '../data/textColumn';
import { activityBinEdges, activityBinOf, trainCountsOf } from '../metrics/ranking/perUser';
import { binnedSliceValues, type SliceValues } from '../rows/sliceValues';

/**
 * The slice metrics of a classification run: its families' slice keys over the run's statistic
 * restricted to each slice (with a validation/test split, the run's rows are the rows the metrics
 * cover, so a slice's diff is slice − headline on the same rows).
 */
export function classificationRunSliceMetrics(run: ClassificationRun, ctx: TaskContext): SliceMetrics {
  const strata = classificationStrata(ctx.config, run.data.groupColumn, run.data.labels);
  return familySliceMetrics(CLASSIFICATION_FAMILIES, run, classificationStatistic(run, strata));
}

export async function classificationSlicesStep(run: ClassificationRun, ctx: TaskContext): Promise<void> {
  const names = ctx.config.slices;
  if (!names?.length || !run.text) return;
  const { data } = run;
  const s = run.selective;
  const metrics = classificationRunSliceMetrics(run, ctx);
  // The evaluation measured every metric over the run's rows with the same functions: its values
  // are the headline the slices are compared with.
  const m = ctx.results.metrics;
  const wholePoint = s && metrics.keys.every((k) => k in m) ? metrics.keys.map((k) => m[k].value ?? NaN) : undefined;
  ctx.results.table(
    'slices',
    await computeSlices(
      names.map((n) => run.text![n]),
      metrics,
      data.n,
      { ...sliceOptions(ctx.config), wholePoint, onResample: slicesProgress(ctx) },
      ctx.warnings,
      data.file,
    ),
  );
}

/** The slices' bootstrap reports its progress as the `slices` stage and stops on cancellation. */
function slicesProgress(ctx: TaskContext): (done: number, total: number) => void {
  return resampleProgress(ctx.progress, 'slices');
}

/** `tables.folds` (folds.ts) when the file has a fold column. */
export function classificationFoldsStep(run: ClassificationRun, ctx: TaskContext): void {
  const name = run.source?.columns?.fold;
  const column = typeof name === 'string' ? run.text?.[name] : undefined;
  if (!column) return;
  const { data } = run;
  const { minSize } = sliceOptions(ctx.config);
  const table = computeFolds(column, classificationRunSliceMetrics(run, ctx), data.n, minSize, data.file, data.lines);
  ctx.results.table('folds', table);
  const small = table.folds.filter((f) => f.small);
  if (small.length > 0)
    ctx.warnings.note(
      'small-folds',
      `${data.file}: ${small.length} fold${small.length === 1 ? ' has' : 's have'} fewer than ${minSize} rows (minSliceSize): ${small.map((f) => `${f.fold} (${f.n})`).join(', ')}; ${small.length === 1 ? 'it is' : 'they are'} flagged small in the fold table and still counted in its mean and std.`,
    );
}

export async function iwSlicesStep(loaded: LoadedIwBinary, run: IwRun, ctx: TaskContext): Promise<void> {
  const names = ctx.config.slices;
  if (!names?.length) return;
  const { data } = loaded;
  const metrics = familySliceMetrics(IW_FAMILIES, run, iwStatistic(run));
  ctx.results.table(
    'slices',
    await computeSlices(
      names.map((n) => loaded.text[n]),
      metrics,
      data.n,
      { ...sliceOptions(ctx.config), onResample: slicesProgress(ctx) },
      ctx.warnings,
      data.file,
    ),
  );
}

/** Per-user attributes a ranking run can be sliced by (a run has no other per-user columns). */
export const RANKING_SLICE_COLUMNS = ['trainCount', 'relevant'] as const;

/** A number per user as a text column (for the slice bins). */
function numberColumn(name: string, values: ArrayLike<number>): TextColumn {
  const index = new Map<number, number>();
  const texts: string[] = [];
  const codes = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    let k = index.get(values[i]);
    if (k === undefined) {
      k = texts.length;
      index.set(values[i], k);
      texts.push(String(values[i]));
    }
    codes[i] = k;
  }
  return { name, values: texts, codes };
}

/**
 * Ranking slices: the evaluated users cut by their train interactions (`trainCount`, needs
 * `train`; in the activity bins of `tables.activityBins`, `activityBins` or its default, so the
 * Slices and Ranking tabs show the same bins) or their number of relevant items (`relevant`, in
 * `sliceBins` quantile bins); the families' slice keys (recall@K and NDCG@K at every cutoff),
 * means over the slice's users, with the users' bootstrap (resampling users, as the intervals of
 * the ranking metrics).
 */
export async function rankingSlicesStep(data: RankingData, run: RankingRun, ctx: TaskContext): Promise<void> {
  const names = ctx.config.slices;
  if (!names?.length) return;
  const users = Int32Array.from(run.evaluated, (j) => data.lists.user[j]);
  const columns: (TextColumn | SliceValues)[] = [];
  for (const name of names) {
    if (name === 'trainCount' && data.train) {
      const counts = trainCountsOf(data.train.userCounts, data.lists.user, run.evaluated);
      const bins = activityBinEdges(counts, ctx.config.activityBins);
      columns.push(binnedSliceValues(name, bins, activityBinOf(counts, bins)));
    } else if (name === 'relevant')
      columns.push(
        numberColumn(
          name,
          Array.from(users, (u) => data.relOffsets[u + 1] - data.relOffsets[u]),
        ),
      );
    else {
      ctx.warnings.note(
        'slices-unavailable',
        `${data.file}: a ranking run is sliced by per-user attributes: ${name === 'trainCount' ? '`trainCount` needs a `train` file in the config' : `"${name}" is not one (expected ${RANKING_SLICE_COLUMNS.join(' or ')})`}; no slices by it.`,
      );
    }
  }
  if (columns.length === 0) return;
  const metrics = familySliceMetrics(RANKING_FAMILIES, run, rankingStatistic(run));
  const m = ctx.results.metrics;
  const { keys } = metrics;
  const wholePoint = keys.every((k) => k in m) ? keys.map((k) => m[k].value ?? NaN) : undefined;
  ctx.results.table(
    'slices',
    await computeSlices(
      columns,
      metrics,
      users.length,
      { ...sliceOptions(ctx.config), wholePoint, onResample: slicesProgress(ctx) },
      ctx.warnings,
      data.file,
    ),
  );
}
