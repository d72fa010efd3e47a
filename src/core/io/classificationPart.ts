/**
 * The pieces of a large quote-free CSV/TSV classification file, read on worker threads and on the
 * calling thread: a piece is a byte range of whole lines; its rows go through the same byte
 * scanner and collector as a single pass, into the piece's region of the shared row storage. Its
 * lines are counted from 0 (the lines before it are known only once the pieces before it are
 * read); the calling thread then moves them to the file's line numbers.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { CancelledError, EvalLensError } from '../diagnostics';
import type { ResolvedConfig } from '../config/types';
import { LF, QUOTE } from './bytes';
import { ClassificationCollector, type CollectorPart, type SharedRows } from './classificationCollector';
import type { LoadClassificationOptions } from './classificationColumns';
import type { TableFormat } from './format';
import type { ByteRowHandler } from './table';
import { cannotOpen } from './tableSink';

const CHUNK_BYTES = 1 << 20;

/**
 * Everything the threads share (plain data and shared buffers: it is the worker's `workerData`).
 * The data lines are cut into more pieces than threads; each thread claims the next piece from a
 * shared counter, so a thread that gets less CPU (or starts later) reads fewer pieces.
 */
export interface ReadPartsInput {
  path: string;
  format: TableFormat;
  config: ResolvedConfig;
  keep: LoadClassificationOptions;
  /** The header's column names. */
  names: string[];
  /** Piece p is bytes `[cuts[p], cuts[p + 1])` (whole lines). */
  cuts: number[];
  shared: SharedRows;
  /** `next[0]`: the next piece to claim. */
  next: Int32Array;
  /** `stop[0]` = 1 once a piece met a quote: the file is then read in one pass. */
  stop: Int32Array;
  /** Bytes read so far of each piece, for the progress shown by the calling thread. */
  bytesDone: Float64Array;
}

/** An error as it crosses threads. */
export interface PartError {
  message: string;
  code?: string;
  location?: EvalLensError['location'];
  problems?: EvalLensError['problems'];
}

/** What a piece gives back: its rows, or that it met a quote (the file is then read in one pass). */
export type PartResult =
  | { piece: number; quote: true }
  | {
      piece: number;
      quote: false;
      /** The rows, their lines counted from 0 at the part's start (see ClassificationCollector.shiftPart). */
      state: CollectorPart;
      error: PartError | null;
      /** Physical lines in the part (when read to its end). */
      lines: number;
    };

/** Thrown by {@link scanRange} at the first `"`: quoted fields may hold newlines, so the file cannot be cut at them. */
export class QuoteInPart extends Error {
  constructor() {
    super('a quote in the data lines');
  }
}

export function partError(e: unknown): PartError {
  if (e instanceof EvalLensError)
    return { message: e.message, code: e.code, location: e.location, problems: e.problems };
  return { message: e instanceof Error ? e.message : String(e) };
}

export function errorOfPart(e: PartError): Error {
  if (e.code !== undefined) return new EvalLensError(e.code, e.message, e.location, e.problems);
  return new Error(e.message);
}

/** Reads at positions of one file: through the I/O thread pool, or blocking (see {@link ReadBuffer}). */
class PositionalReader {
  private constructor(
    private readonly path: string,
    private readonly fh: FileHandle | null,
    private readonly fd: number,
  ) {}

  static async open(path: string, blocking: boolean): Promise<PositionalReader> {
    try {
      return blocking
        ? new PositionalReader(path, null, openSync(path, 'r'))
        : new PositionalReader(path, await open(path, 'r'), -1);
    } catch (e) {
      throw cannotOpen(path, e);
    }
  }

  /** Bytes read into `buf[at, at + len)` from file position `pos`. */
  async read(buf: Buffer, at: number, len: number, pos: number): Promise<number> {
    try {
      return this.fh ? (await this.fh.read(buf, at, len, pos)).bytesRead : readSync(this.fd, buf, at, len, pos);
    } catch (e) {
      throw cannotOpen(this.path, e);
    }
  }

  async close(): Promise<void> {
    if (this.fh) await this.fh.close();
    else closeSync(this.fd);
  }
}

/**
 * What one thread keeps from piece to piece: its read buffer (a new 1 MiB buffer per piece is
 * garbage), and whether its reads block. A thread reading pieces has nothing else to do while it
 * waits, and a blocking read saves the hop to the I/O thread pool and back for every chunk (about
 * 20 ms over 268 MB); {@link claimPieces} gives the event loop a turn between pieces.
 */
export interface ReadBuffer {
  buf: Buffer | null;
  blocking?: boolean;
}

/**
 * Hands the whole lines of bytes `[start, end)` (the first one physical line `line`) to `rows`,
 * chunk by chunk, as the single-pass reader does; a last line without a line feed (the end of the
 * file) is given one. Returns the line number after the last line. Throws {@link QuoteInPart} at a `"`.
 */
export async function scanRange(
  path: string,
  start: number,
  end: number,
  line: number,
  rows: ByteRowHandler,
  onBytes: (got: number) => void,
  scratch: ReadBuffer = { buf: null },
): Promise<number> {
  const file = await PositionalReader.open(path, scratch.blocking === true);
  const want = Math.min(CHUNK_BYTES, Math.max(16, end - start));
  let buf = scratch.buf && scratch.buf.length >= want ? scratch.buf : Buffer.allocUnsafe(want);
  let len = 0;
  try {
    for (let pos = start; pos < end;) {
      if (len === buf.length) {
        const next = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(next, 0, 0, len);
        buf = next;
      }
      const got = await file.read(buf, len, Math.min(buf.length - len, end - pos), pos);
      if (got === 0) break;
      pos += got;
      len += got;
      onBytes(got);
      const view = buf.subarray(0, len);
      if (view.indexOf(QUOTE, len - got) !== -1) throw new QuoteInPart();
      const whole = view.lastIndexOf(LF) + 1;
      if (whole > 0) {
        line = rows.rows(view, 0, whole, line);
        buf.copyWithin(0, whole, len);
        len -= whole;
      }
    }
    if (len > 0) {
      if (len === buf.length) {
        const next = Buffer.allocUnsafe(buf.length + 1);
        buf.copy(next, 0, 0, len);
        buf = next;
      }
      buf[len] = LF;
      line = rows.rows(buf.subarray(0, len + 1), 0, len + 1, line);
    }
  } finally {
    scratch.buf = buf;
    await file.close();
  }
  return line;
}

/** Reads piece `p` into its region of the shared rows. */
export async function readPiece(
  input: ReadPartsInput,
  p: number,
  onBytes?: (got: number) => void,
  scratch?: ReadBuffer,
): Promise<PartResult> {
  const col = new ClassificationCollector(input.path, input.config, input.format, 16, input.keep);
  col.columns(input.names);
  col.useSharedRows(input.shared, p);
  let error: PartError | null = null;
  let lines = 0;
  try {
    lines = await scanRange(
      input.path,
      input.cuts[p],
      input.cuts[p + 1],
      0,
      col,
      (got) => {
        input.bytesDone[p] += got;
        onBytes?.(got);
      },
      scratch,
    );
  } catch (e) {
    if (e instanceof QuoteInPart) {
      Atomics.store(input.stop, 0, 1);
      return { piece: p, quote: true };
    }
    if (e instanceof CancelledError) throw e;
    error = partError(e);
  }
  return { piece: p, quote: false, state: col.partState(), error, lines };
}

/** Claims and reads pieces until none is left (or one met a quote). */
export async function claimPieces(
  input: ReadPartsInput,
  onBytes?: (got: number) => void,
  scratch: ReadBuffer = { buf: null },
): Promise<PartResult[]> {
  const out: PartResult[] = [];
  const pieces = input.cuts.length - 1;
  while (Atomics.load(input.stop, 0) === 0) {
    const p = Atomics.add(input.next, 0, 1);
    if (p >= pieces) break;
    // Blocking reads never give the event loop a turn: one between pieces (messages, cancellation).
    if (scratch.blocking) await new Promise<void>((resolve) => setImmediate(resolve));
    out.push(await readPiece(input, p, onBytes, scratch));
  }
  return out;
}
