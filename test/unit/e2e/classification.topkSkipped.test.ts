// top-k accuracy with k not smaller than the number of classes is skipped, with one note for all such k.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../src/core/evaluate';

test('top-k with k >= classes: no metric, one note naming every such k', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-topk-'));
  writeFileSync(join(dir, 'preds.csv'), 'label,prob_a,prob_b,prob_c\na,0.7,0.2,0.1\nb,0.5,0.3,0.2\nc,0.1,0.1,0.8\n');
  writeFileSync(join(dir, 'eval-lens.json'), JSON.stringify({ topK: [2, 3, 5], bootstrap: { n: 20 } }));
  const r = await evaluateFile(join(dir, 'preds.csv'));
  // Row b has rank 2 (0.5 > 0.3): a top-2 hit; all three rows are top-2 hits.
  assert.equal(r.metrics.top2_accuracy?.value, 1);
  assert.equal(r.metrics.top3_accuracy, undefined);
  assert.equal(r.metrics.top5_accuracy, undefined);
  const notes = r.warnings.filter((w) => w.code.startsWith('topk') || /top-k|top\d+_accuracy/.test(w.message));
  assert.equal(notes.length, 1, JSON.stringify(r.warnings));
  assert.equal(notes[0]!.code, 'topk-skipped');
  assert.match(notes[0]!.message, /k = 3, 5: with 3 classes/);
});
