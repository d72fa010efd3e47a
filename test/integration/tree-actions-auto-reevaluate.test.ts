/// <reference types="mocha" />
/**
 * Paths the other files do not reach: the side panel's inline actions (Copy Value, Reveal Results
 * JSON, Open Report at This Chart) run with the tree node VS Code passes them; auto re-evaluation
 * on a change of the input or its `eval-lens.json`; the report host's answers to the webview's
 * `copy` and `savePng` requests; and the empty tree behind the welcome view.
 *
 * Not here: multi-root. It is in multiroot.test.ts, run by the runner in a second window opened on
 * a `.code-workspace` file with two folders (`?workspace=`), not by adding a folder at run time.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EvalLensContext } from '../../src/extension/context';
import type { HostMessage, WebviewMessage } from '../../src/shared/protocol';
import { ResultsTree, type Node } from '../../src/extension/tree';
import {
  activate,
  closeAllEditors,
  EXTENSION_ID,
  evaluate,
  makeFolder,
  mtime,
  readResults,
  reportTabs,
  sleep,
  uri,
  waitFor,
  ws,
} from './helpers';

type MetricNode = Extract<Node, { kind: 'metric' }>;
type EntryNode = Extract<Node, { kind: 'entry' }>;

/** The tree's node of a results file under a folder label, and of one of its metrics. */
async function findNodes(
  tree: ResultsTree,
  folder: string,
  file: string,
  key: string,
): Promise<{ entry: EntryNode; metric: MetricNode }> {
  const folders = await tree.getChildren();
  const dir = folders.find((n) => tree.getTreeItem(n).label === folder);
  assert.ok(dir, `folder ${folder} in ${folders.map((n) => String(tree.getTreeItem(n).label)).join(', ')}`);
  const entry = (await tree.getChildren(dir)).find(
    (n): n is EntryNode => n.kind === 'entry' && path.basename(n.entry.uri.fsPath) === file,
  );
  assert.ok(entry, `${file} under ${folder}`);
  for (const family of await tree.getChildren(entry)) {
    const metric = (await tree.getChildren(family)).find((n): n is MetricNode => n.kind === 'metric' && n.key === key);
    if (metric) return { entry, metric };
  }
  assert.fail(`${key} not found under ${file}`);
}

/** The live report panel of `file` (a private of the extension, reached for the host-side tests). */
interface PanelInternals {
  ready: boolean;
  post(m: HostMessage): void;
  handle(m: WebviewMessage): Promise<void>;
}
function panelOf(ctx: EvalLensContext, file: vscode.Uri): PanelInternals | undefined {
  return (ctx.panels as unknown as { panels: Map<string, PanelInternals> }).panels.get(file.toString());
}

async function setAutoReevaluate(on: boolean | undefined): Promise<void> {
  await vscode.workspace
    .getConfiguration('evalLens')
    .update('autoReevaluate', on, vscode.ConfigurationTarget.Workspace);
}

/** Accuracy of the first `n` rows of a CSV with `label` and `pred` columns, counted here. */
/** The file's rows, and the accuracy of the rows the metrics cover (the test rows of a split column). */
function accuracyOfCsv(text: string): { rows: number; accuracy: number } {
  const [header, ...rows] = text.trimEnd().split('\n');
  const cols = header!.split(',');
  const li = cols.indexOf('label');
  const pi = cols.indexOf('pred');
  const si = cols.indexOf('split');
  const measured = rows.map((r) => r.split(',')).filter((c) => si < 0 || c[si] === 'test');
  const hits = measured.filter((c) => c[li] === c[pi]).length;
  return { rows: rows.length, accuracy: hits / measured.length };
}

describe('tree actions, auto re-evaluate, report host, welcome', function () {
  this.timeout(180_000);
  before(async () => {
    await activate();
    if (!existsSync(ws('digits-lt/logreg.eval.json')))
      await evaluate('digits-lt/logreg.csv', 'digits-lt/logreg.eval.json');
    await vscode.commands.executeCommand('evalLens.refreshResults');
    await closeAllEditors();
  });
  after(async () => {
    await setAutoReevaluate(undefined);
    await closeAllEditors();
  });

  it("tree inline action Copy Value puts the metric's value on the clipboard", async () => {
    const ctx = await activate();
    const tree = new ResultsTree(ctx);
    const { metric } = await findNodes(tree, 'digits-lt', 'logreg.eval.json', 'accuracy');
    await vscode.env.clipboard.writeText('before');
    await vscode.commands.executeCommand('evalLens.copyValue', metric);
    const text = await vscode.env.clipboard.readText();
    const r = readResults(ws('digits-lt/logreg.eval.json'));
    // The full-precision value (pasteable as a number), not the rounded display text.
    assert.equal(text, String(r.metrics.accuracy!.value));
    assert.equal(Number(text), 0.74); // the test rows' accuracy, 111/150
  });

  it('tree inline action Reveal Results JSON makes the results file the active editor', async () => {
    const ctx = await activate();
    await closeAllEditors();
    const tree = new ResultsTree(ctx);
    const { entry } = await findNodes(tree, 'digits-lt', 'logreg.eval.json', 'accuracy');
    await vscode.commands.executeCommand('evalLens.revealJson', entry);
    const file = ws('digits-lt/logreg.eval.json');
    await waitFor(
      'logreg.eval.json as the active editor',
      () => vscode.window.activeTextEditor?.document.uri.fsPath === file,
      10_000,
    );
    assert.equal(vscode.window.activeTextEditor!.document.languageId, 'json');
  });

  it('a metric row (its click command and inline Open Report at This Chart) opens the report panel of its file', async () => {
    const ctx = await activate();
    await closeAllEditors();
    const tree = new ResultsTree(ctx);
    const { metric } = await findNodes(tree, 'digits-lt', 'logreg.eval.json', 'accuracy');
    const file = uri('digits-lt/logreg.eval.json');
    // Exactly what VS Code runs when the row is clicked.
    const cmd = tree.getTreeItem(metric).command!;
    assert.equal(cmd.command, 'evalLens.openReportAt');
    await vscode.commands.executeCommand(cmd.command, ...(cmd.arguments ?? []));
    await waitFor(
      'the report panel of logreg.eval.json',
      () => panelOf(ctx, file) && ctx.panels.activeUri()?.toString() === file.toString(),
      20_000,
    );
    await waitFor('one report tab', () => reportTabs().length === 1, 10_000);
    await waitFor('the report webview to be ready', () => panelOf(ctx, file)?.ready, 30_000);
    // Again from the inline action at another metric: the same panel is revealed, not a second one.
    const { metric: other } = await findNodes(tree, 'digits-lt', 'logreg.eval.json', 'balanced_accuracy').catch(() => ({
      metric,
    }));
    await vscode.commands.executeCommand('evalLens.openReportAt', other);
    await sleep(500);
    assert.equal(reportTabs().length, 1);
    assert.equal(ctx.panels.activeUri()?.toString(), file.toString());
  });

  it("report host: the webview's copy request (Copy as Markdown/CSV) reaches the clipboard and is answered", async () => {
    const ctx = await activate();
    const file = uri('digits-lt/logreg.eval.json');
    await vscode.commands.executeCommand('evalLens.openReport', file);
    const p = await waitFor(
      'a ready report panel',
      () => (panelOf(ctx, file)?.ready ? panelOf(ctx, file) : undefined),
      30_000,
    );
    const replies: HostMessage[] = [];
    p.post = (m) => {
      replies.push(m);
    };
    const md = '| metric | value |\n|---|---|\n| accuracy | 0.7500 |\n';
    await p.handle({ type: 'copy', seq: 41, text: md, what: 'table as Markdown' });
    assert.equal(await vscode.env.clipboard.readText(), md);
    const csv = 'metric,value\naccuracy,0.75\n';
    await p.handle({ type: 'copy', seq: 42, text: csv, what: 'table as CSV' });
    assert.equal(await vscode.env.clipboard.readText(), csv);
    // Replies only (row answers to the webview may arrive meanwhile).
    assert.deepEqual(
      replies.filter((m) => m.type === 'reply').map((m) => m.type === 'reply' && [m.seq, m.ok]),
      [
        [41, true],
        [42, true],
      ],
    );
  });

  it('report host: Save PNG asks where (answered with the default name) and writes the image', async () => {
    const ctx = await activate();
    const file = uri('digits-lt/logreg.eval.json');
    await vscode.commands.executeCommand('evalLens.openReport', file);
    const p = await waitFor(
      'a ready report panel',
      () => (panelOf(ctx, file)?.ready ? panelOf(ctx, file) : undefined),
      30_000,
    );
    const replies: HostMessage[] = [];
    p.post = (m) => {
      replies.push(m);
    };
    // A 1×1 PNG, as canvas.toDataURL would give.
    const b64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const target = ws('digits-lt/reliability chart.png'.replace(/[^\w./-]+/g, '_'));
    if (existsSync(target)) rmSync(target);
    let settled = false;
    void p
      .handle({ type: 'savePng', seq: 7, fileName: 'reliability chart.png', dataUrl: `data:image/png;base64,${b64}` })
      .finally(() => {
        settled = true;
      });
    try {
      // The save dialog (in code-server, VS Code's own path input) proposes <report folder>/<name>:
      // Enter accepts it.
      await waitFor(
        'the PNG to be saved',
        async () => {
          if (existsSync(target)) return true;
          await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
          return false;
        },
        30_000,
        700,
      );
      await waitFor('the savePng request to finish', () => settled, 10_000);
    } finally {
      if (!settled) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    }
    assert.deepEqual(readFileSync(target), Buffer.from(b64, 'base64'));
    // Only the save's reply: the panel may also be answering the webview's row requests (a report
    // opened at `accuracy` lists the mistakes), which are `rows` messages.
    assert.deepEqual(
      replies.filter((m) => m.type === 'reply').map((m) => m.type === 'reply' && [m.seq, m.ok]),
      [[7, true]],
    );
    assert.ok(
      replies.every(
        (m) => m.type === 'reply' || m.type === 'rows' || m.type === 'show' || m.type === 'sliceCandidates',
      ),
      replies.map((m) => m.type).join(', '),
    );
    await closeAllEditors();
  });

  it('auto re-evaluate: off, a change does nothing; on, a changed input or eval-lens.json is evaluated again', async () => {
    const dir = makeFolder(
      'auto-reeval',
      {},
      { 'preds.csv': 'digits-lt/logreg.csv', 'eval-lens.json': 'digits-lt/eval-lens.json' },
    );
    const input = path.join(dir, 'preds.csv');
    const out = path.join(dir, 'preds.eval.json');
    await setAutoReevaluate(undefined);
    const r0 = await evaluate('auto-reeval/preds.csv', 'auto-reeval/preds.eval.json');
    const full = readFileSync(input, 'utf8');
    assert.equal(r0.source.rows, accuracyOfCsv(full).rows);
    const lines = full.trimEnd().split('\n');

    // Off (the default): the change is not picked up.
    let before = mtime(out);
    writeFileSync(input, lines.slice(0, 251).join('\n') + '\n');
    await sleep(3000);
    assert.equal(mtime(out), before, 'rewritten although evalLens.autoReevaluate is off');

    await setAutoReevaluate(true);
    const cut = lines.slice(0, 201).join('\n') + '\n';
    const expected = accuracyOfCsv(cut);
    before = mtime(out);
    writeFileSync(input, cut);
    await waitFor(
      'preds.eval.json to be rewritten for the 200-row input',
      () => mtime(out) > before && readResults(out).source.rows === expected.rows,
      60_000,
      250,
    );
    const r1 = readResults(out);
    assert.equal(r1.source.rows, 200);
    assert.ok(
      Math.abs(r1.metrics.accuracy!.value! - expected.accuracy) < 1e-12,
      `${r1.metrics.accuracy!.value} vs ${expected.accuracy}`,
    );

    // The config beside the data changes: evaluated again with it.
    const cfgFile = path.join(dir, 'eval-lens.json');
    const cfg = JSON.parse(readFileSync(cfgFile, 'utf8')) as { eceBins: number };
    assert.equal(r1.config.eceBins, cfg.eceBins);
    before = mtime(out);
    writeFileSync(cfgFile, JSON.stringify({ ...cfg, eceBins: 12 }, null, 2) + '\n');
    await waitFor(
      'preds.eval.json to be rewritten with eceBins 12',
      () => mtime(out) > before && readResults(out).config.eceBins === 12,
      60_000,
      250,
    );
    assert.equal(readResults(out).source.rows, 200);
    await setAutoReevaluate(undefined);
  });

  it('welcome view: with no results the tree has no rows, and package.json contributes the welcome content', async () => {
    const ctx = await activate();
    const empty = { ...ctx, index: { ready: async () => {}, all: () => [] } } as unknown as EvalLensContext;
    assert.deepEqual(await new ResultsTree(empty).getChildren(), []);
    assert.ok((await new ResultsTree(ctx).getChildren()).length > 0, 'the real workspace has results');
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      contributes: { views: Record<string, { id: string }[]>; viewsWelcome: { view: string; contents: string }[] };
    };
    assert.ok(
      Object.values(pkg.contributes.views)
        .flat()
        .some((v) => v.id === 'evalLens.results'),
    );
    const welcome = pkg.contributes.viewsWelcome.find((w) => w.view === 'evalLens.results');
    assert.ok(welcome, 'a viewsWelcome entry for evalLens.results');
    assert.match(welcome.contents, /\(command:evalLens\.evaluate\)/);
    assert.match(welcome.contents, /\(command:evalLens\.createConfig\)/);
  });
});
