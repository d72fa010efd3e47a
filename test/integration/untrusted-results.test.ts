/// <reference types="mocha" />
/**
 * Untrusted results files inside a real VS Code: a comparison file that fails its schema is an
 * invalid entry of the index, shown in the tree with the failing field and never rendered; a
 * results file whose recorded source path leads outside the workspace is refused by Re-evaluate.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as vscode from 'vscode';
import { ResultsTree } from '../../src/extension/tree';
import { inputOfResults } from '../../src/extension/evaluationFiles';
import { loadModel } from '../../src/extension/report/panels';
import { activate, evaluate, makeFolder, uri, ws } from './helpers';

describe('untrusted results files', function () {
  this.timeout(120_000);
  after(() => rmSync(ws('security-check'), { recursive: true, force: true }));

  it('a comparison file with a crafted mark is invalid: the tree names the field, the report refuses it', async () => {
    const ctx = await activate();
    const compare = {
      schema: 'eval-lens/compare@1',
      kind: 'comparison',
      tool: { name: 'eval-lens', version: '0.1.0' },
      createdAt: '2026-01-01T00:00:00.000Z',
      task: 'classification',
      runs: ['a.csv', 'b.csv'],
      names: ['a', 'b'],
      metrics: ['accuracy'],
      directions: { accuracy: 'higher' },
      table: { 'a.csv': { accuracy: 0.7 }, 'b.csv': { accuracy: 0.8 } },
      marks: { accuracy: { 'b.csv': '1"><img src=x onerror=alert(1)>' } },
      baseline: 'a.csv',
      matchBy: 'position',
      tests: [],
      settings: { holm: 'p_t', onMismatch: 'error' },
      warnings: [],
    };
    makeFolder('security-check', { 'hostile.compare.json': JSON.stringify(compare) });
    const entry = await ctx.index.load(uri('security-check/hostile.compare.json'));
    assert.equal(entry.kind, 'invalid');
    assert.match(entry.kind === 'invalid' ? entry.error : '', /compare\.marks\.accuracy\.b\.csv/);
    const tree = new ResultsTree(ctx);
    const folder = (await tree.getChildren()).find((n) => tree.getTreeItem(n).label === 'security-check');
    assert.ok(folder, 'the folder is in the tree');
    const item = tree.getTreeItem((await tree.getChildren(folder))[0]!);
    assert.match(String(item.description), /^invalid: compare\.marks\.accuracy/);
    await assert.rejects(loadModel(uri('security-check/hostile.compare.json')), /compare\.marks/);
  });

  it('Re-evaluate refuses a results file whose source path leads outside the workspace', async () => {
    const ctx = await activate();
    if (!existsSync(ws('digits-lt/logreg.eval.json')))
      await evaluate('digits-lt/logreg.csv', 'digits-lt/logreg.eval.json');
    const results = JSON.parse(readFileSync(ws('digits-lt/logreg.eval.json'), 'utf8')) as { source: { path: string } };
    for (const [name, recorded] of [
      ['abs.eval.json', '/etc/hostname'],
      ['up.eval.json', '../../outside.csv'],
    ] as const) {
      results.source.path = recorded;
      makeFolder('security-check', { [name]: JSON.stringify(results) });
      await ctx.index.load(uri('security-check', name));
      const found = await inputOfResults(ctx, uri('security-check', name));
      assert.ok(found && 'refused' in found, `${recorded}: ${JSON.stringify(found)}`);
      assert.match((found as { refused: string }).refused, /outside the workspace/);
    }
    void vscode;
  });
});
