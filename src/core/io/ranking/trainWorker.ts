/**
 * Reads the `train` interactions (CSV/TSV `user,item`) in a worker thread while the main thread
 * parses the run, so that on a machine with two cores the two largest inputs are parsed at the
 * same time (the benchmark's train file has 1.75 million rows).
 *
 * The worker handles only the plain case: the header already understood by the main thread, then
 * rows without quotes, with the header's number of cells and non-empty ids. On anything else it
 * gives up, and the caller reads the file again with the ordinary reader ({@link readIdTable}),
 * which produces the precise error message or handles the quoted cells: the worker never decides
 * what a bad row means. Its result is the same as the ordinary reader's: the ids are interned into
 * the shared indexes in row order (user, then item), as the ordinary reader would.
 *
 * The worker's code is a plain-JavaScript string run with `eval: true`, so it needs no build entry
 * of its own and runs the same under tsx, in the bundled CLI and in the extension's worker.
 */
import { Worker } from 'node:worker_threads';
import { open } from 'node:fs/promises';
import type { IdIndex } from '../../data/rankingData';
import { findColumn, ITEM_ALIASES, USER_ALIASES } from './idTable';
import { delimiterOf, splitDelimited } from './lines';

export interface TrainPairs {
  rows: number;
  /** Global user / item index per row, in row order. */
  users: Int32Array;
  items: Int32Array;
  columns: { user: string; item: string };
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { path, start, delim, uCol, iCol, nCols } = workerData;
function run() {
  const users = new Map(), items = new Map();
  const userIds = [], itemIds = [];
  let pu = new Int32Array(1 << 16), pi = new Int32Array(1 << 16), n = 0;
  const fd = fs.openSync(path, 'r');
  const buf = Buffer.allocUnsafe(1 << 22);
  let pos = start, carry = '';
  try {
    for (;;) {
      const got = fs.readSync(fd, buf, 0, buf.length, pos);
      pos += got;
      let text;
      if (got === 0) { if (carry === '') break; text = carry; carry = ''; }
      else {
        let end = buf.lastIndexOf(10, got - 1);
        if (end < 0) { carry += buf.toString('utf8', 0, got); continue; }
        text = carry + buf.toString('utf8', 0, end);
        carry = buf.toString('utf8', end + 1, got);
        // a multi-byte character cut at the chunk end stays whole: the cut is at a newline
      }
      const lines = text.split('\\n');
      for (let l = 0; l < lines.length; l++) {
        let line = lines[l];
        if (line.length && line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
        if (line.trim() === '') continue;
        if (line.indexOf('"') >= 0) return null;
        const cells = line.split(delim);
        if (cells.length !== nCols) return null;
        const u = cells[uCol].trim(), it = cells[iCol].trim();
        if (u === '' || it === '') return null;
        let a = users.get(u); if (a === undefined) { a = userIds.length; users.set(u, a); userIds.push(u); }
        let b = items.get(it); if (b === undefined) { b = itemIds.length; items.set(it, b); itemIds.push(it); }
        if (n === pu.length) { const x = new Int32Array(n * 2); x.set(pu); pu = x; const y = new Int32Array(n * 2); y.set(pi); pi = y; }
        pu[n] = a; pi[n] = b; n++;
      }
      if (got === 0) break;
    }
  } finally { fs.closeSync(fd); }
  return { userIds, itemIds, pu: pu.slice(0, n), pi: pi.slice(0, n), n };
}
try {
  const r = run();
  if (r === null) parentPort.postMessage({ ok: false });
  else parentPort.postMessage({ ok: true, ...r }, [r.pu.buffer, r.pi.buffer]);
} catch (e) { parentPort.postMessage({ ok: false, error: String(e) }); }
`;

interface WorkerReply {
  ok: boolean;
  userIds?: string[];
  itemIds?: string[];
  pu?: Int32Array;
  pi?: Int32Array;
  n?: number;
}

interface WorkerOutcome {
  reply: WorkerReply;
  columns: { user: string; item: string };
}

/** A started read; see {@link finishTrainRead}. */
export interface TrainRead {
  outcome: Promise<WorkerOutcome | null>;
  cancel(): void;
}

/**
 * Starts reading `path` in a worker. Its outcome is null (read the file the ordinary way) when the
 * header cannot be understood here, the file has quotes or odd rows, or workers are unavailable.
 */
export function startTrainRead(path: string, explicit: { user?: string; item?: string }): TrainRead {
  let worker: Worker | null = null;
  let cancelled = false;
  const outcome = (async (): Promise<WorkerOutcome | null> => {
    const head = await headerOf(path);
    if (!head) return null;
    const delim = delimiterOf(head.text);
    let cells: string[];
    try {
      cells = splitDelimited(head.text, delim, path, head.line);
    } catch {
      return null;
    }
    const uCol = findColumn(cells, { role: 'user', aliases: USER_ALIASES, explicit: explicit.user });
    const iCol = findColumn(cells, { role: 'item', aliases: ITEM_ALIASES, explicit: explicit.item });
    if (uCol < 0 || iCol < 0 || cancelled) return null;
    const reply = await new Promise<WorkerReply>((resolveReply) => {
      try {
        worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, start: head.end, delim, uCol, iCol, nCols: cells.length } });
      } catch {
        resolveReply({ ok: false });
        return;
      }
      worker.once('message', (m: WorkerReply) => resolveReply(m));
      worker.once('error', () => resolveReply({ ok: false }));
      worker.once('exit', () => resolveReply({ ok: false }));
    });
    void (worker as Worker | null)?.terminate();
    return reply.ok ? { reply, columns: { user: cells[uCol], item: cells[iCol] } } : null;
  })();
  return {
    outcome: outcome.catch(() => null),
    cancel: () => {
      cancelled = true;
      void (worker as Worker | null)?.terminate();
    },
  };
}

/**
 * Interns a worker's local ids into the shared indexes in row order (user, then item, row by
 * row: the order the ordinary reader interns them in) and returns global indices per row.
 */
export async function finishTrainRead(read: TrainRead, users: IdIndex, items: IdIndex): Promise<TrainPairs | null> {
  const got = await read.outcome;
  if (!got) return null;
  const { reply, columns } = got;
  const n = reply.n!;
  const pu = reply.pu!;
  const pi = reply.pi!;
  const uMap = new Int32Array(reply.userIds!.length).fill(-1);
  const iMap = new Int32Array(reply.itemIds!.length).fill(-1);
  for (let r = 0; r < n; r++) {
    const a = pu[r];
    let g = uMap[a];
    if (g < 0) g = uMap[a] = users.intern(reply.userIds![a]);
    pu[r] = g;
    const b = pi[r];
    let h = iMap[b];
    if (h < 0) h = iMap[b] = items.intern(reply.itemIds![b]);
    pi[r] = h;
  }
  return { rows: n, users: pu, items: pi, columns };
}

/** The first non-blank line (the header), its 1-based line number and the byte offset after it. */
async function headerOf(path: string): Promise<{ text: string; line: number; end: number } | null> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch {
    return null;
  }
  try {
    const buf = Buffer.alloc(1 << 16);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    let pos = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
    let line = 0;
    for (;;) {
      const nl = buf.indexOf(10, pos);
      if (nl < 0 || nl >= bytesRead) return null;
      line++;
      const text = buf.toString('utf8', pos, nl).replace(/\r$/, '');
      if (text.trim() !== '') return { text, line, end: nl + 1 };
      pos = nl + 1;
    }
  } finally {
    await fh.close();
  }
}
