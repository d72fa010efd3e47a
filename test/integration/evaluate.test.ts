/// <reference types="mocha" />
/**
 * Evaluate Prediction File… and Re-evaluate on the example files, through the extension's
 * commands (the same path as the explorer menu: the command gets the file's URI). Results must be
 * written beside the input, valid against the results schema, carry values known independently
 * (the examples' README, computed with pandas; a ranking metric recomputed here from the file),
 * and equal what the core computes directly.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { evaluateFile } from '../../src/core/evaluate';
import { validateResults } from '../../src/core/results/validate';
import type { Results } from '../../src/core/results/types';
import {
  activate,
  closeAllEditors,
  evaluate,
  makeFolder,
  mtime,
  readResults,
  reportTabs,
  uri,
  waitFor,
  ws,
} from './helpers';

describe('evaluate', function () {
  this.timeout(180_000);
  before(async () => {
    await activate();
  });
  after(closeAllEditors);

  it('evaluates a classification CSV: logreg.eval.json beside it, schema-valid, test-row accuracy 0.74 as in the README', async () => {
    const r = await evaluate('digits-lt/logreg.csv', 'digits-lt/logreg.eval.json');
    assert.deepEqual(validateResults(r), []);
    assert.equal(r.task, 'classification');
    assert.equal(r.source.rows, 300);
    // The split column: every metric covers the 150 test rows. examples/README.md: logreg test
    // accuracy 0.7400 (111 of 150); head 89/90 = 0.9889 and tail 11/30 = 0.3667 class-mean accuracy
    // (each class has 15 test rows).
    assert.equal(r.source.rowsUsed, 150);
    assert.equal(r.metrics.accuracy!.value, 111 / 150);
    assert.equal(r.metrics.balanced_accuracy!.value, 0.74);
    assert.ok(Math.abs(r.metrics['acc_group.head']!.value! - 89 / 90) < 1e-12);
    assert.ok(Math.abs(r.metrics['acc_group.tail']!.value! - 11 / 30) < 1e-12);
    assert.ok(r.metrics.accuracy!.ci, 'accuracy has a bootstrap interval');
    // The config beside the data was used (eval-lens.json: eceBins 10, topK [2, 3]).
    assert.equal(r.config.eceBins, 10);
    assert.ok('top3_accuracy' in r.metrics);
  });

  it('the extension writes exactly the metrics the core computes for the same file', async () => {
    const fromExtension = readResults(ws('digits-lt/logreg.eval.json'));
    const direct = await evaluateFile(ws('digits-lt/logreg.csv'));
    assert.deepEqual(fromExtension.metrics, direct.metrics);
    assert.deepEqual(Object.keys(fromExtension.curves).sort(), Object.keys(direct.curves).sort());
  });

  it('opens the report webview after evaluating', async () => {
    // The report opens once the evaluation above has written its results; on a machine whose cores
    // are busy that has taken more than 30 s.
    await waitFor('a report tab', () => reportTabs().length > 0, 120_000);
    const tab = reportTabs()[0]!;
    assert.match(tab.label, /logreg/);
  });

  it('the report opens on the point estimates, then provisional intervals, then the final results', async () => {
    const ctx = await activate();
    const panels = ctx.panels as unknown as { showStage: (u: vscode.Uri, r: Results, label: string) => void };
    const seen: { label: string; intervals: number }[] = [];
    const original = panels.showStage.bind(ctx.panels);
    panels.showStage = (u, r, label) => {
      seen.push({ label, intervals: Object.values(r.metrics).filter((m) => m.ci).length });
      original(u, r, label);
    };
    // A folder of its own: the other tests expect the examples' results files where they left them.
    makeFolder(
      'stages',
      { 'eval-lens.json': JSON.stringify({ bootstrap: { n: 1000 } }) },
      { 'preds.csv': 'digits-lt/logreg.csv' },
    );
    const started = Date.now();
    try {
      const r = await evaluate('stages/preds.csv', 'stages/preds.eval.json', 30_000);
      assert.ok(r.config.bootstrap.n > 200, 'more than 200 resamples configured');
      assert.deepEqual(
        seen.map((s) => s.label),
        ['point estimates, intervals pending', 'provisional intervals'],
      );
      assert.equal(seen[0]!.intervals, 0, 'no interval in the point stage');
      assert.ok(seen[1]!.intervals > 0);
      console.log(`    stages shown: ${seen.map((s) => s.label).join(' → ')}; final after ${Date.now() - started} ms`);
      const file = uri('stages/preds.eval.json');
      await waitFor(
        'the report title without a stage',
        () => {
          const p = ctx.panels.panelFor(file);
          return p !== undefined && !/intervals/.test(p.panel.title);
        },
        20_000,
      );
    } finally {
      panels.showStage = original;
    }
  });

  it('evaluates a JSONL file (same probabilities as the CSV → same metrics), named logreg.jsonl.eval.json', async () => {
    const r = await evaluate('digits-lt/logreg.jsonl', 'digits-lt/logreg.jsonl.eval.json');
    assert.deepEqual(validateResults(r), []);
    assert.equal(r.source.format, 'jsonl');
    const csv = readResults(ws('digits-lt/logreg.eval.json'));
    assert.deepEqual(r.metrics, csv.metrics);
  });

  it('evaluates an importance-weighted binary file (iw-binary task)', async () => {
    const r = await evaluate('iw-breast-cancer/logreg.csv', 'iw-breast-cancer/logreg.eval.json');
    assert.deepEqual(validateResults(r), []);
    assert.equal(r.task, 'iw-binary');
    for (const k of ['precision', 'recall', 'average_precision', 'roc_auc']) {
      const v = r.metrics[k]?.value;
      assert.ok(typeof v === 'number' && v >= 0 && v <= 1, `${k} = ${v}`);
    }
    const direct = await evaluateFile(ws('iw-breast-cancer/logreg.csv'));
    assert.deepEqual(r.metrics, direct.metrics);
  });

  it('evaluates a ranking file; precision@5 and hit_rate@5 equal a direct count over the file', async function () {
    if (!existsSync(ws('ranking-debian-deps/popularity.jsonl'))) this.skip();
    const r = await evaluate('ranking-debian-deps/popularity.jsonl', 'ranking-debian-deps/popularity.eval.json');
    assert.deepEqual(validateResults(r), []);
    assert.equal(r.task, 'ranking');
    // Slow obvious reference: per user, |top5 ∩ relevant| / 5 and [top5 ∩ relevant ≠ ∅].
    const rows = readFileSync(ws('ranking-debian-deps/popularity.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { items: string[]; relevant: string[] });
    let n = 0,
      p = 0,
      hit = 0;
    for (const row of rows) {
      const rel = new Set(row.relevant);
      if (rel.size === 0) continue;
      const h = row.items.slice(0, 5).filter((i) => rel.has(i)).length;
      n++;
      p += h / 5;
      hit += h > 0 ? 1 : 0;
    }
    assert.ok(Math.abs(r.metrics['precision@5']!.value! - p / n) < 1e-12);
    assert.ok(Math.abs(r.metrics['hit_rate@5']!.value! - hit / n) < 1e-12);
  });

  it('re-evaluates from the results file: rewrites it with a new timestamp and the same metrics', async () => {
    const out = ws('digits-lt/logreg.eval.json');
    const before = readResults(out);
    const t0 = mtime(out);
    await new Promise((r) => setTimeout(r, 1100));
    await vscode.commands.executeCommand('evalLens.reevaluate', uri('digits-lt/logreg.eval.json'));
    await waitFor('logreg.eval.json rewritten', () => mtime(out) > t0, 10_000);
    const after = readResults(out);
    assert.notEqual(after.createdAt, before.createdAt);
    assert.deepEqual(after.metrics, before.metrics);
  });
});
