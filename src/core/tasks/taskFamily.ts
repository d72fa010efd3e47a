/**
 * The one contract every metric family of every task implements, and what the services build
 * from it. A task is its loader, its `prepare` (the run: data and per-unit quantities computed
 * once) and the list of families it registers; the families write the point estimates and say
 * how one resample gives their scalars, and the services — the one bootstrap service
 * (bootstrapService.ts) for the run's intervals and provisional stages, the paired comparison
 * through the run's resampling plan, the slice and fold tables (slices.ts, over the task's statistic
 * restricted to a slice's rows) — take it from there. Written once here, so that the three
 * tasks cannot drift apart in how a family is recorded, which keys are resampled or how a
 * resample's values are gathered.
 *
 * A family's statistic does not walk the units itself: it reads the resample's `Sums`, which the
 * task's resampling plan computes once per resample for every family (classification: the
 * per-class sums and the one selective pass; ranking: the user means of every per-user key;
 * importance-weighted binary: the weighted and unweighted metric vectors of the sorted rows). So
 * a family composes into the task's one fast path instead of adding a pass of its own, and the
 * statistic at the full data (no multiplicities) is the family's point estimate — a unit test
 * checks that for every registered family of every task.
 */
import { bootstrapStep, type IntervalTarget, type PlaceInterval } from './bootstrapService';
import type { ResamplingPlan } from '../stats/resamplingPlan';
import type { StartedResampleWorkers } from '../stats/parallelBootstrap';
import type { RunnerSource } from './stages';
import type { TaskContext } from './types';
import type { TableName } from '../results/types';

/** What a run records of its families: per family (by name) the metric keys its point step wrote. */
export interface FamilyRecord {
  familyKeys?: Record<string, string[]>;
}

/**
 * A metric family of a task over its run `Run`: `point` writes its point estimates (metrics with
 * their notes, warnings, baselines) and returns what its tables step draws (`Drawn`; a family
 * that hands nothing on returns nothing, and a list of families holds them as `unknown`); `tables`
 * writes its tables and curves from the run and that value; `resample`, when its scalars get
 * intervals, writes the same keys' values of one resample from the resample's shared `Sums`,
 * reading only `Shared` (the part of the run a bootstrap thread also has).
 */
export interface TaskFamily<Run, Sums, Shared = Run, Drawn = unknown> {
  /** Its name: where its recorded keys are kept (and the progress stage and timing of its point step, where the runner times them). */
  readonly name: string;
  /**
   * Writes its point estimates and returns what its {@link TaskFamily.tables} step draws that the
   * point step computed (the accuracies of a curve, the acceptance at the operating point, a clause
   * of the notes), so that it is computed once and handed on typed, with no state kept by run.
   */
  point: (run: Run, ctx: TaskContext) => Drawn | Promise<Drawn>;
  /**
   * Writes the family's values of one resample into `out` (absent: no intervals). It writes its
   * keys and reads none: `out` may be a record reused from resample to resample, holding the values
   * of an earlier one ({@link familyKeyValues}).
   */
  resample?: (run: Shared, sums: Sums, out: Record<string, number | null>) => void;
  /**
   * The keys its statistic gives, in order, given the keys its point step wrote (`wrote`); absent:
   * every key it wrote. A family says so when some of its keys get no interval (a spread over
   * users, a count) or when its statistic gives keys of its own that are no metric (a baseline's
   * values, placed by {@link TaskFamily.place}).
   */
  resampledKeys?: (run: Run, wrote: readonly string[]) => string[];
  /**
   * Puts the interval of one of its own keys that is no metric (a baseline's value) into `target`
   * and returns true; false leaves the key to the service (the metric of that name).
   */
  place?: (target: IntervalTarget, key: string, ci: [number, number] | null) => boolean;
  /**
   * The tables its {@link TaskFamily.tables} step may write (names of `ResultTables`, so each is
   * written with its type through `ctx.results.table`); writing any other is an error.
   */
  readonly tableNames?: readonly TableName[];
  /**
   * Writes its tables and curves, right after its point step (see {@link familyStep}), from the
   * run and what the point step returned (`drawn`): what the report draws of the family (a chart's
   * points, a breakdown, a summary), which gets no interval. It may read everything the families
   * before it wrote (the metric-vs-K curves draw the baselines beside the run).
   *
   * A method, not a function property, so that a task's list of families (`Drawn` unknown) holds
   * families that each hand their own type from point to tables: only {@link familyStep} calls it,
   * with the value the same family's point step returned.
   */
  tables?(run: Run, ctx: TaskContext, drawn: Drawn): void | Promise<void>;
  /**
   * The keys of its statistic that the slice and fold tables report (its headline scalars), given
   * the run, each with the rank of its column ({@link SliceColumn}); absent: none. Each slice's
   * value is this statistic over the slice's units alone (the task's statistic restricted to them,
   * tasks/slices.ts), so a key needs no slice code of its own.
   */
  sliceKeys?: (run: Run) => readonly SliceColumn[];
}

/**
 * A key of the slice and fold tables and the rank of its column among the task's slice columns:
 * the tables list the keys of all the families by rank, lowest first (equal ranks in the families'
 * order, then each family's own). The rank, not the order the families run in, places a column,
 * so a family that must run before another (the selective family sets up the order calibration
 * reads) can still have its column after the other's.
 */
export interface SliceColumn {
  readonly key: string;
  readonly rank: number;
}

/**
 * The family's step: its point step, which also records the keys the family wrote in
 * `run.familyKeys`, then its tables step ({@link familyTables}) with what the point step returned.
 */
export function familyStep<Run extends FamilyRecord, Drawn>(
  family: TaskFamily<Run, never, never, Drawn>,
): (run: Run, ctx: TaskContext) => Promise<void> {
  return async (run, ctx) => {
    const before = new Set(Object.keys(ctx.results.metrics));
    const drawn = await family.point(run, ctx);
    (run.familyKeys ??= {})[family.name] = Object.keys(ctx.results.metrics).filter((k) => !before.has(k));
    await familyTables(family, run, ctx, drawn);
  };
}

/**
 * The family's tables step, if it has one, given what its point step returned; throws when it
 * writes a table it does not declare in {@link TaskFamily.tableNames} (a programming error: the
 * declaration is what a reader of the family goes by).
 */
export async function familyTables<Run, Drawn>(
  family: TaskFamily<Run, never, never, Drawn>,
  run: Run,
  ctx: TaskContext,
  drawn: Drawn,
): Promise<void> {
  if (!family.tables) return;
  const tables = ctx.results.tables;
  const before = new Map(Object.entries(tables));
  await family.tables(run, ctx, drawn);
  for (const [name, value] of Object.entries(tables))
    if (before.get(name) !== value && !family.tableNames?.some((t) => t === name))
      throw new Error(`the ${family.name} family wrote the table ${name}, which it does not declare in tableNames`);
}

/** The keys the families' statistics give, family by family, in the families' order. */
export function familyResampledKeys<Run extends FamilyRecord>(
  families: readonly TaskFamily<Run, never, never>[],
  run: Run,
): string[] {
  return families.flatMap((f) => {
    if (!f.resample) return [];
    const wrote = run.familyKeys?.[f.name] ?? [];
    return f.resampledKeys ? f.resampledKeys(run, wrote) : wrote;
  });
}

/**
 * The keys the slice and fold tables report, in the order of their columns: every family's
 * {@link TaskFamily.sliceKeys} by rank (a stable sort: equal ranks keep the families' order).
 */
export function familySliceKeys<Run>(families: readonly TaskFamily<Run, never, never>[], run: Run): string[] {
  return families
    .flatMap((f) => (f.resample && f.sliceKeys ? [...f.sliceKeys(run)] : []))
    .sort((a, b) => a.rank - b.rank)
    .map((c) => c.key);
}

/** Every family's values of one resample, from its shared sums (families without a statistic skipped). */
export function familyValues<Sums, Shared>(
  families: readonly TaskFamily<never, Sums, Shared>[],
  run: Shared,
  sums: Sums,
  out: Record<string, number | null> = {},
): Record<string, number | null> {
  for (const f of families) f.resample?.(run, sums, out);
  return out;
}

/**
 * The values of `keys` of one resample, from the families' statistics over its shared sums, written
 * into `out` at the keys' indices (NaN where no family writes a key, or writes null) — the form of
 * {@link familyValues} for a caller that reads a few keys many times (the slice and fold tables:
 * per resample, every slice and the whole file). Its layout is fixed once: one record, made here,
 * that the statistics write into on every call (a key a family leaves out of a call reads NaN, as
 * from a new record), then the keys read at their indices, so that a call allocates nothing. A new
 * record per call and a new array of the keys made the slices of the 188-row importance-weighted
 * example a quarter slower than the code before the families served them.
 */
export function familyKeyValues<Sums, Shared>(
  families: readonly TaskFamily<never, Sums, Shared>[],
  keys: readonly string[],
): (run: Shared, sums: Sums, out: Float64Array) => void {
  const withStatistic = families.filter((f) => f.resample);
  const record: Record<string, number | null> = {};
  for (const k of keys) record[k] = NaN;
  return (run, sums, out) => {
    for (let q = 0; q < keys.length; q++) record[keys[q]] = NaN;
    for (let f = 0; f < withStatistic.length; f++) withStatistic[f].resample!(run, sums, record);
    for (let q = 0; q < keys.length; q++) out[q] = record[keys[q]] ?? NaN;
  };
}

/** The interval placement of the families that place keys of their own (see {@link TaskFamily.place}). */
export function familyPlace(families: readonly TaskFamily<never, never, never>[]): PlaceInterval {
  const placing = families.filter((f) => f.place);
  return (target, key, ci) => placing.some((f) => f.place!(target, key, ci));
}

/** The bootstrap of a task's families (see {@link familyBootstrap}). */
export interface FamilyBootstrap {
  families: readonly TaskFamily<never, never, never>[];
  /** The run's resampling plan over the keys of {@link familyResampledKeys}. */
  plan: ResamplingPlan;
  /** The families' statistic at the full data: the points of the keys that are no metric. */
  full: Readonly<Record<string, number | null>>;
  source: RunnerSource | null;
  started?: StartedResampleWorkers | null;
}

/**
 * The one bootstrap step of a task's families: each key's point is its metric's value (else the
 * statistic at the full data, which the contract makes the same), each interval goes where its
 * family places it or onto the metric, and the service does the rest (bootstrapService.ts).
 */
export async function familyBootstrap(req: FamilyBootstrap, ctx: TaskContext): Promise<void> {
  const points: Record<string, number | null> = {};
  for (const k of req.plan.keys) points[k] = ctx.results.metrics[k]?.value ?? req.full[k] ?? null;
  await bootstrapStep(
    { plan: req.plan, points, place: familyPlace(req.families), source: req.source, started: req.started },
    ctx,
  );
}
