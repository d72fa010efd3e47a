// A train-counts file named by a relative path that leaves the config's folder is accepted when it
// stays inside the workspace root given to evaluateFile, and refused when it does not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../src/core/evaluate';
import { EvalLensError } from '../../../src/core/diagnostics';

function workspace(): { root: string; preds: string } {
  const root = mkdtempSync(join(tmpdir(), 'eval-lens-root-'));
  mkdirSync(join(root, 'runs'));
  writeFileSync(join(root, 'counts.json'), '[30, 10, 2]');
  writeFileSync(
    join(root, 'runs', 'eval-lens.json'),
    JSON.stringify({ trainCounts: '../counts.json', bootstrap: { n: 0 } }),
  );
  const preds = join(root, 'runs', 'preds.csv');
  writeFileSync(preds, 'label,prob_0,prob_1,prob_2\n0,0.7,0.2,0.1\n1,0.2,0.5,0.3\n2,0.5,0.3,0.2\n');
  return { root, preds };
}

test('config paths may leave the config folder but not the workspace root', async () => {
  const { root, preds } = workspace();
  const r = await evaluateFile(preds, { root });
  // n = [30, 10, 2]: weighted accuracy = (30·1 + 10·1 + 2·0) / (30 + 10 + 2)
  assert.equal(r.metrics.weighted_accuracy.value, 40 / 42);
  await assert.rejects(
    evaluateFile(preds, { root: join(root, 'runs') }),
    (e: unknown) => e instanceof EvalLensError && /trainCounts/.test(e.message),
  );
});
