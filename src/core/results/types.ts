/**
 * The results object, schema `eval-lens/results@1` (the metric keys and their
 * meaning are in src/core/glossary). Written as `<input>.eval.json` by the CLI and the extension, read by the webview, the
 * tree view and CodeLens. The JSON Schema is `schemas/eval-lens.results.schema.json`.
 *
 * Designed for the four metric families: every family fills `metrics` (flat, stable keys) and may
 * add curves and tables under the names {@link ResultCurves} and {@link ResultTables} give; readers
 * show what a later version added and they do not know only generically.
 */
import type { EvalWarning } from '../diagnostics';
import type { RowIds } from '../data/rowIds';
import type { ResolvedConfig, Task } from '../config/types';
import type { ThresholdCounts } from '../metrics/binaryCurve';
import type { ReliabilityBin } from '../metrics/calibration';
import type { GroupAnalysisRow } from '../metrics/selective';
import type { CategoryBreakdown } from '../metrics/ranking/categories';
import type { ItemMapTable } from '../metrics/ranking/itemMap';
import type { ActivityBinRow, Histogram } from '../metrics/ranking/perUser';
import type { FilterTerm } from '../rows/types';

export const RESULTS_SCHEMA_ID = 'eval-lens/results@1';

export type Direction = 'higher' | 'lower';

/** One entry of `results.metrics` (the stable metric keys of src/core/glossary). */
export interface MetricValue {
  value: number | null;
  /** Bootstrap interval [lo, hi] at `config.bootstrap.confidence`: percentile unless `ci_method` says otherwise. */
  ci?: [number, number];
  /**
   * How `ci` was formed when it is not the percentile interval: `basic` — the basic bootstrap
   * interval, `[2·value − q_hi, 2·value − q_lo]` (Davison & Hinkley 1997, §5.2), used for the binned
   * calibration errors. Absent: percentile.
   */
  ci_method?: 'basic';
  direction: Direction;
  /** Convention used, or why the value is null. */
  note?: string;
}

export type MetricFamily =
  'classification' | 'longtail' | 'evolving' | 'selective' | 'calibration' | 'importance' | 'ranking';

export interface SourceInfo {
  /** Path as given / relative to the working directory or workspace. */
  path: string;
  /** File size in bytes. */
  size: number;
  /** Hex SHA-256 of the file's bytes. */
  sha256: string;
  format: 'csv' | 'tsv' | 'jsonl' | 'json' | 'trec' | 'npy' | 'npz' | 'parquet';
  /** Data rows read (excluding the header). */
  rows: number;
  /** Rows used after `invalidRows: "skip"`. */
  rowsUsed: number;
  /** Role → column name(s) detected or configured, shown to the user. */
  columns: Record<string, string | string[]>;
  /** Other input files used (ground truth, train, embeddings), with their hashes. */
  extra?: { role: string; path: string; size: number; sha256: string }[];
  /**
   * Present when only the rows matching a filter were evaluated: the filter's terms and the same
   * filter as text. `rowsUsed` is then the number of matching rows.
   */
  filter?: { where: { key: string; op: '=' | '!=' | '<' | '<=' | '>' | '>='; value: string }[]; expression: string };
  /**
   * Present when the rows are split into validation and test (a `split` column, or `randomSplit`):
   * thresholds are chosen on the validation rows, and the metrics are computed on the test rows
   * (`metricsOn: "test"`, then `rowsUsed` is the number of test rows) or on every row (`"all"`).
   */
  split?: SplitInfo;
}

/** How the rows were split into validation and test (`source.split`). */
export interface SplitInfo {
  by: 'column' | 'random';
  /** The split column's name (`by: "column"`). */
  column?: string;
  /** `randomSplit`: the validation fraction and the seed (`by: "random"`). */
  fraction?: number;
  seed?: number;
  validationRows: number;
  testRows: number;
  /** The rows every metric is computed on. */
  metricsOn: 'test' | 'all';
}

/**
 * A series of (x, y) points with named extra columns; kept columnar for size. `E` names the extra
 * columns: a curve of {@link ResultCurves} has the names its writer gives (each curve's entry
 * there), a curve read generically (a later version's, a chart of any curve) any name.
 */
export interface Curve<E extends string = string> {
  /** What x and y are, e.g. `coverage` / `risk`. */
  x: string;
  y: string;
  xs: number[];
  ys: number[];
  /** Extra aligned columns (e.g. `threshold`, `risk_balanced`), one value per point. */
  extra?: CurveExtra<E>;
  note?: string;
}

/**
 * The extra columns of a {@link Curve} by name: any name when `E` is `string`; otherwise the names
 * of `E`, each optional, and the families of names of `E` (`error_group.${string}`: one column per
 * group), as an index signature over the family.
 */
export type CurveExtra<E extends string> = string extends E
  ? Record<string, (number | null)[]>
  : { [K in Exclude<E, `${string}.${string}`>]?: (number | null)[] } & {
      [K in Extract<E, `${string}.${string}`>]: (number | null)[];
    };

export interface PerClassRow {
  class: string;
  /** Test rows with this true label (weighted count when weights are given: see `weight`). */
  support: number;
  /** Per-class accuracy, null when the class has no test rows. */
  accuracy: number | null;
  /** Percentile bootstrap interval of the per-class accuracy (same resamples as the metrics' intervals). */
  ci?: [number, number];
  /** Train count `n_c`, when known. */
  trainCount?: number;
  /** Rank by train count (1 = most frequent). */
  rank?: number;
  /** `many` | `medium` | `few`. */
  shot?: string;
  /** Group name from `groups`. */
  group?: string;
  precision?: number | null;
  recall?: number | null;
  f1?: number | null;
}

export interface ConfusionMatrix {
  /** Class names, rows = true class, columns = predicted class. */
  labels: string[];
  matrix: number[][];
}

/**
 * Per-row / per-user values kept in memory for paired comparisons (docs/comparisons.md); never
 * written to a results file.
 */
export type PerItemValues = PerRowValues | PerUserValues;

interface PerItemCommon {
  /** For classification: the true labels, to check position matching. */
  labels?: string[];
  /** Metric key → per-item values (e.g. `accuracy` → 0/1 correctness, `ndcg@10` → per user). */
  values: Record<string, number[]>;
}

export interface PerRowValues extends PerItemCommon {
  kind: 'row';
  /**
   * The `id` column aligned with the values, or null (rows are matched by position). A file's ids
   * stay a {@link RowIds}: integer ids as numbers, no string per row at any size.
   */
  ids: RowIds | readonly string[] | null;
}

export interface PerUserValues extends PerItemCommon {
  kind: 'user';
  /** The users aligned with the values. */
  ids: readonly string[] | null;
}

/**
 * One operating point of a `targetCoverage` list (`tables.operatingPoints`, in the list's order):
 * the threshold that reaches the target coverage, the coverage it achieves and the metrics there;
 * `ci` holds each value's bootstrap percentile interval by field name (`error_group.<g>` for a
 * group), absent when the run has no bootstrap or the interval is undefined.
 */
export interface OperatingPointRow {
  targetCoverage: number;
  /** Accept score ≥ threshold; null when no row can reach the coverage. */
  threshold: number | null;
  /** Where the threshold was chosen: the split's validation rows, or the evaluated rows themselves. */
  thresholdOn: 'validation' | 'evaluated';
  coverage: number | null;
  selective_risk: number | null;
  /** With groups: the mean and the max of the group errors, and each group's error. */
  balanced_error?: number | null;
  worst_error?: number | null;
  error_group?: Record<string, number | null>;
  ci: Record<string, [number, number]>;
}

export interface Results {
  schema: typeof RESULTS_SCHEMA_ID;
  tool: { name: 'eval-lens'; version: string };
  /** ISO time of the evaluation. */
  createdAt: string;
  source: SourceInfo;
  task: Task;
  config: ResolvedConfig;
  metrics: Record<string, MetricValue>;
  /** Family → the metric keys it produced, in display order. */
  families: Partial<Record<MetricFamily, string[]>>;
  /**
   * Curves for the report, by name: {@link ResultCurves} gives the names (`riskCoverage`, `pr`,
   * `metricVsK.ndcg`, …). A file from a later version may hold curves under other names (the
   * schema lets them through with the shape of a curve): they are not part of this type; read them
   * with `otherCurves` (curves.ts).
   */
  curves: Partial<ResultCurves>;
  /**
   * Tables for the report, by name: {@link ResultTables} gives each name its type. A file from a
   * later version may hold tables this one does not know (the schema lets them through): they are
   * not part of this type; read them with `otherTables` (tables.ts) as `unknown`.
   */
  tables: Partial<ResultTables>;
  /** Baselines evaluated with the same metrics (ranking: `popularity`, `random`). */
  baselines?: Record<string, Record<string, MetricValue>>;
  perItem?: PerItemValues;
  warnings: EvalWarning[];
  /** Seconds per stage, for the curious. */
  timings?: Record<string, number>;
}

/** One fold of `tables.folds` (tasks/folds.ts). */
export interface FoldRow {
  fold: string;
  n: number;
  /** Fewer rows than `minSliceSize` (still counted in the summary). */
  small?: true;
  /** Metric → value (null = undefined for the fold's rows). */
  values: Record<string, number | null>;
}

export interface FoldSummary {
  /** Folds with a value. */
  k: number;
  mean: number | null;
  /** Sample standard deviation (divides by k − 1); null with fewer than two values. */
  std: number | null;
  min: number | null;
  max: number | null;
}

/** `tables.folds`. */
export interface FoldsTable {
  column: string;
  note: string;
  metrics: string[];
  /** Folds in order of first appearance in the file. */
  folds: FoldRow[];
  summary: Record<string, FoldSummary>;
}

/** One metric of a slice (`tables.slices`): the value over the slice's rows and its interval. */
export interface SliceMetricValue {
  value: number | null;
  ci?: [number, number];
}

/** One row of `tables.slices` (tasks/slices.ts). */
export interface SliceRow {
  /** The column sliced by. */
  slice: string;
  /** The slice value: a column value, a range `[lo, hi)`, `other` or `(empty)`. */
  value: string;
  /** Rows in the slice. */
  n: number;
  /** Filter terms selecting the slice's rows (for the row query and the subset evaluation). */
  where: FilterTerm[];
  /** Slice metric minus whole-file metric, per headline metric. */
  diff: Record<string, SliceMetricValue>;
  /** Headline metrics, by key. */
  [metric: string]: SliceMetricValue | Record<string, SliceMetricValue> | FilterTerm[] | string | number;
}

/** `tables.scoresUsed`: the score each family ranked or binned the rows by (classification with scores). */
export interface ScoresUsed {
  /** The score of the risk–coverage curve and the AURC. */
  selective: string;
  /** The confidence of the calibration metrics, null without one. */
  calibration: string | null;
}

/** One stratum of `tables.importanceWeights` (weights from `populationSize` / `biasedSize`). */
export interface StratumWeightRow {
  stratum: 'B' | 'Bc';
  /** Rows of the stratum in the file. */
  rows: number;
  /** Items of the stratum in the population (|B|, or |U| − |B|). */
  populationCount: number;
  /** The weight of one row of the stratum. */
  weight: number;
  /** rows · weight. */
  totalWeight: number;
}

/** `tables.importanceWeights` with a weight column: the column and a summary of its values. */
export interface WeightColumnSummary {
  source: 'column';
  column: string;
  rows: number;
  sum: number;
  min: number;
  max: number;
}

/** `tables.thresholdCounts`: the confusion counts at the decision threshold (iw-binary). */
export interface ThresholdCountsTable {
  threshold: number;
  /** Importance-weighted counts. */
  weighted: ThresholdCounts;
  /** Counts of rows. */
  unweighted: ThresholdCounts;
}

/** `tables.rankingSummary`: the counts behind a ranking run and the conventions it used. */
export interface RankingSummary {
  users: number;
  listsInRun: number;
  /** The longest list of the run (files written before it was recorded lack it). */
  longestList?: number;
  usersEvaluated: number;
  usersSkipped: number;
  /** The first evaluated users (run order), a bounded list (files written before it was recorded lack it). */
  sampleUsers?: string[];
  items: number;
  catalog: string;
  relevance: 'binary' | 'graded';
  gain: 'linear' | 'exp';
  mapNormaliser: 'min' | 'all' | 'hits';
  trainInteractions: number | null;
  /** With `itemPopularity`: where the popularity came from. */
  popularitySource?: string;
  /** With a `train` file: whether seen items were masked and how many. */
  maskSeen?: 'on' | 'off';
  seenItemsMasked?: number;
  usersMasked?: number;
}

/**
 * Every table the results may hold, by name: the one map the writer (`ResultsBuilder.table`), the
 * readers (`tableOf`, tables.ts) and the JSON schema (`tables.properties`, a test keeps them equal)
 * share. A table is absent when its run does not produce it.
 */
export interface ResultTables {
  /** Per-class support, accuracy (with interval), precision, recall, F1, train counts and shots. */
  perClass: PerClassRow[];
  confusion: ConfusionMatrix;
  /** Selective: per group at the operating point. */
  groupAnalysis: GroupAnalysisRow[];
  /** Selective: one row per coverage of a `targetCoverage` list. */
  operatingPoints: OperatingPointRow[];
  /** Calibration: the reliability bins. */
  reliability: ReliabilityBin[];
  scoresUsed: ScoresUsed;
  /** Importance-weighted binary: the weight per stratum, or a summary of the weight column. */
  importanceWeights: StratumWeightRow[] | WeightColumnSummary;
  thresholdCounts: ThresholdCountsTable;
  /** Ranking: coverage and recall by item category. */
  categoryBreakdown: CategoryBreakdown;
  /** Ranking: the items on two principal components. */
  itemMap: ItemMapTable;
  /** Ranking: per metric, a histogram of the per-user values. */
  perUserHistograms: Record<string, Histogram>;
  /** Ranking: metric means per bin of the users' train interactions. */
  activityBins: ActivityBinRow[];
  rankingSummary: RankingSummary;
  /** Per-fold metrics and their spread (classification with a fold column). */
  folds: FoldsTable;
  /** Headline metrics per slice value of the `slices` columns. */
  slices: SliceRow[];
}

/** A table's name. */
export type TableName = keyof ResultTables;

/** The metrics the ranking family draws against K, each as the curve `metricVsK.<metric>`. */
export type MetricVsKMetric = 'recall' | 'precision' | 'ndcg' | 'map' | 'hit_rate' | 'coverage';

/** The name of a metric-vs-K curve of the ranking family. */
export type MetricVsKCurveName = `metricVsK.${MetricVsKMetric}`;

/**
 * Every curve the results may hold, by name: the one map the writer (`ResultsBuilder.curve`), the
 * readers (`curveOf`, curves.ts) and the JSON schema (`curves.properties`, a test keeps them equal)
 * share. Each is a {@link Curve}; a curve is absent when its run does not produce it. The
 * metric-vs-K curves are a family of names, one per {@link MetricVsKMetric}, so a name made from a
 * metric (`` `metricVsK.${m}` ``) is checked by the compiler like a literal one.
 */
export interface ResultCurves extends Record<MetricVsKCurveName, Curve<MetricVsKColumn>> {
  /**
   * Selective: the exact risk–coverage curve (x coverage, y selective risk); per point the score
   * threshold, the rows accepted, with groups the balanced and worst-group risks and each group's
   * error, with calibration the ECE of the accepted rows.
   */
  riskCoverage: Curve<'threshold' | 'accepted' | GroupRiskColumn | `error_group.${string}` | 'ece_accepted'>;
  /** Selective: the 101-point risk–coverage grid of the `*_grid101` keys; per point the rows accepted. */
  riskCoverageGrid101: Curve<'accepted' | GroupRiskColumn>;
  /** Selective: the rejection-cost sweep; per cost the threshold, the risk and the loss of Chow's rule. */
  costSweep: Curve<'threshold' | 'risk' | 'loss' | GroupRiskColumn>;
  /** Calibration: the reliability diagram's points; per bin its rows and its score range. */
  reliability: Curve<'count' | 'lo' | 'hi'>;
  /** Importance-weighted binary: precision against recall, weighted and unweighted. */
  pr: Curve<BinaryCurveColumn>;
  pr_unweighted: Curve<BinaryCurveColumn>;
  /** Importance-weighted binary: ROC, weighted and unweighted. */
  roc: Curve<BinaryCurveColumn>;
  roc_unweighted: Curve<BinaryCurveColumn>;
  /** Evolving: accuracy against the shift of the test distribution; per point the step, α and the JS divergence. */
  shift: Curve<'t' | 'alpha' | 'js'>;
}

/** The extra columns of a metric-vs-K curve: the baselines' values at each K (with train). */
export type MetricVsKColumn = 'popularity' | 'random';
/** The extra columns of the selective curves with groups: the balanced and the worst group's risk. */
export type GroupRiskColumn = 'risk_balanced' | 'risk_worst';
/** The extra columns of the importance-weighted PR and ROC curves: the score threshold of each point, F1 where written. */
export type BinaryCurveColumn = 'threshold' | 'f1';

/** A curve's name. */
export type CurveName = keyof ResultCurves;
