// compareFiles: prediction files evaluated, *.eval.json read back, the config's compare section used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareFiles, isResultsPath } from '../../../../src/core/compare/files';
import { evaluateFile } from '../../../../src/core/evaluate';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-compare-files-'));

function writeRun(name: string, wrong: number[]): string {
  const lines = ['id,label,pred'];
  for (let i = 0; i < 12; i++) lines.push(`u${i},${i % 2},${wrong.includes(i) ? 1 - (i % 2) : i % 2}`);
  const p = join(dir, name);
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
}

test('a *.eval.json and a prediction file compare like two prediction files', async () => {
  const a = writeRun('a.csv', [0, 1, 2, 3]);
  const b = writeRun('b.csv', [0]);
  const evalA = join(dir, 'a.eval.json');
  writeFileSync(evalA, JSON.stringify(await evaluateFile(a, { overrides: { bootstrap: { n: 0 } } })));
  const both = await compareFiles([a, b], { metrics: ['accuracy'], bootstrap: { n: 0, confidence: 0.95, seed: 0 } });
  const mixed = await compareFiles([evalA, b], {
    metrics: ['accuracy'],
    bootstrap: { n: 0, confidence: 0.95, seed: 0 },
  });
  assert.equal(both.tests[0].t, mixed.tests[0].t);
  assert.equal(mixed.table[evalA].accuracy, 8 / 12);
  assert.equal(mixed.table[b].accuracy, 11 / 12);
  assert.deepEqual(mixed.names, ['a', 'b']);
  assert.equal(mixed.tests[0].improvement, (11 / 12 - 8 / 12) / (8 / 12));
});

test("the config's compare section gives baseline, metrics and directions; the baseline's bootstrap the CI", async () => {
  const a = writeRun('c1.csv', [0, 1, 2, 3, 5]);
  const b = writeRun('c2.csv', [1, 3]);
  const cfg = join(dir, 'cmp.json');
  writeFileSync(
    cfg,
    JSON.stringify({
      bootstrap: { n: 300, seed: 5 },
      compare: { baseline: 'c2.csv', metrics: ['accuracy'], directions: { accuracy: 'lower' } },
    }),
  );
  const r = await compareFiles([a, b], { configPath: cfg });
  assert.equal(r.baseline, b);
  assert.deepEqual(r.metrics, ['accuracy']);
  // Two runs: only the better one is marked.
  assert.deepEqual(r.marks.accuracy, { [a]: 1 });
  assert.deepEqual(r.settings.bootstrap, { n: 300, confidence: 0.95, seed: 5 });
  assert.ok(Array.isArray(r.tests[0].ci_diff));
});

test('isResultsPath', () => {
  assert.equal(isResultsPath('x/preds.eval.json'), true);
  assert.equal(isResultsPath('x/preds.json'), false);
});
