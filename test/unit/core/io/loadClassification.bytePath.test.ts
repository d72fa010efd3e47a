// The byte path of quote-free CSV/TSV lines (class scores stored by the scanner, labels and
// predictions looked up from their bytes, one pass over each row's scores) against the general
// path (every cell a string, through papaparse and the cell rules), on random files full of odd
// spellings: exponents, signs, spaces, NaN/inf text, more than 15 digits, out-of-range and
// just-in-range probabilities, labels written as `1.0` or with spaces, empty cells, ragged rows,
// blank lines, CRLF, a BOM — in error and skip mode. Same data, same warnings, same first error;
// and the file read in parts on worker threads gives the same again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EvalLensError, Warnings } from '../../../../src/core/diagnostics';
import type { EvalConfig } from '../../../../src/core/config/types';
import { ClassificationCollector } from '../../../../src/core/io/classificationCollector';
import { loadClassification } from '../../../../src/core/io/loadClassification';
import type { ParallelReadOptions } from '../../../../src/core/io/parallelClassification';
import { readTable } from '../../../../src/core/io/table';
import { createRng, type Rng } from '../../../../src/core/stats/rng';
import { bundledWorker } from '../../helpers/bundledWorker';
import { tmpFile } from '../../helpers/io';
import { configOf } from '../../helpers/ioConfig';

const workerFile = bundledWorker('src/core/io/classificationReadWorker.ts');

/** Typed arrays as plain arrays, so that deepEqual compares values. */
function plain(o: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(o).map(([k, v]) => [
      k,
      ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : (v as unknown),
    ]),
  );
}

async function settle(read: (w: Warnings) => Promise<object>): Promise<unknown> {
  const warnings = new Warnings();
  try {
    return { data: plain(await read(warnings)), warnings: warnings.list };
  } catch (e) {
    if (!(e instanceof EvalLensError)) throw e;
    return { error: { code: e.code, message: e.message, location: e.location, problems: e.problems } };
  }
}

/** The general path: every cell a string (no byte rows). */
function generalPath(path: string, cfg: EvalConfig): Promise<unknown> {
  return settle(async (w) => {
    const format = path.endsWith('.tsv') ? 'tsv' : 'csv';
    const col = new ClassificationCollector(path, configOf(cfg), format, 16);
    await readTable(path, col, {
      format,
      onRagged: (line, got, expected) => col.endRaggedRow(line, got, expected),
      byteRows: () => undefined,
    });
    return col.finish(w);
  });
}

function bytePath(path: string, cfg: EvalConfig, parallel: ParallelReadOptions): Promise<unknown> {
  return settle(async (w) => (await loadClassification(path, configOf(cfg), w, undefined, {}, parallel)).data);
}

function pick<T>(rng: Rng, xs: readonly T[]): T {
  return xs[rng.int(xs.length)];
}

/** A number as a file may spell it (each spelling's value is the number, or close to it). */
function spell(rng: Rng, v: number): string {
  switch (rng.int(8)) {
    case 0:
      return String(v);
    case 1:
      return v.toExponential(rng.int(10));
    case 2:
      return v.toPrecision(1 + rng.int(17)); // more than 15 digits: the slow way
    case 3:
      return v.toExponential(rng.int(6)).replace('e', 'E');
    case 4:
      return ` ${v.toFixed(6)}`;
    case 5:
      return v === 0 ? '-0' : `+${v.toFixed(4)}`;
    case 6:
      return v.toFixed(9).replace(/^0\./, '.');
    default:
      return v.toFixed(1 + rng.int(8));
  }
}

// (`1,5` in a CSV is two cells: a ragged row)
const BAD_SCORES = ['NaN', 'nan', 'inf', '-Infinity', '', 'x', '1.5', '-0.01', '1e400', '0x10', '1,5', '1.0000011'];
/** Probabilities at the edges of the accepted range (within 1e-6 of [0, 1]), in unusual spellings. */
const EDGE_PROBS = ['1.0000001', '-1e-9', '1.000001', '-0.000001', '1e-300', '0e5', '5e-1', '0.1234567890123456789'];

function randomFile(seed: number): { text: string; name: string; cfg: EvalConfig } {
  const rng = createRng(seed);
  const C = 2 + rng.int(4);
  const numeric = rng.next() < 0.5;
  const classes = Array.from({ length: C }, (_, c) => (numeric ? String(c) : `c${c}`));
  const logits = rng.next() < 0.3;
  const withPred = rng.next() < 0.6;
  const withId = rng.next() < 0.5;
  const tsv = rng.next() < 0.25;
  const delim = tsv ? '\t' : ',';
  const badRate = pick(rng, [0, 0, 0, 0.02, 0.1, 0.5]);
  const bad = (): boolean => rng.next() < badRate;
  const cfg: EvalConfig = { invalidRows: rng.next() < 0.5 ? 'skip' : 'error' };
  if (rng.next() < 0.3) cfg.classes = classes;
  cfg.score = pick(rng, [undefined, 'msp', 'margin', 'entropy'] as const);

  const head = ['label'];
  if (withPred) head.push('pred');
  for (const c of classes) head.push(`${logits ? 'logit' : 'prob'}_${c}`);
  if (withId) head.push('id');
  const lines = [head.join(delim)];
  const n = 20 + rng.int(300);
  const label = (): string => {
    const c = pick(rng, classes);
    if (!bad()) return pick(rng, [c, c, c, ` ${c}`, numeric ? `${c}.0` : c, numeric ? `${c}e0` : c]);
    return pick(rng, ['', 'zzz', ' ', numeric ? '01' : 'C0', numeric ? String(C) : 'c']);
  };
  for (let i = 0; i < n; i++) {
    if (rng.next() < 0.03) lines.push(pick(rng, ['', '  ', ' \r', delim === ',' ? '\t' : ' ']));
    const cells = [label()];
    if (withPred) cells.push(label());
    const raw = classes.map(() => rng.next());
    const sum = raw.reduce((s, x) => s + x, 0);
    const off = rng.next() < 0.05 ? 1.2 : 1;
    for (const x of raw) {
      if (bad()) cells.push(pick(rng, BAD_SCORES));
      else if (!logits && rng.next() < 0.02) cells.push(pick(rng, EDGE_PROBS));
      else cells.push(spell(rng, logits ? (x - 0.5) * 20 : (x / sum) * off));
    }
    if (withId) cells.push(`r${rng.int(n)}`);
    if (bad() && rng.next() < 0.3) {
      if (rng.next() < 0.5) cells.push('extra');
      else cells.pop();
    }
    lines.push(cells.join(delim));
  }
  const crlf = pick(rng, ['never', 'always', 'some'] as const);
  let text = '';
  for (const l of lines) text += l + (crlf === 'always' || (crlf === 'some' && rng.next() < 0.5) ? '\r\n' : '\n');
  if (rng.next() < 0.3) text = text.replace(/\r?\n$/, '');
  if (rng.next() < 0.15) text = '\ufeff' + text;
  return { text, name: tsv ? 'b.tsv' : 'b.csv', cfg };
}

test('byte path = general path = parts on worker threads, on random files with odd spellings and bad cells', async () => {
  let errors = 0;
  let skipped = 0;
  let clean = 0;
  for (let seed = 1; seed <= 80; seed++) {
    const f = randomFile(seed);
    const path = tmpFile(f.name, f.text);
    const general = await generalPath(path, f.cfg);
    const onePass = await bytePath(path, f.cfg, { minBytes: Infinity });
    assert.deepEqual(onePass, general, `seed ${seed}: one pass`);
    if (seed % 4 === 0) {
      // (a worker costs tens of milliseconds to start: on every fourth file)
      const parts = await bytePath(path, f.cfg, { minBytes: 0, threads: 2, pieces: 2 + (seed % 3), workerFile });
      assert.deepEqual(parts, general, `seed ${seed}: parts`);
    }
    const g = general as { error?: unknown; warnings?: { code: string }[] };
    if (g.error) errors++;
    else if (g.warnings!.some((w) => w.code === 'rows-skipped')) skipped++;
    else clean++;
  }
  // the cases cover errors, skipped rows and clean files
  assert.ok(errors >= 10, `errors ${errors}`);
  assert.ok(skipped >= 10, `skipped ${skipped}`);
  assert.ok(clean >= 10, `clean ${clean}`);
});

test('labels and predictions from bytes: every spelling of a class, many more spellings than remembered', async () => {
  // 3 classes named by numbers; each row spells its label differently (up to 400 spellings of
  // class 1 as 1, 1.0, 1.00, …): the classes are those of the general path, row by row.
  const rows = ['label,pred,prob_0,prob_1,prob_2'];
  for (let i = 0; i < 400; i++)
    rows.push(`${i % 2 ? `1.${'0'.repeat(i % 200)}` : '2'},${i % 3 ? '0' : ' 0 '},0.2,0.3,0.5`);
  const path = tmpFile('s.csv', rows.join('\n') + '\n');
  const general = await generalPath(path, {});
  const fast = await bytePath(path, {}, { minBytes: Infinity });
  assert.deepEqual(fast, general);
  const data = (fast as { data: { labels: number[]; preds: number[]; classes: string[] } }).data;
  assert.deepEqual(data.classes, ['0', '1', '2']);
  assert.deepEqual(
    data.labels,
    Array.from({ length: 400 }, (_, i) => (i % 2 ? 1 : 2)),
  );
  assert.deepEqual(data.preds, new Array(400).fill(0));
});

test('skip mode: a ragged row right after an invalid row is dropped and listed, on both paths', async () => {
  // line 3 has an invalid probability, line 4 a missing field; the quote on line 5 sends the lines
  // from there on through the general path, where line 7 follows invalid line 6
  const body = 'label,prob_a,prob_b\na,0.5,0.5\na,x,0.5\nb,0.5\n"a",0.5,0.5\nb,0.5,y\na,0.5\nb,0.1,0.9\n';
  const path = tmpFile('r.csv', body);
  const w = new Warnings();
  const { data } = await loadClassification(path, configOf({ invalidRows: 'skip' }), w);
  assert.deepEqual(Array.from(data.lines), [2, 5, 8]);
  const [skipped] = w.list.filter((x) => x.code === 'rows-skipped');
  assert.equal(skipped.count, 4);
  assert.deepEqual(skipped.lines, [3, 4, 6, 7]);
  assert.deepEqual(await generalPath(path, { invalidRows: 'skip' }), await bytePath(path, { invalidRows: 'skip' }, {}));
});
