/**
 * The rows of a train file (`user,item` interactions): users kept as runs of equal consecutive
 * users, items one a row. Read by the calling thread, or ahead on a worker thread while the run is
 * read (./trainAhead.ts).
 */
import type { ResolvedConfig } from '../../config/types';
import { ChunkedIntVec, KeyRuns } from './builders';
import { ITEM_ALIASES, USER_ALIASES, readIdTable, type IdTableSpec } from './idTable';
import type { RankingReadContext } from './jsonl';
import { stat } from 'node:fs/promises';

export interface TrainRows {
  rows: number;
  users: KeyRuns;
  items: Int32Array;
  /** Size and SHA-256 of the file, computed from the bytes as they were parsed. */
  size?: number;
  sha256?: string;
}

export function trainSpec(config: ResolvedConfig): IdTableSpec {
  return {
    what: 'train',
    hash: true,
    user: { role: 'user', aliases: USER_ALIASES, explicit: config.columns?.user },
    item: { role: 'item', aliases: ITEM_ALIASES, explicit: config.columns?.item },
    invalidRows: config.invalidRows,
  };
}

export async function readTrainRows(
  abs: string,
  label: string,
  spec: IdTableSpec,
  ctx: RankingReadContext,
): Promise<TrainRows> {
  // Rows of "user,item" take ~12+ bytes: the hint sizes the first chunk (no copy when it fits).
  const hint =
    (await stat(abs)
      .then((s) => s.size)
      .catch(() => 0)) / 12;
  // Users as runs of equal consecutive users: one entry per run when the rows are grouped by user.
  const u = new KeyRuns();
  const it = new ChunkedIntVec(hint);
  const t = await readIdTable(abs, label, spec, ctx, (user, item) => {
    u.push(user);
    it.push(item);
  });
  return { rows: t.rows, users: u, items: it.toArray(), size: t.size, sha256: t.sha256 };
}
