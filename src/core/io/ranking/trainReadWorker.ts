/**
 * Worker entry of the train file read ahead (bundled as `dist/trainReadWorker.js`): reads the
 * train file with its own id numbering while the calling thread reads the run, and posts the rows
 * and the ids in the order the file first mentions them (./trainAhead.ts).
 */
import { stat } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { hashHere } from '../fileInfo';
import { Warnings } from '../../diagnostics';
import { partError } from '../classificationPart';
import { PieceIds } from './pieceIds';
import { readTrainRows } from './trainRows';
import type { TrainAheadInput, TrainAheadMessage } from './trainAhead';

const input = workerData as TrainAheadInput;
const users = new PieceIds();
const items = new PieceIds();
const ctx = { users, items, warnings: new Warnings() };
// The file to hash after the train file (the run): its size and hash, or nothing when it cannot be read.
async function hashAfter(path: string | undefined): Promise<{ size: number; sha256: string } | undefined> {
  if (!path) return undefined;
  try {
    const { size } = await stat(path);
    return { size, sha256: await hashHere(path) };
  } catch {
    return undefined;
  }
}

readTrainRows(input.path, input.label, input.spec, ctx).then(
  async (t) => {
    const after = await hashAfter(input.hashAfter);
    const { keys, lengths } = t.users.runs();
    const m: TrainAheadMessage = {
      read: {
        rows: t.rows,
        size: t.size,
        sha256: t.sha256,
        keys,
        lengths,
        items: t.items,
        userIds: users.list(),
        itemIds: items.list(),
        warnings: ctx.warnings.list,
        ...(after ? { after } : {}),
      },
    };
    parentPort!.postMessage(m, [
      keys.buffer as ArrayBuffer,
      lengths.buffer as ArrayBuffer,
      t.items.buffer as ArrayBuffer,
    ]);
  },
  (e: unknown) => parentPort!.postMessage({ failed: partError(e) } satisfies TrainAheadMessage),
);
