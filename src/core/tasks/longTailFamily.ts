/**
 * The `longtail` family: the many/medium/few-shot accuracies, the accuracy of each class-frequency
 * group, the train-weighted accuracy and each group's train-weighted error
 * (metrics/longtail.ts), and the per-class table (support, accuracy, precision, recall, F1, with the
 * train count, rank, shot and group of each class). Its statistic of a resample reads the
 * resample's per-class sums alone.
 *
 * @see docs/metrics/classification.md, "Long tail" — the definitions and conventions of every key.
 */
import { CONFIG_DEFAULTS } from '../config/types';
import { unshiftWeight } from '../io/weights';
import { perClassScores } from '../metrics/classification';
import { aggregateLongTail, SHOTS } from '../metrics/longtail';
import type { PerClassRow } from '../results/types';
import type { ClassificationFamily, ClassificationRun, ClassificationStep } from './classificationRun';

const point: ClassificationStep = (run, ctx) => {
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

export const longTailFamily: ClassificationFamily = {
  name: 'longtail',
  point,
  tableNames: ['perClass'],
  // After the long-tail setup, so the table carries train count, rank, shot and group.
  tables: (run, ctx) => ctx.results.table('perClass', perClassTable(run)),
  resample: (run, { agg }, out) => {
    Object.assign(out, aggregateLongTail(run.longTail, agg.stats));
  },
};
