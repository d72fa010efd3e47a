/**
 * The typed bundle of a ranking evaluation (docs/metrics/ranking.md) after the input files have been
 * read: ranked lists, relevance, train interactions and embeddings, with item and user ids
 * interned to integers. Metric functions read only this.
 *
 * Lists and relevance are kept in CSR form (offsets + flat Int32Array), so 100,000 users × 100
 * items cost 4 MB, not 10 million JS strings.
 */

/** Interns string ids to dense integers 0..n-1 in order of first sight. */
export class IdIndex {
  readonly ids: string[] = [];
  /** id → integer; null once released by {@link releaseLookup} until a lookup rebuilds it. */
  private map: Map<string, number> | null = new Map<string, number>();

  get size(): number {
    return this.ids.length;
  }

  /** The id's integer, adding it when new. */
  intern(id: string): number {
    const map = this.map ?? this.rebuild();
    let k = map.get(id);
    if (k === undefined) {
      k = this.ids.length;
      map.set(id, k);
      this.ids.push(id);
    }
    return k;
  }

  /** The id's integer, or -1 when unknown. */
  get(id: string): number {
    const k = (this.map ?? this.rebuild()).get(id);
    return k === undefined ? -1 : k;
  }

  /**
   * Frees the id → integer map once the readers are done with it: the evaluation reads ids by
   * integer only, and the map is the larger half of the index (about 7 MB of 12 for 150,000
   * ids). A later {@link get} or {@link intern} rebuilds it from {@link ids}.
   */
  releaseLookup(): void {
    this.map = null;
  }

  private rebuild(): Map<string, number> {
    const map = new Map<string, number>();
    for (let k = 0; k < this.ids.length; k++) map.set(this.ids[k], k);
    return (this.map = map);
  }
}

/**
 * An item slot that earns nothing: a repeated occurrence of an item already earlier in the same
 * list. It keeps its rank (so later items keep theirs) but is never relevant and is ignored by
 * the catalog and embedding metrics.
 */
export const VOID_ITEM = -1;

/** Ranked lists for a set of users, CSR: user j's list is `items[offsets[j] .. offsets[j+1])`. */
export interface RankedLists {
  /** Index into {@link RankingData.users} of each list's user. */
  user: Int32Array;
  offsets: Int32Array;
  /** Item index per slot, best first; {@link VOID_ITEM} for a repeated item. */
  items: Int32Array;
  /** Slot → the item index a {@link VOID_ITEM} slot repeated (for showing the list as it was read). */
  repeats?: Map<number, number>;
}

/** Train interactions (the `train` file): per user, the items seen (distinct), and item counts. */
export interface TrainData {
  file: string;
  /** Interactions read (rows), duplicates included. */
  rows: number;
  /** Interactions per item index (rows, duplicates included), length = items.size at load end. */
  itemCounts: Int32Array;
  /** Σ itemCounts. */
  total: number;
  /** Per user index: distinct seen items, CSR over {@link RankingData.users}. */
  seenOffsets: Int32Array;
  seenItems: Int32Array;
  /** Train interactions per user index (rows, duplicates included). */
  userCounts: Int32Array;
}

/** Item popularity read from a column of the `items` table (`itemPopularity`). */
export interface ItemPopularity {
  /** The items table as named in the config, and the column. */
  file: string;
  column: string;
  /** Per item index: the column's value; 0 for an item without a row or with an empty cell. */
  values: Float64Array;
  /** Σ of the column over every row of the table, in file order (items in no input file included). */
  total: number;
}

/** Unit-norm embeddings by item or user index (rows of zeros / NaN mark a missing vector). */
export interface Embeddings {
  file: string;
  dim: number;
  /** Row-major (index × dim), each present row normalised to unit length. */
  unit: Float64Array;
  /** 1 where the index has a usable (non-zero, finite) vector. */
  present: Uint8Array;
  /** Euclidean length of each present vector as written (`unit × norm` gives it back, for the item map). */
  norms?: Float64Array;
}

export interface RankingData {
  /** Main input as given (used in messages). */
  file: string;
  format: 'jsonl' | 'csv' | 'tsv' | 'parquet' | 'trec' | 'npy';
  /** Ground-truth file when not inline (long CSV `relevant`, TREC qrels). */
  relevantFile: string | null;
  users: IdIndex;
  items: IdIndex;
  /** The run's lists, one per user in the run, in run order. */
  lists: RankedLists;
  /** 1-based line of each list's first row in the run file. */
  listLines: Int32Array;
  /**
   * Relevance per user index (CSR over `users`): items with grade > 0 only, graded.
   * Users absent from the ground truth have an empty range.
   */
  relOffsets: Int32Array;
  relItems: Int32Array;
  relGrades: Float64Array;
  /** True when every grade is 1 (binary relevance). */
  binary: boolean;
  /** Per user index: 1 when the user appears in the ground truth at all (even with no positive). */
  inGroundTruth: Uint8Array;
  /** Per user index: 1-based line of the user's first ground-truth row (0 when absent). */
  relLine: Int32Array;
  train: TrainData | null;
  /**
   * Item popularity from a numeric column of the `items` table (`itemPopularity`), used instead of
   * the train counts by novelty@K, the popularity baseline's order and the item map; absent or
   * null: the train counts.
   */
  itemPopularity?: ItemPopularity | null;
  itemEmbeddings: Embeddings | null;
  userEmbeddings: Embeddings | null;
  /** Detected/used column names, shown to the user. */
  columns: Record<string, string | string[]>;
  /** Rows (lines with data) read from the main file. */
  rows: number;
  /** Extra input files used (ground truth, train, embeddings). */
  extraFiles: { role: string; path: string }[];
}
