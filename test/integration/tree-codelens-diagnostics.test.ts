/// <reference types="mocha" />
/**
 * What a person sees besides the report: the side panel's tree (through the tree provider the
 * extension registers, fed by its results index), CodeLens on a results file (through VS Code's
 * own `vscode.executeCodeLensProvider`), and Problems-panel diagnostics on a bad file.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ResultsTree, type Node } from '../../src/extension/tree';
import { activate, evaluate, makeFolder, readResults, uri, waitFor, ws } from './helpers';

describe('tree, CodeLens, diagnostics', function () {
  this.timeout(180_000);
  before(async () => {
    await activate();
    if (!existsSync(ws('digits-lt/logreg.eval.json')))
      await evaluate('digits-lt/logreg.csv', 'digits-lt/logreg.eval.json');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the results index lists every results file in the workspace, refreshed by its command', async () => {
    const ctx = await activate();
    await vscode.commands.executeCommand('evalLens.refreshResults');
    const listed = ctx.index.all().map((e) => path.relative(ws(), e.uri.fsPath));
    assert.ok(listed.includes(path.join('digits-lt', 'logreg.eval.json')), listed.join(', '));
    for (const e of ctx.index.all()) assert.notEqual(e.kind, 'invalid', `${e.uri.fsPath} unreadable`);
  });

  it('the tree shows folder → results file → metric families → metrics with value and CI', async () => {
    const ctx = await activate();
    const tree = new ResultsTree(ctx);
    const folders = await tree.getChildren();
    const digits = folders.find((n) => tree.getTreeItem(n).label === 'digits-lt');
    assert.ok(digits, `folders: ${folders.map((n) => String(tree.getTreeItem(n).label)).join(', ')}`);
    const files = await tree.getChildren(digits);
    const logreg = files.find((n) => tree.getTreeItem(n).label === 'logreg.eval.json');
    assert.ok(logreg, 'logreg.eval.json under digits-lt');
    const fileItem = tree.getTreeItem(logreg);
    assert.equal(fileItem.command?.command, 'evalLens.openReport');
    const families = await tree.getChildren(logreg);
    const famLabels = families.map((n) => String(tree.getTreeItem(n).label));
    assert.ok(famLabels.length >= 4, famLabels.join(', '));
    const classification = families[0]!;
    const metrics = await tree.getChildren(classification);
    const acc = metrics.find(
      (n): n is Extract<Node, { kind: 'metric' }> => n.kind === 'metric' && n.key === 'accuracy',
    );
    assert.ok(acc, 'accuracy in the first family');
    assert.equal(acc.value, 0.74); // the test rows' accuracy, 111/150
    const item = tree.getTreeItem(acc);
    const r = readResults(ws('digits-lt/logreg.eval.json'));
    // The description holds the value and its interval, as formatted for people.
    assert.match(String(item.description), /0\.74|74(\.0)?\s*%/); // the test rows' accuracy
    assert.ok(r.metrics.accuracy!.ci);
    assert.match(String(item.description), /\[|±|–/);
    // The glossary name as the label; the key, meaning and citation in the tooltip.
    assert.equal(item.label, 'Accuracy');
    const tip = (item.tooltip as vscode.MarkdownString).value;
    assert.match(tip, /accuracy/);
    // Plain spaces (not &nbsp;): the hover wraps the meaning between words.
    assert.match(tip, /Share of rows whose predicted class is the true class/);
    const aurc = (await tree.getChildren(families.find((n) => /selective/i.test(String(tree.getTreeItem(n).label)))!))
      .map((n) => tree.getTreeItem(n).label)
      .find((l) => String(l).startsWith('AURC, 101-point grid, coverage 0.2'));
    assert.ok(aurc, 'aurc_grid101_0.2_1 is named, not shown as its key');
  });

  it('CodeLens on a results file: headline metrics and Open Report', async () => {
    const doc = await vscode.workspace.openTextDocument(uri('digits-lt/logreg.eval.json'));
    await vscode.window.showTextDocument(doc);
    const lenses = await waitFor(
      'code lenses',
      async () => {
        const l = await vscode.commands.executeCommand<vscode.CodeLens[]>(
          'vscode.executeCodeLensProvider',
          doc.uri,
          10,
        );
        return l && l.length > 1 && l.every((x) => x.command) ? l : undefined;
      },
      30_000,
    );
    const titles = lenses.map((l) => l.command!.title);
    assert.ok(
      lenses.some((l) => l.command!.command === 'evalLens.openReport'),
      titles.join(' | '),
    );
    assert.ok(
      titles.some((t) => /^Accuracy /.test(t) && /0\.74|74(\.0)?\s*%/.test(t)),
      titles.join(' | '),
    );
  });

  it('CodeLens can be turned off by the setting evalLens.codeLens.enabled', async () => {
    const cfg = vscode.workspace.getConfiguration('evalLens');
    await cfg.update('codeLens.enabled', false, vscode.ConfigurationTarget.Workspace);
    try {
      const l = await vscode.commands.executeCommand<vscode.CodeLens[]>(
        'vscode.executeCodeLensProvider',
        uri('digits-lt/logreg.eval.json'),
        10,
      );
      assert.equal(l.filter((x) => x.command?.command.startsWith('evalLens.')).length, 0);
    } finally {
      await cfg.update('codeLens.enabled', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('a bad row gives an error in the Problems panel at its line; fixing the file clears it', async () => {
    const lines = readFileSync(ws('digits-lt/logreg.csv'), 'utf8').trimEnd().split('\n');
    const bad = [...lines];
    const cells = bad[4]!.split(',');
    cells[6] = 'not-a-number'; // prob_1 on physical line 5 (header = line 1)
    bad[4] = cells.join(',');
    const dir = makeFolder('bad-data', { 'broken.csv': bad.join('\n') + '\n' });
    const file = vscode.Uri.file(path.join(dir, 'broken.csv'));
    await vscode.commands.executeCommand('evalLens.evaluate', file);
    const diags = await waitFor(
      'a diagnostic on broken.csv',
      () => {
        const d = vscode.languages.getDiagnostics(file).filter((x) => x.source === 'Eval Lens');
        return d.length > 0 ? d : undefined;
      },
      60_000,
    );
    assert.equal(diags[0]!.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(diags[0]!.range.start.line, 4, `0-based line 4 (physical line 5): ${diags[0]!.message}`);
    assert.match(diags[0]!.message, /not-a-number|numeric|number/i);
    assert.ok(!existsSync(path.join(dir, 'broken.eval.json')), 'nothing written for a failed evaluation');
    writeFileSync(file.fsPath, lines.join('\n') + '\n');
    await vscode.commands.executeCommand('evalLens.evaluate', file);
    await waitFor('results of the fixed file', () => existsSync(path.join(dir, 'broken.eval.json')), 60_000);
    await waitFor(
      'diagnostics cleared',
      () => vscode.languages.getDiagnostics(file).filter((x) => x.source === 'Eval Lens').length === 0,
      10_000,
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
