/**
 * The item map of the ranking task (`tables.itemMap`, with `itemEmbeddings`, or else
 * `itemFactors`): the items on the first two principal components of their vectors, at most 5,000
 * of them (metrics/ranking/itemMap.ts), or a note saying why there is none. A family of the
 * ranking pipeline that writes no key; it reads the run's lists, so it runs before the runner lets
 * their slots go (ranking.ts).
 */
import { applyMetric, FACTOR_MAP_MAX_DIM, ITEM_MAP_MAX_DIM, itemMap, nameColumn } from '../metrics/ranking/itemMap';
import type { RankingTaskFamily, RankingTaskRun } from './rankingRun';
import type { TaskContext } from './types';

export const rankingItemMapFamily: RankingTaskFamily = {
  name: 'itemMap',
  point: () => undefined,
  tableNames: ['itemMap'],
  tables: (run, ctx) => {
    const { data } = run;
    // Embeddings of hundreds of dimensions take seconds here: the progress says so.
    if (data.itemEmbeddings || data.itemFactors) ctx.progress?.report?.('item map', 0);
    ctx.results.time('itemMap', () => itemMapStep(run, ctx));
  },
};

/** `tables.itemMap`, or a note saying why there is none. */
function itemMapStep(run: RankingTaskRun, ctx: TaskContext): void {
  const { data, evaluation } = run;
  const k = run.ks[run.ks.length - 1];
  const catColumn = run.categoryColumn;
  const emb = data.itemEmbeddings;
  const V = data.itemFactors;
  if (!emb && !V) return;
  const meta = data.itemMeta;
  const names = meta ? nameColumn(meta.columns) : null;
  const common = {
    itemIds: data.items.ids,
    lists: data.lists,
    evaluated: evaluation.evaluated,
    k,
    ...(data.train ? { trainCounts: data.train.itemCounts } : {}),
    ...(data.itemPopularity ? { itemPopularity: data.itemPopularity } : {}),
    ...(meta && catColumn !== null
      ? { category: { column: catColumn, of: (id: string) => meta.byItem.get(id)?.[catColumn] } }
      : {}),
    ...(meta && names !== null ? { name: { column: names, of: (id: string) => meta.byItem.get(id)?.[names] } } : {}),
  };
  const dim = emb ? emb.dim : V!.cols;
  const metric = data.userMetric;
  const file = emb ? emb.file : V!.label;
  const maxDim = emb ? ITEM_MAP_MAX_DIM : FACTOR_MAP_MAX_DIM;
  if (dim > maxDim) {
    ctx.warnings.note(
      'item-map-skipped',
      emb
        ? `${file}: no item map: the embeddings have ${dim} dimensions, more than the ${maxDim} the map's principal components are computed for.`
        : `${file}: no item map: the factors have ${dim} dimensions, more than the ${maxDim} for which the map weighs them by the users' factors (a whole eigen decomposition of ${dim} × ${dim}).`,
      { file },
    );
    return;
  }
  const out = emb
    ? itemMap({
        ...common,
        source: 'itemEmbeddings',
        file,
        dim,
        has: (i) => i < emb.present.length && emb.present[i] === 1,
        vector: (i, row) => {
          const norm = emb.norms![i];
          for (let j = 0; j < dim; j++) row[j] = emb.unit[i * dim + j] * norm;
        },
      })
    : itemMap({
        ...common,
        source: 'itemFactors',
        file,
        dim,
        has: (i) => i < V!.rows,
        vector: (i, row) => {
          const v = V!.data.subarray(i * dim, (i + 1) * dim);
          if (metric) applyMetric(v, metric, dim, row);
          else row.set(v);
        },
      });
  if (out.ok) {
    ctx.results.table('itemMap', out.table);
    const [l1, l2] = out.table.explainedVariance;
    if (l1 - l2 <= 1e-6 * l1)
      ctx.warnings.note(
        'item-map-axes-arbitrary',
        `${file}: the first two principal components of the item vectors have the same variance (${l1.toPrecision(6)}): the map's axes are not determined by the data (a rotation of them, or with more such components another projection, would fit as well).`,
        { file },
      );
  } else ctx.warnings.note('item-map-skipped', `${file}: no item map: ${out.reason}`, { file });
}
