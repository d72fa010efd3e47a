// Shared helpers of the io tests: temporary input files with exact bytes, and a collecting sink.
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { Cell } from '../../../src/core/data/textColumn';
import type { TableSink } from '../../../src/core/io/table';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-io-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let k = 0;
/** Writes `content` (exact bytes) to a fresh file named `name` in a temp folder; returns its path. */
export function tmpFile(name: string, content: string | Buffer): string {
  const sub = join(dir, String(k++));
  mkdirSync(sub, { recursive: true });
  const p = join(sub, name);
  writeFileSync(p, content);
  return p;
}

export interface Collected {
  names: string[];
  rows: Cell[][];
  lines: number[];
}

export function collector(): TableSink & Collected {
  const c: TableSink & Collected = {
    names: [],
    rows: [],
    lines: [],
    columns(n) {
      c.names = n;
    },
    row(cells, line) {
      c.rows.push(cells);
      c.lines.push(line);
    },
  };
  return c;
}
