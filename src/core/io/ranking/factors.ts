/**
 * A run generated from a factor model (`userFactors`, `itemFactors`, `userIds`, `itemIds`): each
 * user's top-K items by U[u] · V[i], its train items masked, ties by the item's position in
 * `itemIds` (earlier first). The lists enter the ranking pipeline exactly as a run file's lists.
 *
 * Factor files are `.npy` 2-D float32/float64/int arrays, one row per id; the id files are text,
 * one id per line, row i of the matrix belonging to line i.
 */
import { readFile } from 'node:fs/promises';
import { fail, type Progress } from '../../diagnostics';
import type { IdIndex } from '../../data/rankingData';
import { readNpy } from '../npy';
import { checkFactors, type FactorMatrix } from '../../factors/topK';
import { parallelFactorTopK } from '../../factors/parallelTopK';
import { ListBuilder } from './builders';
import type { RunRead } from './jsonl';

/** Reads a text file of ids, one per line (a final newline is optional); blank or repeated ids are errors. */
export async function readIdList(abs: string, label: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(abs, 'utf8');
  } catch (e) {
    return fail(
      'file-not-found',
      { file: label },
      `cannot open the file (${(e as NodeJS.ErrnoException).code ?? String(e)}).`,
    );
  }
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

export async function readFactorMatrix(abs: string, label: string): Promise<FactorMatrix> {
  if (!/\.npy$/i.test(label))
    fail('bad-factors', { file: label }, 'expected a .npy file (a 2-D array, one row per id).');
  const m = await readNpy(abs, label);
  return { rows: m.rows, cols: m.cols, data: m.data, label };
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

export async function factorRun(input: FactorRunInput): Promise<RunRead & { blockUsers: number }> {
  const nU = input.U.rows;
  const nI = input.V.rows;
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
  };
}
