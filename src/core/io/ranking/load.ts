/**
 * Reads every input of a ranking evaluation into a {@link RankingData}: the run (JSONL, long
 * CSV/TSV, or TREC run, detected by name and shape), the ground truth (inline JSONL `relevant`, or
 * the `relevant` file: qrels or CSV `user,item[,rel]`), the optional `train` interactions
 * (CSV `user,item`) and embeddings. Config paths are relative to the config file's folder.
 */
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { fail, type Progress, type Warnings } from '../../diagnostics';
import type { ResolvedConfig } from '../../config/types';
import { resolveConfigPath } from '../../config/load';
import { IdIndex, type ItemPopularity, type RankingData, type TrainData } from '../../data/rankingData';
import { firstOfEachItem, IntVec, FloatVec, KeyRuns, RelBuilder } from './builders';
import { releaseByteInterner } from './byteInterner';
import { TrainAhead } from './trainAhead';
import { collectGarbage } from '../../collectGarbage';
import { readTrainRows, trainSpec } from './trainRows';
import { readEmbeddings } from './embeddings';
import { ITEM_ALIASES, USER_ALIASES, readIdTable } from './idTable';
import { loadItemMetadata, popularityOfItems, warnItemsWithoutMetadata, type ItemMetadata } from './items';
import {
  parquetListColumn,
  readJsonlGroundTruth,
  readJsonlRun,
  readParquetListRun,
  type RankingReadContext,
  type RunRead,
} from './jsonl';
import { parquetColumnNames, readParquetMetadata } from '../parquet';
import { parquetSchema } from 'hyparquet';
import { groupAndOrder, readQrels, readTrecRun, sniffRankingFormat } from './trec';
import { factorRun, internFactorIds, readFactorMatrix, readIdList, type FactorFile } from './factors';
import type { FactorMatrix } from '../../factors/topK';
import { FACTOR_MAP_MAX_DIM, scoreMetric } from '../../metrics/ranking/itemMap';
import { MASK_SEEN_DEFAULT, maskSeenItems, type SeenMaskResult } from '../../metrics/ranking/maskSeen';

export interface LoadRankingInput {
  /** Main input path (absolute or relative to the working directory). */
  path: string;
  /** Folder that config paths are relative to. */
  baseDir: string;
  /** Workspace root config paths must stay inside (default `baseDir`). */
  root?: string;
  config: ResolvedConfig;
  warnings: Warnings;
  progress?: Progress;
  /** Whether full garbage collections may be taken (../../collectGarbage.ts). */
  collectGarbage?: boolean;
}

/** {@link RankingData} plus the size and SHA-256 of the extra files hashed while they were read. */
export interface LoadedRanking extends RankingData {
  /** Absolute path → size and SHA-256 (hex); files not in it are hashed by the caller. */
  hashed: Map<string, { size: number; sha256: string }>;
  /** The `items` metadata table, when configured. */
  itemMeta: ItemMetadata | null;
  /** The item factor matrix of a factor model (row i = item index i), kept for the item map. */
  itemFactors: FactorMatrix | null;
  /** `(UᵀU / m)^{1/2}` of the user factors (d × d), for the item map (see metrics/ranking/itemMap). */
  userMetric: Float64Array | null;
  /** `maskSeen` as applied: true when the lists were read with each user's train items dropped. */
  maskSeen: boolean;
  /** What the masking dropped (null without train, with `maskSeen: false`, or for a factor model, whose lists never hold train items). */
  seenMask: SeenMaskResult | null;
}

const RANK_ALIASES = ['rank', 'position', 'pos'];
const SCORE_ALIASES = ['score', 'prediction', 'pred', 'rating', 'sim'];
const REL_ALIASES = ['rel', 'relevance', 'grade', 'label', 'rating', 'score'];

/**
 * A config naming `userFactors` describes a factor model, whose lists are generated from the user
 * factor file: the evaluated file must be that file, since the results name the evaluated file and
 * carry its SHA-256. Any other file (a run, a prediction file) is refused rather than replaced by
 * the model.
 */
async function checkFactorInput(
  inputPath: string,
  userFactorsPath: string,
  userFactors: string,
  configFile: string | undefined,
): Promise<void> {
  const [a, b] = await Promise.all([stat(inputPath).catch(() => null), stat(userFactorsPath).catch(() => null)]);
  // A file that cannot be read is reported by its reader (the hashing, the factor reader).
  if (a === null || b === null || (a.dev === b.dev && a.ino === b.ino)) return;
  const name = basename(inputPath);
  const cfg = configFile ? basename(configFile) : 'the config';
  const cfgFlag = configFile ? ` --config ${basename(configFile)}` : '';
  fail(
    'factor-config-input',
    { file: inputPath },
    `${cfg} describes a factor model (\`userFactors\`: ${userFactors}), whose ranked lists are generated from ${userFactors}, not read from ${name}; refusing to evaluate the model under the name of ${name}. To evaluate the factor model: \`eval-lens evaluate ${userFactors}${cfgFlag}\`. To evaluate ${name}: use a config without \`userFactors\`, \`itemFactors\`, \`userIds\` and \`itemIds\`.`,
  );
}

export async function loadRanking(input: LoadRankingInput): Promise<LoadedRanking> {
  const { config, warnings, progress } = input;
  const label = input.path;
  const users = new IdIndex();
  const items = new IdIndex();
  const ctx: RankingReadContext = { users, items, warnings, progress, columns: config.columns };
  const cfgPath = (
    key:
      | 'relevant'
      | 'train'
      | 'itemEmbeddings'
      | 'userEmbeddings'
      | 'items'
      | 'userFactors'
      | 'itemFactors'
      | 'userIds'
      | 'itemIds',
    value: string,
  ) => resolveConfigPath(value, input.baseDir, { key, configFile: config.configFile, root: input.root });
  const extraFiles: { role: string; path: string }[] = [];
  const hashed = new Map<string, { size: number; sha256: string }>();

  let run: RunRead;
  let outFormat: RankingData['format'];
  // A factor model: the lists are generated (top-K of U·Vᵀ, train masked) instead of read. The ids
  // are interned first so that item index = position in itemIds (the tie rule), and train is read
  // before scoring because it is masked.
  let train: TrainData | null = null;
  let itemFactors: FactorMatrix | null = null;
  let userMetric: Float64Array | null = null;
  const factors = config.userFactors !== undefined;
  const format = factors ? 'factors' : await sniffRankingFormat(input.path, label);
  // The train file is read on a worker thread while this one reads the run and the ground truth
  // (a factor model reads it first: it masks the scoring).
  const trainAhead =
    !factors && config.train
      ? await startTrainAhead(config.train, () => cfgPath('train', config.train!), config, input.path)
      : null;
  if (format === 'factors') {
    const need = (key: 'itemFactors' | 'userIds' | 'itemIds'): string =>
      config[key] ??
      fail(
        'config-missing',
        { file: config.configFile ?? label },
        `\`userFactors\` needs \`${key}\` too (${key === 'itemFactors' ? 'the item factor matrix' : 'a text file, one id per line, row i of the matrix for line i; or give the factors as CSV, id,f1,…,fk'}).`,
      );
    const userFactorsFile = config.userFactors!;
    await checkFactorInput(input.path, cfgPath('userFactors', userFactorsFile), userFactorsFile, config.configFile);
    const itemFactorsFile = need('itemFactors');
    const factorFile = (key: 'userFactors' | 'itemFactors', value: string) => {
      const path = cfgPath(key, value);
      extraFiles.push({ role: key, path });
      return readFactorMatrix(path, value, config.columns?.[key]);
    };
    const uf = await factorFile('userFactors', userFactorsFile);
    const vf = await factorFile('itemFactors', itemFactorsFile);
    // A CSV factor file carries its ids in its first column; an id list beside it is not read.
    const idsOf = async (file: FactorFile, key: 'userIds' | 'itemIds', of: string) => {
      if (file.ids) {
        if (config[key] !== undefined)
          warnings.note(
            'factor-ids-ignored',
            `${config[key]}: not read; the ids of ${of} are the first column of that file.`,
            { file: config[key] },
          );
        return { ids: file.ids, label: of };
      }
      const value = need(key);
      const path = cfgPath(key, value);
      extraFiles.push({ role: key, path });
      return { ids: await readIdList(path, value), label: value };
    };
    const userIds = await idsOf(uf, 'userIds', userFactorsFile);
    const itemIds = await idsOf(vf, 'itemIds', itemFactorsFile);
    const model = {
      U: uf.matrix,
      V: vf.matrix,
      userIds: userIds.ids,
      itemIds: itemIds.ids,
      userIdsLabel: userIds.label,
      itemIdsLabel: itemIds.label,
      users,
      items,
    };
    internFactorIds(model);
    itemFactors = vf.matrix;
    // Before the scoring, while U is at hand: O(m·d²), as one block of the scoring itself.
    if (uf.matrix.cols === vf.matrix.cols && uf.matrix.cols <= FACTOR_MAP_MAX_DIM) userMetric = scoreMetric(uf.matrix);
    if (config.train) {
      const t = cfgPath('train', config.train);
      extraFiles.push({ role: 'train', path: t });
      train = await readTrain(t, config.train, ctx, config, hashed);
    }
    const pending = train as PendingTrain | null;
    const k = Math.max(...(config.k ?? [10]));
    const scored = await factorRun({
      ...model,
      k,
      trainPairs: pending ? { users: pending.pairUsers!.toArray(), items: pending.pairItems! } : undefined,
      progress,
    });
    run = scored;
    if (scored.simdFallback)
      warnings.note('simd-fallback', `${userFactorsFile}: ${scored.simdFallback.replace(/\s+/g, ' ')}.`, {
        file: userFactorsFile,
      });
    outFormat = 'npy';
  } else if (format === 'jsonl') {
    // The train file's thread hashes the run once it has read the train file. The run's users need
    // no byte table when no later file on this thread meets them by their bytes.
    const usersOnce = (!config.train || trainAhead !== null) && !config.relevant;
    run = await readJsonlRun(input.path, label, ctx, trainAhead === null, usersOnce);
    outFormat = 'jsonl';
  } else if (format === 'trec-run') {
    run = await readTrecRun(input.path, label, ctx);
    outFormat = 'trec';
  } else if (format === 'qrels') {
    return fail(
      'wrong-file',
      { file: label, line: 1 },
      'expected a run (ranked lists), got a TREC qrels file ("qid iter docno rel"). Evaluate the run file and name this file in `relevant` of eval-lens.json.',
    );
  } else if (format === 'parquet' && (await isParquetListRun(input.path, config))) {
    run = await readParquetListRun(input.path, label, ctx);
    outFormat = 'parquet';
  } else {
    run = await readLongRun(input.path, label, ctx, config);
    outFormat = format;
  }

  // The JSONL reader hashes the run as it parses it: the caller needs no second read.
  if (run.hashed) hashed.set(resolve(input.path), run.hashed);
  // The run's reader leaves garbage of the order of its slots (its chunks, the copies of its
  // growing arrays): collected before the ground truth and the train rows are joined, not beside them.
  collectGarbage(input.collectGarbage === true, 4 * run.lists.slots);

  let rel: RelBuilder;
  let relevantFile: string | null = null;
  let relRows: number;
  const columns: Record<string, string | string[]> = { ...run.columns };
  if (config.relevant) {
    const abs = cfgPath('relevant', config.relevant);
    relevantFile = config.relevant;
    extraFiles.push({ role: 'relevant', path: abs });
    if (run.rel)
      warnings.note(
        'relevant-inline-ignored',
        `${label}: the lines carry "relevant" items, but \`relevant\` names ${config.relevant}; the file is used.`,
        { file: label },
      );
    const gtFormat = await sniffRankingFormat(abs, config.relevant);
    if (gtFormat === 'qrels') {
      const q = await readQrels(abs, config.relevant, ctx);
      rel = q.rel;
      relRows = q.rows;
      columns.relevant = `${config.relevant} (qrels)`;
    } else if (gtFormat === 'csv' || gtFormat === 'tsv' || gtFormat === 'parquet') {
      rel = new RelBuilder();
      const r = rel;
      const t = await readIdTable(
        abs,
        config.relevant,
        {
          what: 'ground truth',
          user: { role: 'user', aliases: USER_ALIASES, explicit: config.columns?.user },
          item: { role: 'item', aliases: ITEM_ALIASES, explicit: config.columns?.item },
          values: [{ role: 'rel', aliases: REL_ALIASES, explicit: config.columns?.rel }],
          invalidRows: config.invalidRows,
        },
        ctx,
        (u, it, g, line) => r.add(u, it, g, line),
      );
      relRows = t.rows;
      columns.relevant = `${config.relevant} (${[t.columns.user, t.columns.item, t.columns.rel].filter(Boolean).join(', ')})`;
    } else if (gtFormat === 'jsonl') {
      const j = await readJsonlGroundTruth(abs, config.relevant, ctx);
      rel = j.rel;
      relRows = j.rows;
      columns.relevant = `${config.relevant} (JSONL)`;
    } else {
      return fail(
        'wrong-file',
        { file: config.relevant, line: 1 },
        'expected the ground truth as TREC qrels ("qid iter docno rel"), CSV "user,item[,rel]" or JSONL {"user": …, "relevant": […]}, got a TREC run ("qid Q0 docno rank score tag").',
      );
    }
    if (relRows === 0)
      warnings.note(
        'empty-ground-truth',
        `${config.relevant}: the ground-truth file has no rows; every user is skipped.`,
        { file: config.relevant },
      );
  } else if (run.rel) {
    rel = run.rel;
  } else {
    return fail(
      'missing-ground-truth',
      { file: label },
      'expected the relevant items: a "relevant" key on every JSONL line, or a ground-truth file (qrels or CSV user,item[,rel]) named by `relevant` in eval-lens.json; got neither.',
    );
  }

  if (config.train && !factors) {
    const abs = cfgPath('train', config.train);
    extraFiles.push({ role: 'train', path: abs });
    train = await readTrain(abs, config.train, ctx, config, hashed, trainAhead);
    if (trainAhead?.afterHash) hashed.set(resolve(input.path), trainAhead.afterHash);
  }
  if (config.train) columns.train = config.train;

  const nUsers = users.size;
  const nItems = items.size;
  const { lists, lines } = run.lists.finish(nItems, label, warnings);
  const gt = rel.finish(nUsers, nItems, relevantFile ?? label, warnings);
  if (train) finishTrain(train, nUsers, nItems);
  // Seen items are dropped here, before any cutoff, so that every reader of the lists (the metrics,
  // the row table, subsets, slices) sees the lists as evaluated.
  const maskSeen = train !== null && (config.maskSeen ?? MASK_SEEN_DEFAULT);
  const seenMask = maskSeen && !factors ? maskSeenItems(lists, train!, nItems) : null;

  // The item or user embeddings named in the config: the vectors, the files read (and their id
  // list, if separate) recorded, and the file named in the results' columns.
  const embeddingsOf = async (what: 'item' | 'user', file: string, index: IdIndex) => {
    const key = what === 'item' ? 'itemEmbeddings' : 'userEmbeddings';
    const abs = cfgPath(key, file);
    const r = await readEmbeddings(abs, file, index, warnings, what, resolve(input.root ?? input.baseDir));
    extraFiles.push({ role: key, path: abs });
    if (r.idFile) extraFiles.push({ role: `${what}EmbeddingIds`, path: r.idFile });
    columns[key] = `${file}${r.idFile ? ` (ids: ${basename(r.idFile)})` : ''}`;
    return r.emb;
  };
  const itemEmbeddings = config.itemEmbeddings ? await embeddingsOf('item', config.itemEmbeddings, items) : null;
  const userEmbeddings = config.userEmbeddings ? await embeddingsOf('user', config.userEmbeddings, users) : null;

  let itemMeta: ItemMetadata | null = null;
  let itemPopularity: ItemPopularity | null = null;
  if (config.items) {
    const abs = cfgPath('items', config.items);
    itemMeta = await loadItemMetadata(abs, config.items, config.itemPopularity);
    extraFiles.push({ role: 'items', path: abs });
    columns.items = `${config.items} (${itemMeta.columns.join(', ') || 'no columns'})`;
    warnItemsWithoutMetadata(itemMeta, items.ids, warnings);
    if (config.itemPopularity !== undefined) {
      columns.itemPopularity = config.itemPopularity;
      itemPopularity = popularityOfItems(itemMeta, items.ids);
    }
  }
  // Every file is read: the evaluation looks ids up by integer only.
  releaseByteInterner(users);
  releaseByteInterner(items);
  users.releaseLookup();
  items.releaseLookup();

  return {
    file: label,
    format: outFormat,
    relevantFile,
    users,
    items,
    lists,
    listLines: lines,
    relOffsets: gt.relOffsets,
    relItems: gt.relItems,
    relGrades: gt.relGrades,
    binary: gt.binary,
    inGroundTruth: gt.inGroundTruth,
    relLine: gt.relLine,
    train,
    itemEmbeddings,
    userEmbeddings,
    columns,
    rows: run.rows,
    extraFiles,
    hashed,
    itemMeta,
    itemPopularity,
    itemFactors,
    userMetric,
    maskSeen,
    seenMask,
  };
}

/** A Parquet run with one user a row: an `items` (or alias) column of list type. */
async function isParquetListRun(path: string, config: ResolvedConfig): Promise<boolean> {
  const metadata = await readParquetMetadata(path);
  const nested = parquetSchema(metadata).children.map((c) => c.children.length > 0);
  return parquetListColumn(parquetColumnNames(metadata), (j) => nested[j] === true, config.columns) !== null;
}

/** Long CSV/TSV run `user,item,rank|score`: rank ascending, else score descending; file order on ties. */
async function readLongRun(
  path: string,
  label: string,
  ctx: RankingReadContext,
  config: ResolvedConfig,
): Promise<RunRead> {
  const u = new IntVec(1 << 16);
  const it = new IntVec(1 << 16);
  const v = new FloatVec(1 << 16);
  const ln = new IntVec(1 << 16);
  const t = await readIdTable(
    path,
    label,
    {
      what: 'run',
      user: { role: 'user', aliases: USER_ALIASES, explicit: config.columns?.user },
      item: { role: 'item', aliases: ITEM_ALIASES, explicit: config.columns?.item },
      values: [
        { role: 'rank', aliases: RANK_ALIASES, explicit: config.columns?.rank },
        { role: 'score', aliases: SCORE_ALIASES, explicit: config.columns?.score },
      ],
      valueRequired: true,
      invalidRows: config.invalidRows,
    },
    ctx,
    (user, item, value, line) => {
      u.push(user);
      it.push(item);
      v.push(value);
      ln.push(line);
    },
  );
  if (t.rows === 0)
    fail('empty-file', { file: label }, 'expected rows "user,item,rank|score" after the header, got none.');
  const lists = groupAndOrder(
    u.toArray(),
    it.toArray(),
    v.toArray(),
    ln.toArray(),
    ctx,
    t.valueRole === 'rank' ? 'rank' : 'score',
  );
  return { lists, rel: null, rows: t.rows, columns: t.columns };
}

/** Pending train pairs, turned into {@link TrainData} by {@link finishTrain} once the indexes are complete. */
interface PendingTrain extends TrainData {
  pairUsers?: KeyRuns;
  pairItems?: Int32Array;
}

/** The train file's read ahead, or null (it is then read in turn). */
async function startTrainAhead(
  file: string,
  abs: () => string,
  config: ResolvedConfig,
  run: string,
): Promise<TrainAhead | null> {
  let path: string;
  try {
    path = abs();
  } catch {
    return null; // a path the config may not name: the error comes in turn
  }
  return TrainAhead.start({ path, label: file, spec: trainSpec(config), hashAfter: run });
}

async function readTrain(
  abs: string,
  label: string,
  ctx: RankingReadContext,
  config: ResolvedConfig,
  hashed: LoadedRanking['hashed'],
  ahead: TrainAhead | null = null,
): Promise<TrainData> {
  const t = (ahead ? await ahead.join(ctx) : null) ?? (await readTrainRows(abs, label, trainSpec(config), ctx));
  if (t.sha256 !== undefined && t.size !== undefined) hashed.set(abs, { size: t.size, sha256: t.sha256 });
  return pendingTrain(label, t.rows, t.users, t.items);
}

function pendingTrain(label: string, rows: number, pairUsers: KeyRuns, pairItems: Int32Array): PendingTrain {
  return {
    file: label,
    rows,
    itemCounts: new Int32Array(0),
    total: rows,
    seenOffsets: new Int32Array(0),
    seenItems: new Int32Array(0),
    userCounts: new Int32Array(0),
    pairUsers,
    pairItems,
  };
}

/** Counts per item and per user (rows), and the distinct seen items per user (CSR). */
function finishTrain(train: TrainData, nUsers: number, nItems: number): void {
  const p = train as PendingTrain;
  const runs = p.pairUsers!;
  const pi = p.pairItems!;
  const n = pi.length;
  const itemCounts = new Int32Array(nItems);
  const userCounts = new Int32Array(nUsers);
  for (let i = 0; i < n; i++) itemCounts[pi[i]]++;
  runs.forEachRun((user, rows) => (userCounts[user] += rows));
  const offsets = new Int32Array(nUsers + 1);
  for (let u = 0; u < nUsers; u++) offsets[u + 1] = offsets[u] + userCounts[u];
  let flat: Int32Array;
  // Rows already grouped by user in user order (the usual train file): grouping them would copy
  // the items into the same order, so the pairs' own item array is compacted in place instead.
  if (runs.nonDecreasing()) flat = pi;
  else {
    const pu = runs.toArray();
    const fill = offsets.slice(0, nUsers);
    flat = new Int32Array(n);
    for (let i = 0; i < n; i++) flat[fill[pu[i]]++] = pi[i];
  }
  const seenOffsets = firstOfEachItem(flat, offsets, nUsers, nItems, null);
  const w = seenOffsets[nUsers];
  train.itemCounts = itemCounts;
  train.userCounts = userCounts;
  train.seenOffsets = seenOffsets;
  // Without repeated pairs `flat` is already exact: no second copy beside it (peak memory).
  train.seenItems = w === n ? flat : flat.slice(0, w);
  delete p.pairUsers;
  delete p.pairItems;
}
