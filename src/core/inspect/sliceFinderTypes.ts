/**
 * The slice finder's options and answers, as plain data: the report webview and the message
 * protocol read them without pulling in the file readers the finder itself needs.
 */
import type { FilterTerm } from '../rows/types';

export interface SliceFinderOptions {
  /** Minimum rows of a slice (default max(30, ⌈1% of the rows⌉)). */
  minSupport?: number;
  /** Quantile bins of a numeric column (default 4). */
  bins?: number;
  /** False discovery rate of the Benjamini–Hochberg control (default 0.05). */
  alpha?: number;
  /** Confidence level of the intervals (default 0.95). */
  confidence?: number;
  /** Slices listed at most (default 20). */
  limit?: number;
}

export interface FoundSlice {
  /** A readable name: `region = EU and age in [18, 32)`. */
  slice: string;
  /** The filter terms selecting the slice's rows (the row query's language). */
  where: FilterTerm[];
  /** The same as an expression for `--where`. */
  whereText: string;
  n: number;
  /** One run: the slice's accuracy and its Wilson interval. */
  accuracy?: number;
  ci?: [number, number];
  /** Two runs: the accuracy of each run on the slice, and the discordant rows. */
  accuracyA?: number;
  accuracyB?: number;
  lost?: number;
  gained?: number;
  /** One run: slice − whole; two runs: B − A on the slice. */
  delta: number;
  deltaCi: [number, number];
  /** Fisher's exact test (one run) or McNemar's exact test (two runs), two-sided. */
  p: number;
  /** Benjamini–Hochberg adjusted p over every slice tried. */
  q: number;
}

export interface SliceFinderResult {
  mode: 'one-run' | 'two-runs';
  /** Rows considered. */
  n: number;
  whole: { accuracy: number } | { accuracyA: number; accuracyB: number; delta: number };
  minSupport: number;
  bins: number;
  alpha: number;
  confidence: number;
  /** The columns sliced by. */
  columns: string[];
  test: 'fisher-exact' | 'mcnemar-exact';
  interval: 'wilson+newcombe' | 'agresti-min';
  /** Slices tested (the Benjamini–Hochberg family). */
  tried: number;
  /** Slices with q ≤ alpha and Δ < 0, listed or not. */
  flagged: number;
  /** Flagged two-literal slices not listed because one of their literals is flagged. */
  subsumed: number;
  /** The flagged slices listed, most negative Δ first. */
  slices: FoundSlice[];
}

/** The finder's answer for one file (one run) or two runs. */
export interface FileSliceFinderResult extends SliceFinderResult {
  /** The file (one run) or the two runs, A then B, as given. */
  runs: string[];
  /**
   * With a validation/test split (metrics on the test rows): the rows searched are run A's test
   * rows, `testRows` of the file's `rowsInFile`, and every listed slice's `where` starts with
   * `split_role = test` (one run) so that the row query lists the slice's rows among them; null or
   * absent for every row.
   */
  measured?: { testRows: number; rowsInFile: number } | null;
}
