/**
 * TREC run and qrels files, and the detection of every ranking file's format by its shape.
 *
 * - Run: `qid Q0 docno rank score tag`, whitespace-separated, no header. As trec_eval does, the
 *   rank column is ignored: a query's documents are ordered by score descending, ties broken by
 *   docno in *descending* string order (trec_eval's `comp_sim_docno`:
 *   `strcmp(ptr2->docno, ptr1->docno)`). Ids compare in the byte order of their UTF-8 text, as
 *   strcmp does ({@link compareUtf8}).
 * - Qrels: `qid iter docno rel`, whitespace-separated; the iter column is ignored; rel ≤ 0 is not
 *   relevant (negative grades give a warning).
 */
import { open } from 'node:fs/promises';
import { compareUtf8 } from './utf8Order';
import { extname } from 'node:path';
import { fail } from '../../diagnostics';
import { FloatVec, IntVec, keyOffsets, ListBuilder, RelBuilder } from './builders';
import type { RankingReadContext, RunRead } from './jsonl';
import { forEachLine } from './lines';
import { failToOpen } from '../tableSink';

export type RankingFileFormat = 'jsonl' | 'csv' | 'tsv' | 'parquet' | 'trec-run' | 'qrels';

/** Splits on runs of spaces/tabs, dropping empty fields. */
export function splitWs(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = line.length;
  while (i < n) {
    while (i < n && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
    if (i >= n) break;
    const s = i;
    while (i < n && line.charCodeAt(i) !== 32 && line.charCodeAt(i) !== 9) i++;
    out.push(line.slice(s, i));
  }
  return out;
}

const INT = /^[+-]?\d+$/;
const NUM = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The whitespace-separated fields of a line of `layout`, which has `count` of them; else a `bad-row` error. */
function trecFields(line: string, count: number, layout: string, file: string, lineNo: number): string[] {
  const f = splitWs(line);
  if (f.length !== count)
    fail('bad-row', { file, line: lineNo }, `expected ${layout} (${count} fields), got ${f.length} field(s).`);
  return f;
}

/** Field `index` of a TREC line as a finite number; else a `bad-value` error in `column` saying what was `expected`. */
function trecNumber(
  f: string[],
  index: number,
  column: string,
  expected: string,
  file: string,
  lineNo: number,
): number {
  const v = Number(f[index]);
  if (!NUM.test(f[index]) || !Number.isFinite(v))
    fail('bad-value', { file, line: lineNo, column }, `expected ${expected} (field ${index + 1}), got "${f[index]}".`);
  return v;
}

/** A TREC file's line layout: its whitespace-separated fields, and the one that holds a number. */
interface TrecLayout {
  /** The layout as a message names it. */
  text: string;
  fields: number;
  /** The number's field (0-based), its name in a message and what it must be. */
  number: { at: number; column: string; expected: string };
  /** The progress stage while reading such a file. */
  stage: string;
}

const RUN_LAYOUT: TrecLayout = {
  text: 'a TREC run line "qid Q0 docno rank score tag"',
  fields: 6,
  number: { at: 4, column: 'score', expected: 'a finite number as the score' },
  stage: 'reading run',
};

const QRELS_LAYOUT: TrecLayout = {
  text: 'a qrels line "qid iter docno rel"',
  fields: 4,
  number: { at: 3, column: 'rel', expected: 'a number as the relevance' },
  stage: 'reading qrels',
};

/**
 * Calls `row` with the fields and the number of each non-blank line of a TREC file of `layout` (a
 * line of another shape is a `bad-row` or `bad-value` error naming it); returns how many lines it read.
 */
async function forEachTrecLine(
  path: string,
  label: string,
  ctx: RankingReadContext,
  layout: TrecLayout,
  row: (f: string[], value: number, lineNo: number) => void,
): Promise<number> {
  const { at, column, expected } = layout.number;
  let rows = 0;
  await forEachLine(
    path,
    (line, lineNo) => {
      if (line.trim() === '') return;
      const f = trecFields(line, layout.fields, layout.text, label, lineNo);
      const value = trecNumber(f, at, column, expected, label, lineNo);
      rows++;
      row(f, value, lineNo);
    },
    { progress: ctx.progress, stage: layout.stage, label },
  );
  return rows;
}

/** The shape of one line: a TREC run line, a qrels line, or neither. */
export function trecShapeOf(line: string): 'trec-run' | 'qrels' | null {
  if (line.includes(',')) return null;
  const f = splitWs(line);
  if (f.length === 6 && INT.test(f[3]) && NUM.test(f[4])) return 'trec-run';
  if (f.length === 4 && NUM.test(f[3]) && (INT.test(f[1]) || f[1] === 'Q0')) return 'qrels';
  return null;
}

/**
 * The format of a ranking file: `.jsonl`/`.ndjson` and `.parquet`/`.pq` by name; otherwise by the first non-empty line:
 * `{` → JSONL, a TREC run or qrels shape → that, else CSV (TSV when the line has tabs and no commas).
 */
export async function sniffRankingFormat(path: string, label: string): Promise<RankingFileFormat> {
  const ext = extname(path).toLowerCase();
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  if (ext === '.parquet' || ext === '.pq') return 'parquet';
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    return failToOpen(label, e);
  }
  let text: string;
  try {
    const buf = Buffer.alloc(65536);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    text = buf.toString('utf8', 0, bytesRead).replace(/^\uFEFF/, '');
  } finally {
    await fh.close();
  }
  const first = text
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .find((l) => l.trim() !== '');
  if (first === undefined) return fail('empty-file', { file: label }, 'expected ranking data, got an empty file.');
  if (first.trimStart().startsWith('{')) return 'jsonl';
  const shape = trecShapeOf(first);
  if (shape) return shape;
  if (ext === '.tsv' || (first.includes('\t') && !first.includes(','))) return 'tsv';
  return 'csv';
}

/** Reads a TREC run into lists (order: score desc, docno desc on ties, as trec_eval). */
export async function readTrecRun(path: string, label: string, ctx: RankingReadContext): Promise<RunRead> {
  const qUser = new IntVec(1 << 16);
  const qDoc = new IntVec(1 << 16);
  const qScore = new FloatVec(1 << 16);
  const qLine = new IntVec(1 << 16);
  const rows = await forEachTrecLine(path, label, ctx, RUN_LAYOUT, (f, score, lineNo) => {
    qUser.push(ctx.users.intern(f[0]));
    qDoc.push(ctx.items.intern(f[2]));
    qScore.push(score);
    qLine.push(lineNo);
  });
  if (rows === 0)
    fail('empty-file', { file: label }, 'expected TREC run lines "qid Q0 docno rank score tag", got none.');
  const lists = groupAndOrder(qUser.toArray(), qDoc.toArray(), qScore.toArray(), qLine.toArray(), ctx, 'trec');
  return {
    lists,
    rel: null,
    rows,
    columns: { user: 'qid (field 1)', item: 'docno (field 3)', score: 'score (field 5)' },
  };
}

/**
 * Groups rows by user (users in order of first appearance) and orders each user's items:
 * `trec` — score descending, docno descending on ties (trec_eval); `score` — score descending,
 * file order on ties; `rank` — rank ascending, file order on ties.
 */
export function groupAndOrder(
  users: Int32Array,
  items: Int32Array,
  values: Float64Array,
  lines: Int32Array,
  ctx: RankingReadContext,
  order: 'trec' | 'score' | 'rank',
): ListBuilder {
  const n = users.length;
  const nUsers = ctx.users.size;
  const offsets = keyOffsets(users, n, nUsers);
  const fill = offsets.slice(0, nUsers);
  const rowsByUser = new Int32Array(n);
  for (let i = 0; i < n; i++) rowsByUser[fill[users[i]]++] = i;
  const firstRow = new Int32Array(nUsers).fill(-1);
  const userOrder: number[] = [];
  for (let i = 0; i < n; i++)
    if (firstRow[users[i]] < 0) {
      firstRow[users[i]] = i;
      userOrder.push(users[i]);
    }
  const names = ctx.items.ids;
  const cmp =
    order === 'rank'
      ? (a: number, b: number) => values[a] - values[b] || a - b
      : order === 'score'
        ? (a: number, b: number) => values[b] - values[a] || a - b
        : (a: number, b: number) => {
            const d = values[b] - values[a];
            if (d !== 0) return d;
            return compareUtf8(names[items[b]], names[items[a]]) || a - b;
          };
  const lb = new ListBuilder(n);
  for (const u of userOrder) {
    const slice = Array.from(rowsByUser.subarray(offsets[u], offsets[u + 1]));
    slice.sort(cmp);
    lb.begin(u, lines[firstRow[u]]);
    for (const r of slice) lb.item(items[r]);
    lb.end();
  }
  return lb;
}

/** Reads TREC qrels `qid iter docno rel` into a relevance builder. */
export async function readQrels(
  path: string,
  label: string,
  ctx: RankingReadContext,
): Promise<{ rel: RelBuilder; rows: number }> {
  const rel = new RelBuilder();
  const rows = await forEachTrecLine(path, label, ctx, QRELS_LAYOUT, (f, g, lineNo) =>
    rel.add(ctx.users.intern(f[0]), ctx.items.intern(f[2]), g, lineNo),
  );
  return { rel, rows };
}
