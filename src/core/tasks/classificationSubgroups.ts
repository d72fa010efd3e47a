/**
 * Worst-group error over a per-row attribute (`subgroupColumn`): the subgroup-robustness setting of
 * Sagawa et al., "Distributionally Robust Neural Networks for Group Shifts", ICLR 2020
 * (arXiv:1911.08731), where each row carries its group (e.g. a spurious attribute × the label, or a
 * region) and a model is judged by its error on the worst group.
 *
 * - `error_subgroup.<v>` = Σ_{i: a_i = v} w_i·1[ŷ_i ≠ y_i] / Σ_{i: a_i = v} w_i over every row (the
 *   acceptance of the selective family plays no part), w the weight column (1 without one); a value
 *   whose rows all weigh 0 has no error (null, with a warning). An empty cell is its own value,
 *   `(empty)`.
 * - `worst_subgroup_error` = max_v error_subgroup.<v> over the values with an error.
 *
 * Distinct from the class-frequency groups of `groups` (`class_group` in the row query, `acc_group.<g>`,
 * `error_group.<g>`, `worst_error`), which group the *true classes* by train frequency.
 */
import { EMPTY, MAX_SLICE_VALUES } from '../rows/sliceValues';
import type { TextColumn } from '../data/textColumn';
import type { ClassificationFamily, ClassificationStep } from './classificationRun';

export interface SubgroupErrors {
  /** The subgroup names (the column's values; an empty cell is `(empty)`), in order of first appearance. */
  names: string[];
  /** Rows per subgroup. */
  rows: number[];
  /** Error per subgroup; null when its rows weigh 0 in all. */
  errors: (number | null)[];
  /** Largest error, and the subgroup it belongs to (the first on ties); null when no subgroup has an error. */
  worst: number | null;
  worstName: string | null;
}

/** Error per value of `column` from the per-row correctness and weights. O(n). */
export function subgroupErrors(
  column: TextColumn,
  correct: ArrayLike<number>,
  weights: ArrayLike<number> | null,
): SubgroupErrors {
  const G = column.values.length;
  const wrong = new Float64Array(G);
  const total = new Float64Array(G);
  const rows = new Array<number>(G).fill(0);
  const { codes } = column;
  for (let i = 0; i < codes.length; i++) {
    const g = codes[i];
    const w = weights ? weights[i] : 1;
    rows[g]++;
    total[g] += w;
    if (!correct[i]) wrong[g] += w;
  }
  const errors = Array.from(total, (t, g) => (t > 0 ? wrong[g] / t : null));
  let worst: number | null = null;
  let worstName: string | null = null;
  const names = column.values.map((v) => (v === '' ? EMPTY : v));
  errors.forEach((e, g) => {
    if (e !== null && (worst === null || e > worst)) {
      worst = e;
      worstName = names[g];
    }
  });
  return { names, rows, errors, worst, worstName };
}

/** The `subgroups` step: `worst_subgroup_error` and `error_subgroup.<v>` in the classification family. */
export const subgroupStep: ClassificationStep = (run, ctx) => {
  const name = ctx.config.subgroupColumn;
  if (!name) return;
  const { results, warnings } = ctx;
  const cfgName = ctx.config.configFile ?? 'the config';
  // kept as text by the loader (an absent column is an error there, naming the columns found)
  const column = run.text?.[name];
  if (!column) return;
  if (column.values.length > MAX_SLICE_VALUES) {
    warnings.note(
      'subgroups-too-many',
      `${cfgName}: \`subgroupColumn\` "${name}" has ${column.values.length} distinct values; the worst-group error takes at most ${MAX_SLICE_VALUES} subgroups, so worst_subgroup_error is not computed.`,
    );
    return;
  }
  const s = subgroupErrors(column, run.prepared.correct, run.prepared.weights);
  const weighted = run.prepared.weights ? ', rows weighted by the weight column' : '';
  results.metric('classification', 'worst_subgroup_error', s.worst, {
    note: `max of error_subgroup over the ${s.names.length} values of column ${name}${s.worstName === null ? '' : ` (worst: ${s.worstName})`}; every row${weighted}. A max is a biased statistic; no bootstrap interval is given for it.`,
  });
  s.names.forEach((v, g) => {
    const key = `error_subgroup.${v}`;
    if (s.errors[g] === null)
      warnings.note('empty-subgroup', `${key}: the rows whose ${name} is "${v}" weigh 0 in all; the value is null.`);
    results.metric('classification', key, s.errors[g], {
      note: `error rate of the ${s.rows[g]} rows whose ${name} is "${v}"${weighted}`,
    });
  });
};

/**
 * The `subgroups` family: point estimates only (see {@link subgroupStep}). It declares no statistic
 * of a resample, so its keys get no bootstrap interval: a maximum's percentile interval is biased,
 * and the subgroup errors are read beside the worst one.
 */
export const subgroupFamily: ClassificationFamily = { name: 'subgroups', point: subgroupStep };
