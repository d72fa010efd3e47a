/// <reference types="mocha" />
/**
 * Settings honoured (output folder, ECE bins, bootstrap resamples) and cancellation of a long
 * evaluation through its progress notification's Cancel action.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activate, evaluate, makeFolder, sleep, uri, waitFor, ws } from './helpers';

async function withSettings(values: Record<string, unknown>, body: () => Promise<void>): Promise<void> {
  const cfg = vscode.workspace.getConfiguration('evalLens');
  for (const [k, v] of Object.entries(values)) await cfg.update(k, v, vscode.ConfigurationTarget.Workspace);
  try {
    await body();
  } finally {
    for (const k of Object.keys(values)) await cfg.update(k, undefined, vscode.ConfigurationTarget.Workspace);
  }
}

describe('settings and cancellation', function () {
  this.timeout(240_000);
  before(activate);
  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('evalLens.outputFolder: results go to that folder instead of beside the input', async () => {
    await withSettings({ outputFolder: 'eval-out' }, async () => {
      const r = await evaluate('digits-lt/knn.csv', 'eval-out/knn.eval.json');
      assert.equal(r.task, 'classification');
      assert.ok(!existsSync(ws('digits-lt/knn.eval.json')), 'not written beside the input');
    });
  });

  it('evalLens.eceBins and evalLens.bootstrap.resamples are used when no eval-lens.json sets them', async () => {
    makeFolder('settings-check', {}, { 'preds.csv': 'digits-lt/logreg.csv' });
    await withSettings({ eceBins: 7, 'bootstrap.resamples': 200 }, async () => {
      const r = await evaluate('settings-check/preds.csv', 'settings-check/preds.eval.json');
      assert.equal(r.config.eceBins, 7);
      assert.equal(r.config.bootstrap.n, 200);
      // The equal-width reliability curve has one point per non-empty bin: at most 7.
      const rel = Object.entries(r.curves).find(([name]) => /reliab/i.test(name))?.[1];
      if (rel) assert.ok(rel.xs.length <= 7 && rel.xs.length > 0, `${rel.xs.length} reliability points`);
    });
  });

  it('an eval-lens.json beside the data wins over the settings (eceBins 10 in digits-lt)', async () => {
    await withSettings({ eceBins: 7 }, async () => {
      const r = await evaluate('digits-lt/random_forest.csv', 'digits-lt/random_forest.eval.json');
      assert.equal(r.config.eceBins, 10);
    });
  });

  it('a long evaluation can be cancelled from its progress notification; nothing is written', async () => {
    const header = readFileSync(ws('digits-lt/logreg.csv'), 'utf8').split('\n')[0]!;
    const rows = readFileSync(ws('digits-lt/logreg.csv'), 'utf8').trimEnd().split('\n').slice(1);
    const dir = makeFolder('big');
    const n = 150_000;
    const out: string[] = [header];
    for (let i = 0; i < n; i++) out.push(`${i},${rows[i % rows.length]!.split(',').slice(1).join(',')}`);
    writeFileSync(path.join(dir, 'big.csv'), out.join('\n') + '\n');
    const file = uri('big/big.csv');
    let settled = false;
    const started = Date.now();
    void Promise.resolve(vscode.commands.executeCommand('evalLens.evaluate', file)).finally(() => {
      settled = true;
    });
    await sleep(3000);
    assert.ok(!settled, 'the evaluation of 150k rows should still be running after 3 s');
    // The progress notification's primary action is its Cancel button.
    await vscode.commands.executeCommand('notifications.focusToasts');
    await vscode.commands.executeCommand('notification.acceptPrimaryAction');
    await waitFor('the command to end after Cancel', () => settled, 30_000);
    const took = Date.now() - started;
    assert.ok(!existsSync(path.join(dir, 'big.eval.json')), 'no results written after cancel');
    const ctx = await activate();
    assert.ok(!ctx.evaluated.has(file.fsPath));
    assert.ok(took < 60_000, `ended ${took} ms after start`);
  });
});
