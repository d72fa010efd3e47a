/**
 * The `evolving` family: accuracy under a sequence of test distributions drifting from the train
 * distribution (metrics/evolving.ts): `shift_auc`, `shift_avg`, `shift_std`, `shift_max`,
 * `shift_min`, `shift_dr`, `btd`, `acc_forward`, `acc_uniform`, `acc_backward`, and the `shift`
 * curve. Computed only with a train distribution. Its statistic of a resample reads the resample's
 * per-class sums; the sampled protocol also draws its test sets from the resample's rows, with the
 * same seed each time (common random numbers).
 *
 * @see docs/metrics/classification.md, "Evolving test distributions" — the definitions and conventions of every key.
 */
import { aggregateEvolving, SAMPLED_DRAWS } from '../metrics/evolving';
import type { ClassificationFamily, ClassificationRun } from './classificationRun';
import type { TaskContext } from './types';

/**
 * What the point step computed that its tables step draws: the accuracies V_t of the curve and the
 * protocol's text, handed on so that the sampled protocol's draws are not made twice; null without
 * the family (no train distribution).
 */
type Drawn = { V: ArrayLike<number>; proto: string } | null;

const point = (run: ClassificationRun, ctx: TaskContext): Drawn => {
  const ev = run.evolving;
  if (!ev) return null;
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
  return { V: agg.V, proto };
};

/** The `shift` curve: accuracy under each test distribution against its shift from the train distribution. */
const curve = (run: ClassificationRun, { results }: TaskContext, drawn: Drawn): void => {
  const ev = run.evolving;
  if (!ev || !drawn) return;
  const { V, proto } = drawn;
  // Points in the order of shift_auc's integral (δ ascending), so the curve can be drawn as a line.
  const o = Array.from(ev.byDelta);
  results.curve('shift', {
    x: 'shift (symmetric KL)',
    y: 'accuracy',
    xs: o.map((t) => ev.delta[t]),
    ys: o.map((t) => V[t]),
    extra: { t: o.map((t) => t + 1), alpha: o.map((t) => ev.alpha[t]), js: o.map((t) => ev.js[t]) },
    note: `δ_t is Σ_c (q^trn_c − q^tst_c)·ln(q^trn_c/q^tst_c), which Fang et al. (2023) call a JS divergence (their formula without its stray minus sign): a symmetric KL divergence; the js column beside it is the true Jensen–Shannon divergence (natural log). ${proto}.`,
  });
};

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

export const evolvingFamily: ClassificationFamily<Drawn> = {
  name: 'evolving',
  point,
  // a curve, no table of ResultTables
  tables: curve,
  resample: (run, { agg, counts }, out) => {
    if (!run.evolving) return;
    const ev = aggregateEvolving(
      run.evolving,
      agg.stats,
      run.classRows ? { prep: run.prepared, classRows: run.classRows, counts } : undefined,
    );
    Object.assign(out, ev.values);
  },
};
