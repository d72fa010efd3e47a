/**
 * The rows of a subset evaluation (inspect/subset.ts chooses them), cut out of what the task read:
 * every per-row array keeps only those rows, so the metric code sees a file holding only them.
 *
 * The class set stays the whole file's (a property of the task, not of the rows): a file holding
 * only the subset would infer a smaller class set from its labels when `classes` and class-score
 * columns do not fix it, which changes only the per-class table (classes without rows) — accuracy,
 * macro-F1 (over the labels present) and the other scalars are the same.
 */
import { cut, cutClassificationData, cutOrNull } from '../data/cutRows';
import type { IwBinaryData } from '../data/iwBinaryData';
import { STRATUM_B } from '../data/iwBinaryData';
import type { TextColumn } from '../data/textColumn';
import type { LoadedClassification } from '../io/loadClassification';
import type { LoadedIwBinary } from '../io/loadIwBinary';
import type { RankingData } from '../data/rankingData';

/**
 * Keeps only the lists `keep` (indices into `data.lists`, increasing), in place. With the ground
 * truth inline in the run (no separate `relevant` file), the relevance of the other users goes too,
 * as in a run file holding only those lines; a separate ground-truth file stays whole.
 */
export function subsetRanking(data: RankingData, keep: Int32Array): void {
  const { lists } = data;
  const offsets = new Int32Array(keep.length + 1);
  for (let j = 0; j < keep.length; j++)
    offsets[j + 1] = offsets[j] + lists.offsets[keep[j] + 1] - lists.offsets[keep[j]];
  const items = new Int32Array(offsets[keep.length]);
  for (let j = 0; j < keep.length; j++)
    items.set(lists.items.subarray(lists.offsets[keep[j]], lists.offsets[keep[j] + 1]), offsets[j]);
  const users = cut(lists.user, keep);
  data.lists = { user: users, offsets, items };
  data.listLines = cut(data.listLines, keep);
  if (data.relevantFile !== null) return;
  const U = data.relOffsets.length - 1;
  const mine = new Uint8Array(U);
  for (const u of users) mine[u] = 1;
  const relOffsets = new Int32Array(U + 1);
  for (let u = 0; u < U; u++)
    relOffsets[u + 1] = relOffsets[u] + (mine[u] ? data.relOffsets[u + 1] - data.relOffsets[u] : 0);
  const relItems = new Int32Array(relOffsets[U]);
  const relGrades = new Float64Array(relOffsets[U]);
  for (let u = 0; u < U; u++) {
    if (!mine[u]) continue;
    relItems.set(data.relItems.subarray(data.relOffsets[u], data.relOffsets[u + 1]), relOffsets[u]);
    relGrades.set(data.relGrades.subarray(data.relOffsets[u], data.relOffsets[u + 1]), relOffsets[u]);
  }
  data.relOffsets = relOffsets;
  data.relItems = relItems;
  data.relGrades = relGrades;
  data.inGroundTruth = Uint8Array.from(data.inGroundTruth, (v, u) => (u < U && mine[u] ? v : 0));
  data.relLine = Int32Array.from(data.relLine, (v, u) => (u < U && mine[u] ? v : 0));
}

function cutText(text: Record<string, TextColumn>, rows: Int32Array): Record<string, TextColumn> {
  const out: Record<string, TextColumn> = {};
  for (const [k, c] of Object.entries(text)) out[k] = { ...c, codes: cut(c.codes, rows) };
  return out;
}

export function subsetClassification(loaded: LoadedClassification, rows: Int32Array): LoadedClassification {
  return { ...loaded, data: cutClassificationData(loaded.data, rows), text: cutText(loaded.text, rows) };
}

export function subsetIwBinary(loaded: LoadedIwBinary, rows: Int32Array): LoadedIwBinary {
  const d = loaded.data;
  const strata = cutOrNull(d.strata, rows);
  let b = 0;
  let m = 0;
  if (strata) for (let j = 0; j < strata.length; j++) if (strata[j] === STRATUM_B) b++;
  if (strata) m = strata.length - b;
  const data: IwBinaryData = {
    ...d,
    n: rows.length,
    labels: cut(d.labels, rows),
    scores: cut(d.scores, rows),
    strata,
    weightColumn: cutOrNull(d.weightColumn, rows),
    ids: d.ids ? d.ids.select(rows) : null,
    lines: cut(d.lines, rows),
    b,
    m,
  };
  return { ...loaded, data, text: cutText(loaded.text, rows) };
}
