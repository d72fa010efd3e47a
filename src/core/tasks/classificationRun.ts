/**
 * What every family of the classification task shares: the {@link ClassificationRun} (the data,
 * the per-row vectors prepared once and the setups of the families already run), the family
 * contract ({@link ClassificationFamily}: the one family contract of taskFamily.ts over this run and
 * the resample's {@link ResampleSums}), the step type, and {@link prepareRun} that builds the run. In a module of
 * their own so the families, the bootstrap (`classificationCi.ts`), the row inspector and the
 * runner in `classification.ts` import them without importing one another.
 */
import { EvalLensError } from '../diagnostics';
import { CONFIG_DEFAULTS } from '../config/types';
import type { ClassificationData } from '../data/classificationData';
import type { RunnerSource } from './stages';
import type { TextColumn } from '../data/textColumn';
import type { ScoreKind } from '../metrics/scores';
import {
  aggregateClassification,
  prepareClassification,
  type ClassificationAggregate,
  type PreparedClassification,
} from '../metrics/classification';
import { prepareLongTail, type LongTailSetup } from '../metrics/longtail';
import { prepareEvolving, rowsByClass, type EvolvingSetup } from '../metrics/evolving';
import type { SortedRows } from '../metrics/sortedRows';
import {
  resolveGroups,
  resolveTrainDistribution,
  type GroupSpec,
  type TrainDistribution,
} from '../metrics/trainDistribution';
import type { TaskContext } from './types';
import type { StartedResampleWorkers } from '../stats/parallelBootstrap';
import type { MetricFamily } from '../results/types';
import type { SplitPlan } from './split';
import type { FamilyRecord, TaskFamily } from './taskFamily';

/** Everything computed for one classification file, shared by the family steps. */
export interface ClassificationRun extends FamilyRecord {
  data: ClassificationData;
  /** Per-row vectors (correctness, NLL/Brier terms, true-class rank), computed once. */
  prepared: PreparedClassification;
  /** Aggregate of the full data (counts = null): values and per-class sums. */
  point: ClassificationAggregate;
  train: TrainDistribution | null;
  groups: GroupSpec | null;
  longTail: LongTailSetup;
  /** Null when the evolving family is not computed (no train distribution, or unavailable). */
  evolving: EvolvingSetup | null;
  /** Rows per true class (sampled shift protocol only). */
  classRows: Int32Array[] | null;
  /**
   * The validation/test split (tasks/split.ts), when the file has one; `data` then holds the test
   * rows (`metricsOn: "test"`) or every row (`"all"`).
   */
  split?: SplitPlan | null;
  /** The validation rows of the split, where thresholds are chosen; null without a split. */
  validation?: ClassificationData | null;
  /** Selective/calibration setup (score order, acceptance), set by the selective step; null when not computed. */
  selective?: SelectiveSetup | null;
  /** Columns kept as written (the `slices` columns), by name. */
  text?: Record<string, TextColumn>;
  /**
   * The run's data is its own and no step reads its derived scores (`data.probTerms.score`) in row
   * order once the selective family has sorted them: the sort then takes their memory as its own
   * and leaves the data an empty score array (8 bytes a row fewer, and 8 fewer at the sort's peak).
   * Set by the runner of an evaluation that writes no per-row values; never for data a caller
   * holds on to (the inspection's, a merge's).
   */
  scoresSpent?: boolean;
  /**
   * No step after the selective family's sort reads the rows' labels, predictions, line numbers or
   * correctness (no per-row values, resamples, slices or folds: the runner's test that also lets go
   * of the NLL, Brier and rank terms). The selective family then lets go of them once it has made its
   * flags, before it sorts: 7 bytes a row fewer at the sort's peak (up to 256 classes). Set by the
   * runner, as {@link scoresSpent}; never for data a caller holds on to.
   */
  rowsSpent?: boolean;
  /** The source description the runner returns (for snapshots of the results in stages). */
  source?: RunnerSource;
  /** The bootstrap's worker threads, started when reading ended (see `startBootstrapWorkers`). */
  resampleWorkers?: StartedResampleWorkers | null;
}

export type ClassificationStep = (run: ClassificationRun, ctx: TaskContext) => void | Promise<void>;

/** How rows are accepted (docs/metrics/selective.md, in this order of precedence). */
export type AcceptanceRule =
  | { kind: 'column' }
  | { kind: 'threshold'; threshold: number }
  | { kind: 'target'; target: number }
  /** `targetCoverage` with a split: t chosen on the `valRows` validation rows, then accept s ≥ t. */
  | { kind: 'split-target'; target: number; threshold: number; valRows: number }
  | { kind: 'all' };

export interface SelectiveSetup {
  /** `column` when a confidence/score/margin column is used, else the derived kind. */
  scoreKind: 'column' | ScoreKind | 'none';
  scoreName: string;
  /** Scores are probabilities of the top label (msp, or a [0,1] column not named like a margin). */
  isProbability: boolean;
  /** The rows the selective metrics are measured on (every row of the run's data). */
  rows: SortedRows;
  rule: AcceptanceRule;
  /**
   * With a list of `targetCoverage` values: the rule of each (the first is `rule`), for the table
   * `operatingPoints`; null otherwise.
   */
  operatingPoints?: AcceptanceRule[] | null;
  /** The `accept` column in sorted order (rule `column`). */
  mask: Uint8Array | null;
  groupNames: string[];
  reweight: boolean;
  /** With `reweight`: each group's train share π_g = Σ_{c∈g} n_c/N (weighted_balanced_error); else null. */
  groupTrainShare?: Float64Array | null;
  epsilon: number;
  /** False when the selective family cannot rank rows (no scores): only operating-point keys. */
  ranked: boolean;
  /**
   * Calibration input, or null: the same rows sorted by the top-label probability — the ranking
   * score itself when it is one, else (a margin or entropy ranking) max_c p_c of the class
   * probabilities — and the name of that confidence.
   */
  calib: { rows: SortedRows; bins: Int32Array; B: number; scoreName: string } | null;
}

/**
 * The part of a {@link ClassificationRun} a family's resample statistic reads: plain data, so that
 * the statistic also runs on a bootstrap thread (classificationCiWorker.ts), and permuted into the
 * score order by the bootstrap's fast path.
 */
export type ResampleRun = Pick<ClassificationRun, 'prepared' | 'point' | 'longTail' | 'evolving' | 'classRows'>;

/**
 * What one resample gives every family, computed once and shared: the families never walk the rows
 * themselves. The bootstrap fills it from one walk over the rows in score order when it can (the
 * selective pass also gathers the class sums: metrics/selectiveResample.ts), from a batch kernel
 * over several resamples otherwise (metrics/classification.ts `aggregateUnitBatch`).
 */
export interface ResampleSums {
  /** The resample's per-class sums and the classification values derived from them. */
  agg: ClassificationAggregate;
  /** Its multiplicities in the run's row order; null = the full data (each row once). */
  counts: ArrayLike<number> | null;
  /** Whether the per-class accuracies are wanted (their intervals go to the per-class table). */
  perClass: boolean;
  /**
   * The values of the resample's selective pass (the selective and calibration keys: they come
   * from one walk down the score order); null when the run has no selective setup or the caller
   * wants the class-sum families alone.
   */
  selective: Readonly<Record<string, number>> | null;
}

/**
 * A metric family of the classification task (the one family contract, {@link TaskFamily} in
 * taskFamily.ts, over this task's run and sums): its point estimates (keys with their notes,
 * warnings), written by `point`, its tables and curves by `tables` (from what `point` returned:
 * `Drawn`), and — when its scalars get bootstrap intervals — its statistic of one resample,
 * written by `resample` from the shared {@link ResampleSums} under the same keys. The statistic at the full data (`counts` null) is the point estimate; a unit test
 * checks it for every family.
 *
 * A family that registers in classificationFamilies.ts gets, with no code of its own, its
 * intervals (the one bootstrap service), its provisional intervals, its paired intervals in a
 * comparison (the run's resampling plan) and its subsets; the keys it lists in `sliceKeys`, their
 * slice and fold values (slices.ts).
 */
export interface ClassificationFamily<Drawn = unknown> extends TaskFamily<
  ClassificationRun,
  ResampleSums,
  ResampleRun,
  Drawn
> {
  /** The family's name: its progress stage and its timing; the results family of its keys, but for `subgroups` (theirs is `classification`). */
  readonly name: MetricFamily | 'subgroups';
}

/**
 * The key of class c's accuracy among a resample's values (the classification family's statistic with `perClass`).
 * Internal: it never becomes a results metric; its interval goes to the per-class table.
 */
export function classAccuracyKey(c: number): string {
  // Every resample writes these keys (one per class): made once, a key is the same string each
  // time instead of a new one that the property store must first look up in V8's string table.
  while (CLASS_ACCURACY_KEYS.length <= c) CLASS_ACCURACY_KEYS.push(`#class_accuracy.${CLASS_ACCURACY_KEYS.length}`);
  return CLASS_ACCURACY_KEYS[c]!;
}

/** `classAccuracyKey(c)` at [c], made on first use. */
const CLASS_ACCURACY_KEYS: string[] = [];

/** Builds the {@link ClassificationRun}: per-row preparation, train distribution, groups, setups. */
export async function prepareRun(data: ClassificationData, ctx: TaskContext): Promise<ClassificationRun> {
  const { config, results, warnings } = ctx;
  const prepared = results.time('classification.prepare', () =>
    prepareClassification(data, { topK: config.topK ?? CONFIG_DEFAULTS.topK }),
  );
  const point = results.time('classification.aggregate', () => aggregateClassification(prepared));
  checkLongTailConfig(config);
  const train = await resolveTrainDistribution(data.classes, config, ctx.baseDir, ctx.root);
  const groups = await resolveGroups(data.classes, config, train, ctx.baseDir, ctx.root);
  const longTail = prepareLongTail(data.classes.length, train, groups, {
    shotThresholds: { ...CONFIG_DEFAULTS.shotThresholds, ...config.shotThresholds },
    reweightEpsilon: config.reweightEpsilon ?? CONFIG_DEFAULTS.reweightEpsilon,
  });
  let evolving: EvolvingSetup | null = null;
  let classRows: Int32Array[] | null = null;
  if (train) {
    const protocol = config.shiftProtocol ?? CONFIG_DEFAULTS.shiftProtocol;
    const testRows = new Float64Array(data.classes.length);
    for (let i = 0; i < data.n; i++) testRows[data.labels[i]]++;
    // A class whose rows all weigh 0 has no accuracy either.
    for (let c = 0; c < testRows.length; c++) if (!(point.stats.support[c] > 0)) testRows[c] = 0;
    const setup = results.time('evolving.prepare', () =>
      prepareEvolving(train, data.classes, testRows, {
        imbalanceRatio: config.imbalanceRatio,
        T: config.T,
        protocol,
        seed: config.bootstrap?.seed ?? 0,
        testSize: config.shiftTestSize,
      }),
    );
    if (config.shiftTestSize !== undefined && protocol !== 'sampled')
      warnings.note(
        'shift-test-size-unused',
        `${config.configFile ?? 'the config'}: \`shiftTestSize\` (${config.shiftTestSize}) sets N_max of the \`sampled\` protocol; with \`shiftProtocol: "${protocol}"\` no test set is drawn, so it is not used.`,
      );
    if ('unavailable' in setup) {
      warnings.note(
        'evolving-not-computed',
        `The evolving-distribution metrics (shift_*, btd, acc_forward/uniform/backward) are not computed: ${setup.unavailable}.`,
      );
    } else {
      evolving = setup;
      if (protocol === 'sampled') classRows = rowsByClass(prepared);
    }
  }
  return { data, prepared, point, train, groups, longTail, evolving, classRows };
}

/** Values the config schema may not catch (types pass, meaning does not). */
function checkLongTailConfig(config: TaskContext['config']): void {
  const where = config.configFile ?? 'the evaluation config';
  const bad = (key: string, what: string): never => {
    throw new EvalLensError('invalid-config', `${where}: \`${key}\` ${what}`, { file: where, column: key });
  };
  const { T, imbalanceRatio: rho, reweightEpsilon: eps, shiftTestSize: nMax } = config;
  if (T !== undefined && (!Number.isInteger(T) || T < 1)) bad('T', `must be a positive integer, got ${T}.`);
  if (nMax !== undefined && (!Number.isInteger(nMax) || nMax < 1))
    bad('shiftTestSize', `must be a whole number ≥ 1 (rows of the peak class), got ${nMax}.`);
  if (rho !== undefined && !(rho > 0 && Number.isFinite(rho)))
    bad('imbalanceRatio', `must be a positive number, got ${rho}.`);
  if (eps !== undefined && !(eps >= 0 && Number.isFinite(eps)))
    bad('reweightEpsilon', `must be a number ≥ 0, got ${eps}.`);
  const t = { ...CONFIG_DEFAULTS.shotThresholds, ...config.shotThresholds };
  if (!Number.isFinite(t.many) || !Number.isFinite(t.few))
    bad('shotThresholds', `needs numbers \`many\` and \`few\`, got ${JSON.stringify(config.shotThresholds)}.`);
  // few ≤ many is checked with the config (check.ts, shotThresholdsProblem), where the line is known.
}
