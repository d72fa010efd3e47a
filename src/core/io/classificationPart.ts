/**
 * One part of a large quote-free CSV/TSV classification file, read on its own thread (or on the
 * calling thread): the byte range `[start, end)` holds whole lines; the rows go through the same
 * byte scanner and collector as a single pass, into this part's region of the shared row storage.
 * Its lines are counted from 0 (the lines before it are known only once the parts before it are
 * read); the calling thread then moves them to the file's line numbers.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { EvalLensError } from '../diagnostics';
import type { ResolvedConfig } from '../config/types';
import { LF, QUOTE } from './bytes';
import { ClassificationCollector, type CollectorPart, type SharedRows } from './classificationCollector';
import type { LoadClassificationOptions } from './classificationColumns';
import type { TableFormat } from './format';
import type { ByteRowHandler } from './table';
import { cannotOpen } from './tableSink';

const CHUNK_BYTES = 1 << 20;

/** Everything a part needs (plain data: it is the worker's `workerData`). */
export interface ReadPartInput {
  path: string;
  format: TableFormat;
  config: ResolvedConfig;
  keep: LoadClassificationOptions;
  /** The header's column names. */
  names: string[];
  /** This part's bytes (whole lines). */
  start: number;
  end: number;
  /** Index of this part (0 is the calling thread's). */
  part: number;
  shared: SharedRows;
  /** Bytes read so far by each part, for the progress shown by the calling thread. */
  bytesDone: Float64Array;
}

/** An error as it crosses threads. */
export interface PartError {
  message: string;
  code?: string;
  location?: EvalLensError['location'];
  problems?: EvalLensError['problems'];
}

/** What a part gives back: its rows, or that it met a quote (the file is then read in one pass). */
export type PartResult =
  | { quote: true }
  | {
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

async function openFile(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (e) {
    throw cannotOpen(path, e);
  }
}

async function readAt(
  fh: FileHandle,
  path: string,
  buf: Buffer,
  at: number,
  len: number,
  pos: number,
): Promise<number> {
  try {
    return (await fh.read(buf, at, len, pos)).bytesRead;
  } catch (e) {
    throw cannotOpen(path, e);
  }
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
): Promise<number> {
  const fh = await openFile(path);
  let buf = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(16, end - start)));
  let len = 0;
  try {
    for (let pos = start; pos < end;) {
      if (len === buf.length) {
        const next = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(next, 0, 0, len);
        buf = next;
      }
      const got = await readAt(fh, path, buf, len, Math.min(buf.length - len, end - pos), pos);
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
    await fh.close();
  }
  return line;
}

/** Reads one part into its region of the shared rows. */
export async function readPart(input: ReadPartInput): Promise<PartResult> {
  const col = new ClassificationCollector(input.path, input.config, input.format, 16, input.keep);
  col.columns(input.names);
  col.useSharedRows(input.shared, input.part);
  let error: PartError | null = null;
  let lines = 0;
  try {
    lines = await scanRange(input.path, input.start, input.end, 0, col, (got) => {
      input.bytesDone[input.part] += got;
    });
  } catch (e) {
    if (e instanceof QuoteInPart) return { quote: true };
    error = partError(e);
  }
  return { quote: false, state: col.partState(), error, lines };
}
