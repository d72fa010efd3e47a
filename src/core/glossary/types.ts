/**
 * The shape of a glossary entry: what a metric key (or a field of a paired comparison test) means,
 * how it is computed, which convention was chosen and which it is not, which way is better, and
 * where the definition was published.
 */
import type { ReferenceId } from './references';

/** The metric families of results, plus the fields of a paired comparison test. */
export type GlossaryFamily =
  'classification' | 'longtail' | 'evolving' | 'selective' | 'calibration' | 'importance' | 'ranking' | 'comparison';

/** `none` for counts and test statistics, which no run should "win". */
export type GlossaryDirection = 'higher' | 'lower' | 'none';

/**
 * `rate`: a fraction in [0, 1] (a percentage in the UI); `score`: a real number on its own scale;
 * `count`: an integer; `statistic`, `p-value`, `interval`: fields of a comparison test.
 */
export type GlossaryKind = 'rate' | 'score' | 'count' | 'statistic' | 'p-value' | 'interval';

export interface GlossaryEntry {
  /**
   * The key, or a pattern with parameters: `<k>` a top-k (digits), `<K>` a ranking cutoff
   * (digits), `<g>` a group name (any text). `top<k>_accuracy`, `recall@<K>`, `error_group.<g>`.
   */
  pattern: string;
  family: GlossaryFamily;
  /** Human name, short enough for a card title: "AURC, 101-point grid, coverage 0.2–1". */
  name: string;
  /**
   * A table column's heading, as result tables in papers abbreviate it: "Bal. acc.", "AURC",
   * "NDCG@<K>" (the LaTeX exports use it). Metric keys have one; the fields of a comparison test,
   * which are never columns of a run table, do not.
   */
  column?: string;
  /** One sentence: what the number says. */
  meaning: string;
  /** The formula in plain text / Unicode. */
  formula: string;
  /** The convention chosen where the literature or common code differ. */
  convention: string;
  /** The alternatives this value is not (so that two people compare the same number). */
  notThis: string;
  direction: GlossaryDirection;
  kind: GlossaryKind;
  /** Published sources, most specific first; at least one. */
  refs: readonly ReferenceId[];
}

/** An entry resolved for one concrete key: placeholders filled in. */
export interface ExplainedKey extends GlossaryEntry {
  key: string;
  /** The parameter values the key carried, e.g. `{ K: '10' }`, `{ g: 'head' }`. */
  params: Readonly<Record<string, string>>;
}
