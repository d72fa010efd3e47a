/**
 * Writes ranked lists as a JSONL run, one user a line: `{"user": "u1", "items": ["i3", "i9", …]}`,
 * best first, in the shape {@link readJsonlRun} reads (and other tools read as plain JSON lines).
 * Used by `eval-lens evaluate --write-run` for the lists generated from factor matrices.
 */
import { VOID_ITEM, type RankedLists } from '../../data/rankingData';

/** A copy of the lists and the ids they index, taken before the metric code reuses the arrays. */
export interface RankedListsSnapshot {
  lists: RankedLists;
  userIds: readonly string[];
  itemIds: readonly string[];
}

export function snapshotLists(
  lists: RankedLists,
  userIds: readonly string[],
  itemIds: readonly string[],
): RankedListsSnapshot {
  return {
    lists: { user: lists.user.slice(), offsets: lists.offsets.slice(), items: lists.items.slice() },
    userIds,
    itemIds,
  };
}

/**
 * The JSONL text of the lists, in list order. A repeated item (a void slot) cannot be written
 * back as it was read, so such lists are an error rather than a silently different run.
 */
export function formatRunJsonl(s: RankedListsSnapshot): string {
  const { lists, userIds, itemIds } = s;
  const out: string[] = [];
  for (let j = 0; j < lists.user.length; j++) {
    const items: string[] = [];
    for (let p = lists.offsets[j]; p < lists.offsets[j + 1]; p++) {
      const it = lists.items[p];
      if (it === VOID_ITEM)
        throw new Error(`the list of user "${userIds[lists.user[j]]}" repeats an item; it cannot be written as a run.`);
      items.push(itemIds[it]);
    }
    out.push(JSON.stringify({ user: userIds[lists.user[j]], items }));
  }
  return out.length === 0 ? '' : out.join('\n') + '\n';
}
