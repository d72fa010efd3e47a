/**
 * Text inputs are read as UTF-8. A UTF-16 or UTF-32 file (Windows tools and PowerShell's `>`
 * write UTF-16) would otherwise reach the readers as text with a NUL between every letter and
 * fail with a confusing message (no label column named `l\0a\0b\0e\0l`); it is named here instead.
 */
import { open } from 'node:fs/promises';
import { fail } from '../diagnostics';

/** The encoding of a byte order mark or of the NUL pattern of ASCII text, or null (UTF-8 or unknown). */
export function wideEncoding(head: Uint8Array): string | null {
  const b = head;
  if (b.length >= 4 && b[0] === 0x00 && b[1] === 0x00 && b[2] === 0xfe && b[3] === 0xff)
    return 'UTF-32 (big-endian, with a byte order mark)';
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xfe && b[2] === 0x00 && b[3] === 0x00)
    return 'UTF-32 (little-endian, with a byte order mark)';
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return 'UTF-16 (little-endian, with a byte order mark)';
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return 'UTF-16 (big-endian, with a byte order mark)';
  // ASCII text in a wide encoding without a mark: NUL bytes in a fixed pattern among the first bytes.
  const n = Math.min(b.length, 64) & ~3;
  if (n < 8) return null;
  const zeroAt = (k: number, step: number): boolean => {
    for (let i = k; i < n; i += step) if (b[i] !== 0) return false;
    return true;
  };
  const anyNonZero = (k: number, step: number): boolean => {
    for (let i = k; i < n; i += step) if (b[i] !== 0) return true;
    return false;
  };
  if (zeroAt(1, 4) && zeroAt(2, 4) && zeroAt(3, 4) && anyNonZero(0, 4)) return 'UTF-32 (little-endian)';
  if (zeroAt(0, 4) && zeroAt(1, 4) && zeroAt(2, 4) && anyNonZero(3, 4)) return 'UTF-32 (big-endian)';
  if (zeroAt(1, 2) && anyNonZero(0, 2)) return 'UTF-16 (little-endian)';
  if (zeroAt(0, 2) && anyNonZero(1, 2)) return 'UTF-16 (big-endian)';
  return null;
}

/** Fails with `not-utf8` when a text input is UTF-16 or UTF-32; unreadable files are left to the reader. */
export async function checkTextEncoding(path: string): Promise<void> {
  let head: Uint8Array;
  try {
    const fh = await open(path, 'r');
    try {
      const buf = new Uint8Array(64);
      const { bytesRead } = await fh.read(buf, 0, 64, 0);
      head = buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch {
    return;
  }
  const enc = wideEncoding(head);
  if (enc)
    fail(
      'not-utf8',
      { file: path, line: 1 },
      `the file is encoded as ${enc}; Eval Lens reads UTF-8. Save it as UTF-8 (in VS Code: "Save with Encoding" → UTF-8; with iconv: iconv -f ${iconvName(enc)} -t UTF-8).`,
    );
}

/**
 * iconv's name of a detected encoding. With a byte order mark the plain name lets iconv read the
 * mark; without one the byte order must be named (UTF-16LE, UTF-32BE, …).
 */
function iconvName(enc: string): string {
  const width = enc.startsWith('UTF-32') ? 'UTF-32' : 'UTF-16';
  if (enc.includes('byte order mark')) return width;
  return `${width}${enc.includes('little-endian') ? 'LE' : 'BE'}`;
}
