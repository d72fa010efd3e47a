/// <reference types="mocha" />
/**
 * A factor model in the explorer: Evaluate on an eval-lens.json that names `userFactors` evaluates
 * the model with that config (the top-K lists generated from U and V, train masked) and writes the
 * results of its user factor file; Evaluate on U.npy itself gives the same results. The metrics
 * equal what the core computes directly, and the explorer menu offers Evaluate on such a config.
 */
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { evaluateFile } from '../../src/core/evaluate';
import { validateResults } from '../../src/core/results/validate';
import { activate, closeAllEditors, evaluate, makeFolder, mtime, readResults, uri, waitFor, ws } from './helpers';

describe('factor model: Evaluate on its config and on U.npy', function () {
  this.timeout(300_000);
  before(async () => {
    await activate();
  });
  after(closeAllEditors);

  it('Evaluate on eval-lens.json (userFactors) writes ranking-factors.eval.json (named after the model folder): schema-valid, the core’s metrics', async () => {
    const out = ws('ranking-factors/ranking-factors.eval.json');
    const before = mtime(out);
    await vscode.commands.executeCommand('evalLens.evaluate', uri('ranking-factors/eval-lens.json'));
    await waitFor('ranking-factors/ranking-factors.eval.json to be written', () => mtime(out) > before, 240_000);
    const r = readResults(out);
    assert.deepEqual(validateResults(r), []);
    assert.equal(r.task, 'ranking');
    assert.equal(r.source.rows, 1202);
    assert.equal(r.source.columns?.userFactors, 'U.npy');
    assert.equal(r.source.columns?.itemFactors, 'V.npy');
    assert.ok(Number(r.source.columns?.blockUsers) >= 1);
    // The workspace folder is the root: train and items are in ../ranking-debian-deps.
    const direct = await evaluateFile(ws('ranking-factors/U.npy'), {
      configPath: ws('ranking-factors/eval-lens.json'),
      root: ws(),
    });
    assert.ok(Object.keys(r.metrics).length > 10);
    assert.deepEqual(r.metrics, direct.metrics);
    assert.deepEqual(r.baselines, direct.baselines);
  });

  it('Evaluate on U.npy (the config beside it) gives the same metrics', async () => {
    const first = readResults(ws('ranking-factors/ranking-factors.eval.json'));
    const r = await evaluate('ranking-factors/U.npy', 'ranking-factors/ranking-factors.eval.json', 240_000);
    assert.deepEqual(r.metrics, first.metrics);
  });

  it('a config in another folder than its factors: Evaluate on the config uses that config', async () => {
    // The config lives one folder up from U.npy, so no eval-lens.json is beside the factors.
    const dir = makeFolder('factor-config-elsewhere');
    const cfg = JSON.parse(readFileSync(ws('ranking-factors/eval-lens.json'), 'utf8')) as Record<string, unknown>;
    for (const key of ['userFactors', 'itemFactors', 'userIds', 'itemIds', 'relevant'])
      cfg[key] = `../ranking-factors/${cfg[key] as string}`;
    // train and items already point to ../ranking-debian-deps, one level up from either folder.
    cfg.k = [10];
    cfg.bootstrap = { n: 0 };
    writeFileSync(path.join(dir, 'eval-lens.json'), JSON.stringify(cfg, null, 2));
    const out = ws('ranking-factors/ranking-factors.eval.json');
    const before = mtime(out);
    await vscode.commands.executeCommand('evalLens.evaluate', uri('factor-config-elsewhere/eval-lens.json'));
    await waitFor('ranking-factors.eval.json rewritten with the other config', () => mtime(out) > before, 240_000);
    const r = readResults(out);
    assert.deepEqual(r.config.k, [10]);
    assert.ok('ndcg@10' in r.metrics && !('ndcg@5' in r.metrics));
    const direct = await evaluateFile(ws('ranking-factors/U.npy'), {
      configPath: path.join(dir, 'eval-lens.json'),
      root: ws(),
    });
    assert.deepEqual(r.metrics, direct.metrics);
  });

  it('the explorer menu offers Evaluate on a config that names a factor model', () => {
    const pkg = JSON.parse(
      readFileSync(
        path.join(vscode.extensions.getExtension('eval-lens.eval-lens')!.extensionPath, 'package.json'),
        'utf8',
      ),
    ) as { contributes: { menus: Record<string, { command: string; when?: string }[]> } };
    const entries = pkg.contributes.menus['explorer/context']!.filter((m) => m.command === 'evalLens.evaluate');
    assert.ok(
      entries.some((m) =>
        /resourceFilename == eval-lens\.json && resourcePath in evalLens\.factorConfigs/.test(m.when ?? ''),
      ),
      JSON.stringify(entries),
    );
  });
});
