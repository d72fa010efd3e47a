/**
 * A slice is evaluated as if its rows (users) were a file of their own: for every task, a slice's
 * value of each key it reports equals that key's point estimate on a file holding only the slice's
 * rows — for a run ranked by a margin too, whose ECE bins the top-label probability (as the
 * calibration family does), not the margin.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../src/core/evaluate';
import type { SliceMetricValue, SliceRow } from '../../../../src/core/results/types';
import type { EvalConfig } from '../../../../src/core/config/types';
import { createRng } from '../../../../src/core/stats/rng';
import { closeAbs } from '../../helpers/numericClose';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-slice-subsets-'));
let files = 0;

function write(name: string, text: string): string {
  const path = join(dir, `${files++}-${name}`);
  writeFileSync(path, text);
  return path;
}

/** Each slice's value of every key it reports equals that key's point estimate on the slice's own file. */
async function checkAgainstSubsets(
  table: SliceRow[],
  keys: string[],
  subsetFile: (row: SliceRow) => string,
  overrides: EvalConfig,
): Promise<void> {
  assert.ok(table.length >= 2, 'several slices');
  for (const row of table) {
    const sub = await evaluateFile(subsetFile(row), { overrides });
    for (const key of keys) {
      const v = (row[key] as SliceMetricValue).value;
      const expected = sub.metrics[key]?.value ?? null;
      assert.ok(expected !== null, `${row.slice} = ${row.value}: the subset file has ${key}`);
      closeAbs(v, expected, 1e-12, `${row.slice} = ${row.value}: ${key}`);
    }
  }
}

test('classification: a slice value of every key equals the point estimate on the slice rows', async () => {
  const rng = createRng(7);
  const classes = ['a', 'b', 'c'];
  const cities = ['north', 'south', 'east'];
  const header = 'id,label,pred,prob_a,prob_b,prob_c,city';
  const lines: { city: string; line: string }[] = [];
  for (let i = 0; i < 360; i++) {
    const label = rng.int(3);
    const raw = classes.map((_, c) => 1 + rng.int(6) + (c === label ? rng.int(6) : 0));
    const s = raw.reduce((a, b) => a + b, 0);
    const p = raw.map((x) => x / s);
    const pred = p.indexOf(Math.max(...p));
    const city = cities[rng.int(3)]!;
    lines.push({ city, line: `r${i},${classes[label]},${classes[pred]},${p.join(',')},${city}` });
  }
  const file = (ls: typeof lines): string => write('cls.csv', [header, ...ls.map((l) => l.line)].join('\n') + '\n');
  // Ranked by the top-label probability, and by the margin (ECE then bins the top-label probability).
  for (const score of ['msp', 'margin'] as const) {
    const config: EvalConfig = { task: 'classification', classes, score, targetCoverage: 0.8, bootstrap: { n: 0 } };
    const res = await evaluateFile(file(lines), { overrides: { ...config, slices: ['city'], minSliceSize: 1 } });
    const table = res.tables.slices!;
    const keys = Object.keys(table[0]!.diff);
    assert.deepEqual(keys, ['accuracy', 'macro_f1', 'ece', 'aurc'], score);
    await checkAgainstSubsets(table, keys, (row) => file(lines.filter((l) => l.city === row.value)), config);
  }
});

test('importance-weighted binary: a slice value of every key equals the point estimate on the slice rows', async () => {
  const rng = createRng(8);
  const header = 'id,label,score,stratum,weight,city';
  const lines: { city: string; line: string }[] = [];
  for (let i = 0; i < 300; i++) {
    const label = rng.int(2);
    const score = Math.round((0.3 * label + 0.7 * rng.next()) * 20) / 20;
    const city = ['north', 'south'][rng.int(2)]!;
    const stratum = rng.next() < 0.3 ? 'B' : 'Bc';
    lines.push({ city, line: `r${i},${label},${score},${stratum},${1 + rng.int(4)},${city}` });
  }
  const file = (ls: typeof lines): string => write('iw.csv', [header, ...ls.map((l) => l.line)].join('\n') + '\n');
  // Row weights from the weight column: a file of the slice's rows weighs them alike.
  const config: EvalConfig = { task: 'iw-binary', threshold: 0.5, bootstrap: { n: 0 } };
  const res = await evaluateFile(file(lines), { overrides: { ...config, slices: ['city'], minSliceSize: 1 } });
  const table = res.tables.slices!;
  const keys = Object.keys(table[0]!.diff);
  assert.deepEqual(keys, ['precision', 'recall', 'average_precision']);
  await checkAgainstSubsets(table, keys, (row) => file(lines.filter((l) => l.city === row.value)), config);
});

test('ranking: a slice value of every key equals the point estimate on the slice users', async () => {
  const rng = createRng(9);
  const users: { relevant: number; line: string }[] = [];
  for (let u = 0; u < 90; u++) {
    const items = Array.from({ length: 6 }, (_, j) => `i${(u * 7 + j * 3 + rng.int(5)) % 40}`);
    const nRel = 1 + rng.int(3);
    const relevant = Object.fromEntries(Array.from({ length: nRel }, (_, j) => [`i${(u * 5 + j * 11) % 40}`, 1]));
    users.push({
      relevant: Object.keys(relevant).length,
      line: JSON.stringify({ user: `u${u}`, items: [...new Set(items)], relevant }),
    });
  }
  const file = (us: typeof users): string => write('run.jsonl', us.map((u) => u.line).join('\n') + '\n');
  const config: EvalConfig = { task: 'ranking', k: [2, 5], bootstrap: { n: 0 } };
  const res = await evaluateFile(file(users), { overrides: { ...config, slices: ['relevant'], minSliceSize: 1 } });
  const table = res.tables.slices!;
  const keys = Object.keys(table[0]!.diff);
  assert.deepEqual(keys, ['recall@2', 'ndcg@2', 'recall@5', 'ndcg@5']);
  await checkAgainstSubsets(table, keys, (row) => file(users.filter((u) => String(u.relevant) === row.value)), config);
});
