/**
 * Importance-weighted binary files: the row query's filters against a reference (prediction =
 * score ≥ threshold), subset evaluation equal to a file of only those rows, and slice values equal
 * to evaluating each slice's rows alone (a weight column fixes every row's importance weight).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../src/core/evaluate';
import { openInspection, parseWhere, type SliceMetricValue } from '../../../../src/core/inspect/index';
import { createRng } from '../../../../src/core/stats/rng';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-iw-inspect-'));
const HEADER = 'id,label,score,stratum,weight,source';
const SOURCES = ['web', 'news', 'forum'];

interface Row {
  line: number;
  text: string;
  label: number;
  score: number;
  stratum: string;
  weight: number;
  source: string;
}

function write(seed: number, n: number): { path: string; rows: Row[] } {
  const rng = createRng(seed);
  const rows: Row[] = [];
  for (let i = 0; i < n; i++) {
    const label = rng.next() < 0.3 ? 1 : 0;
    const score = Math.round(Math.min(1, Math.max(0, (label ? 0.65 : 0.35) + (rng.next() - 0.5) * 0.8)) * 100) / 100;
    const stratum = rng.next() < 0.4 ? 'B' : 'Bc';
    const weight = stratum === 'B' ? 0.5 : 1 + rng.int(4);
    const source = SOURCES[rng.int(3)];
    rows.push({
      line: i + 2,
      label,
      score,
      stratum,
      weight,
      source,
      text: `r${i},${label},${score},${stratum},${weight},${source}`,
    });
  }
  const path = join(dir, `iw-${seed}.csv`);
  writeFileSync(path, [HEADER, ...rows.map((r) => r.text)].join('\n') + '\n');
  writeFileSync(
    join(dir, 'eval-lens.json'),
    JSON.stringify({ task: 'iw-binary', threshold: 0.5, bootstrap: { n: 0 } }),
  );
  return { path, rows };
}

test('iw-binary filters equal the reference', async () => {
  const { path, rows } = write(1, 300);
  const ins = await openInspection(path);
  const pred = (r: Row) => (r.score >= 0.5 ? 1 : 0);
  const cases: [string, (r: Row) => boolean][] = [
    ['label=1', (r) => r.label === 1],
    ['pred=1', (r) => pred(r) === 1],
    ['correct=false', (r) => pred(r) !== r.label],
    ['stratum=B', (r) => r.stratum === 'B'],
    ['confidence>0.7 and label=0', (r) => r.score > 0.7 && r.label === 0],
    ['source=news and weight>=2', (r) => r.source === 'news' && r.weight >= 2],
    ['loss>1', (r) => -Math.log(Math.max(r.label ? r.score : 1 - r.score, 1e-15)) > 1],
  ];
  for (const [expr, keep] of cases) {
    const page = ins.query({ where: parseWhere(expr), offset: 0, limit: 1000 });
    assert.deepEqual(
      page.rows.map((r) => r.line),
      rows.filter(keep).map((r) => r.line),
      expr,
    );
  }
  const first = ins.query({ where: [], offset: 0, limit: 1 }).rows[0];
  assert.equal(first.kind, 'classification');
  if (first.kind === 'classification') {
    assert.deepEqual(first.columns, { source: rows[0].source });
    assert.equal(first.stratum, rows[0].stratum);
  }
});

test('iw-binary subset = a file of only those rows; slices = each slice evaluated alone', async () => {
  const { path, rows } = write(2, 600);
  const a = await evaluateFile(path, { subset: parseWhere('source!=forum'), overrides: { bootstrap: { n: 100 } } });
  const only = join(dir, 'only.csv');
  writeFileSync(only, [HEADER, ...rows.filter((r) => r.source !== 'forum').map((r) => r.text)].join('\n') + '\n');
  const b = await evaluateFile(only, { overrides: { bootstrap: { n: 100 } } });
  for (const k of Object.keys(b.metrics)) {
    assert.equal(a.metrics[k].value, b.metrics[k].value, k);
    assert.deepEqual(a.metrics[k].ci, b.metrics[k].ci, k);
  }
  const res = await evaluateFile(path, { overrides: { slices: ['source'], minSliceSize: 10 } });
  const table = res.tables.slices!;
  assert.equal(table.length, 3);
  for (const s of SOURCES) {
    const f = join(dir, `slice-${s}.csv`);
    writeFileSync(f, [HEADER, ...rows.filter((r) => r.source === s).map((r) => r.text)].join('\n') + '\n');
    const alone = await evaluateFile(f);
    const row = table.find((t) => t.value === s)!;
    for (const k of ['precision', 'recall', 'average_precision']) {
      assert.ok(Math.abs((row[k] as SliceMetricValue).value! - alone.metrics[k].value!) < 1e-12, `${s} ${k}`);
      assert.ok(
        Math.abs(row.diff[k].value! - (alone.metrics[k].value! - res.metrics[k].value!)) < 1e-12,
        `${s} diff ${k}`,
      );
    }
  }
  for (let i = 1; i < table.length; i++)
    assert.ok((table[i - 1].precision as SliceMetricValue).value! <= (table[i].precision as SliceMetricValue).value!);
});
