/**
 * Runner of the classification task: its loader (io/loadClassification, then the subset, the
 * baseline and the split), the per-row quantities prepared once ({@link prepareRun}), then the
 * families it registers (classificationFamilies.ts) and the services over them
 * ({@link CLASSIFICATION_STEPS}).
 *
 * Extending it: a new scalar goes into its family's module (its point step and its statistic of
 * a resample); a new family is a module exporting a {@link ClassificationFamily}, listed in
 * CLASSIFICATION_FAMILIES. A family receives the {@link ClassificationRun} — the data, the
 * prepared per-row vectors and the setups of the families already run — and the task context.
 */
import { checkCancelled } from '../diagnostics';
import { collectGarbage } from '../collectGarbage';
import { CONFIG_DEFAULTS } from '../config/types';
import { loadClassification } from '../io/loadClassification';
import type { TaskRunner } from './types';
import { prepareRun, type ClassificationRun, type ClassificationStep } from './classificationRun';
import { CLASSIFICATION_FAMILIES, familyStep } from './classificationFamilies';
import { classificationCiStep, startBootstrapWorkers } from './classificationCi';
import { classificationPerRow } from './classificationPerItem';
import { classificationFoldsStep, classificationSlicesStep } from './slicesStep';
import { subsetClassification } from './subsetRows';
import { checkBaselineFits, classificationBaselineData } from './baselineRun';
import { metricRows, splitSummary, withSplitValues, type SplitPlan } from './split';
import { cutClassificationData } from '../data/cutRows';
import type { ClassificationData } from '../data/classificationData';
import type { LoadedClassification } from '../io/loadClassification';
import type { TaskContext } from './types';

// Re-exported so callers that know the runner need not know where the run is built.
export {
  classAccuracyKey,
  prepareRun,
  type ClassificationFamily,
  type ClassificationRun,
  type ClassificationStep,
} from './classificationRun';

/**
 * The steps of the pipeline, in order: every metric family's point estimates
 * (classificationFamilies.ts), then the services over them — the slice table and the per-fold
 * table, which evaluate the same families on subsets of the rows — and last the bootstrap, which
 * resamples the keys the families wrote through their statistics (classificationCi.ts) in the one
 * bootstrap service (bootstrapService.ts).
 */
export const CLASSIFICATION_STEPS: { name: string; step: ClassificationStep }[] = [
  ...CLASSIFICATION_FAMILIES.map((f) => ({ name: f.name, step: familyStep(f) })),
  // after selective and calibration: a slice's ECE and AURC exist when the file's do
  { name: 'slices', step: classificationSlicesStep },
  // per-fold stability, with a fold column: the same metrics on each fold's rows
  { name: 'folds', step: classificationFoldsStep },
  // last, after every metric exists
  { name: 'bootstrap', step: classificationCiStep },
];

/**
 * The rows the metrics are computed on: with a validation/test split (tasks/split.ts) and
 * `metricsOn: "test"` (the default), the test rows; the validation rows are kept apart, for the
 * thresholds. A split with no test rows leaves every row, with a note.
 */
function splitForMetrics(
  loaded: LoadedClassification,
  ctx: TaskContext,
): { loaded: LoadedClassification; plan: SplitPlan | null; validation: ClassificationData | null } {
  const { data, plan } = withSplitValues(loaded.data, ctx.config);
  if (!plan) return { loaded, plan: null, validation: null };
  const all = { ...loaded, data };
  const validation = plan.val.length > 0 ? cutClassificationData(data, plan.val) : null;
  const test = metricRows(plan);
  if (plan.metricsOn === 'all') return { loaded: all, plan, validation };
  if (test === null) {
    ctx.warnings.note(
      'split-no-test-rows',
      `${data.file}: the split has no test rows (${plan.val.length} validation rows), so every metric is computed on all ${data.n} rows.`,
    );
    return { loaded: all, plan: { ...plan, metricsOn: 'all' }, validation };
  }
  return { loaded: subsetClassification(all, test), plan, validation };
}

/**
 * Whether a step after the point estimates (computed by prepareRun) reads the per-row NLL, Brier
 * and true-class rank terms: the slice and fold tables (each slice's and fold's values), the
 * bootstrap and a paired comparison (each resample's), and the per-row values.
 */
function termsReadAfterPoint(run: ClassificationRun, ctx: TaskContext): boolean {
  return termsReadBeyondPoint(ctx) || run.source?.columns?.fold !== undefined;
}

/** {@link termsReadAfterPoint} as far as the context tells, before the file's columns are known. */
function termsReadBeyondPoint(ctx: TaskContext): boolean {
  return (
    ctx.perItem !== false ||
    ctx.onResampling !== undefined ||
    (ctx.config.bootstrap?.n ?? 0) > 0 ||
    (ctx.config.slices?.length ?? 0) > 0
  );
}

/**
 * Empties the run's NLL, Brier and true-class rank terms (its prepared vectors and the data's),
 * which no later step reads: 20 bytes a row let go before the selective family sorts. The classification
 * family reads only whether they exist. Returns the bytes let go.
 */
function releaseTerms(run: ClassificationRun): number {
  const pr = run.prepared;
  let bytes = 0;
  const empty = <T extends Float64Array | Int32Array>(a: T | null): T | null => {
    if (a === null) return null;
    bytes += a.byteLength;
    return new (a.constructor as new (n: number) => T)(0);
  };
  run.prepared = { ...pr, nllTerm: empty(pr.nllTerm), brierTerm: empty(pr.brierTerm), trueRank: empty(pr.trueRank) };
  const t = run.data.probTerms;
  if (t)
    run.data.probTerms = {
      ...t,
      nllTerm: new Float64Array(0),
      brierTerm: new Float64Array(0),
      trueRank: new Int32Array(0),
    };
  return bytes;
}

export const runClassification: TaskRunner = async (ctx) => {
  let loaded = await loadClassification(ctx.path, ctx.config, ctx.warnings, ctx.progress, {
    // the `slices` columns and the subgroup column, as written
    keepText: [...(ctx.config.slices ?? []), ...(ctx.config.subgroupColumn ? [ctx.config.subgroupColumn] : [])],
    keepOther: ctx.subset !== undefined,
    // a margin or entropy ranking: calibration reads the top-label probability from the matrix
    keepProbabilities: (ctx.config.score ?? CONFIG_DEFAULTS.score) !== 'msp',
    // the ids are read again only by the per-row values, a paired comparison and a row filter
    keepIds: ctx.perItem !== false || ctx.onResampling !== undefined || ctx.subset !== undefined,
    // summed while read when only the point estimates over every row read them (the reader
    // keeps them with a weight, split or fold column)
    keepTerms:
      termsReadBeyondPoint(ctx) ||
      ctx.subset !== undefined ||
      ctx.baselineRun !== undefined ||
      ctx.config.randomSplit !== undefined,
  });
  // the ids let go once checked stay resident until a collection: taken before the metrics allocate
  collectGarbage(ctx.collectGarbage === true, loaded.released);
  checkCancelled(ctx.progress);
  if (ctx.subset) loaded = subsetClassification(loaded, await ctx.subset.classificationRows(loaded, ctx));
  if (ctx.baselineRun) {
    const kind = checkBaselineFits(ctx.baselineRun, 'classification', ctx.path, ['majority', 'prior'] as const);
    loaded = {
      ...loaded,
      data: classificationBaselineData(loaded.data, kind, ctx.config.score ?? CONFIG_DEFAULTS.score),
    };
  }
  const split = splitForMetrics(loaded, ctx);
  loaded = split.loaded;
  // Started now so that their start overlaps the point estimates; stopped below however the evaluation ends.
  const resampleWorkers = ctx.onResampling ? null : startBootstrapWorkers(ctx.config, loaded.data.n);
  try {
    const run = await prepareRun(loaded.data, ctx);
    run.split = split.plan;
    run.validation = split.validation;
    run.resampleWorkers = resampleWorkers;
    run.text = loaded.text;
    // without per-row values nothing reads the derived scores in row order after they are sorted
    run.scoresSpent = ctx.perItem === false;
    run.source = {
      path: ctx.path,
      format: loaded.format,
      rows: loaded.rows,
      rowsUsed: loaded.data.n,
      columns: loaded.columns,
      ...(split.plan ? { split: splitSummary(split.plan) } : {}),
    };
    if (!termsReadAfterPoint(run, ctx)) {
      collectGarbage(ctx.collectGarbage === true, releaseTerms(run));
      run.rowsSpent = true;
    }
    for (const { name, step } of CLASSIFICATION_STEPS) {
      checkCancelled(ctx.progress);
      ctx.progress?.report?.(name, 0);
      const t0 = performance.now();
      const before = ctx.results.timings[name];
      await step(run, ctx);
      // A step that times itself under its own name (e.g. `bootstrap`) is not counted twice.
      if (ctx.results.timings[name] === before)
        ctx.results.timings[name] = (before ?? 0) + (performance.now() - t0) / 1000;
    }
    const { data, prepared } = run;
    if (ctx.perItem !== false)
      ctx.results.perItem = {
        kind: 'row',
        ids: data.ids,
        labels: Array.from(data.labels, (y) => data.classes[y]),
        values: classificationPerRow(prepared, ctx.results.metrics),
      };
    return run.source;
  } finally {
    await resampleWorkers?.stop();
  }
};
