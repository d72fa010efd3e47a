/**
 * A large CSV/TSV classification file read on several threads (Node `worker_threads`): the data
 * lines are cut into pieces at line feeds (several per thread); the calling thread reads the first
 * piece, then it and the workers claim the next piece from a shared counter until none is left
 * (./classificationPart.ts), each piece into its own region of shared row arrays; the pieces are
 * then joined in file order, in place. The result is the same as one pass in every respect: line
 * numbers, the class set, values, warnings, and the error (the first bad rows in file order).
 *
 * Used only when every data line is quote-free (a quoted field may hold a newline, so such a file
 * cannot be cut at line feeds): a part that meets a `"` stops every part and the file is read in
 * one pass. One thread is used below {@link PARALLEL_READ_MIN_BYTES}, on a single core, without an
 * array column of class scores, or when the worker script is not found. A worker that cannot start
 * or fails has its part read on the calling thread (same result, slower) with a warning; with the
 * environment variable EVAL_LENS_REQUIRE_WORKERS=1 (set by the benchmarks) that is an error.
 */
import { existsSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CancelledError, fail, type Progress, type Warnings } from '../diagnostics';
import type { ResolvedConfig } from '../config/types';
import { workersRequired } from '../stats/parallelBootstrap';
import { LF } from './bytes';
import { ClassificationCollector, type CollectorPart } from './classificationCollector';
import type { LoadClassificationOptions } from './classificationColumns';
import {
  claimPieces,
  errorOfPart,
  QuoteInPart,
  readPiece,
  scanRange,
  type PartError,
  type PartResult,
  type ReadBuffer,
  type ReadPartsInput,
} from './classificationPart';
import type { TableFormat } from './format';
import { delimitedHeader, endOfQuotedLine, hasBom } from './table';
import { cannotOpen } from './tableSink';

/**
 * Files smaller than this are read on one thread. A reading worker costs tens of milliseconds to
 * start and holds a JavaScript engine of its own (about 10 MB resident) while it reads: on a 1 M-row
 * file of 101 MB that was 10 MB of a peak of 137 MB without the bootstrap, at the end of the
 * reading; from about 150 MB on the peak comes after the reading and the worker no longer adds to
 * it. With resamples to come, one pass reads into shared memory as the parts do
 * (loadClassification.ts), so the bootstrap's threads read the rows without a copy either way
 * (docs/benchmarks.md, "Scaling").
 */
export const PARALLEL_READ_MIN_BYTES = 128 * 2 ** 20;
/** Pieces per thread: more pieces even out threads that get less CPU, at a small cost each. */
export const PIECES_PER_THREAD = 8;
/** Smallest piece worth claiming. */
const MIN_PIECE_BYTES = 2 * 2 ** 20;

export interface ParallelReadOptions {
  /** Smallest file read on several threads (default {@link PARALLEL_READ_MIN_BYTES}). */
  minBytes?: number;
  /** Threads (default: the available cores, at most 4). */
  threads?: number;
  /** Worker script (default: the bundle's `readWorker.js`); null for one thread. */
  workerFile?: string | null;
  /** Room in rows of every part's region (default: its share of the estimated rows); small values test parts that outgrow it. */
  regionRows?: number;
  /** Pieces (default: {@link PIECES_PER_THREAD} per thread, fewer when a piece would be under 2 MiB). */
  pieces?: number;
  /** False: this thread reads only the first piece and the workers the others (tests). */
  claimHere?: boolean;
  /** Told how many pieces the file is cut into (tests). */
  onSplit?: (parts: number) => void;
}

/**
 * The worker script next to this module: the bundle's `readWorker.js`. Run from the TypeScript
 * sources (tsx) there is none, since a .ts worker does not load there: one thread is used.
 */
export function readWorkerFile(): string | null {
  const f = join(__dirname, 'readWorker.js');
  return existsSync(f) ? f : null;
}

export function defaultThreads(): number {
  const cores = typeof availableParallelism === 'function' ? availableParallelism() : 1;
  return Math.max(1, Math.min(4, cores));
}

async function openFile(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (e) {
    throw cannotOpen(path, e);
  }
}

/** The header line: its text and the offset just after it; null when the file has no complete first line. */
async function headerLine(fh: FileHandle, size: number): Promise<{ text: string; end: number } | null> {
  let buf = Buffer.allocUnsafe(Math.min(size, 1 << 16));
  for (;;) {
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const view = buf.subarray(0, bytesRead);
    const from = hasBom(view) ? 3 : 0;
    const end = endOfQuotedLine(view, from);
    if (end >= 0) return { text: view.toString('utf8', from, end), end };
    if (bytesRead >= size) return null;
    buf = Buffer.allocUnsafe(Math.min(size, buf.length * 4));
  }
}

/** Offset just after the first line feed at or after `at` (the start of a line); `size` when none. */
async function lineStartFrom(fh: FileHandle, at: number, size: number): Promise<number> {
  const buf = Buffer.allocUnsafe(1 << 16);
  for (let pos = at; pos < size;) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - pos), pos);
    if (bytesRead === 0) break;
    const i = buf.subarray(0, bytesRead).indexOf(LF);
    if (i !== -1) return pos + i + 1;
    pos += bytesRead;
  }
  return size;
}

/**
 * Where the pieces start, as shares of the data bytes (after 0). `pieces` given: that many equal
 * pieces. Else {@link PIECES_PER_THREAD} equal shares per thread (fewer when a share would be
 * under 2 MiB), the last `threads` of them each cut in four: a thread that finishes its last
 * piece early then waits for a small piece of the others, not a whole share.
 */
export function pieceStarts(dataBytes: number, threads: number, pieces?: number): number[] {
  const starts: number[] = [];
  if (pieces !== undefined) {
    for (let p = 1; p < pieces; p++) starts.push(p / pieces);
    return starts;
  }
  const shares = Math.max(threads, Math.min(threads * PIECES_PER_THREAD, Math.ceil(dataBytes / MIN_PIECE_BYTES)));
  for (let p = 1; p < shares; p++) {
    // the shares before this start, cut in four when they are among the last `threads`
    const last = p - 1 >= shares - threads;
    if (last) for (const q of [0.25, 0.5, 0.75]) starts.push((p - 1 + q) / shares);
    starts.push(p / shares);
  }
  for (const q of [0.25, 0.5, 0.75]) starts.push((shares - 1 + q) / shares);
  return starts;
}

interface RunningWorker {
  /** The worker's pieces; null when it could not start or failed (with why). */
  result: Promise<PartResult[] | null>;
  why: () => string;
  stop: () => void;
}

function startWorker(workerFile: string, input: ReadPartsInput): RunningWorker {
  let why = '';
  let w: Worker | null = null;
  try {
    // A small young generation: the worker's garbage is per-row strings; this keeps the process's
    // peak memory near one pass's (measured: about 10 MB less than the default).
    w = new Worker(workerFile, { workerData: input, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
  } catch (e) {
    if (workersRequired()) throw e;
    why = `the worker could not start (${e instanceof Error ? e.message : String(e)})`;
  }
  const result = new Promise<PartResult[] | null>((resolve, reject) => {
    if (!w) return resolve(null);
    const failed = (reason: string): void => {
      if (workersRequired()) return reject(new Error(`classification read worker failed: ${reason}`));
      why = `the worker failed (${reason})`;
      resolve(null);
    };
    w.once('message', (m: PartResult[] | { failed: PartError }) =>
      Array.isArray(m) ? resolve(m) : failed(m.failed.message),
    );
    w.once('error', (e: Error) => failed(e.message));
    w.once('exit', (code: number) => failed(`exited with code ${code}`));
  });
  result.catch(() => undefined); // awaited below; avoids an unhandled rejection before then
  return { result, why: () => why, stop: () => void w?.terminate() };
}

/** Resolves after `ms`, or with the promise's value when it settles first. */
function within<T>(p: Promise<T>, ms: number): Promise<{ done: true; value: T } | { done: false }> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => resolve({ done: false }), ms);
    p.then(
      (value) => {
        clearTimeout(t);
        resolve({ done: true, value });
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/**
 * Reads `path` into a collector on several threads. Returns null when the file is to be read in
 * one pass (too small, one core, an array column, no worker script, or a `"` in the data lines).
 */
export async function readClassificationInParallel(
  path: string,
  config: ResolvedConfig,
  format: TableFormat,
  size: number,
  capacity: number,
  keep: LoadClassificationOptions,
  warnings: Warnings,
  progress: Progress | undefined,
  opts: ParallelReadOptions = {},
): Promise<{ col: ClassificationCollector; rows: number } | null> {
  if (format !== 'csv' && format !== 'tsv') return null;
  if (size < (opts.minBytes ?? PARALLEL_READ_MIN_BYTES)) return null;
  const threads = opts.threads ?? defaultThreads();
  if (threads < 2) return null;
  const workerFile = opts.workerFile === undefined ? readWorkerFile() : opts.workerFile;
  if (workersRequired() && (!workerFile || !existsSync(workerFile)))
    throw new Error(`classification read worker script not found: ${workerFile ?? '(none)'}`);
  if (!workerFile || !existsSync(workerFile) || typeof Worker !== 'function') return null;

  // The header and the cuts: each piece starts at a line start.
  const fh = await openFile(path);
  let header: { text: string; end: number } | null;
  const cuts: number[] = [];
  try {
    header = await headerLine(fh, size);
    if (!header) return null;
    const dataBytes = size - header.end;
    cuts.push(header.end);
    for (const share of pieceStarts(dataBytes, threads, opts.pieces)) {
      const at = await lineStartFrom(fh, header.end + Math.floor(dataBytes * share) - 1, size);
      if (at > cuts[cuts.length - 1] && at < size) cuts.push(at);
    }
    cuts.push(size);
  } catch (e) {
    throw cannotOpen(path, e);
  } finally {
    await fh.close();
  }
  if (cuts.length < 3) return null;
  const pieces = cuts.length - 1;

  const delimiter = format === 'tsv' ? '\t' : ',';
  const { names, firstDataLine } = delimitedHeader(header.text, path, delimiter);
  // Its row arrays are replaced by the shared ones below: no room for the whole file here.
  const col = new ClassificationCollector(path, config, format, 16, keep);
  col.columns(names);
  if (!col.splittable) return null;

  // Row regions sized after each piece's share of the bytes (the same estimate as one pass).
  const dataBytes = size - header.end;
  const regions: { first: number; cap: number }[] = [];
  let first = 0;
  for (let p = 0; p < pieces; p++) {
    const cap = opts.regionRows ?? Math.ceil((capacity * (cuts[p + 1] - cuts[p])) / dataBytes) + 64;
    regions.push({ first, cap });
    first += cap;
  }
  const shared = col.shareRows(regions);
  opts.onSplit?.(pieces);
  const sab = (bytes: number): SharedArrayBuffer => new SharedArrayBuffer(bytes);
  const input: ReadPartsInput = {
    path,
    format,
    config,
    keep,
    names,
    cuts,
    shared,
    next: new Int32Array(sab(4)).fill(1), // piece 0 is this thread's
    stop: new Int32Array(sab(4)),
    bytesDone: new Float64Array(sab(8 * pieces)),
  };
  const report = (): void => {
    if (!progress) return;
    if (progress.isCancelled?.()) throw new CancelledError();
    let done = header.end;
    for (let p = 0; p < pieces; p++) done += input.bytesDone[p];
    progress.report?.('reading', done, size);
  };

  const running: RunningWorker[] = [];
  const scratch: ReadBuffer = { buf: null, blocking: true }; // this thread's read buffer, from piece to piece
  try {
    for (let t = 1; t < Math.min(threads, pieces); t++) running.push(startWorker(workerFile, input));
    let line: number; // the file's line where the next piece starts
    const results = new Map<number, PartResult>();
    try {
      line = await scanRange(
        path,
        cuts[0],
        cuts[1],
        firstDataLine,
        col,
        (got) => {
          input.bytesDone[0] += got;
          report();
        },
        scratch,
      );
      if (opts.claimHere !== false) for (const r of await claimPieces(input, report, scratch)) results.set(r.piece, r);
    } catch (e) {
      if (e instanceof QuoteInPart) {
        Atomics.store(input.stop, 0, 1);
        return null;
      }
      throw e;
    }
    for (const w of running) {
      let res: PartResult[] | null;
      for (;;) {
        const r = await within(w.result, 100);
        if (r.done) {
          res = r.value;
          break;
        }
        report();
      }
      if (res) for (const r of res) results.set(r.piece, r);
      else
        warnings.note(
          'read-worker-fallback',
          `Part of ${basename(path)} was read on the calling thread because ${w.why()}: the data are the same, the reading was slower.`,
          { file: path },
        );
    }
    if (Atomics.load(input.stop, 0) !== 0) return null; // a quote: one pass
    // In file order: each piece's lines moved after the previous piece's, its bad rows after theirs.
    const parts: CollectorPart[] = [];
    for (let p = 1; p < pieces; p++) {
      // a piece claimed by a worker that failed is read here
      const res = results.get(p) ?? (await readPiece(input, p, report, scratch));
      if (res.quote) return null;
      ClassificationCollector.shiftPart(shared, p, res.state, line);
      line += res.lines;
      col.absorbProblems(res.state);
      if (res.error) throw errorOfPart(res.error);
      parts.push(res.state);
    }
    col.joinParts(shared, parts);
    report();
  } finally {
    for (const w of running) w.stop();
  }
  const rows = col.count;
  if (rows === 0) fail('no-data-rows', { file: path }, 'the file has a header but no data rows.');
  return { col, rows };
}
