/// <reference types="mocha" />
/**
 * The smaller things a new user hit in the walkthrough: Evaluate on JSON files that hold no rows,
 * every bad row in the Problems panel at its cell, a shared config's typo listed once, the report
 * opening in an existing editor group (not a third), and the status bar following the report in
 * front.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  activate,
  closeAllEditors,
  evaluate,
  makeFolder,
  reportTabs,
  runAccepting,
  sleep,
  uri,
  waitFor,
  ws,
} from './helpers';

const problems = (file: vscode.Uri): vscode.Diagnostic[] =>
  vscode.languages.getDiagnostics(file).filter((d) => d.source === 'Eval Lens');

describe('walkthrough: menus, problems, editor groups, status bar', function () {
  this.timeout(180_000);

  before(async () => {
    await activate();
  });

  it('Evaluate on a JSON without rows (a config, train counts, another tool\u2019s metrics) writes nothing; on a JSON of rows it evaluates', async () => {
    const dir = makeFolder('json-kinds', {
      'metrics.json': '{"accuracy": 0.91, "f1": 0.88}\n',
      'preds.json':
        JSON.stringify([
          { label: 'a', pred: 'a' },
          { label: 'b', pred: 'a' },
          { label: 'b', pred: 'b' },
          { label: 'a', pred: 'a' },
        ]) + '\n',
    });
    // (eval-lens.json is never a prediction file by name: the command would ask for one instead.)
    for (const rel of ['json-kinds/metrics.json', 'cifar100-lt-like/train_counts.json']) {
      await vscode.commands.executeCommand('evalLens.evaluate', uri(rel));
      await sleep(300);
      const out = ws(rel).replace(/\.json$/, '.eval.json');
      assert.ok(!existsSync(out), `${rel}: nothing written`);
    }
    const r = await evaluate('json-kinds/preds.json', 'json-kinds/preds.eval.json', 60_000);
    assert.equal(r.metrics.accuracy?.value, 3 / 4);
    assert.ok(existsSync(path.join(dir, 'preds.eval.json')));
    await closeAllEditors();
  });

  it('every bad row is a Problems entry that starts at the bad cell and names its column', async () => {
    const lines = readFileSync(ws('digits-lt/logreg.csv'), 'utf8').trimEnd().split('\n');
    const header = lines[0]!.split(',');
    const col = (name: string): number => header.indexOf(name);
    const breakCell = (i: number, name: string): void => {
      const cells = lines[i]!.split(',');
      cells[col(name)] = 'oops';
      lines[i] = cells.join(',');
    };
    breakCell(3, 'prob_1'); // physical line 4
    breakCell(9, 'prob_4'); // line 10
    breakCell(20, 'prob_9'); // line 21
    const dir = makeFolder('many-bad', { 'broken.csv': lines.join('\n') + '\n' });
    const file = vscode.Uri.file(path.join(dir, 'broken.csv'));
    await vscode.commands.executeCommand('evalLens.evaluate', file);
    const diags = await waitFor(
      'three entries on broken.csv',
      () => (problems(file).length >= 3 ? problems(file) : undefined),
      60_000,
    );
    assert.equal(diags.length, 3, diags.map((d) => d.message).join(' | '));
    const offset = (i: number, name: string): number => lines[i]!.split(',').slice(0, col(name)).join(',').length + 1;
    for (const [d, i, name] of [
      [diags[0]!, 3, 'prob_1'],
      [diags[1]!, 9, 'prob_4'],
      [diags[2]!, 20, 'prob_9'],
    ] as const) {
      assert.equal(d.range.start.line, i);
      assert.equal(d.range.start.character, offset(i, name), `${name} starts at its cell`);
      assert.equal(d.range.end.character, offset(i, name) + 'oops'.length);
      assert.match(d.message, new RegExp(`^Column "${name}": `));
    }
    assert.ok(!existsSync(path.join(dir, 'broken.eval.json')));
    await closeAllEditors();
  });

  it('a typo in a config shared by two files is one Problems entry', async () => {
    const csv = readFileSync(ws('digits-lt/logreg.csv'), 'utf8');
    const dir = makeFolder('typo', { 'a.csv': csv, 'b.csv': csv, 'eval-lens.json': '{\n  "bootstap": {"n": 10}\n}\n' });
    const config = vscode.Uri.file(path.join(dir, 'eval-lens.json'));
    await vscode.commands.executeCommand('evalLens.evaluate', vscode.Uri.file(path.join(dir, 'a.csv')));
    await waitFor('the typo reported', () => problems(config).length > 0, 60_000);
    await vscode.commands.executeCommand('evalLens.evaluate', vscode.Uri.file(path.join(dir, 'b.csv')));
    await sleep(1500);
    assert.equal(
      problems(config).length,
      1,
      problems(config)
        .map((d) => d.message)
        .join(' | '),
    );
    await closeAllEditors();
  });

  it('evaluating from the second of two editor groups opens the report in the first, not in a third group', async () => {
    await closeAllEditors();
    await vscode.window.showTextDocument(uri('digits-lt/eval-lens.json'), { viewColumn: vscode.ViewColumn.One });
    await vscode.window.showTextDocument(uri('digits-lt/knn.csv'), { viewColumn: vscode.ViewColumn.Two });
    assert.equal(vscode.window.tabGroups.all.length, 2);
    assert.equal(vscode.window.tabGroups.activeTabGroup.viewColumn, vscode.ViewColumn.Two);
    await vscode.commands.executeCommand('evalLens.evaluate');
    const tab = await waitFor('the knn report', () => reportTabs().find((t) => t.label.includes('knn')), 60_000);
    assert.equal(vscode.window.tabGroups.all.length, 2, 'still two groups');
    assert.equal(tab.group.viewColumn, vscode.ViewColumn.One);
    await closeAllEditors();
  });

  it('the status bar shows the headline of the report in front', async () => {
    const ctx = await activate();
    const text = (): string => (ctx.status as unknown as { item: vscode.StatusBarItem }).item.text;
    await evaluate('digits-lt/knn.csv', 'digits-lt/knn.eval.json', 60_000);
    await evaluate('digits-lt/svc_rbf.csv', 'digits-lt/svc_rbf.eval.json', 60_000);
    const knn = JSON.parse(readFileSync(ws('digits-lt/knn.eval.json'), 'utf8')) as {
      metrics: { accuracy: { value: number } };
    };
    const svc = JSON.parse(readFileSync(ws('digits-lt/svc_rbf.eval.json'), 'utf8')) as {
      metrics: { accuracy: { value: number } };
    };
    assert.notEqual(knn.metrics.accuracy.value, svc.metrics.accuracy.value);
    await waitFor('status: svc_rbf', () => text().includes(svc.metrics.accuracy.value.toFixed(4)), 10_000);
    await vscode.commands.executeCommand('evalLens.openReport', uri('digits-lt/knn.eval.json'));
    await waitFor(
      'status follows the knn report',
      () => text().includes(knn.metrics.accuracy.value.toFixed(4)),
      20_000,
    );
    // A comparison in front: the status bar says so (not the numbers of the run opened before).
    const out = ws('digits-lt/knn-vs-svc_rbf.compare.json');
    const a = uri('digits-lt/knn.eval.json');
    const b = uri('digits-lt/svc_rbf.eval.json');
    await runAccepting('evalLens.compare', [a, [a, b]], () => existsSync(out));
    await waitFor('status follows the comparison', () => text().includes('Comparison of 2 runs'), 30_000);
    // Closing the report it describes hides it: no numbers of a report that is gone.
    const shown = (): string | undefined => (ctx.status as unknown as { shown?: string }).shown;
    await closeAllEditors();
    await waitFor('status hidden once its report is closed', () => shown() === undefined, 10_000);
  });
});
