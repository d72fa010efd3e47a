/**
 * The `classification` family: accuracy, balanced accuracy, macro-F1, the Matthews correlation
 * coefficient and, with class scores, top-k
 * accuracy, NLL and Brier (metrics/classification.ts), with the confusion matrix. Its statistic of a
 * resample reads the resample's per-class sums alone, and gives the per-class accuracies too when
 * they are wanted (their intervals go to the bars of the per-class chart).
 *
 * @see docs/metrics/classification.md, "Classification" — the definitions and conventions of every key.
 */
import { unshiftWeight } from '../io/weights';
import { classesWithoutRows, confusionMatrix } from '../metrics/classification';
import { classAccuracyKey, type ClassificationFamily, type ClassificationStep } from './classificationRun';

const fmt = (c: string) => `"${c}"`;
function list(xs: string[]): string {
  return xs.length <= 10 ? xs.map(fmt).join(', ') : `${xs.slice(0, 10).map(fmt).join(', ')}, … (${xs.length} in all)`;
}

const point: ClassificationStep = (run, ctx) => {
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
  results.metric('classification', 'matthews_corrcoef', v.matthews_corrcoef, {
    note: "K-class MCC from the weighted confusion matrix (scikit-learn's matthews_corrcoef); 0 when all rows share one true or one predicted class",
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
};

/** `tables.confusion`, in the weights as written (tiny weights are scaled up for the metrics: io/weights.ts). */
const tables: ClassificationStep = ({ prepared, data }, { results }) => {
  const shift = data.weightShift ?? 0;
  const matrix = confusionMatrix(prepared).map((row) => row.map((x) => unshiftWeight(x, shift)));
  results.table('confusion', { labels: data.classes, matrix });
};

export const classificationFamily: ClassificationFamily = {
  name: 'classification',
  point,
  tableNames: ['confusion'],
  tables,
  // the first slice columns (the tables' columns: accuracy, macro F1, then calibration's ECE and
  // the selective family's AURC, ranks 2 and 3)
  sliceKeys: () => [
    { key: 'accuracy', rank: 0 },
    { key: 'macro_f1', rank: 1 },
  ],
  resample: (_run, { agg, perClass }, out) => {
    Object.assign(out, agg.values);
    if (!perClass) return;
    // Per-class accuracy Σ w·1[ŷ=y] / Σ w over the rows of class c, from the sums the resample already has.
    const { support, correct } = agg.stats;
    for (let c = 0; c < support.length; c++)
      out[classAccuracyKey(c)] = support[c]! > 0 ? correct[c]! / support[c]! : null;
  },
};
