/**
 * A fast streaming line reader for the ranking inputs (JSONL runs of 100+ MB, TREC files, long
 * CSV). Reads the file in large chunks, cuts at the last newline of each chunk (so a multi-byte
 * UTF-8 character is never split), decodes once per chunk and hands out the lines with their
 * 1-based physical line numbers. `\r\n` and `\n` endings are accepted; a UTF-8 byte-order mark
 * at the start is dropped. Empty lines are passed on (callers decide whether they are allowed).
 */
import { open } from 'node:fs/promises';
import { checkCancelled, fail, type Progress } from '../../diagnostics';
import { failToOpen } from '../tableSink';

const CHUNK = 1 << 22;

export type LineSink = (line: string, lineNo: number) => void;

/**
 * Calls `sink` for every line of `path` (the last line even without a final newline; a file
 * ending in a newline has no extra empty line; a trailing `\r` and a leading BOM are dropped).
 * Returns the number of lines. The text form of {@link forEachLineBytes}.
 */
export async function forEachLine(
  path: string,
  sink: LineSink,
  opts: { progress?: Progress; stage?: string; label?: string } = {},
): Promise<number> {
  return forEachLineBytes(path, (buf, start, end, lineNo) => sink(buf.toString('utf8', start, end), lineNo), opts);
}

/**
 * Splits one CSV/TSV line into cells. Quoted cells (RFC 4180: `"a,b"`, `""` for a quote) are
 * handled; a quote left open at the end of the line is an error (ids in ranking files never span
 * lines). Cells are trimmed of surrounding spaces outside quotes.
 */
export function splitDelimited(line: string, delim: string, file: string, lineNo: number): string[] {
  if (line.indexOf('"') < 0) {
    const cells = line.split(delim);
    for (let i = 0; i < cells.length; i++) cells[i] = cells[i].trim();
    return cells;
  }
  const out: string[] = [];
  let i = 0;
  const n = line.length;
  for (;;) {
    while (i < n && line[i] === ' ') i++;
    if (line[i] === '"') {
      let s = '';
      i++;
      for (;;) {
        if (i >= n)
          fail('bad-row', { file, line: lineNo }, 'expected a closing quote before the end of the line, got none.');
        const c = line[i];
        if (c === '"') {
          if (line[i + 1] === '"') {
            s += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        s += c;
        i++;
      }
      while (i < n && line[i] === ' ') i++;
      out.push(s);
      if (i >= n) return out;
      if (line[i] !== delim)
        fail('bad-row', { file, line: lineNo }, `expected "${delim}" after a quoted cell, got "${line[i]}".`);
      i++;
    } else {
      const e = line.indexOf(delim, i);
      const end = e < 0 ? n : e;
      out.push(line.slice(i, end).trim());
      if (e < 0) return out;
      i = e + 1;
      if (i === n) {
        out.push('');
        return out;
      }
    }
  }
}

/** `\t` when the header line has a tab and no comma, else `,`. */
export function delimiterOf(header: string): string {
  return header.includes('\t') && !header.includes(',') ? '\t' : ',';
}

/** Receives one line as a byte range `[start, end)` of `buf` (no newline, no trailing `\r`). */
export type ByteLineSink = (buf: Buffer, start: number, end: number, lineNo: number) => void;

/**
 * Like {@link forEachLine} but hands out byte ranges, so a caller that scans bytes (the JSONL and
 * CSV fast paths) never pays for decoding. A UTF-8 byte-order mark at the start is skipped.
 * `onBytes` sees every byte of the file once, in order, as read (e.g. to hash the file while it is
 * parsed instead of reading it a second time).
 */
export async function forEachLineBytes(
  path: string,
  sink: ByteLineSink,
  opts: { progress?: Progress; stage?: string; label?: string; onBytes?: (bytes: Buffer) => void } = {},
): Promise<number> {
  const label = opts.label ?? path;
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    failToOpen(label, e);
  }
  try {
    const size = (await fh.stat()).size;
    let buf = Buffer.allocUnsafe(CHUNK);
    let have = 0;
    let lineNo = 0;
    let pos = 0;
    let first = true;
    let eof = false;
    while (!eof) {
      if (have === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, have);
        buf = bigger;
      }
      const { bytesRead } = await fh.read(buf, have, buf.length - have, pos);
      pos += bytesRead;
      if (bytesRead === 0) eof = true;
      else opts.onBytes?.(buf.subarray(have, have + bytesRead));
      const limit = have + bytesRead;
      let start = 0;
      if (first && limit >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) start = 3;
      first = false;
      for (;;) {
        let nl = buf.indexOf(10, start);
        if (nl < 0 || nl >= limit) {
          if (!eof) break;
          if (start >= limit) break;
          nl = limit;
        }
        const end = nl > start && buf[nl - 1] === 13 ? nl - 1 : nl;
        sink(buf, start, end, ++lineNo);
        start = nl + 1;
        if (start >= limit) break;
      }
      have = Math.max(0, limit - start);
      if (have > 0 && start > 0) buf.copy(buf, 0, start, limit);
      opts.progress?.report?.(opts.stage ?? 'reading', pos / Math.max(1, size));
      checkCancelled(opts.progress);
    }
    return lineNo;
  } finally {
    await fh.close();
  }
}
