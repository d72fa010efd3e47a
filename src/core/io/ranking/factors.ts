/**
 * A run generated from a factor model (`userFactors`, `itemFactors`, `userIds`, `itemIds`): each
 * user's top-K items by U[u] · V[i], its train items masked, ties by the item's position in
 * `itemIds` (earlier first). The lists enter the ranking pipeline exactly as a run file's lists.
 *
 * Factor files are `.npy` 2-D float32/float64/int arrays, one row per id; the id files are text,
 * one id per line, row i of the matrix belonging to line i.
 */
import type { IdIndex } from '../../data/rankingData';
import { EvalLensError, fail, type Progress } from '../../diagnostics';
import { dtypeName, readNpy } from '../npy';
import { parseNpz } from '../npz';
import { parseNumberText } from '../numbers';
import type { Cell } from '../../data/textColumn';
import { readTable, type TableSink } from '../table';
import { checkFactors, type FactorMatrix } from '../../factors/topK';
import { parallelFactorTopK } from '../../factors/parallelTopK';
import { ListBuilder } from './builders';
import type { RunRead } from './jsonl';
import { readWholeFile } from '../tableSink';

/** Reads a text file of ids, one per line (a final newline is optional); blank or repeated ids are errors. */
export async function readIdList(abs: string, label: string): Promise<string[]> {
  const text = (await readWholeFile(abs, label)).toString('utf8');
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const seen = new Map<string, number>();
  lines.forEach((raw, j) => {
    const id = raw.trim();
    if (id === '')
      fail('bad-ids', { file: label, line: j + 1 }, 'expected an id (one id per line), got an empty line.');
    const first = seen.get(id);
    if (first !== undefined)
      fail(
        'bad-ids',
        { file: label, line: j + 1 },
        `expected each id once, got "${id}" again (first on line ${first}).`,
      );
    seen.set(id, j + 1);
  });
  return lines.map((l) => l.trim());
}

/** A factor matrix and, from a CSV factor file, the ids of its rows. */
export interface FactorFile {
  matrix: FactorMatrix;
  /** The ids of the rows (first column of a CSV/TSV file); null for .npy/.npz (ids from `userIds`/`itemIds`). */
  ids: string[] | null;
}

/**
 * Reads a factor matrix: `.npy` (a 2-D array), `.npz` (the array named `arrayName`, or the only
 * array in the file), or `.csv`/`.tsv` (one row per id: `id,f1,…,fk`, an optional header line).
 */
export async function readFactorMatrix(abs: string, label: string, arrayName?: string): Promise<FactorFile> {
  if (/\.npy$/i.test(label)) {
    const m = await readNpy(abs, label);
    return { matrix: { rows: m.rows, cols: m.cols, data: m.data, label }, ids: null };
  }
  if (/\.npz$/i.test(label)) return { matrix: await readNpzFactors(abs, label, arrayName), ids: null };
  if (/\.(csv|tsv)$/i.test(label)) return readCsvFactors(abs, label);
  return fail(
    'bad-factors',
    { file: label },
    'expected a .npy or .npz file (a 2-D array, one row per id) or a .csv/.tsv file (one row per id: id,f1,…,fk).',
  );
}

async function readNpzFactors(abs: string, label: string, arrayName: string | undefined): Promise<FactorMatrix> {
  const arrays = parseNpz(await readWholeFile(abs, label), label);
  const names = [...arrays.keys()];
  const list = names.map((n) => `"${n}"`).join(', ');
  let name: string;
  if (arrayName !== undefined) {
    if (!arrays.has(arrayName))
      fail('bad-factors', { file: label }, `expected an array named "${arrayName}", got the arrays ${list}.`);
    name = arrayName;
  } else if (names.length === 1) {
    name = names[0];
  } else {
    return fail(
      'bad-factors',
      { file: label },
      `expected one array, got ${names.length} (${list}); name the factor matrix in \`columns\` (\`userFactors\` or \`itemFactors\`).`,
    );
  }
  const a = arrays.get(name)!;
  if (a.shape.length !== 2 || !(a.kind === 'f' || a.kind === 'i' || a.kind === 'u') || !a.data)
    fail(
      'bad-factors',
      { file: label },
      `array "${name}": expected a 2-D array of numbers (one row per id), got shape (${a.shape.join(', ')}) of ${dtypeName(a.dtype)}.`,
    );
  return { rows: a.shape[0], cols: a.shape[1], data: a.data!, label };
}

/**
 * A CSV/TSV factor file: the first column is the id, the others the factors. The first line is a
 * header when none of its factor cells is a number (e.g. `user,f1,f2`), else it is the first row.
 */
async function readCsvFactors(abs: string, label: string): Promise<FactorFile> {
  const ids: string[] = [];
  const seen = new Map<string, number>();
  let cols = -1;
  let values = new Float64Array(1024);
  let n = 0;
  const add = (cells: Cell[], line: number) => {
    if (cells.length < 2)
      fail(
        'bad-factors',
        { file: label, line },
        `expected an id and at least one factor (id,f1,…,fk), got ${cells.length} field.`,
      );
    if (cols < 0) cols = cells.length - 1;
    const id = String(cells[0] ?? '').trim();
    if (id === '') fail('bad-factors', { file: label, line }, 'expected an id in the first column, got an empty cell.');
    const first = seen.get(id);
    if (first !== undefined)
      fail('bad-factors', { file: label, line }, `expected each id once, got "${id}" again (first on line ${first}).`);
    seen.set(id, line);
    ids.push(id);
    if (n + cols > values.length) {
      const grown = new Float64Array(Math.max(values.length * 2, n + cols));
      grown.set(values);
      values = grown;
    }
    for (let j = 1; j <= cols; j++) {
      const text = String(cells[j] ?? '');
      const x = parseNumberText(text);
      if (!Number.isFinite(x))
        fail(
          'bad-factors',
          { file: label, line },
          `column ${j + 1}: expected a finite number (factor ${j}), got "${text}".`,
        );
      values[n++] = x;
    }
  };
  const sink: TableSink = {
    columns(names) {
      if (names.slice(1).some((c) => Number.isFinite(parseNumberText(c)))) add(names, 1);
    },
    row: add,
  };
  await readTable(abs, sink, {
    onRagged: (line, got, expected) =>
      fail(
        'bad-factors',
        { file: label, line },
        `expected ${expected} fields (id and ${expected - 1} factors), got ${got}.`,
      ),
  }).catch((e: unknown) => {
    // A headerless file of one row: that row was taken as the first id.
    if (e instanceof EvalLensError && e.code === 'no-data-rows' && ids.length > 0) return;
    // readTable names the absolute path; messages name the file as the config does.
    if (e instanceof EvalLensError && e.location?.file === abs)
      throw new EvalLensError(e.code, e.message.split(abs).join(label), { ...e.location, file: label });
    throw e;
  });
  if (ids.length === 0) fail('bad-factors', { file: label }, 'expected one row per id (id,f1,…,fk), got no rows.');
  return { matrix: { rows: ids.length, cols, data: values.slice(0, n), label }, ids };
}

export interface FactorRunInput {
  U: FactorMatrix;
  V: FactorMatrix;
  userIds: string[];
  itemIds: string[];
  userIdsLabel: string;
  itemIdsLabel: string;
  k: number;
  users: IdIndex;
  items: IdIndex;
  /** The train pairs as user and item indices of `users`/`items` (ids not in the id lists are never masked). */
  trainPairs?: { users: Int32Array; items: Int32Array };
  blockUsers?: number;
  progress?: Progress;
}

/** Interns the ids (user i → index of userIds[i]) before anything else reads ids, then scores. */
export function internFactorIds(
  input: Pick<FactorRunInput, 'U' | 'V' | 'userIds' | 'itemIds' | 'userIdsLabel' | 'itemIdsLabel' | 'users' | 'items'>,
): void {
  const { U, V } = input;
  checkFactors(U, V);
  if (input.userIds.length !== U.rows)
    fail(
      'bad-factors',
      { file: input.userIdsLabel },
      `expected ${U.rows} ids (one per row of ${U.label}), got ${input.userIds.length}.`,
    );
  if (input.itemIds.length !== V.rows)
    fail(
      'bad-factors',
      { file: input.itemIdsLabel },
      `expected ${V.rows} ids (one per row of ${V.label}), got ${input.itemIds.length}.`,
    );
  if (input.users.size !== 0 || input.items.size !== 0) throw new Error('factor ids must be interned first');
  for (const id of input.userIds) input.users.intern(id);
  for (const id of input.itemIds) input.items.intern(id);
}

/**
 * Most list slots (users × min(K, items)) generated from a factor model: each slot holds an item
 * and its score while the users are scored (12 bytes), then the item in the run's lists (4 bytes),
 * so 10⁸ slots take about 1.6 GB. 10⁵ users with K = 10⁵ (10¹⁰ slots) would need 160 GB.
 */
export const MAX_FACTOR_LIST_SLOTS = 100_000_000;

/** `simdFallback`: why the SIMD kernel could not start and the JavaScript loop scored (see simdKernel.ts), if so. */
export async function factorRun(
  input: FactorRunInput,
): Promise<RunRead & { blockUsers: number; simdFallback?: string }> {
  const nU = input.U.rows;
  const nI = input.V.rows;
  const slots = nU * Math.min(input.k, nI);
  if (slots > MAX_FACTOR_LIST_SLOTS)
    fail(
      'factor-lists-too-large',
      { file: input.U.label },
      `${nU} users × K = ${Math.min(input.k, nI)} are ${slots} list slots, more than the ${MAX_FACTOR_LIST_SLOTS} that the lists generated from a factor model are held in (16 bytes each): lower the largest K in \`k\`, or evaluate fewer users at a time (a U file with fewer rows).`,
    );
  const train: (Int32Array | undefined)[] = new Array<Int32Array | undefined>(nU);
  if (input.trainPairs) {
    const per: number[][] = [];
    const { users, items } = input.trainPairs;
    for (let p = 0; p < users.length; p++) {
      const u = users[p];
      const i = items[p];
      if (u < nU && i < nI) (per[u] ??= []).push(i);
    }
    per.forEach((a, u) => (train[u] = Int32Array.from(a)));
  }
  const r = await parallelFactorTopK(input.U, input.V, {
    k: input.k,
    train,
    blockUsers: input.blockUsers,
    progress: input.progress,
  });
  const lists = new ListBuilder(nU * Math.min(input.k, nI));
  for (let u = 0; u < nU; u++) {
    lists.begin(u, u + 1);
    lists.itemsFrom(r.items[u], r.items[u].length);
    lists.end();
  }
  return {
    lists,
    rel: null,
    rows: nU,
    columns: {
      userFactors: input.U.label,
      itemFactors: input.V.label,
      userIds: input.userIdsLabel,
      itemIds: input.itemIdsLabel,
      blockUsers: String(r.blockUsers),
    },
    blockUsers: r.blockUsers,
    ...(r.simdFallback !== undefined ? { simdFallback: r.simdFallback } : {}),
  };
}
