/** Builders shared by the classification tests: ClassificationData from plain arrays, a seeded RNG, a config. */
import type { ClassificationData } from '../../../src/core/data/classificationData';
import type { ResolvedConfig } from '../../../src/core/config/types';
import { CONFIG_DEFAULTS } from '../../../src/core/config/types';
import { createRng, type Rng } from '../../../src/core/stats/rng';
import { ResultsBuilder } from '../../../src/core/results/builder';
import { Warnings } from '../../../src/core/diagnostics';
import { CLASSIFICATION_STEPS, prepareRun } from '../../../src/core/tasks/classification';
import { CLASSIFICATION_FAMILIES, familyScalars } from '../../../src/core/tasks/classificationFamilies';
import type { ResampleRun } from '../../../src/core/tasks/classificationRun';
import {
  aggregateClassification,
  type ClassificationAggregate,
  type PreparedClassification,
} from '../../../src/core/metrics/classification';
import type { MetricFamily } from '../../../src/core/results/types';
import type { ClassificationRun, ClassificationStep } from '../../../src/core/tasks/classificationRun';
import type { TaskContext } from '../../../src/core/tasks/types';
import { closeRel } from './numericClose';
import { probabilityTerms } from './probabilityTerms';
import type { ScoreKind } from '../../../src/core/metrics/scores';

export function makeData(args: {
  classes: string[];
  labels: number[];
  preds?: number[];
  probs?: number[][] | null;
  weights?: number[] | null;
  /** The score kind of `probTerms` (default msp); other kinds are derived from the kept matrix. */
  scoreKind?: ScoreKind;
}): ClassificationData {
  const n = args.labels.length;
  const C = args.classes.length;
  const probs = args.probs ? Float64Array.from(args.probs.flat()) : null;
  let preds = args.preds;
  if (!preds) {
    if (!args.probs) throw new Error('makeData: preds or probs needed');
    preds = args.probs.map((row) => row.indexOf(Math.max(...row)));
  }
  if (probs && probs.length !== n * C) throw new Error('makeData: probs shape');
  const labels = Int32Array.from(args.labels);
  return {
    file: 'test.csv',
    n,
    classes: args.classes,
    labels,
    preds: Int32Array.from(preds),
    probs,
    probTerms: probs ? probabilityTerms(probs, labels, C, n, args.scoreKind ?? 'msp') : null,
    fromLogits: false,
    scoreColumn: null,
    scoreColumnName: null,
    weights: args.weights ? Float64Array.from(args.weights) : null,
    accept: null,
    groupColumn: null,
    split: null,
    ids: null,
    lines: Int32Array.from({ length: n }, (_, i) => i + 2),
  };
}

export function config(extra: Partial<ResolvedConfig> = {}): ResolvedConfig {
  return {
    ...(CONFIG_DEFAULTS as unknown as ResolvedConfig),
    bootstrap: { ...CONFIG_DEFAULTS.bootstrap },
    configFile: '/work/eval-lens.json',
    ...extra,
  } as ResolvedConfig;
}

export function classNames(C: number): string[] {
  return Array.from({ length: C }, (_, c) => String(c));
}

/** Random data: labels skewed, probabilities from a softmax of noisy logits, optional weights. */
export function randomData(
  rng: Rng,
  n: number,
  C: number,
  opts: { weighted?: boolean; ties?: boolean; noisyPred?: boolean } = {},
): ClassificationData {
  const labels: number[] = [];
  const probs: number[][] = [];
  const preds: number[] = [];
  for (let i = 0; i < n; i++) {
    // skewed labels: class c with chance ∝ 1/(c+1)
    let y = 0;
    const u = rng.next() * harmonic(C);
    let acc = 0;
    for (let c = 0; c < C; c++) {
      acc += 1 / (c + 1);
      if (u < acc) {
        y = c;
        break;
      }
    }
    labels.push(y);
    const z = Array.from({ length: C }, (_, c) => {
      const x = 2 * rng.next() + (c === y ? 1.5 : 0);
      return opts.ties ? Math.round(x * 2) / 2 : x;
    });
    const m = Math.max(...z);
    const e = z.map((x) => Math.exp(x - m));
    const s = e.reduce((a, b) => a + b, 0);
    const p = e.map((x) => x / s);
    probs.push(p);
    preds.push(opts.noisyPred && rng.next() < 0.3 ? rng.int(C) : p.indexOf(Math.max(...p)));
  }
  const weights = opts.weighted ? Array.from({ length: n }, () => (rng.next() < 0.1 ? 0 : 3 * rng.next())) : null;
  return makeData({ classes: classNames(C), labels, preds, probs, weights });
}

function harmonic(C: number): number {
  let s = 0;
  for (let c = 0; c < C; c++) s += 1 / (c + 1);
  return s;
}

export { createRng };

/** The context of a task run on in-memory data (named `test.csv`; nothing is read from disk). */
export function taskContext(cfg: ResolvedConfig): TaskContext {
  return { path: 'test.csv', baseDir: '/tmp', config: cfg, warnings: new Warnings(), results: new ResultsBuilder() };
}

/** Prepares `data` and runs `steps` on it in order (default: every step of the classification task). */
export async function runClassificationSteps(
  data: ClassificationData,
  cfg: ResolvedConfig,
  steps: readonly ClassificationStep[] = CLASSIFICATION_STEPS.map((s) => s.step),
): Promise<{ run: ClassificationRun; ctx: TaskContext }> {
  const ctx = taskContext(cfg);
  const run = await prepareRun(data, ctx);
  for (const step of steps) await step(run, ctx);
  return { run, ctx };
}

/** assert |a − b| ≤ tol (numbers or nulls). */
/** Relative closeness (see numericClose.ts); the classification tests import it from here. */
export const close = closeRel;

/** The results families whose scalars get bootstrap intervals: those of the families with a statistic. */
export const CI_FAMILIES: readonly MetricFamily[] = CLASSIFICATION_FAMILIES.filter((f) => f.resample)
  .map((f) => f.name)
  .filter((n): n is MetricFamily => n !== 'subgroups');

/**
 * The values of the families whose statistic reads the resample's class sums alone
 * (classification, long tail, evolving) for multiplicities `counts` (null = the full data): the
 * families' statistics without the selective pass.
 */
export function scalarMetricsFor(
  run: ResampleRun,
  counts: ArrayLike<number> | null,
  opts: { perClass?: boolean } = {},
): Record<string, number | null> {
  return scalarMetricsOf(run, counts ? aggregateClassification(run.prepared, counts) : run.point, counts, opts);
}

/** {@link scalarMetricsFor} from the resample's classification aggregate `agg`, already computed. */
export function scalarMetricsOf(
  run: ResampleRun,
  agg: ClassificationAggregate,
  counts: ArrayLike<number> | null,
  opts: { perClass?: boolean } = {},
): Record<string, number | null> {
  return familyScalars(run, { agg, counts, perClass: opts.perClass ?? false, selective: null });
}

/**
 * `run`'s classification vectors permuted by hand into the score order of its selective rows
 * (position p = row `rowIndex[p]`): what a bootstrap job over those rows held before its walk's
 * class tables carried them, the reference its statistic is compared with.
 */
export function permutedPrepared(run: ClassificationRun): PreparedClassification {
  const pr = run.prepared;
  const order = run.selective!.rows.rowIndex;
  const take = <T extends Int32Array | Uint16Array | Uint8Array | Float64Array>(a: T): T => {
    const res = new (a.constructor as new (n: number) => T)(order.length);
    for (let p = 0; p < order.length; p++) res[p] = a[order[p]];
    return res;
  };
  return {
    ...pr,
    labels: take(pr.labels),
    preds: take(pr.preds),
    correct: take(pr.correct),
    weights: pr.weights && take(pr.weights),
    nllTerm: pr.nllTerm && take(pr.nllTerm),
    brierTerm: pr.brierTerm && take(pr.brierTerm),
    trueRank: pr.trueRank && take(pr.trueRank),
  };
}
