/**
 * The `slices` step of the classification and iw-binary tasks: `tables.slices` from the columns
 * named by `slices` (kept as text by the loaders). See slices.ts for the definitions.
 */
import type { LoadedIwBinary } from '../io/loadIwBinary';
import type { ClassificationRun } from '../tasks/classification';
import type { TaskContext } from '../tasks/types';
import { rowScores } from './rowScores';
import { classificationSliceMetrics, classificationStrata, computeSlices, iwSliceMetrics, sliceOptions } from './slices';

export function classificationSlicesStep(run: ClassificationRun, ctx: TaskContext): void {
  const names = ctx.config.slices;
  if (!names?.length || !run.text) return;
  const { data } = run;
  const s = run.selective;
  const metrics = classificationSliceMetrics({
    prepared: run.prepared,
    // the score the selective family ranks by; ECE only when the calibration family ran (a probability score)
    scores: s?.ranked ? rowScores(data, ctx.config) : null,
    eceBins: s?.calib ? s.calib.B : null,
    strata: classificationStrata(ctx.config, data.groupColumn, data.labels),
  });
  // Without the val/test protocol the evaluation measured every metric over all rows with the
  // same functions: its values are the whole file's.
  const m = ctx.results.metrics;
  const wholePoint = s && !s.subset && metrics.keys.every((k) => k in m) ? metrics.keys.map((k) => m[k].value ?? NaN) : undefined;
  ctx.results.table('slices', computeSlices(names.map((n) => run.text![n]), metrics, data.n, { ...sliceOptions(ctx.config), wholePoint }, ctx.warnings, data.file));
}

export function iwSlicesStep(loaded: LoadedIwBinary, weights: Float64Array, threshold: number, ctx: TaskContext): void {
  const names = ctx.config.slices;
  if (!names?.length) return;
  const { data } = loaded;
  const metrics = iwSliceMetrics({ labels: data.labels, scores: data.scores, weights, threshold, strata: data.strata });
  ctx.results.table('slices', computeSlices(names.map((n) => loaded.text[n]), metrics, data.n, sliceOptions(ctx.config), ctx.warnings, data.file));
}
