/**
 * Runner of the ranking task (docs/metrics/ranking.md): top-K recommendation lists per
 * user against held-out relevant items. Its metric keys are written by the families it registers
 * (rankingFamilies.ts, the one family contract of taskFamily.ts) from the run's evaluation, and
 * their intervals come from the task's plan over those families (rankingCi.ts `rankingPlan`) run by
 * the one bootstrap service; the baselines, curves and tables beside them are written by the
 * families of its pipeline that write no key (rankingTables.ts), and `tables.rankingSummary` by
 * the summary family (rankingSummaryFamily.ts), run after the slice table. The runner reads the
 * files, evaluates the lists once (the run), runs the pipeline, letting go of what the families
 * after a family no longer read, and writes the per-user values of a paired comparison
 * (`perItem`, kept in memory only: see docs/architecture.md for why they are no family's).
 *
 * Results written:
 * - `metrics` (family `ranking`): `recall@K`, `precision@K`, `ndcg@K` with its spread over users
 *   `ndcg_std@K`, `map@K`, `hit_rate@K`
 *   for every K of `k`, `mrr`, `r_precision`, `coverage@K`, `cold_start_coverage@K` and `novelty@K` (with
 *   train), `diversity@K` and `alignment@K` (with embeddings) with their spread over users
 *   `diversity_std@K` and `alignment_std@K` (the spreads: population SD, no interval), `users_evaluated`,
 *   `users_skipped`. Each mean-over-users metric carries a percentile bootstrap interval over
 *   users (`bootstrap.n` resamples; 0 turns them off). Catalog-level values (coverage, cold-start
 *   coverage) have no interval: they are not means over users.
 * - `baselines.popularity`, `baselines.random` (with train): the same keys for the popularity
 *   and the seeded random recommender on the same users, seen items excluded (no intervals; no
 *   `ndcg_std@K`: they keep no per-user values).
 * - `perItem` (kind `user`): per-user values for paired comparisons — every accuracy metric at
 *   every K plus the whole-list metrics (`mrr`, `r_precision`) when users × keys ≤
 *   {@link PER_ITEM_BUDGET}; otherwise `ndcg@K` and
 *   `recall@K` at every K plus `mrr`; if that is still too many, the K closest to 10 only.
 * - `curves['metricVsK.<m>']` for recall, precision, ndcg, map, hit_rate, coverage: x = K from 1
 *   to max(k), or to the longest list when max(k) is above it ({@link evaluationDepth}), y = the
 *   run, `extra.popularity` / `extra.random` = the baselines.
 * - `tables.perUserHistograms` (per metric: 20 bins, edges + counts, undefined count, mean),
 *   `tables.activityBins` (metric means by bins of users' train interactions:
 *   `activityBins` boundaries, default the tertiles), `tables.rankingSummary` (counts, the
 *   longest list: metric-vs-K charts end there, and `sampleUsers`: the first 5,000 evaluated users,
 *   the user inspector's suggestions).
 * - `tables.itemMap` (with `itemEmbeddings`, or else `itemFactors`): the items on the first two
 *   principal components of their vectors, at most 5,000 of them (see
 *   metrics/ranking/itemMap).
 * - `tables.categoryBreakdown` (when the `items` table has a category column: `category`,
 *   `categories`, `section` or `genre`): per category, catalogue items, items recommended at the
 *   largest K, coverage, share of recommendations and micro recall (see metrics/ranking/categories).
 */
import { rankingSlicesStep } from './slicesStep';
import { subsetRanking } from './subsetRows';
import { checkBaselineFits, rankingBaselineLists } from './baselineRun';
import { resolve } from 'node:path';
import { fail, Warnings } from '../diagnostics';
import { CONFIG_DEFAULTS } from '../config/types';
import { RowIds } from '../data/rowIds';
import type { RankedLists, TrainData } from '../data/rankingData';
import { fileInfo } from '../io/fileInfo';
import { LineTally } from '../io/ranking/builders';
import { loadRanking } from '../io/ranking/load';
import {
  ACCURACY_METRICS,
  checkCutoffs,
  WHOLE_LIST_METRICS,
  type Gain,
  type MapNormaliser,
} from '../metrics/ranking/accuracy';
import { markSeen } from '../metrics/ranking/baselines';
import {
  defineCatalog,
  evaluateLists,
  type EvaluateListsOptions,
  type ListEvaluation,
} from '../metrics/ranking/evaluateLists';
import { categoryColumn } from '../metrics/ranking/categories';
import type { LoadedRanking } from '../io/ranking/load';
import { threadsFor } from '../stats/parallelBootstrap';
import { rankingCiWorkerFile, rankingPlan } from './rankingCi';
import { RANKING_FAMILIES } from './rankingFamilies';
import { catalogResampleOf } from './rankingCatalogFamily';
import type { RankingTaskRun } from './rankingRun';
import { rankingSummaryFamily } from './rankingSummaryFamily';
import { RANKING_PIPELINE } from './rankingTables';
import { familyBootstrap, familyStep } from './taskFamily';
import type { TaskContext, TaskRunner } from './types';
import { collectGarbage } from '../collectGarbage';

/** Maximum number of per-user values kept in `perItem` (users × keys). */
export const PER_ITEM_BUDGET = 1_000_000;

export const runRanking: TaskRunner = async (ctx) => {
  const { config, warnings, results } = ctx;
  const where = config.configFile ?? ctx.path;
  const ks = validCutoffs(config.k ?? [...CONFIG_DEFAULTS.k], where);
  const gain: Gain = config.gain ?? CONFIG_DEFAULTS.gain;
  const mapNormaliser: MapNormaliser = config.mapNormaliser ?? CONFIG_DEFAULTS.mapNormaliser;
  const coldThreshold = config.coldThreshold ?? CONFIG_DEFAULTS.coldThreshold;
  if (!['linear', 'exp'].includes(gain))
    fail('bad-config', { file: where }, `\`gain\`: expected "linear" or "exp", got ${JSON.stringify(gain)}.`);
  if (!['min', 'all', 'hits'].includes(mapNormaliser))
    fail(
      'bad-config',
      { file: where },
      `\`mapNormaliser\`: expected "min", "all" or "hits", got ${JSON.stringify(mapNormaliser)}.`,
    );
  if (config.itemPopularity !== undefined && !config.items)
    fail(
      'bad-config',
      { file: where },
      `\`itemPopularity\` names a column of the \`items\` table (${JSON.stringify(config.itemPopularity)}), but \`items\` is not set: add \`items\` (a path to an item table item,<columns>) or remove \`itemPopularity\`.`,
    );
  if (config.catalogSize !== undefined && !(Number.isInteger(config.catalogSize) && config.catalogSize > 0))
    fail(
      'bad-config',
      { file: where },
      `\`catalogSize\`: expected a positive integer, got ${JSON.stringify(config.catalogSize)}.`,
    );

  const t0 = performance.now();
  const data = await loadRanking({
    path: ctx.path,
    baseDir: ctx.baseDir,
    root: ctx.root,
    config,
    warnings,
    progress: ctx.progress,
    collectGarbage: ctx.collectGarbage,
  });
  if (ctx.subset) subsetRanking(data, ctx.subset.rankingLists(data, ctx));
  if (ctx.baselineRun) {
    const kind = checkBaselineFits(ctx.baselineRun, 'ranking', ctx.path, ['popularity', 'random'] as const);
    // The depth of the run's own baselines: from the run's lists, before they are replaced.
    const depth = evaluationDepth(ks, longestList(data.lists), data.file, new Warnings());
    data.lists = rankingBaselineLists(data, kind, depth, config.bootstrap.seed);
  }
  // Here, while the run's slot array is whole: it is let go once the run's own metrics are done (below).
  ctx.onRankedLists?.(data.lists, data.users.ids, data.items.ids);
  results.timings.read = (performance.now() - t0) / 1000;
  // What the rest of the reading let go (the ground truth's and the train rows' growing arrays, the
  // join's buffers) is garbage now: collected before the metrics allocate, not beside them (peak memory).
  collectGarbage(ctx.collectGarbage === true, data.lists.items.byteLength);
  if (data.itemEmbeddings && data.userEmbeddings && data.itemEmbeddings.dim !== data.userEmbeddings.dim)
    fail(
      'bad-value',
      { file: data.userEmbeddings.file },
      `expected user vectors of the item vectors' length ${data.itemEmbeddings.dim}, got ${data.userEmbeddings.dim}.`,
    );

  const longest = longestList(data.lists);
  const depth = evaluationDepth(ks, longest, data.file, warnings);
  const catalog = defineCatalog(data, config.catalogSize);
  const opts: EvaluateListsOptions = { ks, gain, mapNormaliser, coldThreshold, catalog };
  ctx.progress?.report?.('ranking metrics', 0);
  const run = results.time('metrics', () => evaluateLists(data.lists, data, opts));
  warnAboutRun(ctx, data, run, ks, coldThreshold, config.catalogSize);

  // A paired comparison resamples the catalogue keys too: it keeps the lists (their slots).
  const kept =
    ctx.onResampling && config.bootstrap.n > 0
      ? catalogResampleOf({ ...data.lists }, data, catalog, ks, coldThreshold)
      : null;
  const famRun: RankingTaskRun = {
    ks,
    evaluated: run.evaluated,
    evaluation: run,
    catalog: kept,
    data,
    options: opts,
    depth,
    longestList: longest,
    categoryColumn: data.itemMeta ? categoryColumn(data.itemMeta.columns) : null,
    baselineCurves: null,
  };
  // What the run lets go after a family, for the peak memory of the families after it.
  const release: Record<string, () => void> = {
    // Every family that reads the run's slots is done: let them go (40 MB for 100,000 × 100) before
    // the baselines, which score each user's list as they make it. Users and offsets stay. The
    // factor matrix was kept for the map only.
    itemMap: () => {
      data.itemFactors = data.userMetric = null;
      const slotBytes = data.lists.items.byteLength;
      data.lists.items = new Int32Array(0);
      collectGarbage(ctx.collectGarbage === true, slotBytes);
    },
    // Nothing after the baselines reads the seen items or the ground truth: let them go before the
    // per-user tables allocate. Counts and sizes stay.
    baselines: () => {
      if (!data.train) return;
      data.train.seenItems = data.train.seenOffsets = new Int32Array(0);
      data.relItems = data.relLine = data.listLines = new Int32Array(0);
      data.relGrades = new Float64Array(0);
    },
  };
  // The families in order (rankingTables.ts): the metric families' point estimates, then the
  // category breakdown, the item map, the baselines, the metric-vs-K curves and the per-user tables.
  for (const family of RANKING_PIPELINE) {
    await familyStep(family)(famRun, ctx);
    release[family.name]?.();
  }

  const evaluatedUsers = new Array<string>(run.evaluated.length);
  for (let e = 0; e < run.evaluated.length; e++) evaluatedUsers[e] = data.users.ids[data.lists.user[run.evaluated[e]]];
  if (ctx.perItem !== false)
    results.time('per-user', () => {
      results.perItem = { kind: 'user', ids: evaluatedUsers, values: perItemValues(run, ks, evaluatedUsers.length) };
    });
  if (config.slices?.length) await results.timeAsync('slices', () => rankingSlicesStep(data, famRun, ctx));
  // After the slice table, so that the summary stays the last table (rankingSummaryFamily.ts).
  await familyStep(rankingSummaryFamily)(famRun, ctx);

  ctx.progress?.report?.('hashing inputs', 0);
  // The train file was hashed as it was parsed (one read, no worker); the others are hashed here
  // (before the bootstrap, so that the point-estimate stage has the complete source).
  const extra = await Promise.all(
    data.extraFiles.map(async (f) => ({
      role: f.role,
      path: f.path,
      ...(data.hashed.get(f.path) ?? (await fileInfo(f.path))),
    })),
  );
  const own = data.hashed.get(resolve(ctx.path));
  const source = {
    ...(own ?? {}),
    path: ctx.path,
    format: data.format,
    rows: data.rows,
    rowsUsed: ctx.subset ? data.lists.user.length : data.rows,
    columns: data.columns,
    ...(extra.length > 0 ? { extra } : {}),
  };

  // Bootstrap intervals over users of the keys the families resample (rankingCi.ts `rankingPlan`).
  const nBoot = config.bootstrap.n;
  if (nBoot > 0 && run.evaluated.length > 0) {
    const plan = rankingPlan(famRun, {
      ids: RowIds.ofTexts(evaluatedUsers),
      shared: !ctx.onResampling && threadsFor(run.evaluated.length, nBoot) > 1 && rankingCiWorkerFile() !== null,
    });
    await familyBootstrap({ families: RANKING_FAMILIES, plan, full: {}, source }, ctx);
  }
  return source;
};

function validCutoffs(k: unknown, file: string): number[] {
  if (!Array.isArray(k) || k.length === 0 || k.some((x) => !Number.isInteger(x) || x < 1))
    fail('bad-config', { file }, `\`k\`: expected a non-empty list of positive integers, got ${JSON.stringify(k)}.`);
  return checkCutoffs(k as number[]);
}

/**
 * How deep the lists are evaluated beyond the cutoffs themselves: the metric-vs-K curves and the
 * baselines' lists stop at the largest K, or at the longest list of the run when the largest K is
 * above it (with a note). Past the longest list every slot of every list is a miss, so deeper curve
 * points would add nothing but size (up to 100,000 points per curve), and baselines recommending
 * more items than the run could not be compared with it and would need users × K slots. The
 * metrics at every K are still reported as defined (missing slots count as misses: precision@K
 * divides by K).
 */
export function evaluationDepth(ks: number[], longest: number, file: string, warnings: Warnings): number {
  const maxK = ks[ks.length - 1]!;
  if (longest < 1 || maxK <= longest) return maxK;
  const above = ks.filter((k) => k > longest);
  warnings.note(
    'k-above-longest-list',
    `${file}: K = ${above.join(', ')} of \`k\` ${above.length === 1 ? 'is' : 'are'} above the longest list (${longest} item${longest === 1 ? '' : 's'}): the metric-vs-K curves and the popularity and random baselines' lists stop at ${longest}. The metrics at K = ${above.join(', ')} are still given (every slot past a list's end is a miss, precision@K divides by K).`,
    { file },
  );
  return longest;
}

/** The per-user vectors kept in `perItem`, within {@link PER_ITEM_BUDGET}. */
function perItemValues(run: ListEvaluation, ks: number[], nUsers: number): Record<string, number[]> {
  const all = ACCURACY_METRICS.flatMap((m) => ks.map((k) => `${m}@${k}`));
  let keys = [...all, ...Object.keys(WHOLE_LIST_METRICS)];
  if (keys.length * nUsers > PER_ITEM_BUDGET) keys = [...ks.flatMap((k) => [`ndcg@${k}`, `recall@${k}`]), 'mrr'];
  if (keys.length * nUsers > PER_ITEM_BUDGET) {
    const k10 = ks.reduce((best, k) => (Math.abs(k - 10) < Math.abs(best - 10) ? k : best), ks[0]);
    keys = [`ndcg@${k10}`, `recall@${k10}`, 'mrr'];
  }
  const out: Record<string, number[]> = {};
  for (const key of keys) out[key] = numberList(run.perUser[key]);
  return out;
}

/**
 * The values as a plain array allocated once at its length: Array.from grows its array as it
 * iterates, leaving garbage of about the array's size per key at the evaluation's peak.
 */
function numberList(v: Float64Array): number[] {
  const out = new Array<number>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i];
  return out;
}

/** The warnings a user needs about the run (docs/metrics/ranking.md). */
function warnAboutRun(
  ctx: TaskContext,
  data: LoadedRanking,
  run: ListEvaluation,
  ks: number[],
  coldThreshold: number,
  catalogSize: number | undefined,
): void {
  const w = ctx.warnings;
  const file = data.file;
  const lists = data.lists;
  const maxK = ks[ks.length - 1];
  const nLists = lists.user.length;

  // Lists shorter than K (evaluated users).
  const short = new LineTally();
  for (let e = 0; e < run.evaluated.length; e++) {
    const j = run.evaluated[e];
    if (lists.offsets[j + 1] - lists.offsets[j] < maxK) short.add(data.listLines[j]);
  }
  if (short.count > 0) {
    const per = ks.map((k, q) => `K=${k}: ${run.accuracy.shorter[q]}`).join(', ');
    w.add({
      code: 'list-shorter-than-k',
      message: `${file}: ${short.count} of ${run.evaluated.length} evaluated lists are shorter than K=${maxK} (${per}). Missing slots count as misses: precision@K still divides by K.`,
      file,
      line: short.lines[0],
      count: short.count,
      lines: short.lines,
    });
  }

  // Users of the run absent from the ground truth, and users with no relevant item.
  const missing = new LineTally();
  const empty = new LineTally();
  for (let j = 0; j < nLists; j++) {
    const u = lists.user[j];
    if (data.relOffsets[u + 1] > data.relOffsets[u]) continue;
    if (!data.inGroundTruth[u]) missing.add(data.listLines[j]);
    else empty.add(data.listLines[j]);
  }
  if (missing.count > 0) {
    w.add({
      code: 'users-missing-from-ground-truth',
      message: `${file}: ${missing.count} user(s) of the run are not in the ground truth${data.relevantFile ? ` (${data.relevantFile})` : ''}; they have no relevant item and are skipped.`,
      file,
      line: missing.lines[0],
      count: missing.count,
      lines: missing.lines,
    });
  }
  if (empty.count > 0) {
    w.add({
      code: 'users-without-relevant-items',
      message: `${file}: ${empty.count} user(s) have no relevant item (empty R_u) and are skipped (users_skipped).`,
      file,
      line: empty.lines[0],
      count: empty.count,
      lines: empty.lines,
    });
  }

  // Ground-truth users absent from the run (as trec_eval without -c: not evaluated).
  const hasList = new Uint8Array(data.users.size);
  for (let j = 0; j < nLists; j++) hasList[lists.user[j]] = 1;
  const absent = new LineTally();
  let absentWithRel = 0;
  for (let u = 0; u < data.users.size; u++) {
    if (!data.inGroundTruth[u] || hasList[u]) continue;
    absent.add(data.relLine[u]);
    if (data.relOffsets[u + 1] > data.relOffsets[u]) absentWithRel++;
  }
  if (absent.count > 0) {
    const gt = data.relevantFile ?? file;
    w.add({
      code: 'ground-truth-users-missing-from-run',
      message:
        `${gt}: ${absent.count} user(s) of the ground truth (${absentWithRel} with relevant items) have no list in the run; they are not evaluated ` +
        '(as trec_eval without -c). Counting them as 0 would lower every mean by the factor evaluated / (evaluated + missing).',
      file: gt,
      line: absent.lines[0],
      count: absent.count,
      lines: absent.lines,
    });
  }

  // Novelty (with train, or with a popularity column of the item table: `itemPopularity`): the
  // slots left out of it, and the cutoffs where it is undefined.
  const pop = data.itemPopularity;
  const lacking = pop ? `popularity 0 or no value in column "${pop.column}" of ${pop.file}` : 'no train interaction';
  const having = pop ? `a popularity above 0 in column "${pop.column}" of ${pop.file}` : 'a train count';
  const noveltyUnknown = (): void => {
    if (run.catalog.unknownSlots > 0)
      w.note(
        'novelty-items-without-train-count',
        `${file}: ${run.catalog.unknownSlots} top-${maxK} slot(s) hold items with ${lacking}; their popularity share is 0 (−log2 0 = ∞), so they are left out of novelty@K.`,
        { file, count: run.catalog.unknownSlots },
      );
  };
  const noveltyUndefined = (): void => {
    for (const k of ks)
      if (run.values.get(`novelty@${k}`) === null)
        w.note(
          'novelty-undefined',
          `${file}: no evaluated user has a top-${k} item with ${having}; novelty@${k} is null.`,
          {
            file,
          },
        );
  };

  // Recommended items the user already had in train: masked when the lists were read (maskSeen),
  // else counted here. The count of the warning is the number of users (lists) affected.
  const train = data.train;
  if (train) {
    const seenPerList = data.seenMask ? data.seenMask.perList : seenInLists(lists, train, data.items.size);
    const seen = new LineTally();
    let items = 0;
    let shortened = 0;
    for (let j = 0; j < nLists; j++) {
      const n = seenPerList[j];
      if (n > 0) {
        items += n;
        seen.add(data.listLines[j]);
        const len = lists.offsets[j + 1] - lists.offsets[j];
        if (data.seenMask && len < maxK && len + n >= maxK) shortened++;
      }
    }
    if (seen.count > 0 && data.seenMask) {
      w.add({
        code: 'seen-items-masked',
        message:
          `${file}: ${items} recommended item(s) in ${seen.count} user(s)' lists are items the user already had in train (${train.file}); ` +
          `they were masked (maskSeen: true): dropped before the cut at K, so the items below them moved up. ` +
          `${shortened > 0 ? `${shortened} of these lists had ${maxK} items or more and now have fewer (missing slots count as misses). ` : ''}` +
          'Set maskSeen to false to evaluate the lists as they are.',
        file,
        line: seen.lines[0],
        count: seen.count,
        lines: seen.lines,
      });
    } else if (seen.count > 0) {
      w.add({
        code: 'seen-items-recommended',
        message:
          `${file}: ${items} recommended item(s) in ${seen.count} user(s)' lists are items the user already had in train (${train.file}). ` +
          'They are evaluated as they are (maskSeen: false; relevant only if also held out); the baselines exclude seen items.',
        file,
        line: seen.lines[0],
        count: seen.count,
        lines: seen.lines,
      });
    }
    noveltyUnknown();
    if (run.catalog.coldItems === 0)
      w.note(
        'no-cold-items',
        `${train.file}: no item has 1 ≤ train count < ${coldThreshold}; cold_start_coverage@K is null.`,
        { file: train.file },
      );
    noveltyUndefined();
  } else if (pop) {
    noveltyUnknown();
    noveltyUndefined();
  }

  // Catalog.
  if (run.catalog.outsideCatalog > 0)
    w.note(
      'items-outside-catalog',
      `${file}: ${run.catalog.outsideCatalog} recommended item(s) are neither in train nor relevant to anyone; they are not counted by coverage@K (the catalog is ${data.train ? 'train ∪ relevant items' : 'relevant ∪ recommended items'}).`,
      { file, count: run.catalog.outsideCatalog },
    );
  if (catalogSize !== undefined && run.catalog.recommended > catalogSize)
    w.note(
      'catalog-size-too-small',
      `${file}: ${run.catalog.recommended} distinct items are recommended, more than catalogSize ${catalogSize}; coverage@K can exceed 1.`,
      { file },
    );

  // Embeddings.
  const emb = run.embedding;
  if (emb) {
    if (emb.missingSlots > 0)
      w.note(
        'embedding-missing',
        `${file}: ${emb.missingSlots} top-${maxK} slot(s) hold items without a usable embedding; they are left out of diversity@K and alignment@K.`,
        {
          file,
          count: emb.missingSlots,
        },
      );
    ks.forEach((k, q) => {
      const n = emb.diversityUndefined[q];
      if (n > 0)
        w.note(
          'diversity-undefined',
          `${file}: ${n} user(s) have fewer than two embedded items in the top ${k}; their diversity@${k} is undefined and left out of the mean.`,
          { file, count: n },
        );
    });
    if (emb.alignment && emb.profiles.none > 0)
      w.note(
        'alignment-no-profile',
        `${file}: ${emb.profiles.none} user(s) have no profile vector (no user embedding, no embedded train item); they are left out of alignment@K.`,
        {
          file,
          count: emb.profiles.none,
        },
      );
  }
  for (const [key, v] of run.values)
    if (v === null && !key.startsWith('novelty@') && !key.startsWith('cold_start_coverage@') && !key.includes('_std@'))
      w.note('metric-undefined', `${file}: ${key} is undefined (no user or item it could be computed on).`, { file });
}

/** Per list of the run: how many of its items its user already had in train. */
function seenInLists(lists: RankedLists, train: TrainData, nItems: number): Int32Array {
  const { user, offsets, items } = lists;
  const stamp = new Int32Array(nItems);
  const out = new Int32Array(user.length);
  for (let j = 0; j < user.length; j++) {
    const tag = j + 1;
    if (markSeen(user[j], train, stamp, tag) === 0) continue;
    let n = 0;
    for (let p = offsets[j]; p < offsets[j + 1]; p++) {
      const it = items[p];
      if (it >= 0 && stamp[it] === tag) n++;
    }
    out[j] = n;
  }
  return out;
}

/** Slots of the longest list (CSR offsets: list j spans offsets[j]…offsets[j + 1]). */
function longestList(lists: RankedLists): number {
  let max = 0;
  for (let j = 0; j + 1 < lists.offsets.length; j++) max = Math.max(max, lists.offsets[j + 1]! - lists.offsets[j]!);
  return max;
}
