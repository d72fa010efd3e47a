/**
 * Runner of the classification task: reads the prediction file (io/loadClassification), prepares
 * the per-row quantities once, then runs a list of family steps into the results.
 *
 * Extending it (selective, calibration, bootstrap CIs): add a {@link ClassificationStep} to
 * {@link CLASSIFICATION_STEPS}. A step receives the {@link ClassificationRun} — the data, the
 * prepared per-row vectors and setups of every family already run — and the task context. For a
 * bootstrap, {@link scalarMetricsFor}(run, counts) gives every classification, long-tail and evolving scalar of a resample
 * without touching the probability matrix.
 */
import { checkCancelled } from '../diagnostics';
import { CONFIG_DEFAULTS } from '../config/types';
import { loadClassification } from '../io/loadClassification';
import { unshiftWeight } from '../io/weights';
import { classesWithoutRows, confusionMatrix, perClassScores } from '../metrics/classification';
import { aggregateLongTail, SHOTS } from '../metrics/longtail';
import { aggregateEvolving, SAMPLED_DRAWS } from '../metrics/evolving';
import type { PerClassRow } from '../results/types';
import type { TaskRunner } from './types';
import { prepareRun, type ClassificationRun, type ClassificationStep } from './classificationRun';
import { calibrationStep, selectiveStep } from './classificationSelective';
import { classificationCiStep, startBootstrapWorkers } from './classificationCi';
import { classificationPerRow } from './classificationPerItem';
import { classificationFoldsStep, classificationSlicesStep } from './slicesStep';
import { subgroupStep } from './classificationSubgroups';
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
  scalarMetricsFor,
  type ClassificationRun,
  type ClassificationStep,
} from './classificationRun';

const fmt = (c: string) => `"${c}"`;
function list(xs: string[]): string {
  return xs.length <= 10 ? xs.map(fmt).join(', ') : `${xs.slice(0, 10).map(fmt).join(', ')}, … (${xs.length} in all)`;
}

const classificationStep: ClassificationStep = (run, ctx) => {
  const { results, warnings } = ctx;
  const { prepared, point, data } = run;
  const v = point.values;
  const empty = classesWithoutRows(point.stats).map((c) => data.classes[c]);
  if (empty.length > 0) {
    warnings.note(
      'empty-class',
      `${data.file}: ${empty.length} class${empty.length > 1 ? 'es have' : ' has'} no test rows (or only rows of weight 0): ${list(empty)}. Their per-class accuracy is null and balanced accuracy averages the other classes.`,
      { count: empty.length },
    );
  }
  const undefinedNote = 'undefined: no rows with positive weight';
  results.metric('classification', 'accuracy', v.accuracy, v.accuracy === null ? { note: undefinedNote } : {});
  results.metric('classification', 'balanced_accuracy', v.balanced_accuracy, {
    note: 'mean of per-class accuracy over classes with test rows',
  });
  results.metric('classification', 'macro_f1', v.macro_f1, {
    note: "F1 per label over the union of true and predicted labels, 0 where undefined (scikit-learn's default)",
  });
  // A k not smaller than the number of classes makes every row a hit: that metric is skipped, with one note for all such k.
  const trivial = prepared.trueRank ? prepared.topK.filter((k) => k >= data.classes.length) : [];
  if (trivial.length > 0)
    warnings.note(
      'topk-skipped',
      `top-k accuracy not reported for k = ${trivial.join(', ')}: with ${data.classes.length} classes every row would be a hit.`,
    );
  for (const k of prepared.topK) {
    if (!prepared.trueRank) break;
    if (k >= data.classes.length) continue;
    results.metric('classification', `top${k}_accuracy`, v[`top${k}_accuracy`], {
      note: 'rank = 1 + #classes with a strictly higher score (ties count as hits)',
    });
  }
  if (prepared.nllTerm) {
    const how = data.fromLogits
      ? 'probabilities from a stable softmax of the logits'
      : 'probabilities as written, not renormalised';
    results.metric('classification', 'nll', v.nll, { note: `mean −ln max(p_true, 1e-15); ${how}` });
    results.metric('classification', 'brier', v.brier, {
      note: 'mean over rows of Σ_c (p_c − 1[y=c])² (multi-class, range [0, 2])',
    });
  }
  // in the weights as written (tiny weights are scaled up for the metrics: io/weights.ts)
  const shift = data.weightShift ?? 0;
  const matrix = confusionMatrix(prepared).map((row) => row.map((x) => unshiftWeight(x, shift)));
  results.table('confusion', { labels: data.classes, matrix });
};

const longTailStep: ClassificationStep = (run, ctx) => {
  const { results, warnings, config } = ctx;
  const { train, groups, data } = run;
  const lt = aggregateLongTail(run.longTail, run.point.stats);
  const cfgName = config.configFile ?? 'the config';
  if (train && !run.longTail.shotOf) {
    warnings.note(
      'shot-groups-need-counts',
      `${cfgName}: \`classWeights\` gives train frequencies without \`trainTotal\`, so the many/medium/few-shot accuracies (which need counts) are left out.`,
    );
  }
  if (run.longTail.shotOf) {
    const t = { ...CONFIG_DEFAULTS.shotThresholds, ...config.shotThresholds };
    for (const s of SHOTS) {
      const key = `acc_${s}`;
      const note = `class mean of per-class accuracy; ${s === 'many' ? `n_c > ${t.many}` : s === 'few' ? `n_c < ${t.few}` : `${t.few} ≤ n_c ≤ ${t.many}`}`;
      if (lt[key] === null)
        warnings.note(
          'empty-shot-group',
          `${key}: no ${s}-shot class (${note.split('; ')[1]}) has test rows; the value is null.`,
        );
      results.metric('longtail', key, lt[key], { note });
    }
  }
  if (groups) {
    for (const g of groups.names) {
      const key = `acc_group.${g}`;
      if (lt[key] === null)
        warnings.note('empty-group', `${key}: no class of group "${g}" has test rows; the value is null.`);
      results.metric('longtail', key, lt[key], { note: 'class mean of per-class accuracy' });
    }
  }
  if (train) {
    results.metric('longtail', 'weighted_accuracy', lt.weighted_accuracy, {
      note: 'rows weighted by the train share of their true class (w_i·n_y/N_train)',
    });
    if (groups) {
      for (const g of groups.names) {
        const key = `weighted_error_group.${g}`;
        const gi = groups.names.indexOf(g);
        let rows = 0;
        for (let c = 0; c < data.classes.length; c++) if (groups.groupOf[c] === gi) rows += run.point.stats.support[c];
        if (!(rows > 0))
          warnings.note('empty-group', `${key}: group "${g}" has no test rows; by convention its error is 1.0.`);
        else if (lt[key] === null)
          warnings.note('empty-group', `${key}: every test row of group "${g}" has train share 0; the value is null.`);
        results.metric('longtail', key, lt[key], {
          note: `e_g(w^trn), the group's error weighted by train class frequency n_y/N_train, every row accepted, ε = ${run.longTail.epsilon}`,
        });
      }
    }
  }
  // After the long-tail setup, so the table carries train count, rank, shot and group.
  results.table('perClass', perClassTable(run));
};

function perClassTable(run: ClassificationRun): PerClassRow[] {
  const { data, train, groups, longTail } = run;
  const scores = perClassScores(run.point.stats);
  return data.classes.map((cls, c) => {
    const s = scores[c];
    // support in the weights as written (tiny weights are scaled up for the metrics: io/weights.ts)
    const row: PerClassRow = {
      class: cls,
      support: unshiftWeight(s.support, data.weightShift ?? 0),
      accuracy: s.accuracy,
    };
    if (train?.counts) row.trainCount = train.counts[c];
    if (train) row.rank = train.rank[c];
    if (longTail.shotOf) row.shot = SHOTS[longTail.shotOf[c]];
    if (groups) row.group = groups.names[groups.groupOf[c]];
    row.precision = s.precision;
    row.recall = s.recall;
    row.f1 = s.f1;
    return row;
  });
}

const evolvingStep: ClassificationStep = (run, ctx) => {
  const ev = run.evolving;
  if (!ev) return;
  const { results, warnings } = ctx;
  const agg = aggregateEvolving(
    ev,
    run.point.stats,
    run.classRows ? { prep: run.prepared, classRows: run.classRows } : undefined,
  );
  const proto =
    ev.protocol === 'expected'
      ? `expected protocol (V_t = Σ_c q^tst_c·acc_c), ρ = ${round(ev.rho)}, T = ${ev.T}`
      : `sampled protocol (N_max = ${ev.sampled?.nMax}${ev.sampled?.nMaxConfigured ? ' from shiftTestSize' : ", the largest class's test rows"}, N^tst = ${round(ev.sampled?.nTest ?? NaN)}, ${SAMPLED_DRAWS} draws with replacement, seed = ${ev.seed}), ρ = ${round(ev.rho)}, T = ${ev.T}`;
  const notes: Record<string, string> = {
    shift_auc: `trapezoid of V_t over δ_t sorted ascending, divided by δ_last − δ_first; δ = symmetric KL; ${proto}`,
    shift_avg: `mean of V_t; ${proto}`,
    shift_std: `population SD of V_t; ${proto}`,
    shift_max: `max of V_t; ${proto}`,
    shift_min: `min of V_t; ${proto}`,
    shift_dr: `(max − min)/max of V_t; ${proto}`,
    btd: 'accuracy under a balanced test distribution = balanced accuracy',
    acc_forward: 'Σ_c q^trn_c·acc_c (test distribution = train distribution)',
    acc_uniform: 'mean of acc_c (= btd)',
    acc_backward: 'Σ_c q^trn_(C+1−rank)·acc_c (train shares reversed over the rank)',
  };
  for (const [key, note] of Object.entries(notes)) {
    if (agg.values[key] === null)
      warnings.note(
        'evolving-undefined',
        `${key} is undefined for this data (${key === 'shift_auc' ? 'all δ_t are equal' : 'zero maximum'}); the value is null.`,
      );
    results.metric('evolving', key, agg.values[key], { note });
  }
  // Points in the order of shift_auc's integral (δ ascending), so the curve can be drawn as a line.
  const o = Array.from(ev.byDelta);
  results.curve('shift', {
    x: 'shift (symmetric KL)',
    y: 'accuracy',
    xs: o.map((t) => ev.delta[t]),
    ys: o.map((t) => agg.V[t]),
    extra: { t: o.map((t) => t + 1), alpha: o.map((t) => ev.alpha[t]), js: o.map((t) => ev.js[t]) },
    note: `δ_t is Σ_c (q^trn_c − q^tst_c)·ln(q^trn_c/q^tst_c), which Fang et al. (2023) call a JS divergence (their formula without its stray minus sign): a symmetric KL divergence; the js column beside it is the true Jensen–Shannon divergence (natural log). ${proto}.`,
  });
};

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/**
 * The family steps, in order. The bootstrap step belongs last, after every metric exists: it builds
 * the run's resampling plan over the keys the families wrote (classificationCi.ts) and hands it to
 * the one bootstrap service (bootstrapService.ts).
 */
export const CLASSIFICATION_STEPS: { name: string; step: ClassificationStep }[] = [
  { name: 'classification', step: classificationStep },
  { name: 'longtail', step: longTailStep },
  { name: 'subgroups', step: subgroupStep },
  { name: 'evolving', step: evolvingStep },
  { name: 'selective', step: selectiveStep },
  { name: 'calibration', step: calibrationStep },
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

export const runClassification: TaskRunner = async (ctx) => {
  let loaded = await loadClassification(ctx.path, ctx.config, ctx.warnings, ctx.progress, {
    // the `slices` columns and the subgroup column, as written
    keepText: [...(ctx.config.slices ?? []), ...(ctx.config.subgroupColumn ? [ctx.config.subgroupColumn] : [])],
    keepOther: ctx.subset !== undefined,
    // a margin or entropy ranking: calibration reads the top-label probability from the matrix
    keepProbabilities: (ctx.config.score ?? CONFIG_DEFAULTS.score) !== 'msp',
  });
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
    run.source = {
      path: ctx.path,
      format: loaded.format,
      rows: loaded.rows,
      rowsUsed: loaded.data.n,
      columns: loaded.columns,
      ...(split.plan ? { split: splitSummary(split.plan) } : {}),
    };
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
