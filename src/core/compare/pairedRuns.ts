/**
 * The runs of a comparison as the paired bootstrap needs them: each run evaluated from its
 * prediction file with the task's resampling plan kept (stats/resamplingPlan.ts), and then every
 * key that both runs' plans resample tested with the paired bootstrap (pairedBootstrap.ts).
 *
 * Per-row material is never taken from a results file: a `*.eval.json` names its prediction file
 * and that file's SHA-256 (`source.path`, `source.sha256`); the file is read again — resolved
 * beside the results file, then as written — and used only when its SHA-256 is the recorded one.
 * Otherwise the run's stored metric values are compared without a paired test (results files hold
 * no per-row values: results/resultsFile.ts) and a warning says why. The results file's own metric values are compared with the re-read
 * ones; a difference (other settings) is reported.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { EvalWarning } from '../diagnostics';
import { checkCancelled, fail } from '../diagnostics';
import type { EvalConfig } from '../config/types';
import { evaluateFile, type EvaluateOptions } from '../evaluate';
import { fileInfo } from '../io/fileInfo';
import { readResultsFile } from '../results/validate';
import type { Results, Direction } from '../results/types';
import type { ResamplingPlan } from '../stats/resamplingPlan';
import { directionOf } from '../results/directions';
import { finishTests } from './compareRuns';
import { pairedBootstrap } from './pairedBootstrap';
import type { CompareResults, CompareTest, PAdjust } from './types';

export interface PairingRun {
  results: Results;
  /** Null when the run cannot be resampled (no prediction file, a changed one, no intervals configured). */
  plan: ResamplingPlan | null;
  warnings: EvalWarning[];
}

export type PairingLoadOptions = Pick<
  EvaluateOptions,
  'configPath' | 'overrides' | 'defaults' | 'root' | 'progress' | 'collectGarbage' | 'baselineRun'
> & { bootstrap?: { n: number; confidence: number; seed: number } };

/** True for a path that names an Eval Lens results file rather than predictions. */
export function isResultsPath(path: string): boolean {
  return /\.eval\.json$/i.test(path);
}

function withBootstrap(opts: PairingLoadOptions, extra?: EvalConfig): EvalConfig | undefined {
  const overrides: EvalConfig = { ...(extra ?? {}), ...(opts.overrides ?? {}) };
  if (opts.bootstrap) overrides.bootstrap = { ...(overrides.bootstrap ?? {}), ...opts.bootstrap };
  return Object.keys(overrides).length > 0 ? overrides : undefined;
}

/** Evaluates a prediction file, keeping its resampling plan. */
async function evaluateKeepingPlan(
  path: string,
  opts: PairingLoadOptions,
  extra: Partial<EvaluateOptions> = {},
): Promise<{ results: Results; plan: ResamplingPlan | null }> {
  let plan: ResamplingPlan | null = null;
  const results = await evaluateFile(path, {
    configPath: opts.configPath,
    overrides: withBootstrap(opts),
    defaults: opts.defaults,
    root: opts.root,
    progress: opts.progress,
    collectGarbage: opts.collectGarbage,
    onResampling: (p) => (plan = p),
    baselineRun: opts.baselineRun,
    ...extra,
  });
  return { results, plan };
}

/** The prediction file a results file names, resolved beside it first, then as written. */
function sourceCandidates(resultsPath: string, source: string): string[] {
  if (isAbsolute(source)) return [source];
  return [resolve(dirname(resultsPath), source), resolve(source)];
}

/**
 * One run of a comparison with its resampling plan: a prediction file is evaluated; a results
 * file is read, and its prediction file re-read when its SHA-256 matches (see the module's doc).
 */
export async function loadPairingRun(path: string, opts: PairingLoadOptions): Promise<PairingRun> {
  if (!isResultsPath(path)) return { ...(await evaluateKeepingPlan(path, opts)), warnings: [] };
  const stored = await readResultsFile(path);
  const warnings: EvalWarning[] = [];
  const named = stored.source.path;
  const found = sourceCandidates(path, named).find((p) => existsSync(p));
  const noPlan = (why: string): PairingRun => {
    // A baseline run is made from the prediction file's input: without it there is nothing to evaluate.
    if (opts.baselineRun)
      fail(
        'compare-baseline-no-predictions',
        { file: path },
        `the ${opts.baselineRun} baseline is made from the input of the prediction file this results file names, but ${why}.`,
      );
    warnings.push({
      code: 'compare-no-predictions',
      message: `${path}: ${why}, so its metrics are compared as stored, without a paired test or interval (a results file holds no per-row values: they are read again from the prediction file).`,
      file: path,
    });
    return { results: stored, plan: null, warnings };
  };
  if (!found) return noPlan(`the prediction file it names (${named}) is not there`);
  const info = await fileInfo(found);
  if (info.sha256 !== stored.source.sha256)
    return noPlan(
      `the prediction file it names (${named}) has changed since (its SHA-256 differs from the recorded one)`,
    );
  const configPath =
    opts.configPath ??
    (stored.config.configFile && existsSync(stored.config.configFile) ? stored.config.configFile : undefined);
  const { results, plan } = await evaluateKeepingPlan(
    found,
    { ...opts, configPath },
    stored.source.filter ? { subset: stored.source.filter.where } : {},
  );
  // A baseline run's values are not the stored run's: nothing to check against.
  const moved = Object.keys(opts.baselineRun ? {} : stored.metrics).filter((k) => {
    const x = stored.metrics[k]?.value ?? null;
    const y = results.metrics[k]?.value ?? null;
    return !(x === y || (x !== null && y !== null && Math.abs(x - y) <= 1e-12 * Math.max(1, Math.abs(x))));
  });
  if (moved.length > 0)
    warnings.push({
      code: 'compare-settings-differ',
      message: `${path}: re-evaluating ${named} gives other values of ${moved.slice(0, 8).join(', ')}${moved.length > 8 ? ', …' : ''} (the results were written with other settings); the comparison uses the values evaluated now.`,
      file: path,
      count: moved.length,
    });
  // The table shows what is compared: the values evaluated now, the source as recorded.
  return { results: { ...results, source: { ...results.source, path: stored.source.path } }, plan, warnings };
}

/**
 * Adds the paired bootstrap of every run against the baseline to `cmp`, for every compared key
 * both runs' plans resample: Δ, its interval and p-value, the direction-aware relative change;
 * a key without per-item values gets a test entry of its own. Then `p` and `p_adjusted` again.
 */
export async function addPairedTests(
  cmp: CompareResults,
  runs: readonly PairingRun[],
  opts: {
    bootstrap: { n: number; confidence: number; seed: number };
    adjust: PAdjust;
    directions?: Record<string, Direction>;
    progress?: PairingLoadOptions['progress'];
  },
): Promise<void> {
  const b = cmp.runs.indexOf(cmp.baseline);
  const base = runs[b]?.plan;
  if (!base) return;
  const direction = (k: string): Direction => cmp.directions[k] ?? opts.directions?.[k] ?? directionOf(k);
  const tested = new Set<string>();
  for (let i = 0; i < runs.length; i++) {
    const plan = runs[i].plan;
    if (i === b || !plan) continue;
    const run = cmp.runs[i];
    const keys = await pairedBootstrap(base, plan, {
      ...opts.bootstrap,
      names: [cmp.baseline, run],
      matchBy: cmp.matchBy === 'position' ? 'position' : 'id',
      direction,
      onResample: (done, total) => {
        if (done % 20 === 0 || done === total) {
          opts.progress?.report?.(`paired bootstrap ${cmp.names[i]}`, done, total);
          checkCancelled(opts.progress);
        }
      },
    });
    for (const k of keys) {
      if (!cmp.metrics.includes(k.key)) continue;
      tested.add(k.key);
      let t = cmp.tests.find((x) => x.run === run && x.metric === k.key);
      if (!t) {
        t = emptyTest(run, cmp.baseline, k.key, plan.n, k.b, k.a);
        cmp.tests.push(t);
      }
      t.delta = k.delta;
      t.ci_diff = k.ci_diff;
      t.p_boot = k.p_boot;
      t.better_by = k.better_by;
      t.better_by_ci = k.better_by_ci;
      if (k.excludes_point) t.ci_excludes_delta = true;
      else delete t.ci_excludes_delta;
      const own = (cmp.intervals ??= {});
      if (k.ci_b) (own[run] ??= {})[k.key] ??= k.ci_b;
      if (k.ci_a) (own[cmp.baseline] ??= {})[k.key] ??= k.ci_a;
    }
  }
  if (tested.size === 0) return;
  // Tests in the order of the metrics, runs in their order within each.
  const order = (t: CompareTest): number => cmp.metrics.indexOf(t.metric) * cmp.runs.length + cmp.runs.indexOf(t.run);
  cmp.tests.sort((x, y) => order(x) - order(y));
  if (cmp.untested) {
    cmp.untested = cmp.untested.filter((m) => !tested.has(m));
    if (cmp.untested.length === 0) delete cmp.untested;
  }
  cmp.settings.paired = {
    units: base.unit,
    n: opts.bootstrap.n,
    confidence: opts.bootstrap.confidence,
    seed: opts.bootstrap.seed,
  };
  cmp.settings.bootstrap = { ...opts.bootstrap };
  finishTests(cmp.tests, opts.adjust);
}

function emptyTest(
  run: string,
  baseline: string,
  metric: string,
  n: number,
  mean: number | null,
  meanBase: number | null,
): CompareTest {
  return {
    run,
    baseline,
    metric,
    n,
    mean,
    mean_baseline: meanBase,
    improvement: mean !== null && meanBase !== null && meanBase !== 0 ? (mean - meanBase) / meanBase : null,
    t: null,
    p_t: null,
    p_t_one_sided: null,
    wilcoxon: null,
    p_wilcoxon: null,
    d_z: null,
    d_pooled: null,
  };
}
