/**
 * Coverage and recall broken down by item category (the `category` column of the `items`
 * metadata table), at one cutoff K.
 *
 * Per category c, over the evaluated users U and their top-K lists L_u (repeated items ignored):
 * - `catalogItems`: items of c among the known items (every item of the metadata table, the run,
 *   the ground truth and the train file);
 * - `recommendedItems`: distinct items of c in ⋃_u L_u; `coverage` = recommendedItems / catalogItems;
 * - `share`: slots of L_u holding an item of c, summed over users / all slots (an item with several
 *   categories counts in each, so shares can sum to more than 1);
 * - `recall` (micro over users) = Σ_u |L_u ∩ R_u ∩ c| / Σ_u |R_u ∩ c|, with R_u the user's relevant
 *   items (grade > 0); null when no user has a relevant item of c. `relevant` and `hits` are the
 *   two sums.
 *
 * Category cells may hold several categories separated by `|` (e.g. `games|x11`): the item belongs
 * to each. An item without a category — absent from the metadata table, or an empty cell — belongs
 * to the group {@link NO_CATEGORY}. Rows are sorted by catalogue size (largest first), then name.
 *
 * References:
 * - C. D. Manning, P. Raghavan, H. Schütze (2008). Introduction to Information Retrieval, chapter 8: Evaluation in
 *   information retrieval. Cambridge University Press. https://nlp.stanford.edu/IR-book/
 * - M. Ge, C. Delgado-Battenfeld, D. Jannach (2010). Beyond accuracy: evaluating recommender systems by coverage and
 *   serendipity. Proc. 4th ACM Conference on Recommender Systems (RecSys), 257–260.
 *   https://doi.org/10.1145/1864708.1864761
 *
 * @see docs/metrics/ranking.md — the definitions, conventions and worked examples.
 */
import type { RankedLists } from '../../data/rankingData';
import { VOID_ITEM } from '../../data/rankingData';

/** The group of items that have no category. */
export const NO_CATEGORY = '(no category)';

export interface CategoryRow {
  category: string;
  catalogItems: number;
  recommendedItems: number;
  coverage: number | null;
  share: number | null;
  relevant: number;
  hits: number;
  recall: number | null;
}

export interface CategoryBreakdown {
  /** The metadata column read. */
  column: string;
  k: number;
  users: number;
  rows: CategoryRow[];
}

export interface CategoryInput {
  lists: RankedLists;
  /** Indices into `lists` of the evaluated users. */
  evaluated: Int32Array;
  /** Relevance CSR over user indices (items with grade > 0). */
  relOffsets: Int32Array;
  relItems: Int32Array;
  /** Item id per item index. */
  itemIds: readonly string[];
  /** Metadata item id → category cell (absent: no category). */
  categoryOf: (id: string) => string | undefined;
  /** Ids of the metadata table (items there but nowhere else still count in the catalogue). */
  metadataIds: Iterable<string>;
  column: string;
  k: number;
}

/** Splits a category cell into its distinct, trimmed, non-empty categories. */
export function splitCategories(cell: string | undefined): string[] {
  if (cell === undefined) return [];
  return [
    ...new Set(
      cell
        .split('|')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
}

export function categoryBreakdown(inp: CategoryInput): CategoryBreakdown {
  const names: string[] = [];
  const index = new Map<string, number>();
  const catIndex = (name: string): number => {
    let c = index.get(name);
    if (c === undefined) {
      c = names.length;
      index.set(name, c);
      names.push(name);
    }
    return c;
  };
  const cats = (id: string): number[] => {
    const s = splitCategories(inp.categoryOf(id));
    return s.length === 0 ? [catIndex(NO_CATEGORY)] : s.map(catIndex);
  };
  // Categories per item index; metadata-only items counted in the catalogue too.
  const itemCats = inp.itemIds.map(cats);
  const catalog: number[] = [];
  const bump = (arr: number[], c: number, by = 1) => {
    arr[c] = (arr[c] ?? 0) + by;
  };
  for (const cs of itemCats) for (const c of cs) bump(catalog, c);
  const known = new Set(inp.itemIds);
  for (const id of inp.metadataIds) if (!known.has(id)) for (const c of cats(id)) bump(catalog, c);

  const slots: number[] = [];
  const relevant: number[] = [];
  const hits: number[] = [];
  const recommended = new Uint8Array(inp.itemIds.length);
  let totalSlots = 0;
  const rel = new Set<number>();
  const { lists } = inp;
  for (const j of inp.evaluated) {
    const u = lists.user[j];
    rel.clear();
    for (let p = inp.relOffsets[u]; p < inp.relOffsets[u + 1]; p++) {
      rel.add(inp.relItems[p]);
      for (const c of itemCats[inp.relItems[p]]) bump(relevant, c);
    }
    const end = Math.min(lists.offsets[j + 1], lists.offsets[j] + inp.k);
    for (let p = lists.offsets[j]; p < end; p++) {
      const it = lists.items[p];
      if (it === VOID_ITEM) continue;
      totalSlots++;
      recommended[it] = 1;
      const hit = rel.has(it);
      for (const c of itemCats[it]) {
        bump(slots, c);
        if (hit) bump(hits, c);
      }
    }
  }
  const recCount: number[] = [];
  recommended.forEach((r, it) => {
    if (r) for (const c of itemCats[it]) bump(recCount, c);
  });
  const rows: CategoryRow[] = names.map((category, c) => {
    const cat = catalog[c] ?? 0;
    const rec = recCount[c] ?? 0;
    const relC = relevant[c] ?? 0;
    const hitC = hits[c] ?? 0;
    return {
      category,
      catalogItems: cat,
      recommendedItems: rec,
      coverage: cat > 0 ? rec / cat : null,
      share: totalSlots > 0 ? (slots[c] ?? 0) / totalSlots : null,
      relevant: relC,
      hits: hitC,
      recall: relC > 0 ? hitC / relC : null,
    };
  });
  rows.sort(
    (a, b) => b.catalogItems - a.catalogItems || (a.category < b.category ? -1 : a.category > b.category ? 1 : 0),
  );
  return { column: inp.column, k: inp.k, users: inp.evaluated.length, rows };
}

/** The metadata column holding categories: the first named `category`, `categories`, `section` or `genre` (any case). */
export function categoryColumn(columns: readonly string[]): string | null {
  for (const want of ['category', 'categories', 'section', 'genre']) {
    const c = columns.find((h) => h.toLowerCase() === want);
    if (c !== undefined) return c;
  }
  return null;
}
