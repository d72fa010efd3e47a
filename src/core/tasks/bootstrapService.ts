/**
 * The one bootstrap step of every task: given the run's {@link ResamplingPlan} — the units, the
 * keys and their statistic over the units' multiplicities, as the task's families declare them —
 * it either hands the plan to a caller that resamples the run itself (a paired comparison,
 * `TaskContext.onResampling`) or runs it (stats/planIntervals.ts) and puts each interval where it
 * belongs: the point-estimate stage before the first resample, the provisional intervals into a
 * snapshot, progress and cancellation, the `bootstrap` timing, the worker-fallback note, a note
 * for the keys left without an interval, and the final intervals into the results. A task that
 * adds a key to its plan gets its interval, its provisional interval and its paired interval with
 * no code of its own.
 *
 * Where an interval goes: on the metric of the same name (with its method, `ci_method`, when it is
 * not the percentile one), unless the task's `place` takes the key — a table row (per-class
 * accuracy, an operating point) or a baseline's value.
 */
import { intervalMethodOf, resampleProgress } from '../stats/bootstrap';
import { workerFallbackNote, type StartedResampleWorkers } from '../stats/parallelBootstrap';
import { planIntervals } from '../stats/planIntervals';
import type { ResamplingPlan } from '../stats/resamplingPlan';
import type { Results } from '../results/types';
import { setSnapshotCi, type RunnerSource } from './stages';
import type { TaskContext } from './types';

/** What an interval can be written into: the results being built, or a snapshot of them. */
export type IntervalTarget = Pick<Results, 'metrics' | 'tables' | 'baselines'>;

/**
 * Puts the interval of `key` (null: none) into `target` when the key is not a metric's own — a
 * table row, a baseline — and says whether it took the key.
 */
export type PlaceInterval = (target: IntervalTarget, key: string, ci: [number, number] | null) => boolean;

export interface BootstrapRequest {
  plan: ResamplingPlan;
  /** Each key's value on the sample (the basic intervals are reflected about it). */
  points: Readonly<Record<string, number | null>>;
  place?: PlaceInterval;
  /** The run's source, for the point-estimate stage (a staged report shows the values first). */
  source: RunnerSource | null;
  /** Bootstrap threads started while the point estimates were computed (stopped when not used). */
  started?: StartedResampleWorkers | null;
}

/** Hands the plan over or computes and places its intervals (see the module's doc). */
export async function bootstrapStep(req: BootstrapRequest, ctx: TaskContext): Promise<void> {
  const { plan, place } = req;
  const bs = ctx.config.bootstrap;
  if (ctx.onResampling) {
    void req.started?.stop(); // the caller resamples on threads of its own
    ctx.onResampling(plan);
    return;
  }
  if (ctx.stages && req.source) await ctx.stages.point(req.source);
  const put = (target: IntervalTarget, key: string, ci: [number, number] | null): boolean =>
    place?.(target, key, ci) ?? false;
  const t0 = performance.now();
  const cis = await planIntervals(plan, {
    n: bs.n,
    confidence: bs.confidence,
    seed: bs.seed,
    points: req.points,
    onResample: resampleProgress(ctx.progress, 'bootstrap'),
    onProvisional: ctx.stages
      ? (pcis, done) =>
          ctx.stages?.provisional(done, bs.n, (snap) => {
            for (const k of plan.keys) if (!put(snap, k, pcis[k])) setSnapshotCi(snap, k, pcis[k]);
          })
      : undefined,
    started: req.started,
    onWorkerFallback: workerFallbackNote(ctx.warnings),
  });
  const { results } = ctx;
  results.timings.bootstrap = (results.timings.bootstrap ?? 0) + (performance.now() - t0) / 1000;
  const missing: string[] = [];
  for (const k of plan.keys) {
    const ci = cis[k];
    if (put(results, k, ci)) continue;
    if (ci) results.setCi(k, ci, intervalMethodOf(k));
    else if (results.metrics[k]?.value !== null && results.metrics[k] !== undefined) missing.push(k);
  }
  if (missing.length > 0) {
    ctx.warnings.note(
      'ci-undefined',
      `No bootstrap interval for ${missing.join(', ')}: the value is undefined in more than half of the ${bs.n} resamples.`,
      { count: missing.length },
    );
  }
}
