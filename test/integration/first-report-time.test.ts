/// <reference types="mocha" />
/**
 * Time to the first visible report: a 200,000-row, 20-class predictions CSV (about 34 MB, written
 * here from a seeded generator) is evaluated through the Evaluate command with 1,000 bootstrap
 * resamples, and the time from the command to the report showing the point estimates is recorded —
 * not asserted (times on a shared machine drift): it is printed, and written to
 * `test-artifacts/first-report.json` in the extension's folder, which `npm run bench` prints beside
 * the other measurements. The test asserts what must hold whatever the time: the point estimates
 * come before the intervals, and the final results carry every interval.
 */
import * as assert from 'node:assert/strict';
import { closeSync, mkdirSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Results } from '../../src/core/results/types';
import { EXTENSION_ID, activate, closeAllEditors, evaluate, makeFolder, ws } from './helpers';

const ROWS = 200_000;
const CLASSES = 20;

/** Writes the CSV: id, label, p_0 … p_19; long-tailed labels, probabilities that sum to 1 at 6 decimals. */
function writeLargeCsv(file: string): void {
  let s = 12345;
  const rand = (): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
  const fd = openSync(file, 'w');
  const header = ['id', 'label', ...Array.from({ length: CLASSES }, (_, c) => `p_${c}`)].join(',');
  const lines: string[] = [header];
  const w = new Float64Array(CLASSES);
  for (let i = 0; i < ROWS; i++) {
    // Class c drawn with weight ∝ 1/(c+1): a long tail.
    let label = 0;
    for (let u = rand() * 3.5977, c = 0; c < CLASSES; c++) {
      u -= 1 / (c + 1);
      label = c;
      if (u <= 0) break;
    }
    let sum = 0;
    for (let c = 0; c < CLASSES; c++) sum += w[c] = Math.exp(3 * rand() + (c === label ? 2.5 : 0));
    let rest = 1_000_000;
    const ints: number[] = [];
    for (let c = 0; c < CLASSES - 1; c++) {
      const v = Math.min(rest, Math.round((w[c]! / sum) * 1_000_000));
      ints.push(v);
      rest -= v;
    }
    ints.push(rest);
    lines.push(`r${i},${label},${ints.map((v) => (v / 1_000_000).toFixed(6)).join(',')}`);
    if (lines.length === 5000) {
      writeSync(fd, lines.join('\n') + '\n');
      lines.length = 0;
    }
  }
  if (lines.length) writeSync(fd, lines.join('\n') + '\n');
  closeSync(fd);
}

describe('time to the first report on a 34 MB file', function () {
  this.timeout(300_000);
  before(async () => {
    await activate();
    await closeAllEditors();
  });

  it('shows the point estimates before the intervals, and records when', async () => {
    const ctx = await activate();
    const dir = makeFolder('first-report', { 'eval-lens.json': JSON.stringify({ bootstrap: { n: 1000 } }) });
    const csv = path.join(dir, 'preds.csv');
    writeLargeCsv(csv);
    const bytes = statSync(csv).size;
    const panels = ctx.panels as unknown as { showStage: (u: vscode.Uri, r: Results, label: string) => void };
    const original = panels.showStage.bind(ctx.panels);
    const stages: { label: string; ms: number; intervals: number }[] = [];
    let started = 0;
    panels.showStage = (u, r, label) => {
      stages.push({ label, ms: Date.now() - started, intervals: Object.values(r.metrics).filter((m) => m.ci).length });
      original(u, r, label);
    };
    try {
      started = Date.now();
      const r = await evaluate('first-report/preds.csv', 'first-report/preds.eval.json', 240_000);
      const finalMs = Date.now() - started;
      assert.equal(r.source.rows, ROWS);
      assert.equal((r.source.columns as { probs?: string[] }).probs?.length, CLASSES);
      assert.ok(stages.length >= 1, 'the report was shown before the results were written');
      assert.equal(stages[0]!.intervals, 0, 'the first report holds the point estimates');
      assert.ok(
        Object.values(r.metrics).some((m) => m.ci),
        'the final results carry intervals',
      );
      const record = {
        recordedAt: new Date().toISOString(),
        file: { rows: ROWS, classes: CLASSES, bytes },
        bootstrapResamples: r.config.bootstrap.n,
        firstReportMs: stages[0]!.ms,
        stages,
        finalMs,
      };
      console.log(
        `    first report after ${record.firstReportMs} ms (${(bytes / 1e6).toFixed(1)} MB); stages: ${stages
          .map((s) => `${s.label} ${s.ms} ms`)
          .join(' → ')}; final after ${finalMs} ms`,
      );
      const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
      const artifacts = path.join(ext.extensionPath, 'test-artifacts');
      mkdirSync(artifacts, { recursive: true });
      writeFileSync(path.join(artifacts, 'first-report.json'), JSON.stringify(record, null, 2) + '\n');
    } finally {
      panels.showStage = original;
      await closeAllEditors();
    }
  });

  after(() => {
    // The 34 MB input and its results are not needed by later tests.
    rmSync(ws('first-report'), { recursive: true, force: true });
  });
});
