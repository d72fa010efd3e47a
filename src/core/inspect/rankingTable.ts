/**
 * The row table of a ranking run: one row per ranked list (user), in run order, with the line of
 * the list's first row. Per-user metric values come from the evaluation's own per-user vectors
 * (`evaluateLists`, the same values as the per-user histograms and the paired comparisons); users
 * without a relevant item are not evaluated and have no metric values.
 */
import { CONFIG_DEFAULTS, type ResolvedConfig } from '../config/types';
import { VOID_ITEM, type RankingData } from '../data/rankingData';
import { defineCatalog, evaluateLists, type ListEvaluation } from '../metrics/ranking/evaluateLists';
import type { ItemMetadata } from '../io/ranking/items';
import type { Field } from '../rows/fields';
import type { RowTable } from './rowTable';
import type { RankingRowView } from '../rows/types';

export interface RankingRows {
  data: RankingData;
  evaluation: ListEvaluation;
  /** Per list (row): its per-user metric values (NaN when the user is not evaluated). */
  metrics: Record<string, Float64Array>;
  ks: number[];
}

export function rankingRows(data: RankingData, config: ResolvedConfig): RankingRows {
  const ks = [...new Set(config.k ?? CONFIG_DEFAULTS.k)].sort((a, b) => a - b);
  const evaluation = evaluateLists(data.lists, data, {
    ks,
    gain: config.gain ?? CONFIG_DEFAULTS.gain,
    mapNormaliser: config.mapNormaliser ?? CONFIG_DEFAULTS.mapNormaliser,
    coldThreshold: config.coldThreshold ?? CONFIG_DEFAULTS.coldThreshold,
    catalog: defineCatalog(data, config.catalogSize),
  });
  const nLists = data.lists.user.length;
  const metrics: Record<string, Float64Array> = {};
  for (const [key, v] of Object.entries(evaluation.perUser)) {
    const a = new Float64Array(nLists).fill(NaN);
    evaluation.evaluated.forEach((j, q) => (a[j] = v[q]));
    metrics[key] = a;
  }
  return { data, evaluation, metrics, ks };
}

/** `itemMeta`: the `items` metadata table, attached to each shown item that has a row. */
export function rankingTable(
  rows: RankingRows,
  config: ResolvedConfig,
  itemMeta: ItemMetadata | null = null,
): RowTable {
  const { data, metrics, ks } = rows;
  const n = data.lists.user.length;
  const maxK = ks[ks.length - 1];
  const cold = config.coldThreshold ?? CONFIG_DEFAULTS.coldThreshold;
  const fields = new Map<string, Field>();
  fields.set('user', { kind: 'category', codes: data.lists.user, names: data.users.ids });
  fields.set('line', { kind: 'number', values: data.listLines });
  const evaluated = new Uint8Array(n);
  for (const j of rows.evaluation.evaluated) evaluated[j] = 1;
  fields.set('evaluated', { kind: 'bool', values: evaluated });
  const train = data.train;
  if (train) {
    const tc = new Float64Array(n);
    for (let j = 0; j < n; j++) tc[j] = train.userCounts[data.lists.user[j]] ?? 0;
    fields.set('trainCount', { kind: 'number', values: tc });
  }
  const relCount = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const u = data.lists.user[j];
    relCount[j] = data.relOffsets[u + 1] - data.relOffsets[u];
  }
  fields.set('relevant', { kind: 'number', values: relCount });
  for (const [key, v] of Object.entries(metrics)) fields.set(key, { kind: 'number', values: v });
  const sortKeys = ['line', 'user', ...(train ? ['trainCount'] : []), 'relevant', ...Object.keys(metrics)];

  const view = (j: number): RankingRowView => {
    const u = data.lists.user[j];
    const grade = new Map<number, number>();
    for (let p = data.relOffsets[u]; p < data.relOffsets[u + 1]; p++) grade.set(data.relItems[p], data.relGrades[p]);
    const items: RankingRowView['items'] = [];
    const shown = new Map<number, number>(); // item → rank of its first occurrence
    const { offsets, repeats } = data.lists;
    for (let p = offsets[j]; p < offsets[j + 1] && p - offsets[j] < maxK; p++) {
      const rank = p - offsets[j] + 1;
      const slot = data.lists.items[p];
      // A repeated item keeps its slot (later items keep their ranks) and earns nothing: shown, marked.
      const it = slot === VOID_ITEM ? (repeats?.get(p) ?? VOID_ITEM) : slot;
      if (it === VOID_ITEM) continue;
      const g = slot === VOID_ITEM ? undefined : grade.get(it);
      const entry: RankingRowView['items'][number] = { item: data.items.ids[it], rank, hit: g !== undefined };
      const first = shown.get(it);
      if (slot === VOID_ITEM && first !== undefined) entry.repeatOf = first;
      else shown.set(it, rank);
      if (g !== undefined && !data.binary) entry.rel = g;
      const md = itemMeta?.byItem.get(entry.item);
      if (md) entry.meta = md;
      if (train) {
        const c = train.itemCounts[it] ?? 0;
        entry.trainCount = c;
        entry.cold = c >= 1 && c < cold;
      }
      items.push(entry);
    }
    const missed: string[] = [];
    for (const it of grade.keys()) if (!shown.has(it)) missed.push(data.items.ids[it]);
    const m: Record<string, number> = {};
    for (const [key, v] of Object.entries(metrics)) if (v[j] === v[j]) m[key] = v[j];
    const out: RankingRowView = {
      kind: 'ranking',
      line: data.listLines[j],
      user: data.users.ids[u],
      items,
      missed,
      metrics: m,
    };
    if (itemMeta) {
      const mm: Record<string, Record<string, string>> = {};
      for (const id of missed) {
        const md = itemMeta.byItem.get(id);
        if (md) mm[id] = md;
      }
      out.missedMeta = mm;
    }
    if (train) out.trainCount = train.userCounts[u] ?? 0;
    return out;
  };
  return { n, lines: data.listLines, fields, sortKeys, view };
}
