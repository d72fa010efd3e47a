// Calibration with a margin ranking, end to end: a file with class probabilities and `score:
// "margin"` ranks the rows by margin for the selective family, and the calibration family bins the
// top-label probability of the same rows (the reader keeps the probabilities for it), with
// bootstrap intervals; the results say which score each family used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runClassification } from '../../../../src/core/tasks/classification';
import type { TaskContext } from '../../../../src/core/tasks/types';
import { config, taskContext } from '../../helpers/classification';
import { closeRel as close } from '../../helpers/numericClose';

// (label, p_a, p_b): msp 0.9 (right), 0.8 (wrong), 0.6 (right), 0.55 (right);
// margins 0.8, 0.6, 0.2, 0.1 — the same order, so AURC is that of the msp order.
const CSV = ['label,p_a,p_b', 'a,0.9,0.1', 'b,0.8,0.2', 'b,0.4,0.6', 'a,0.55,0.45'].join('\n');

async function evaluate(extra: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'evallens-margin-calib-'));
  writeFileSync(join(dir, 'p.csv'), CSV);
  const ctx: TaskContext = {
    ...taskContext(config({ configFile: join(dir, 'eval-lens.json'), ...extra })),
    path: join(dir, 'p.csv'),
    baseDir: dir,
  };
  await runClassification(ctx);
  return ctx;
}

test('score "margin" with probabilities: ECE/MCE on the top-label probability, ranking by margin', async () => {
  const ctx = await evaluate({ score: 'margin', bootstrap: { n: 200, confidence: 0.95, seed: 0, stratified: false } });
  const m = ctx.results.metrics;
  // 15 bins: 0.9 → bin 13, 0.8 → bin 11, 0.6 → bin 8, 0.55 → bin 8.
  // ECE = (|1 − 0.9| + |0 − 0.8| + 2·|1 − 0.575|)/4 = (0.1 + 0.8 + 0.85)/4 = 0.4375; MCE = 0.8.
  close(m.ece.value!, 0.4375);
  close(m.mce.value!, 0.8);
  assert.ok(m.ece.ci, 'ece has a bootstrap interval');
  assert.match(m.ece.note!, /confidence = msp .*the risk–coverage ranking uses margin/);
  // AURC by margin: risks of the top 1..4 = 0, 1/2, 1/3, 1/4
  close(m.aurc.value!, (0 + 1 / 2 + 1 / 3 + 1 / 4) / 4);
  assert.match(m.aurc.note!, /score: margin/);
  assert.deepEqual(ctx.results.tables.scoresUsed, {
    selective: 'margin (top-1 − top-2 probability)',
    calibration:
      'msp (max probability, the top-label confidence; the risk–coverage ranking uses margin (top-1 − top-2 probability))',
  });
  assert.ok(!ctx.warnings.list.some((w) => w.code === 'calibration-skipped'));
  // the same calibration values as with the default score
  const msp = await evaluate({ bootstrap: { n: 0, confidence: 0.95, seed: 0, stratified: false } });
  close(msp.results.metrics.ece.value!, 0.4375);
  assert.deepEqual(ctx.results.tables.reliability!.length, msp.results.tables.reliability!.length);
});
