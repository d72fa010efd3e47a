/**
 * Comparison results, schema `eval-lens/compare@1` (docs/comparisons.md), written as
 * `*.compare.json` by `eval-lens compare` and shown by the extension's Compare command. The JSON
 * Schema is `schemas/eval-lens.compare.schema.json`.
 *
 * The core keys (`runs`, `baseline`, `table`, `tests` and the fields of each test) are stable and
 * documented in docs/comparisons.md; the other top-level keys (`names`, `metrics`, `directions`, `marks`,
 * `matchBy`, `settings`, `warnings`, …) are additions that readers may ignore.
 */
import type { EvalWarning, Progress } from '../diagnostics';
import type { Task } from '../config/types';
import type { Curve, Direction, MetricVsKCurveName } from '../results/types';

export const COMPARE_SCHEMA_ID = 'eval-lens/compare@1';

/** 1 = best, 2 = second, 3 = third. */
export type Place = 1 | 2 | 3;

/**
 * A table of runs × metrics with best/second/third per column: the part shared by a comparison of
 * evaluated runs and the inspection of an existing CSV table; the renderers take this.
 */
export interface RunTable {
  /** Run identifiers (paths for evaluated runs, the run column's text for inspected tables). */
  runs: string[];
  /** Short display names aligned with `runs`. */
  names: string[];
  /** Metric keys / column names in display order. */
  metrics: string[];
  /** Direction per metric; a column absent here is shown but not marked. */
  directions: Record<string, Direction>;
  /** run → metric → value (null when absent or undefined). */
  table: Record<string, Record<string, number | null>>;
  /** metric → run → place, for the runs placed 1st, 2nd or 3rd in that column. */
  marks: Record<string, Record<string, Place>>;
  /** run → metric → text to show (inspected tables keep the source's own formatting). */
  display?: Record<string, Record<string, string>>;
}

/** One paired test of a run against the baseline on one metric (docs/comparisons.md). */
export interface CompareTest {
  run: string;
  baseline: string;
  metric: string;
  /** Matched pairs used (pairs with a non-finite value on either side are left out). */
  n: number;
  /** Mean of the run's per-item values over the pairs. */
  mean: number | null;
  mean_baseline: number | null;
  /** (mean − mean_baseline)/mean_baseline; null when the baseline mean is 0. Not sign-flipped for lower-is-better metrics. */
  improvement: number | null;
  /** Paired t statistic (null when ±∞ or undefined: see `warnings`). */
  t: number | null;
  /** Two-sided p of the paired t-test. */
  p_t: number | null;
  /** One-sided p of the paired t-test for "run > baseline". */
  p_t_one_sided: number | null;
  /** Wilcoxon signed-rank statistic min(W+, W−). */
  wilcoxon: number | null;
  /** Two-sided p of the Wilcoxon test (normal approximation, tie correction, no continuity correction). */
  p_wilcoxon: number | null;
  /** mean(d)/sd(d). */
  d_z: number | null;
  /** (mean_a − mean_b)/√((s_a² + s_b²)/2). */
  d_pooled: number | null;
  /** Holm-adjusted `p_t` within this metric's family (present when more than one run is tested). */
  p_holm?: number | null;
  /**
   * Paired-bootstrap percentile interval of Δ = run − baseline: of the metric itself when both runs'
   * resampling plans ran (every key a family resamples), else of the mean of the per-item values.
   */
  ci_diff?: [number, number] | null;
  /** Δ = run − baseline of the metric on the matched units (the paired bootstrap's point). */
  delta?: number | null;
  /** Two-sided paired-bootstrap p-value of Δ = 0 (percentile-interval inversion, add-one). */
  p_boot?: number | null;
  /** Signed relative change in the metric's good direction: s·(run − baseline)/|baseline|, s = −1 when lower is better. */
  better_by?: number | null;
  /**
   * Present (true) when `ci_diff` does not contain Δ: the resampled statistic is biased (binned
   * calibration errors, catalogue coverage), and every output flags the interval beside it.
   */
  ci_excludes_delta?: boolean;
  /** Percentile interval of `better_by` over the paired resamples. */
  better_by_ci?: [number, number] | null;
  /** McNemar counts for a per-row 0/1 metric: rows the baseline got right and the run wrong (b), and back (c). */
  mcnemar_b?: number;
  mcnemar_c?: number;
  /** Exact (binomial) two-sided McNemar p-value. */
  p_mcnemar?: number | null;
  /** The p-value this comparison reports for the test, and which test produced it. */
  p?: number | null;
  p_test?: PTest;
  /** `p` adjusted over every test of the comparison (settings.adjust: Holm or Benjamini–Hochberg). */
  p_adjusted?: number | null;
  /** Conventional reading of |d_z| (Cohen 1988): < 0.2 negligible, < 0.5 small, < 0.8 medium, else large. */
  effect?: EffectReading;
}

/** Which test produced a comparison's headline p-value. */
export type PTest = 'mcnemar-exact' | 't' | 'bootstrap';

export type EffectReading = 'negligible' | 'small' | 'medium' | 'large';

/** Multiple-testing adjustment over every test of a comparison. */
export type PAdjust = 'holm' | 'bh';

export interface CompareResults extends RunTable {
  schema: typeof COMPARE_SCHEMA_ID;
  /** `comparison` (evaluated runs with tests); an inspected table is `inspection` (inspect.ts). */
  kind: 'comparison';
  tool: { name: 'eval-lens'; version: string };
  createdAt: string;
  task: Task;
  /** The baseline run (one of `runs`). */
  baseline: string;
  /** How items were paired. */
  matchBy: 'id' | 'position' | 'user';
  tests: CompareTest[];
  settings: {
    /** Paired bootstrap of the mean difference, when it ran. */
    bootstrap?: { n: number; confidence: number; seed: number };
    /** Which p-value Holm adjusts and over which family. */
    holm: string;
    /** The adjustment of `p` into `p_adjusted` (default Holm). */
    adjust?: PAdjust;
    /**
     * The paired bootstrap of every resampled key (each run's rows or users re-read from its
     * prediction file and evaluated on the same resamples), when it ran.
     */
    paired?: { units: 'row' | 'user'; n: number; confidence: number; seed: number };
    /** Which runs' rows entered the tests when ids differ (`error` or `intersect`). */
    onMismatch: 'error' | 'intersect';
  };
  warnings: EvalWarning[];
  /** run → metric → the run's own interval of the metric (from its results), when it has one. */
  intervals?: Record<string, Record<string, [number, number]>>;
  /** Compared metrics without per-item values in some run: in the table, not tested. */
  untested?: string[];
  /**
   * Curve name (`riskCoverage`, `reliability`, `pr`, `shift`, `metricVsK.<m>`) → run → curve,
   * thinned (curves.ts). A file from a later version may hold other names (the schema lets them
   * through): read them with `otherOverlays` (curves.ts).
   */
  curves?: Partial<Record<OverlayCurveName, Record<string, Curve>>>;
}

/** The fixed curves a comparison overlays (curves.ts `OVERLAY_CURVES` lists them in display order). */
export type FixedOverlayCurveName = 'riskCoverage' | 'reliability' | 'pr' | 'shift';

/** The name of a curve a comparison overlays: a fixed one, or a metric-vs-K curve. */
export type OverlayCurveName = FixedOverlayCurveName | MetricVsKCurveName;

export interface CompareOptions {
  /** The baseline: a run path/name as given, or its 0-based index as a string. Default: the first run. */
  baseline?: string;
  /** Metric keys for the table and tests. Default: every metric key that all runs have. */
  metrics?: string[];
  /** How items are paired. Default: `user` for ranking, `id` when both runs have ids, else `position`. */
  matchBy?: 'id' | 'position' | 'user';
  /** Paired bootstrap of the mean difference; absent or n = 0: no interval. */
  bootstrap?: { n: number; confidence: number; seed: number };
  /** Run identifiers to use instead of `results[i].source.path` (the CLI passes the paths as given). */
  runs?: string[];
  /** Direction overrides for the marking (config `compare.directions`). */
  directions?: Record<string, Direction>;
  /**
   * What to do when the runs' ids are not the same set: `error` (default) stops with the ids of
   * each side; `intersect` tests on the common ids and lists the dropped ones in `warnings`.
   */
  onMismatch?: 'error' | 'intersect';
  /** Adjustment of the reported p-values over every test of the comparison (default `holm`). */
  adjust?: PAdjust;
  /** Progress of the paired bootstrap (stage `bootstrap <run> <metric>`) and cancellation. */
  progress?: Progress;
}
