/**
 * Runner of the iw-binary task (docs/metrics/importance.md): importance-weighted precision,
 * recall, F1 and error rate at the threshold, PR and ROC curves, `aupr_trapz`, `average_precision`, `roc_auc`,
 * each with a stratified bootstrap interval; the unweighted values beside them. The runner reads
 * the file, resolves the weights and sorts the rows by score once (the run); the keys, curves,
 * tables and baseline are written by the families it registers (iwFamilies.ts) and the intervals
 * come from the task's plan over those families, run by the one bootstrap service. The runner
 * writes `perItem` and runs the slices.
 *
 * Results written:
 * - `metrics`: the weighted values (family `importance`); each note names the convention and the
 *   unweighted value, so the CLI shows what the weighting changed.
 * - `baselines.unweighted`: the same keys computed with every weight 1 (with their own intervals).
 * - `curves`: `pr`, `pr_unweighted` (x recall, y precision, from the start point (0, 1)) and `roc`,
 *   `roc_unweighted` (x FPR, y TPR, from (0, 0)); `extra.threshold` holds each point's score.
 * - `tables.importanceWeights` (weight per stratum, or a summary of the weight column) and
 *   `tables.thresholdCounts` (weighted and unweighted TP/FP/FN/TN at the threshold).
 * - `perItem`: per-row correctness at the threshold under `accuracy` (1 when the prediction
 *   `score ≥ threshold` equals the label), with ids when the file has them.
 */
import { iwSlicesStep } from './slicesStep';
import { subsetIwBinary } from './subsetRows';
import { checkBaselineFits } from './baselineRun';
import { fail, type Warnings } from '../diagnostics';
import type { ResolvedConfig } from '../config/types';
import { CONFIG_DEFAULTS } from '../config/types';
import { STRATUM_B, type IwBinaryData } from '../data/iwBinaryData';
import { loadIwBinary } from '../io/loadIwBinary';
import { blocksAtOrAbove, scoreOrder, type ScoreOrder } from '../metrics/binaryCurve';
import { IW_KEYS, metricVector, stratumWeights, type IwKey } from '../metrics/importance';
import type { ResultTables } from '../results/types';
import { fmt, fullIwSums, IW_FAMILIES, iwPlan, type IwRun } from './iwFamilies';
import { familyBootstrap, familyStep, familyValues } from './taskFamily';
import type { TaskRunner } from './types';

/** The weight per row and how it was obtained. */
export interface ResolvedIwWeights {
  weights: Float64Array;
  /** `strata`: from populationSize / biasedSize; `column`: a weight column. */
  source: 'strata' | 'column';
  /** Short description for notes, e.g. `w_B = 0.001, w_Bc = 0.018`. */
  describe: string;
  table: ResultTables['importanceWeights'];
}

/**
 * Row weights from the config sizes (`w_B = (|B|/b)/|U|`, `w_Bc = ((|U|−|B|)/m)/|U|`) or the
 * weight column (which overrides them). Throws an {@link EvalLensError} naming the key to set
 * when the sizes are missing or contradict the file.
 */
export function resolveIwWeights(
  data: IwBinaryData,
  config: Pick<ResolvedConfig, 'populationSize' | 'biasedSize' | 'configFile'>,
  warnings: Warnings,
): ResolvedIwWeights {
  const cfgLoc = { file: config.configFile ?? data.file };
  if (data.weightColumn) {
    const w = data.weightColumn;
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < data.n; i++) {
      sum += w[i];
      min = Math.min(min, w[i]);
      max = Math.max(max, w[i]);
    }
    const col = data.columns.weight;
    if (!(sum > 0))
      fail('invalid-weights', { file: data.file, column: col }, 'expected some weight > 0, got all weights 0.');
    if (config.populationSize !== undefined || config.biasedSize !== undefined) {
      warnings.note(
        'weights-from-column',
        `The weight column "${col}" overrides the stratum weights from populationSize/biasedSize.`,
        { file: data.file, column: col },
      );
    }
    return {
      weights: w,
      source: 'column',
      describe: `weights from column "${col}" (overriding stratum weights)`,
      table: { source: 'column', column: col, rows: data.n, sum, min, max },
    };
  }
  const U = config.populationSize;
  if (U === undefined) {
    fail(
      'missing-config',
      cfgLoc,
      `importance weights need the population size: set \`populationSize\` (|U|, the number of items the labelled rows were drawn from) and, if the file holds only a sample of B, \`biasedSize\` (|B|) in eval-lens.json — or give a \`weight\` column.`,
    );
  }
  const Bsize = config.biasedSize ?? data.b;
  const { b, m, n } = data;
  if (!(Number.isInteger(U) && U > 0))
    fail('invalid-config', cfgLoc, `expected \`populationSize\` to be a positive integer, got ${U}.`);
  if (!(Number.isInteger(Bsize) && Bsize >= 0))
    fail('invalid-config', cfgLoc, `expected \`biasedSize\` to be an integer ≥ 0, got ${Bsize}.`);
  if (m === 0) {
    fail(
      'no-bc-rows',
      { file: data.file, column: data.columns.stratum },
      `expected rows of stratum Bc (a uniform sample of the population outside B), got none (${b} B rows). Without them the rest of the population cannot be estimated.`,
    );
  }
  if (b > Bsize)
    fail(
      'inconsistent-sizes',
      cfgLoc,
      `\`biasedSize\` is ${Bsize} but ${data.file} has ${b} B rows: B rows cannot outnumber |B|.`,
    );
  if (Bsize > 0 && b === 0)
    fail(
      'inconsistent-sizes',
      cfgLoc,
      `\`biasedSize\` is ${Bsize} but ${data.file} has no B rows: expected a sample of B.`,
    );
  if (U < n)
    fail(
      'inconsistent-sizes',
      cfgLoc,
      `\`populationSize\` is ${U} but ${data.file} has ${n} rows: the population cannot be smaller than the labelled rows.`,
    );
  if (U < Bsize)
    fail('inconsistent-sizes', cfgLoc, `\`populationSize\` (${U}) is smaller than \`biasedSize\` (${Bsize}).`);
  if (m > U - Bsize) {
    fail(
      'inconsistent-sizes',
      cfgLoc,
      `${data.file} has ${m} Bc rows but the complement of B holds only populationSize − biasedSize = ${U - Bsize} items.`,
    );
  }
  const { wB, wBc } = stratumWeights({ populationSize: U, biasedSize: Bsize, b, m });
  const weights = new Float64Array(n);
  const strata = data.strata!;
  for (let i = 0; i < n; i++) weights[i] = strata[i] === STRATUM_B ? wB : wBc;
  return {
    weights,
    source: 'strata',
    describe: `w_B = ${fmt(wB)}, w_Bc = ${fmt(wBc)}`,
    table: [
      { stratum: 'B', rows: b, populationCount: Bsize, weight: wB, totalWeight: b * wB },
      { stratum: 'Bc', rows: m, populationCount: U - Bsize, weight: wBc, totalWeight: m * wBc },
    ],
  };
}

/** Warnings for undefined values of the weighted metrics (and unweighted ones that differ). */
function warnUndefined(data: IwBinaryData, v: Float64Array, u: Float64Array, t: number, warnings: Warnings): void {
  const at = (k: IwKey) => IW_KEYS.indexOf(k);
  const isNull = (x: Float64Array, k: IwKey) => !Number.isFinite(x[at(k)]);
  if (isNull(v, 'precision') || isNull(u, 'precision')) {
    warnings.note(
      'no-positive-prediction',
      `No row has score ≥ threshold ${t}${isNull(v, 'precision') && !isNull(u, 'precision') ? ' with weight > 0' : ''}: precision is undefined (null).`,
      { file: data.file },
    );
  }
  if (isNull(v, 'recall') || isNull(u, 'recall')) {
    warnings.note(
      'no-positive-labels',
      `No positive row${isNull(v, 'recall') && !isNull(u, 'recall') ? ' with weight > 0' : ''}: recall, aupr_trapz, average_precision and roc_auc are undefined (null).`,
      { file: data.file },
    );
  }
  if (!isNull(v, 'recall') && isNull(v, 'roc_auc')) {
    warnings.note(
      'no-negative-labels',
      'No negative row with weight > 0: roc_auc and the ROC curve are undefined (null).',
      { file: data.file },
    );
  }
  if (isNull(v, 'f1') && !isNull(v, 'recall')) {
    warnings.note('f1-undefined', 'F1 is undefined: no positive rows and no positive predictions.', {
      file: data.file,
    });
  }
}

function warnScoreRange(data: IwBinaryData, t: number, warnings: Warnings): void {
  if (!(t >= 0 && t <= 1)) return;
  const lines: number[] = [];
  let count = 0;
  for (let i = 0; i < data.n; i++) {
    const s = data.scores[i];
    if (s < 0 || s > 1) {
      count++;
      if (lines.length < 20) lines.push(data.lines[i]);
    }
  }
  if (count > 0) {
    warnings.add({
      code: 'scores-out-of-range',
      message: `${count} score(s) outside [0, 1] while the threshold ${t} is a probability; are the scores logits or margins? Set \`threshold\` on the scores' scale.`,
      file: data.file,
      line: lines[0],
      column: data.columns.score,
      count,
      lines,
    });
  }
}

/**
 * The importance-weighted task does not split rows into validation and test: its stratum weights
 * w_B = (|B|/b)/|U| and w_Bc = ((|U|−|B|)/m)/|U| describe how the whole labelled sample was drawn,
 * and its threshold is given, not tuned. A `split` column or `randomSplit` is said to be unused.
 */
function warnSplitUnused(header: string[], file: string, config: ResolvedConfig, warnings: Warnings): void {
  const name = config.columns?.split ?? 'split';
  const column = header.find((h) => h.trim().toLowerCase() === name.toLowerCase());
  if (column === undefined && config.randomSplit === undefined) return;
  const what = column !== undefined ? `the split column "${column}"` : '`randomSplit`';
  warnings.note(
    'split-not-used',
    `${file}: ${what} is not used by the importance-weighted task: every row, validation and test alike, enters every metric, because the stratum weights describe how the whole labelled sample was drawn and the threshold is given, not chosen on validation rows. To evaluate the test rows only, filter them first (e.g. the report's subset evaluation with split = test, or a file holding only those rows).`,
    column !== undefined ? { file, column } : { file },
  );
}

export const runIwBinary: TaskRunner = async (ctx) => {
  const { config, warnings, results } = ctx;
  const t = config.threshold ?? CONFIG_DEFAULTS.threshold;
  let loaded = await loadIwBinary(ctx.path, {
    columns: config.columns,
    invalidRows: config.invalidRows,
    positiveLabel: config.positiveLabel,
    warnings,
    progress: ctx.progress,
    keepText: config.slices,
    keepOther: ctx.subset !== undefined,
  });
  if (ctx.subset) loaded = subsetIwBinary(loaded, ctx.subset.iwRows(loaded, ctx));
  if (ctx.baselineRun) checkBaselineFits(ctx.baselineRun, 'iw-binary', ctx.path, []);
  const data = loaded.data;
  warnSplitUnused(loaded.header, data.file, config, warnings);
  const w = resolveIwWeights(data, config, warnings);
  warnScoreRange(data, t, warnings);

  const so: ScoreOrder = results.time('importance', () => scoreOrder(data.scores));
  const nAbove = blocksAtOrAbove(so, t);
  const weighted = results.time('importance', () => metricVector(so, data.labels, w.weights, nAbove));
  const unweighted = results.time('importance', () => metricVector(so, data.labels, null, nAbove));
  warnUndefined(data, weighted, unweighted, t, warnings);
  const run: IwRun = {
    data,
    weights: w.weights,
    describe: w.describe,
    weightsTable: w.table,
    threshold: t,
    so,
    nAbove,
    weighted,
    unweighted,
  };
  // The families (iwFamilies.ts): the weighted metrics with the curves and tables, the unweighted baseline.
  for (const family of IW_FAMILIES) await familyStep(family)(run, ctx);

  if (ctx.perItem !== false) {
    const correct: number[] = new Array(data.n);
    for (let i = 0; i < data.n; i++) correct[i] = (data.scores[i] >= t ? 1 : 0) === data.labels[i] ? 1 : 0;
    results.perItem = {
      kind: 'row',
      ids: data.ids,
      labels: Array.from(data.labels, (y) => (y === 1 ? data.positiveLabel : (data.negativeLabel ?? '0'))),
      values: { accuracy: correct },
    };
  }

  if (config.slices?.length) await results.timeAsync('slices', () => iwSlicesStep(loaded, run, ctx));

  const source = { path: ctx.path, format: loaded.format, rows: loaded.rows, rowsUsed: data.n, columns: data.columns };
  if (config.bootstrap.n > 0) {
    await familyBootstrap(
      { families: IW_FAMILIES, plan: iwPlan(run), full: familyValues(IW_FAMILIES, run, fullIwSums(run)), source },
      ctx,
    );
    if (!data.strata && !ctx.onResampling) {
      warnings.note(
        'bootstrap-unstratified',
        'No stratum column: the bootstrap resamples all rows together (weights from the weight column).',
        { file: data.file },
      );
    }
  }

  return source;
};
