/// <reference types="mocha" />
/**
 * A multi-root workspace opened from a `.code-workspace` file (the runner's second window): two
 * folders, `alpha` (a copy of the ranking example, its own `eval-lens.json`) and `beta` (written
 * here, with a different `eval-lens.json` whose train path is relative to beta). Checks that each
 * folder's config applies to its own files, that results are written beside their input and
 * grouped by folder in the results tree, and that a config path escaping its folder is refused.
 *
 * index.ts runs this file only in a window with several folders, and every other file only in a
 * window with one.
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { evaluateFile } from '../../src/core/evaluate';
import { ResultsTree } from '../../src/extension/tree';
import { activate, mtime, readResults, waitFor } from './helpers';

function folder(name: string): string {
  const f = vscode.workspace.workspaceFolders?.find((w) => w.name === name);
  assert.ok(
    f,
    `workspace folder ${name} in ${(vscode.workspace.workspaceFolders ?? []).map((w) => w.name).join(', ')}`,
  );
  return f.uri.fsPath;
}

async function evaluateAt(input: string, output: string, timeoutMs = 60_000): Promise<ReturnType<typeof readResults>> {
  const before = mtime(output);
  await vscode.commands.executeCommand('evalLens.evaluate', vscode.Uri.file(input));
  await waitFor(`${output} to be written`, () => mtime(output) > before, timeoutMs);
  return readResults(output);
}

const keysAt = (r: { metrics: Record<string, unknown> }, k: number): string[] =>
  Object.keys(r.metrics).filter((m) => m.endsWith(`@${k}`));

describe('multi-root workspace (two folders from a .code-workspace file)', function () {
  this.timeout(180_000);

  it('opens both folders from the workspace file', () => {
    assert.ok(vscode.workspace.workspaceFile, 'a workspace file is open');
    assert.deepEqual(
      (vscode.workspace.workspaceFolders ?? []).map((f) => f.name),
      ['alpha', 'beta'],
    );
  });

  it("each folder's eval-lens.json applies to its own files; results land beside the input; the tree groups by folder", async () => {
    const ctx = await activate();
    const alpha = folder('alpha');
    const beta = folder('beta');
    // beta: the same run file, its own config (k = 3) with a train path relative to beta.
    mkdirSync(path.join(beta, 'data'), { recursive: true });
    copyFileSync(path.join(alpha, 'popularity.jsonl'), path.join(beta, 'popularity.jsonl'));
    copyFileSync(path.join(alpha, '_train.csv'), path.join(beta, 'data', 'train.csv'));
    writeFileSync(
      path.join(beta, 'eval-lens.json'),
      JSON.stringify({ task: 'ranking', k: [3], train: 'data/train.csv' }, null, 2),
    );

    const a = await evaluateAt(path.join(alpha, 'popularity.jsonl'), path.join(alpha, 'popularity.eval.json'));
    const alphaWritten = mtime(path.join(alpha, 'popularity.eval.json'));
    const b = await evaluateAt(path.join(beta, 'popularity.jsonl'), path.join(beta, 'popularity.eval.json'));

    // alpha's config asks k = 5, 10, 20; beta's asks k = 3 only.
    assert.ok(keysAt(a, 5).length > 0 && keysAt(a, 3).length === 0, `alpha keys: ${Object.keys(a.metrics).join(', ')}`);
    assert.ok(
      keysAt(b, 3).length > 0 && keysAt(b, 5).length === 0 && keysAt(b, 10).length === 0,
      `beta keys: ${Object.keys(b.metrics).join(', ')}`,
    );
    // beta's numbers are the core's on beta's input with beta's config (train read from beta/data).
    const direct = await evaluateFile(path.join(beta, 'popularity.jsonl'), {
      configPath: path.join(beta, 'eval-lens.json'),
    });
    assert.deepEqual(b.metrics, direct.metrics);
    // The train file was used: its path is the one resolved inside beta.
    assert.ok(
      readFileSync(path.join(beta, 'popularity.eval.json'), 'utf8').includes('train.csv'),
      'beta results record its train file',
    );
    // Evaluating beta wrote nothing in alpha.
    assert.equal(mtime(path.join(alpha, 'popularity.eval.json')), alphaWritten);

    // The results tree: one root per folder, each holding its own results file.
    const tree = new ResultsTree(ctx);
    const roots = await waitFor('two folder roots in the tree', async () => {
      const r = await tree.getChildren();
      return r.length === 2 && r.every((n) => n.kind === 'root') ? r : undefined;
    });
    assert.deepEqual(
      roots.map((n) => String(tree.getTreeItem(n).label)),
      ['alpha', 'beta'],
    );
    for (const [i, dir] of [alpha, beta].entries()) {
      const files: string[] = [];
      for (const f of await tree.getChildren(roots[i])) {
        for (const e of await tree.getChildren(f)) if (e.kind === 'entry') files.push(e.entry.uri.fsPath);
      }
      assert.deepEqual(files, [path.join(dir, 'popularity.eval.json')], `results under ${path.basename(dir)}`);
    }
  });

  it('a config path escaping its folder is refused with a message naming the path', async () => {
    const alpha = folder('alpha');
    const beta = folder('beta');
    const dir = path.join(beta, 'escape');
    mkdirSync(dir, { recursive: true });
    copyFileSync(path.join(alpha, 'popularity.jsonl'), path.join(dir, 'run.jsonl'));
    const config = path.join(dir, 'eval-lens.json');
    writeFileSync(config, JSON.stringify({ task: 'ranking', k: [3], train: '../../alpha/_train.csv' }, null, 2));
    const input = vscode.Uri.file(path.join(dir, 'run.jsonl'));
    await vscode.commands.executeCommand('evalLens.evaluate', input);
    const diag = await waitFor('a diagnostic on the escaping config', () => {
      const all = [
        ...vscode.languages.getDiagnostics(vscode.Uri.file(config)),
        ...vscode.languages.getDiagnostics(input),
      ];
      return all.find((d) => d.source === 'Eval Lens');
    });
    assert.match(diag.message, /\.\.\/\.\.\/alpha\/_train\.csv/);
    assert.match(diag.message, /outside the workspace/);
    assert.ok(!existsSync(path.join(dir, 'run.eval.json')), 'nothing written for a refused config');
  });
});
