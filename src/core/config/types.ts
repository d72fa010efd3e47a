/**
 * The evaluation configuration (`eval-lens.json`, CLI flags, VS Code settings). Every key of
 * documented configuration (docs/configuration.md); the metrics it drives are defined in
 * docs/metrics/. The JSON Schema that validates it
 * is `schemas/eval-lens.config.schema.json`; keep the two in step (a unit test checks that every
 * key here is in the schema).
 */

export type Task = 'classification' | 'iw-binary' | 'ranking';

/** Column roles that can be named explicitly in `columns`. */
export interface ColumnsConfig {
  label?: string;
  pred?: string;
  /** Wide probability/logit columns, in class order (overrides detection). */
  probs?: string[];
  /** An array column holding probabilities (`probs`) or logits (`logits`). */
  probsArray?: string;
  logitsArray?: string;
  /** Wide logit columns in class order. */
  logits?: string[];
  score?: string;
  accept?: string;
  group?: string;
  weight?: string;
  split?: string;
  /** Cross-validation fold of each row (classification): the metrics per fold and their spread (`tables.folds`). */
  fold?: string;
  id?: string;
  stratum?: string;
  user?: string;
  item?: string;
  rank?: string;
  rel?: string;
  /** Factor model: the array of the `.npz` file of `userFactors` / `itemFactors` (default: its only array). */
  userFactors?: string;
  itemFactors?: string;
}

export interface BootstrapConfig {
  /** Resamples; 0 turns intervals off. Default 1000. */
  n?: number;
  /** Confidence level in (0, 1). Default 0.95. */
  confidence?: number;
  /** Seed of the generator. Default 0. */
  seed?: number;
  /** Resample within strata (`group` column, `stratum` for iw-binary). Default false. */
  stratified?: boolean;
}

export interface CompareConfig {
  runs?: string[];
  baseline?: string;
  matchBy?: 'id' | 'position' | 'user';
  metrics?: string[];
  /** Metric-name → direction overrides for inspected tables. */
  directions?: Record<string, 'higher' | 'lower'>;
  /** Multiple-testing adjustment of the reported p-values over every test: Holm (default) or Benjamini–Hochberg. */
  adjust?: 'holm' | 'bh';
  /** Rules on Δ = run − baseline that fail the comparison (exit status 3), e.g. `["accuracy<-0.01", "aurc>+0.005"]`. */
  gate?: string[];
}

export interface EvalConfig {
  // general
  task?: Task;
  columns?: ColumnsConfig;
  invalidRows?: 'error' | 'skip';
  bootstrap?: BootstrapConfig;
  classes?: (string | number)[];
  // long tail
  trainCounts?: number[] | Record<string, number> | string;
  classWeights?: number[] | Record<string, number> | string;
  trainTotal?: number;
  shotThresholds?: { many?: number; few?: number };
  groups?: number[] | Record<string, string> | string;
  groupNames?: string[];
  /** A per-row attribute column whose values are the subgroups of `worst_subgroup_error` (not the class groups of `groups`). */
  subgroupColumn?: string;
  imbalanceRatio?: number;
  T?: number;
  shiftProtocol?: 'expected' | 'sampled';
  /** N_max of the `sampled` shift protocol: test rows of the peak class (default: the largest class's test rows). */
  shiftTestSize?: number;
  reweight?: boolean;
  reweightEpsilon?: number;
  // scores
  score?: 'msp' | 'margin' | 'entropy';
  acceptThreshold?: number;
  /**
   * Coverage(s) in (0, 1]. A list gives one operating point per coverage (`tables.operatingPoints`);
   * the operating-point keys (coverage, selective_risk, error_group.*, …) use its first coverage.
   */
  targetCoverage?: number | number[];
  topK?: number[];
  eceBins?: number;
  costGrid?: number[];
  // validation / test split
  /** The `split` column's values naming validation rows and test rows (lower-case compared). */
  splitNames?: { validation?: string[]; test?: string[] };
  /** Without a `split` column: a seeded random split, this fraction of the rows validation (a number: seed 0). */
  randomSplit?: number | { validation: number; seed?: number };
  /** With a split: the rows every metric is computed on, the test rows (default) or every row. */
  metricsOn?: 'test' | 'all';
  // importance weighting
  populationSize?: number;
  biasedSize?: number;
  threshold?: number;
  positiveLabel?: string | number;
  // ranking
  k?: number[];
  relevant?: string;
  train?: string;
  itemEmbeddings?: string;
  userEmbeddings?: string;
  /** Factor model (a generated run): user and item factor matrices (.npy) and their id lists (text, one id a line). */
  userFactors?: string;
  itemFactors?: string;
  userIds?: string;
  itemIds?: string;
  /** Item metadata table (`item,<columns>`, CSV/TSV/JSONL/Parquet) shown beside item ids when inspecting users. */
  items?: string;
  /**
   * A numeric column of the `items` table (e.g. units sold) read as each item's popularity: used
   * instead of the train counts by novelty@K, the popularity baseline's order and the item map.
   * A key of its own, so that `items` stays a plain path everywhere it is read. Needs `items`.
   */
  itemPopularity?: string;
  /**
   * Drop from each list the items its user already has in `train`, before the cut at K (default
   * true, as full-ranking evaluation does; see metrics/ranking/maskSeen). Needs `train`.
   */
  maskSeen?: boolean;
  coldThreshold?: number;
  catalogSize?: number;
  mapNormaliser?: 'min' | 'all' | 'hits';
  gain?: 'linear' | 'exp';
  activityBins?: number[];
  // slices
  /** Columns to slice the headline metrics by (`tables.slices`). */
  slices?: string[];
  /** Quantile bins of a numeric slice column. Default 4. */
  sliceBins?: number;
  /** Slice values with fewer rows are left out of `tables.slices`. Default 30. */
  minSliceSize?: number;
  // comparisons
  compare?: CompareConfig;
}

/** Defaults applied before metrics run; the results store the config after defaults. */
export const CONFIG_DEFAULTS = {
  invalidRows: 'error',
  bootstrap: { n: 1000, confidence: 0.95, seed: 0, stratified: false },
  shotThresholds: { many: 100, few: 20 },
  shiftProtocol: 'expected',
  reweight: false,
  reweightEpsilon: 1e-12,
  score: 'msp',
  topK: [5],
  eceBins: 15,
  k: [5, 10, 20, 50],
  coldThreshold: 5,
  mapNormaliser: 'min',
  gain: 'linear',
  threshold: 0.5,
  sliceBins: 4,
  minSliceSize: 30,
} as const;

/** The config after defaults, as stored in the results (`config`). */
export type ResolvedConfig = EvalConfig & {
  invalidRows: 'error' | 'skip';
  bootstrap: Required<BootstrapConfig>;
  /** Absolute path of the config file the values came from, if any. */
  configFile?: string;
};
