/**
 * Worker entry of the train file read ahead (bundled as `dist/trainReadWorker.js`): reads the
 * train file with its own id numbering while the calling thread reads the run, and posts the rows
 * and the ids in the order the file first mentions them (./trainAhead.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Warnings } from '../../diagnostics';
import { partError } from '../classificationPart';
import { PieceIds } from './pieceIds';
import { readTrainRows } from './trainRows';
import type { TrainAheadInput, TrainAheadMessage } from './trainAhead';

const input = workerData as TrainAheadInput;
const users = new PieceIds();
const items = new PieceIds();
const ctx = { users, items, warnings: new Warnings() };
readTrainRows(input.path, input.label, input.spec, ctx).then(
  (t) => {
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
