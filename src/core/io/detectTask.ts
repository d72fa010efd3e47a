/**
 * Which task a file is, when the config does not say (`task`). Peeks at the first 64 KiB only.
 *
 * Rule, first match wins:
 * 1. `config.task` when set.
 * 2. JSONL/JSON: the first row object has an `items` key → `ranking` (one user a line); a `stratum`
 *    key → `iw-binary`; both `user` and `item` keys → `ranking` (long format). For a `.json` file
 *    whose first row is not within the peek, the same keys are looked for as `"key":` in the text.
 * 3. Any other extension: a first non-blank line of exactly 6 whitespace-separated fields whose 4th
 *    and 5th are numbers (`qid Q0 doc rank score tag`) → `ranking` (TREC run).
 * 4. CSV/TSV header: a `stratum` column (alias or `columns.stratum`) → `iw-binary`; `user` and `item`
 *    columns → `ranking` (long format).
 * 5. Parquet: the same rule on the schema's column names (an `items` list column → `ranking`).
 *    NumPy `.npz`: `classification` (score matrices).
 * 6. Otherwise `classification`.
 */
import { open } from 'node:fs/promises';
import Papa from 'papaparse';
import type { EvalConfig, Task } from '../config/types';
import { cannotOpen } from './table';
import { formatOf } from './format';
import { findColumn } from './columns';

const PEEK = 64 * 1024;

async function peek(path: string): Promise<string> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    throw cannotOpen(path, e);
  }
  try {
    const buf = Buffer.alloc(PEEK);
    const { bytesRead } = await fh.read(buf, 0, PEEK, 0);
    let text = buf.toString('utf8', 0, bytesRead);
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return text;
  } catch (e) {
    throw cannotOpen(path, e);
  } finally {
    await fh.close();
  }
}

function taskOfKeys(keys: string[], config: EvalConfig): Task | null {
  const lower = keys.map((k) => k.toLowerCase());
  if (lower.includes('items')) return 'ranking';
  if (findColumn(keys, 'stratum', config) >= 0) return 'iw-binary';
  if (findColumn(keys, 'user', config) >= 0 && findColumn(keys, 'item', config) >= 0) return 'ranking';
  return null;
}

function firstObjectKeys(text: string, format: 'jsonl' | 'json'): string[] | null {
  if (format === 'jsonl') {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const o = JSON.parse(line) as unknown;
        return o && typeof o === 'object' && !Array.isArray(o) ? Object.keys(o) : null;
      } catch {
        return null;
      }
    }
    return null;
  }
  try {
    const doc = JSON.parse(text) as unknown;
    if (Array.isArray(doc)) {
      const o = doc[0] as unknown;
      return o && typeof o === 'object' && !Array.isArray(o) ? Object.keys(o) : null;
    }
    return doc && typeof doc === 'object' ? Object.keys(doc) : null;
  } catch {
    // Larger than the peek: look for the keys as text.
    const keys: string[] = [];
    for (const k of ['items', 'stratum', 'user', 'item']) if (new RegExp(`"${k}"\\s*:`, 'i').test(text)) keys.push(k);
    return keys;
  }
}

function isTrecRunLine(line: string): boolean {
  const f = line.trim().split(/\s+/);
  return f.length === 6 && f[3] !== '' && Number.isFinite(Number(f[3])) && Number.isFinite(Number(f[4]));
}

export async function detectTask(path: string, config: EvalConfig): Promise<Task> {
  if (config.task) return config.task;
  const format = formatOf(path);
  if (format === 'npz') return 'classification';
  if (format === 'parquet') {
    // loaded for a Parquet file only, as readTable loads its reader
    const { parquetColumnNames, readParquetMetadata } = await import('./parquet');
    return taskOfKeys(parquetColumnNames(await readParquetMetadata(path)), config) ?? 'classification';
  }
  const text = await peek(path);
  if (format === 'jsonl' || format === 'json') {
    const keys = firstObjectKeys(text, format);
    return (keys && taskOfKeys(keys, config)) ?? 'classification';
  }
  const firstLine = text.split('\n').find((l) => l.trim() !== '') ?? '';
  if (format === null) return isTrecRunLine(firstLine) ? 'ranking' : 'classification';
  if (isTrecRunLine(firstLine) && format === 'tsv') return 'ranking';
  const header =
    Papa.parse<string[]>(firstLine.replace(/\r$/, ''), { delimiter: format === 'tsv' ? '\t' : ',' }).data[0] ?? [];
  return (
    taskOfKeys(
      header.map((h) => h.trim()),
      config,
    ) ?? 'classification'
  );
}
