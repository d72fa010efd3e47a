/**
 * Worker entry of the train file read ahead (bundled as `dist/trainReadWorker.js`): reads the
 * train file with its own id numbering while the calling thread reads the run, and posts the rows
 * and the ids in the order the file first mentions them (./trainAhead.ts).
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
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
/**
 * Size and SHA-256 of the file to hash after the train file (the run), or nothing when it cannot be
 * read (it is then hashed later). One buffer, reused: no garbage per chunk on this small heap.
 */
async function hashAfter(path: string | undefined): Promise<{ size: number; sha256: string } | undefined> {
  if (!path) return undefined;
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(1 << 20);
  let size = 0;
  try {
    const fh = await open(path, 'r');
    try {
      for (;;) {
        const { bytesRead } = await fh.read(buf, 0, buf.length, size);
        if (bytesRead === 0) break;
        hash.update(buf.subarray(0, bytesRead));
        size += bytesRead;
      }
    } finally {
      await fh.close();
    }
  } catch {
    return undefined;
  }
  return { size, sha256: hash.digest('hex') };
}

readTrainRows(input.path, input.label, input.spec, ctx).then(
  async (t) => {
    const after = await hashAfter(input.hashAfter);
    const { keys, lengths } = t.users.runs();
    const userIds = users.list();
    const itemIds = items.list();
    const m: TrainAheadMessage = {
      read: {
        rows: t.rows,
        size: t.size,
        sha256: t.sha256,
        keys,
        lengths,
        items: t.items,
        userIds,
        itemIds,
        warnings: ctx.warnings.list,
        ...(after ? { after } : {}),
      },
    };
    // Every array is moved, not copied: the id lists' bytes and offsets (about 2 MB for 150,000
    // ids) are fresh arrays of their exact size that this thread no longer needs.
    const moved = [
      keys,
      lengths,
      t.items,
      userIds.pool,
      userIds.starts,
      userIds.lens,
      itemIds.pool,
      itemIds.starts,
      itemIds.lens,
    ];
    parentPort!.postMessage(
      m,
      moved.map((a) => a.buffer as ArrayBuffer),
    );
  },
  (e: unknown) => parentPort!.postMessage({ failed: partError(e) } satisfies TrainAheadMessage),
);
