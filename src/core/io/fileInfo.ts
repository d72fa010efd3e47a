/**
 * Size and SHA-256 of an input file, for `results.source`. Streamed (the file is never held).
 * Large files are hashed in a worker thread: `evaluateFile` hashes while the reader parses, and
 * hashing on the main thread would take turns with the parser (≈0.5 s for 268 MB).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { cannotOpen } from './table';

/** Files at least this large are hashed in a worker thread. */
const WORKER_MIN_BYTES = 16 * 1024 * 1024;

// One buffer, read into again and again (a blocking read: this thread does nothing else). A read
// stream would hand over a new 1 MiB buffer a chunk, left to the collector, which on this
// otherwise idle thread let tens of megabytes of them stay resident while the file was read. The
// buffer is 64 KiB: with 1 MiB the evaluation of a 1 M-row file peaked about 1.1 MB higher after
// the thread had ended (docs/benchmarks.md), and the hashing took as long.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { closeSync, openSync, readSync } = require('node:fs');
const { createHash } = require('node:crypto');
try {
  const hash = createHash('sha256');
  const fd = openSync(workerData, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 16);
    for (let got; (got = readSync(fd, buf, 0, buf.length, null)) > 0; ) hash.update(buf.subarray(0, got));
  } finally {
    closeSync(fd);
  }
  parentPort.postMessage({ sha256: hash.digest('hex') });
} catch (e) {
  parentPort.postMessage({ error: { message: e.message, code: e.code } });
}
`;

function hashHere(path: string): Promise<string> {
  const hash = createHash('sha256');
  return new Promise((resolveHash, reject) => {
    createReadStream(path, { highWaterMark: 1 << 20 })
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolveHash(hash.digest('hex')));
  });
}

function hashInWorker(path: string): Promise<string> {
  return new Promise((resolveHash, reject) => {
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: path });
    w.once('message', (m: { sha256?: string; error?: { message: string; code?: string } }) => {
      void w.terminate();
      if (m.sha256) resolveHash(m.sha256);
      else reject(Object.assign(new Error(m.error?.message), { code: m.error?.code }));
    });
    w.once('error', reject);
  });
}

export async function fileInfo(path: string): Promise<{ size: number; sha256: string }> {
  try {
    const { size } = await stat(path);
    let sha256: string;
    if (size >= WORKER_MIN_BYTES) {
      try {
        sha256 = await hashInWorker(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code) throw e;
        sha256 = await hashHere(path); // no worker threads available: hash here
      }
    } else sha256 = await hashHere(path);
    return { size, sha256 };
  } catch (e) {
    throw cannotOpen(path, e);
  }
}
