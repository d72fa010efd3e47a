/**
 * Comparing evaluated runs: the run × metric table with best / second / third per column (ties
 * share a place, the last place is never marked: marks.ts), and for each run other than the
 * baseline and each compared metric that has per-item values, the paired tests of
 * `stats/tests.ts` on the matched items, with the bootstrap interval of the difference Δ.
 *
 * Conventions (docs/comparisons.md):
 * - Per-item values come from `results.perItem.values[metric]` (classification: per-row
 *   `accuracy`, `top<k>_accuracy`, `nll`, `brier`; ranking: per-user values). A compared metric
 *   without them on either side is listed once in `untested` (the report's table note), not
 *   warned about per run. Pairs with a non-finite value on either side are left out with a warning.
 * - `intervals` copies each run's own metric intervals (for `± h` in the LaTeX table); `curves`
 *   keeps the runs' curves, thinned, for overlay charts (curves.ts).
 * - `mean`, `mean_baseline` and `improvement` = (mean − mean_baseline)/mean_baseline are over the
 *   matched pairs; the table holds each run's own metric value (over all its rows, with weights if
 *   any), so the two can differ when weights are used or rows were left out.
 * - Holm: the family is one metric's tests, one per run tested against the baseline; `p_holm`
 *   adjusts the t-test's two-sided `p_t` and is present only when that family has ≥ 2 tests.
 * - `ci_diff`: percentile interval of mean(run − baseline) over matched pairs resampled with
 *   replacement (a resampling plan over the pairs run by `planIntervals`, stats/planIntervals.ts:
 *   resample b drawn from (seed, b) alone), when `bootstrap.n > 0`.
 * - Non-finite statistics (t = ±∞ when every difference is equal, NaN when all are zero or n < 2)
 *   are written as null, and a warning says what the value was.
 */
import { parseBaselineRunName } from './baselineNames';
import { basename } from 'node:path';
import { checkCancelled, fail, withArticle, type EvalWarning } from '../diagnostics';
import type { Results, Direction } from '../results/types';
import { directionOf } from '../results/directions';
import { planIntervals } from '../stats/planIntervals';
import type { ResamplingPlan } from '../stats/resamplingPlan';
import {
  bhAdjust,
  cohensDPooled,
  cohensDz,
  effectReading,
  holmAdjust,
  mcnemarExact,
  pairedTTest,
  wilcoxonSignedRank,
} from '../stats/tests';
import { TOOL_VERSION } from '../version';
import { markTable, UNRANKED_KEYS } from './marks';
import { overlayCurves } from './curves';
import { matchItems, defaultMatchBy, type MatchedPairs } from './match';
import { COMPARE_SCHEMA_ID, type CompareOptions, type CompareResults, type CompareTest, type PAdjust } from './types';

const HOLM_NOTE =
  "Holm over each metric's tests (one per run against the baseline), adjusting p_t; present when a metric has two or more tests.";

/**
 * Short display name of a run path: the file name without `.eval.json` or its extension (a baseline
 * run: `baseline:KIND (of NAME)`, NAME its source's short name).
 */
export function runName(path: string): string {
  const derived = parseBaselineRunName(path);
  if (derived) return `baseline:${derived.kind} (of ${runName(derived.source)})`;
  const b = basename(path);
  if (b.endsWith('.eval.json')) return b.slice(0, -'.eval.json'.length);
  const dot = b.lastIndexOf('.');
  return dot > 0 ? b.slice(0, dot) : b;
}

/** Display names: file names when they are distinct, else the paths as given. */
export function runNames(runs: readonly string[]): string[] {
  const short = runs.map(runName);
  return new Set(short).size === short.length ? short : [...runs];
}

/** Resolves `baseline` (a run as given, its display name, or a 0-based index) to an index. */
export function resolveBaseline(
  runs: readonly string[],
  names: readonly string[],
  baseline: string | undefined,
): number {
  if (baseline === undefined || baseline === '') return 0;
  let i = runs.indexOf(baseline);
  if (i < 0) i = names.indexOf(baseline);
  if (i < 0) {
    const byName = runs.findIndex((r) => runName(r) === runName(baseline));
    if (byName >= 0 && runs.filter((r) => runName(r) === runName(baseline)).length === 1) i = byName;
  }
  if (i < 0 && /^\d+$/.test(baseline) && Number(baseline) < runs.length) i = Number(baseline);
  if (i < 0) {
    fail(
      'compare-unknown-baseline',
      { file: baseline },
      `expected the baseline to be one of the runs compared (${runs.join(', ')}) or a 0-based index, but got "${baseline}".`,
    );
  }
  return i;
}

function finiteOrNull(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

function fmtInf(x: number): string {
  return Number.isNaN(x) ? 'undefined (NaN)' : x > 0 ? '+Infinity' : '-Infinity';
}

/**
 * Compares evaluated runs. `results[i]` are runs of the same task on the same rows/users.
 *
 * @example compareRuns([baseline, better]) with accuracy per-row values [1,0,1,0] and [1,1,1,0]
 *   gives a test entry with mean 0.75, mean_baseline 0.5, improvement 0.5.
 */
export async function compareRuns(results: readonly Results[], opts: CompareOptions = {}): Promise<CompareResults> {
  const runs = opts.runs ? [...opts.runs] : results.map((r) => r.source.path);
  if (runs.length !== results.length)
    throw new RangeError(`Expected \`runs\` to have ${results.length} entries, but got ${runs.length}.`);
  if (results.length < 2)
    fail(
      'compare-too-few-runs',
      { file: runs[0] ?? '(none)' },
      `expected at least two runs to compare, but got ${results.length}.`,
    );
  const dup = runs.find((r, i) => runs.indexOf(r) !== i);
  if (dup !== undefined)
    fail('compare-duplicate-run', { file: dup }, 'expected each run once, but this run is given twice.');
  const task = results[0].task;
  results.forEach((r, i) => {
    if (r.task !== task)
      fail(
        'compare-task-mismatch',
        { file: runs[i] },
        `expected ${withArticle(task)} run as ${runs[0]}, but this run is ${r.task}.`,
      );
  });
  const names = runNames(runs);
  const b = resolveBaseline(runs, names, opts.baseline);
  const baseline = runs[b];
  const warnings: EvalWarning[] = [];

  // Metrics: those asked for, else every key all runs have (in the first run's order).
  let metrics: string[];
  if (opts.metrics && opts.metrics.length > 0) {
    metrics = [...opts.metrics];
    for (const m of metrics) {
      if (!results.some((r) => m in r.metrics)) {
        const known = Object.keys(results[0].metrics);
        fail(
          'compare-unknown-metric',
          { file: runs[0] },
          `expected metric keys that the runs have, but "${m}" is in none of them. Known keys: ${known.join(', ')}.`,
        );
      }
    }
  } else {
    metrics = Object.keys(results[0].metrics).filter((m) => results.every((r) => m in r.metrics));
  }

  const directions: Record<string, Direction> = {};
  for (const m of metrics) {
    directions[m] = opts.directions?.[m] ?? results.find((r) => r.metrics[m])?.metrics[m].direction ?? directionOf(m);
  }
  const table: CompareResults['table'] = {};
  results.forEach((r, i) => {
    const row: Record<string, number | null> = {};
    for (const m of metrics) {
      const v = r.metrics[m];
      row[m] = v && v.value !== null && Number.isFinite(v.value) ? v.value : null;
      if (!v)
        warnings.push({
          code: 'compare-missing-metric',
          message: `${runs[i]} has no metric "${m}": shown as empty.`,
          file: runs[i],
        });
    }
    table[runs[i]] = row;
  });

  // Paired tests of each run against the baseline, on every metric both sides have per-item values of.
  const tests: CompareTest[] = [];
  const base = results[b];
  let matchBy = opts.matchBy ?? (base.perItem ? defaultMatchBy(base.perItem, base.perItem) : 'id');
  const untested = new Set<string>();
  for (let i = 0; i < results.length; i++) {
    if (i === b) continue;
    const run = results[i];
    const testable = metrics.filter((m) => run.perItem?.values[m] && base.perItem?.values[m]);
    for (const m of metrics) if (!testable.includes(m) && !UNRANKED_KEYS.has(m)) untested.add(m);
    if (testable.length === 0) continue;
    const pairs: MatchedPairs = matchItems(
      { path: runs[i], items: run.perItem! },
      { path: baseline, items: base.perItem! },
      { matchBy: opts.matchBy, onMismatch: opts.onMismatch },
    );
    matchBy = pairs.matchBy;
    warnings.push(...pairs.warnings);
    const allZero: string[] = [];
    // McNemar needs unweighted 0/1 outcomes: not with a weight column (the accuracy is then weighted).
    const weighted = [run, base].some((r) => r.source.columns.weight !== undefined);
    for (const m of testable) {
      const values = [run.perItem!.values[m], base.perItem!.values[m]] as const;
      const binary = !weighted && BINARY_PER_ROW.test(m) && run.perItem!.kind === 'row';
      tests.push(
        await pairedEntry(runs[i], baseline, m, values, pairs, opts, {
          warnings,
          allZero,
          binary,
          unit: run.perItem!.kind,
        }),
      );
    }
    if (allZero.length > 0) warnings.push(zeroDifferenceWarning(runs[i], baseline, allZero, testable.length));
  }

  for (const m of metrics) {
    const family = tests.filter((t) => t.metric === m);
    if (family.length < 2) continue;
    const adj = holmAdjust(family.map((t) => t.p_t));
    family.forEach((t, k) => (t.p_holm = adj[k]));
  }

  finishTests(tests, opts.adjust ?? 'holm');

  const runTable = { runs, names, metrics, directions, table };
  const intervals: NonNullable<CompareResults['intervals']> = {};
  results.forEach((r, i) => {
    const row: Record<string, [number, number]> = {};
    for (const m of metrics) {
      const ci = r.metrics[m]?.ci;
      if (ci) row[m] = [ci[0], ci[1]];
    }
    if (Object.keys(row).length > 0) intervals[runs[i]] = row;
  });
  const curves = overlayCurves(results, runs);
  const out: CompareResults = {
    schema: COMPARE_SCHEMA_ID,
    kind: 'comparison',
    tool: { name: 'eval-lens', version: TOOL_VERSION },
    createdAt: new Date().toISOString(),
    task,
    ...runTable,
    marks: markTable(runTable),
    baseline,
    matchBy,
    tests,
    settings: { holm: HOLM_NOTE, adjust: opts.adjust ?? 'holm', onMismatch: opts.onMismatch ?? 'error' },
    warnings,
  };
  if (Object.keys(intervals).length > 0) out.intervals = intervals;
  if (untested.size > 0) out.untested = metrics.filter((m) => untested.has(m));
  if (Object.keys(curves).length > 0) out.curves = curves;
  if (opts.bootstrap && opts.bootstrap.n > 0) out.settings.bootstrap = { ...opts.bootstrap };
  return out;
}

/** Per-row metrics whose values are 0/1 outcomes (McNemar's test applies). */
const BINARY_PER_ROW = /^(accuracy|top\d+_accuracy)$/;

/**
 * Sets each test's reported `p` and the test that produced it — McNemar's exact test for a
 * per-row 0/1 metric, else the paired t-test where per-item values exist, else the paired
 * bootstrap — the reading of its effect size, and `p_adjusted`: `p` adjusted over every test of the
 * comparison (all metrics, all runs against the baseline) by Holm's step-down method (default) or
 * by Benjamini–Hochberg. Idempotent: called again after the paired bootstrap adds tests.
 */
export function finishTests(tests: CompareTest[], adjust: PAdjust): void {
  for (const t of tests) {
    if (t.p_mcnemar !== undefined && t.p_mcnemar !== null) [t.p, t.p_test] = [t.p_mcnemar, 'mcnemar-exact'];
    else if (t.p_t !== null) [t.p, t.p_test] = [t.p_t, 't'];
    else if (t.p_boot !== undefined && t.p_boot !== null) [t.p, t.p_test] = [t.p_boot, 'bootstrap'];
    else {
      t.p = null;
      delete t.p_test;
    }
    if (t.d_z !== null) t.effect = effectReading(t.d_z);
  }
  const adj = (adjust === 'bh' ? bhAdjust : holmAdjust)(tests.map((t) => t.p ?? null));
  tests.forEach((t, i) => (t.p_adjusted = adj[i]));
}

async function pairedEntry(
  run: string,
  baseline: string,
  metric: string,
  [runValues, baseValues]: readonly [readonly number[], readonly number[]],
  pairs: MatchedPairs,
  opts: CompareOptions,
  {
    warnings,
    allZero,
    binary,
    unit,
  }: { warnings: EvalWarning[]; allZero: string[]; binary: boolean; unit: 'row' | 'user' },
): Promise<CompareTest> {
  const a: number[] = [];
  const b: number[] = [];
  let dropped = 0;
  for (let k = 0; k < pairs.run.length; k++) {
    const x = runValues[pairs.run[k]];
    const y = baseValues[pairs.base[k]];
    if (typeof x === 'number' && typeof y === 'number' && Number.isFinite(x) && Number.isFinite(y)) {
      a.push(x);
      b.push(y);
    } else dropped++;
  }
  const what = `${run} vs ${baseline}, ${metric}`;
  if (dropped > 0)
    warnings.push({
      code: 'compare-undefined-values',
      message: `${what}: ${dropped} pairs without a finite value on both sides were left out.`,
      file: run,
      count: dropped,
    });
  const n = a.length;
  const mean = n > 0 ? a.reduce((s, x) => s + x, 0) / n : NaN;
  const meanBase = n > 0 ? b.reduce((s, x) => s + x, 0) / n : NaN;
  const t = pairedTTest(a, b);
  const w = wilcoxonSignedRank(a, b);
  const dz = cohensDz(a, b);
  const dp = cohensDPooled(a, b);
  const improvement = meanBase !== 0 ? (mean - meanBase) / meanBase : NaN;
  if (n < 2)
    warnings.push({
      code: 'compare-too-few-pairs',
      message: `${what}: ${n} matched pairs; the tests need at least 2.`,
      file: run,
    });
  else if (w.nUsed === 0) {
    // Every difference is zero: t is 0/0 and the Wilcoxon test has no non-zero difference to rank.
    // One warning per run names all such metrics (comparing a run with a copy of itself would
    // otherwise give two per metric).
    allZero.push(metric);
  } else if (!Number.isFinite(t.t)) {
    warnings.push({
      code: 'compare-degenerate-test',
      message: `${what}: every difference is the same (sd 0): t = ${fmtInf(t.t)}, d_z = ${fmtInf(dz)} (written as null); p_t = ${t.p}.`,
      file: run,
    });
  }
  if (n >= 2 && meanBase === 0)
    warnings.push({
      code: 'compare-zero-baseline',
      message: `${what}: the baseline mean is 0: improvement undefined (null).`,
      file: run,
    });
  const entry: CompareTest = {
    run,
    baseline,
    metric,
    n,
    mean: finiteOrNull(mean),
    mean_baseline: finiteOrNull(meanBase),
    improvement: finiteOrNull(improvement),
    t: finiteOrNull(t.t),
    p_t: finiteOrNull(t.p),
    p_t_one_sided: finiteOrNull(t.pGreater),
    wilcoxon: finiteOrNull(w.statistic),
    p_wilcoxon: finiteOrNull(w.p),
    d_z: finiteOrNull(dz),
    d_pooled: finiteOrNull(dp),
  };
  if (binary && a.every((x) => x === 0 || x === 1) && b.every((x) => x === 0 || x === 1)) {
    let lost = 0; // the baseline right, the run wrong
    let won = 0;
    for (let k = 0; k < n; k++) {
      if (b[k] === 1 && a[k] === 0) lost++;
      else if (b[k] === 0 && a[k] === 1) won++;
    }
    const mc = mcnemarExact(lost, won);
    entry.mcnemar_b = lost;
    entry.mcnemar_c = won;
    entry.p_mcnemar = mc.p;
  }
  if (opts.bootstrap && opts.bootstrap.n > 0 && n > 0) {
    const plan = meanDifferencePlan(
      Float64Array.from(a, (x, k) => x - b[k]),
      unit,
    );
    const cis = await planIntervals(plan, {
      ...opts.bootstrap,
      onResample: (done, total) => {
        if (done % 50 === 0 || done === total) {
          opts.progress?.report?.(`bootstrap ${run} ${metric}`, done, total);
          checkCancelled(opts.progress);
        }
      },
    });
    entry.ci_diff = cis[plan.keys[0]];
  }
  return entry;
}

/**
 * The paired bootstrap of a mean difference as a resampling plan for the one bootstrap engine
 * (stats/planIntervals.ts): the units are the matched pairs (a pair is drawn as a whole), the one
 * key is the mean of the pairs' differences `d` in a resample, Σ c_k·d_k / n (every resample has
 * n draws). Per-resample draws (resample b from (seed, b) alone), and a key name no metric has, so
 * its interval is the percentile interval whatever the metric.
 */
function meanDifferencePlan(d: Float64Array, unit: 'row' | 'user'): ResamplingPlan {
  const n = d.length;
  return {
    unit,
    n,
    ids: null,
    truth: null,
    strata: null,
    keys: ['Δmean'],
    position: null,
    build: () => (counts, out) => {
      let s = 0;
      for (let k = 0; k < n; k++) s += counts[k] * d[k];
      out[0] = s / n;
    },
    worker: null,
    draws: 'per-resample',
  };
}

/**
 * The one warning of a run whose paired differences are all zero on some metrics (the same
 * predictions as the baseline, or a copy of it): the t statistic is 0/0 and the Wilcoxon test has
 * nothing to rank, so both are null there.
 */
function zeroDifferenceWarning(run: string, baseline: string, metrics: readonly string[], tested: number): EvalWarning {
  const which =
    metrics.length === tested && tested > 1
      ? `on every tested metric (${metrics.join(', ')})`
      : `on ${metrics.length === 1 ? 'metric' : `${metrics.length} metrics:`} ${metrics.join(', ')}`;
  return {
    code: 'compare-degenerate-test',
    message: `${run} vs ${baseline}: every paired difference is zero ${which}, so the t-test, the Wilcoxon test and d_z are undefined there (null).`,
    file: run,
    count: metrics.length,
  };
}
