/// <reference types="mocha" />
/**
 * Row inspection through the report panel's host handlers (the answers the webview gets): a
 * confusion cell's filter lists exactly that cell's count of rows, the most confident mistakes
 * come sorted, Open at line selects the row's line in an editor beside the report, a file changed
 * since its evaluation answers "stale" (offering Re-evaluate) instead of rows, and the inspection
 * worker stops when the last report closes.
 */
import * as assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { evaluateFile } from '../../src/core/evaluate';
import type { ClassificationRowView, FilterTerm } from '../../src/core/rows/types';
import type { Results } from '../../src/core/results/types';
import { drillTargets, type DrillSpec } from '../../src/shared/drillTargets';
import { buildReportModel } from '../../src/shared/report';
import type { HostMessage } from '../../src/shared/protocol';
import { activate, closeAllEditors, evaluate, makeFolder, readResults, uri, waitFor, ws } from './helpers';

/** The repository (this file runs from out/test/integration/). */
const REPO = path.resolve(__dirname, '../../..');

type RowsMessage = Extract<HostMessage, { type: 'rows' }>;

async function openPanel(
  rel: string,
): Promise<NonNullable<ReturnType<Awaited<ReturnType<typeof activate>>['panels']['panelFor']>>> {
  const ctx = await activate();
  await vscode.commands.executeCommand('evalLens.openReport', uri(rel));
  return waitFor(`the report panel of ${rel}`, () => ctx.panels.panelFor(uri(rel)), 30_000);
}

describe('row inspection (drill-down, Open at line, stale files)', function () {
  this.timeout(180_000);
  before(async () => {
    await activate();
    if (!existsSync(ws('digits-lt/logreg.eval.json')))
      await evaluate('digits-lt/logreg.csv', 'digits-lt/logreg.eval.json');
    await closeAllEditors();
  });
  after(closeAllEditors);

  /** The rows the metrics cover: with a validation/test split, the test rows (as every drill-down). */
  const measured = (r: Results): FilterTerm[] =>
    r.source.split?.metricsOn === 'test' ? [{ key: 'split_role', op: '=', value: 'test' }] : [];

  it('a confusion cell lists exactly its count of rows, and every row is in that cell', async () => {
    const p = await openPanel('digits-lt/logreg.eval.json');
    const results = readResults(ws('digits-lt/logreg.eval.json'));
    const c = results.tables.confusion!;
    let cells = 0;
    for (let i = 0; i < c.labels.length; i++) {
      for (let j = 0; j < c.labels.length; j++) {
        if (c.matrix[i]![j] === 0 && i !== j) continue;
        const m = await p.inspector.queryRows(1, {
          where: [
            ...measured(results),
            { key: 'label', op: '=', value: c.labels[i]! },
            { key: 'pred', op: '=', value: c.labels[j]! },
          ],
          offset: 0,
          limit: 1000,
        });
        assert.equal(m.type, 'rows', JSON.stringify(m));
        const page = (m as RowsMessage).page;
        assert.equal(page.total, c.matrix[i]![j], `cell ${c.labels[i]} → ${c.labels[j]}`);
        assert.equal(page.rows.length, page.total);
        for (const r of page.rows as ClassificationRowView[])
          assert.deepEqual([r.label, r.pred, r.correct], [c.labels[i], c.labels[j], i === j]);
        cells++;
      }
    }
    assert.ok(cells > c.labels.length, 'some off-diagonal cells were checked');
  });

  it('every drill-down target lists the rows its number counts: reliability bins, risk–coverage points, per-class bars, shot cards', async () => {
    const p = await openPanel('digits-lt/logreg.eval.json');
    const r = readResults(ws('digits-lt/logreg.eval.json'));
    const d = drillTargets(r, buildReportModel(r));
    const total = async (spec: DrillSpec): Promise<number> => {
      const m = await p.inspector.queryRows(20, {
        where: spec.where,
        ...(spec.sort ? { sort: spec.sort } : {}),
        offset: 0,
        limit: 1,
      });
      assert.equal(m.type, 'rows', `${spec.title}: ${JSON.stringify(m)}`);
      return (m as RowsMessage).page.total;
    };
    const bins = r.tables.reliability!;
    for (const [i, spec] of d.tables['reliability.table']!.rows!.entries())
      assert.equal(await total(spec!), bins[i]!.count, spec!.title);
    const rc = r.curves.riskCoverage!;
    // Coverage is a share of the rows the selective family measured (here the 150 test rows of the val/test protocol).
    const measured = d.charts.riskCoverage!.points![0]![0]!.where.slice(0, -1);
    assert.deepEqual(measured, [{ key: 'split_role', op: '=', value: 'test' }]);
    const n = await total({ title: 'measured rows', where: measured });
    assert.equal(n, 150);
    for (const i of [0, Math.floor(rc.xs.length / 2), rc.xs.length - 1])
      assert.equal(
        await total(d.charts.riskCoverage!.points![0]![i]!),
        Math.round(rc.xs[i]! * n),
        `coverage ${rc.xs[i]}`,
      );
    for (const [i, row] of r.tables.perClass!.entries())
      assert.equal(await total(d.tables.perClass!.rows![i]!), row.support, `class ${row.class}`);
    const shots = r.tables.perClass!.reduce<Record<string, number>>(
      (a, row) => ({ ...a, [row.shot!]: (a[row.shot!] ?? 0) + row.support }),
      {},
    );
    for (const shot of ['many', 'medium', 'few'])
      if (d.cards[`acc_${shot}`]) assert.equal(await total(d.cards[`acc_${shot}`]!), shots[shot], `${shot}-shot rows`);
  });

  it('ranking: a per-user histogram bar and an activity bin list as many users as the bar counts', async () => {
    if (!existsSync(ws('ranking-debian-deps/popularity.eval.json')))
      await evaluate('ranking-debian-deps/popularity.jsonl', 'ranking-debian-deps/popularity.eval.json', 120_000);
    const p = await openPanel('ranking-debian-deps/popularity.eval.json');
    const r = readResults(ws('ranking-debian-deps/popularity.eval.json'));
    const d = drillTargets(r, buildReportModel(r));
    const hist = r.tables.perUserHistograms!['ndcg@10']!;
    const specs = d.charts['perUser.ndcg@10']!.points![0]!;
    for (const i of [0, hist.counts.length - 1]) {
      const m = (await p.inspector.queryRows(21, { where: specs[i]!.where, offset: 0, limit: 5 })) as RowsMessage;
      assert.equal(m.page.total, hist.counts[i], specs[i]!.title);
      assert.equal(m.page.rows[0]?.kind, 'ranking');
    }
    const act = r.tables.activityBins!;
    for (const [i, spec] of d.tables['activityBins.table']!.rows!.entries()) {
      const m = (await p.inspector.queryRows(22, { where: spec!.where, offset: 0, limit: 1 })) as RowsMessage;
      assert.equal(m.page.total, act[i]!.users, spec!.title);
    }
    // Slices of a run: its per-user numbers; the report of an activity bin's users.
    const cand = (await p.inspector.sliceCandidates(23)) as Extract<HostMessage, { type: 'sliceCandidates' }>;
    assert.deepEqual(cand.candidates.map((c) => c.column).sort(), ['relevant', 'trainCount']);
    const first = d.tables['activityBins.table']!.rows![0]!;
    const reply = await p.inspector.evaluateSubset(24, first.where, () => p.refresh());
    assert.equal((reply as Extract<HostMessage, { type: 'reply' }>).ok, true, JSON.stringify(reply));
    assert.equal(p.inspector.subset!.results.source.rowsUsed, act[0]!.users);
    await p.inspector.evaluateSubset(25, [], () => p.refresh());
  });

  it('Mistakes: every wrong row, most confident first, a page at a time', async () => {
    const p = await openPanel('digits-lt/logreg.eval.json');
    const results = readResults(ws('digits-lt/logreg.eval.json'));
    const wrong = Math.round((1 - results.metrics.accuracy!.value!) * results.source.rowsUsed);
    const first = (await p.inspector.queryRows(2, {
      where: [...measured(results), { key: 'correct', op: '=', value: 'false' }],
      sort: { key: 'confidence', dir: 'desc' },
      offset: 0,
      limit: 50,
    })) as RowsMessage;
    assert.equal(first.page.total, wrong);
    assert.equal(first.page.rows.length, Math.min(50, wrong));
    const second = (await p.inspector.queryRows(3, {
      where: [...measured(results), { key: 'correct', op: '=', value: 'false' }],
      sort: { key: 'confidence', dir: 'desc' },
      offset: 50,
      limit: 50,
    })) as RowsMessage;
    const conf = [...first.page.rows, ...second.page.rows].map((r) => (r as ClassificationRowView).confidence!);
    assert.equal(conf.length, wrong);
    for (let i = 1; i < conf.length; i++) assert.ok(conf[i - 1]! >= conf[i]!, `sorted at ${i}`);
  });

  it("Open at line selects that row's line of the prediction file in an editor beside the report", async () => {
    const p = await openPanel('digits-lt/logreg.eval.json');
    const m = (await p.inspector.queryRows(4, {
      where: [
        { key: 'label', op: '=', value: '1' },
        { key: 'pred', op: '=', value: '4' },
      ],
      sort: { key: 'confidence', dir: 'desc' },
      offset: 0,
      limit: 10,
    })) as RowsMessage;
    const row = m.page.rows[0] as ClassificationRowView;
    assert.ok(row && row.line > 1);
    await p.inspector.openLine(row.line);
    const editor = await waitFor('the prediction file in an editor', () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.fsPath === ws('digits-lt/logreg.csv') ? e : undefined;
    });
    assert.equal(editor.selection.start.line, row.line - 1);
    assert.equal(editor.selection.start.character, 0);
    assert.equal(editor.selection.end.line, row.line - 1);
    const text = editor.document.lineAt(row.line - 1).text;
    assert.equal(editor.selection.end.character, text.length);
    // The physical line in the file is that row: its id, label and prediction.
    const physical = readFileSync(ws('digits-lt/logreg.csv'), 'utf8').split('\n')[row.line - 1]!;
    assert.equal(text, physical.replace(/\r$/, ''));
    assert.deepEqual(physical.split(',').slice(0, 3), [row.id, row.label, row.pred]);
    assert.notEqual(editor.viewColumn, p.panel.viewColumn, 'beside the report, not in its place');
  });

  it('Open at line on a record whose quoted field spans several lines selects the whole record', async () => {
    // Row b2's note holds two line breaks: the record is lines 3–5 of the file.
    const csv = 'id,label,pred,note\nb1,x,x,plain\nb2,y,x,"first\nsecond, with a comma\nthird"\nb3,x,y,last\n';
    makeFolder('multiline-open', { 'preds.csv': csv });
    await evaluate('multiline-open/preds.csv', 'multiline-open/preds.eval.json', 60_000);
    const p = await openPanel('multiline-open/preds.eval.json');
    const m = (await p.inspector.queryRows(6, {
      where: [{ key: 'id', op: '=', value: 'b2' }],
      offset: 0,
      limit: 1,
    })) as RowsMessage;
    const row = m.page.rows[0] as ClassificationRowView;
    const lines = csv.split('\n');
    const first = lines.findIndex((l) => l.startsWith('b2,'));
    const last = lines.findIndex((l) => l === 'third"');
    assert.equal(row.line, first + 1);
    await p.inspector.openLine(row.line);
    const editor = await waitFor('the prediction file in an editor', () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.fsPath === ws('multiline-open/preds.csv') ? e : undefined;
    });
    assert.equal(editor.selection.start.line, first);
    assert.equal(editor.selection.start.character, 0);
    assert.equal(editor.selection.end.line, last);
    assert.equal(editor.selection.end.character, lines[last]!.length);
  });

  it('Open on a row of a Parquet file says the file is binary and opens no editor', async () => {
    const dir = makeFolder('parquet-open', { 'eval-lens.json': readFileSync(ws('digits-lt/eval-lens.json'), 'utf8') });
    copyFileSync(
      path.join(REPO, 'test/fixtures/parquet/digits-logreg-wide.snappy.parquet'),
      path.join(dir, 'preds.parquet'),
    );
    await evaluate('parquet-open/preds.parquet', 'parquet-open/preds.eval.json', 60_000);
    const p = await openPanel('parquet-open/preds.eval.json');
    const m = (await p.inspector.queryRows(5, { where: [], offset: 0, limit: 1 })) as RowsMessage;
    assert.equal(m.type, 'rows');
    const row = m.page.rows[0]!;
    assert.equal(await p.inspector.openLine(row.line), undefined);
    assert.ok(
      !vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === path.join(dir, 'preds.parquet')),
      'the binary file is not opened as text',
    );
  });

  it('a file changed since its evaluation answers stale (Re-evaluate), not rows', async () => {
    makeFolder(
      'inspect-stale',
      {},
      { 'preds.csv': 'digits-lt/logreg.csv', 'eval-lens.json': 'digits-lt/eval-lens.json' },
    );
    await evaluate('inspect-stale/preds.csv', 'inspect-stale/preds.eval.json');
    const p = await openPanel('inspect-stale/preds.eval.json');
    const ok = await p.inspector.queryRows(5, { where: [], offset: 0, limit: 5 });
    assert.equal(ok.type, 'rows');
    const lines = readFileSync(ws('inspect-stale/preds.csv'), 'utf8').trimEnd().split('\n');
    appendFileSync(ws('inspect-stale/preds.csv'), `${lines[1]}\n`);
    const stale = await p.inspector.queryRows(6, { where: [], offset: 0, limit: 5 });
    assert.equal(stale.type, 'reply');
    assert.equal((stale as Extract<HostMessage, { type: 'reply' }>).ok, false);
    assert.equal((stale as Extract<HostMessage, { type: 'reply' }>).stale, true);
    assert.match((stale as Extract<HostMessage, { type: 'reply' }>).message ?? '', /changed since it was evaluated/);
  });

  it('a bad filter key becomes a message, and the worker stops when the reports close', async () => {
    const ctx = await activate();
    const p = await openPanel('digits-lt/logreg.eval.json');
    const bad = await p.inspector.queryRows(7, {
      where: [{ key: 'no_such_column', op: '=', value: '1' }],
      offset: 0,
      limit: 5,
    });
    assert.equal(bad.type, 'reply');
    assert.match((bad as Extract<HostMessage, { type: 'reply' }>).message ?? '', /no_such_column/);
    assert.equal(ctx.inspect.running, true);
    await closeAllEditors();
    await waitFor('the inspection worker to stop', () => !ctx.inspect.running, 10_000);
  });
});

describe('slices and subsets (a slice click shows the report of its rows)', function () {
  this.timeout(240_000);
  before(async () => {
    await activate();
    const config = JSON.parse(readFileSync(ws('digits-lt/eval-lens.json'), 'utf8')) as Record<string, unknown>;
    makeFolder(
      'inspect-slices',
      // metricsOn "all": the slices by split compare the validation and the test rows (with the
      // default "test", every metric and slice covers the test rows only)
      { 'eval-lens.json': JSON.stringify({ ...config, slices: ['split'], metricsOn: 'all', bootstrap: { n: 200 } }) },
      { 'preds.csv': 'digits-lt/logreg.csv' },
    );
    await evaluate('inspect-slices/preds.csv', 'inspect-slices/preds.eval.json', 60_000);
    await closeAllEditors();
  });
  after(closeAllEditors);

  it("the results' slice table reaches the report, one row per split value", async () => {
    const p = await openPanel('inspect-slices/preds.eval.json');
    const r = readResults(ws('inspect-slices/preds.eval.json'));
    const model = p.inspector.decorate(buildReportModel(r), r);
    const slices = model.inspect!.slices!;
    assert.deepEqual(slices.rows.map((s) => [s.slice, s.value]).sort(), [
      ['split', 'test'],
      ['split', 'val'],
    ]);
    const text = readFileSync(ws('inspect-slices/preds.csv'), 'utf8');
    for (const s of slices.rows) {
      const c = countCsv(text, s.value);
      assert.equal(s.n, c.rows);
      assert.equal(s.metrics.accuracy!.value, c.hits / c.rows);
      assert.deepEqual(s.where, [{ key: 'split', op: '=', value: s.value }]);
    }
    assert.ok(model.tabs.some((t) => t.id === 'slices'));
  });

  it("evaluateSubset → the report of the slice: accuracy equals the core's subset evaluation and a count of the rows", async () => {
    const p = await openPanel('inspect-slices/preds.eval.json');
    const where = [{ key: 'split', op: '=' as const, value: 'test' }];
    const reply = await p.inspector.evaluateSubset(11, where, () => p.refresh());
    assert.equal(reply.type, 'reply');
    assert.equal((reply as Extract<HostMessage, { type: 'reply' }>).ok, true, JSON.stringify(reply));
    const shown = p.inspector.subset!.results;
    const direct = await evaluateFile(ws('inspect-slices/preds.csv'), { subset: where });
    assert.equal(shown.metrics.accuracy!.value, direct.metrics.accuracy!.value);
    assert.equal(shown.metrics.macro_f1!.value, direct.metrics.macro_f1!.value);
    const c = countCsv(readFileSync(ws('inspect-slices/preds.csv'), 'utf8'), 'test');
    assert.equal(shown.source.rowsUsed, c.rows);
    assert.equal(shown.metrics.accuracy!.value, c.hits / c.rows);
    // The model the webview gets: the subset's cards, and the filter for the header.
    const full = readResults(ws('inspect-slices/preds.eval.json'));
    const model = p.inspector.decorate(buildReportModel(full), full);
    assert.deepEqual(model.inspect!.subset, { where, rows: c.rows });
    assert.equal(model.headline.find((k) => k.key === 'accuracy')!.value, c.hits / c.rows);
    // The status bar follows the report in front: the slice's accuracy, named as the slice's.
    const ctx = await activate();
    const status = (): string => (ctx.status as unknown as { item: vscode.StatusBarItem }).item.text;
    p.panel.reveal();
    await p.showInStatusBar();
    await waitFor(
      'the status bar shows the slice',
      () => status().includes('slice split = test') && status().includes((c.hits / c.rows).toFixed(4)),
      20_000,
    );
    // An empty filter goes back to the whole file.
    await p.inspector.evaluateSubset(12, [], () => p.refresh());
    assert.equal(p.inspector.subset, undefined);
    await p.showInStatusBar();
    await waitFor(
      'the status bar shows the whole file again',
      () => !status().includes('slice') && status().includes(full.metrics.accuracy!.value!.toFixed(4)),
      20_000,
    );
  });

  it('slices on demand: candidates and a slice table computed by the worker for a file evaluated without slices', async () => {
    makeFolder('inspect-ondemand', {
      'preds.csv':
        readFileSync(ws('digits-lt/logreg.csv'), 'utf8')
          .trimEnd()
          .split('\n')
          .map((l, i) => `${l},${i === 0 ? 'scanner' : 'ABC'[i % 3]}`)
          .join('\n') + '\n',
    });
    await evaluate('inspect-ondemand/preds.csv', 'inspect-ondemand/preds.eval.json', 60_000);
    const p = await openPanel('inspect-ondemand/preds.eval.json');
    const cand = await p.inspector.sliceCandidates(13);
    assert.equal(cand.type, 'sliceCandidates', JSON.stringify(cand));
    assert.deepEqual((cand as Extract<HostMessage, { type: 'sliceCandidates' }>).candidates, [
      { column: 'scanner', distinct: 3, numeric: false },
    ]);
    const t = await p.inspector.computeSlices(14, ['scanner']);
    assert.equal(t.type, 'slices', JSON.stringify(t));
    const rows = (t as Extract<HostMessage, { type: 'slices' }>).table.rows;
    assert.deepEqual(rows.map((r) => r.value).sort(), ['A', 'B', 'C']);
    // The file has a split column: the slices cover its test rows, as every metric does.
    const test = readFileSync(ws('inspect-ondemand/preds.csv'), 'utf8')
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','))
      .filter((c) => c[3] === 'test');
    assert.equal(
      rows.reduce((a, r) => a + r.n, 0),
      test.length,
    );
    assert.equal(rows.find((r) => r.value === 'B')!.n, test.filter((c) => c[c.length - 1] === 'B').length);
  });
});

/** Rows and correct rows of a split in the digits-lt CSV (columns id,label,pred,split,…), counted here. */
function countCsv(text: string, split: string): { rows: number; hits: number } {
  const rows = text
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','))
    .filter((c) => c[3] === split);
  return { rows: rows.length, hits: rows.filter((c) => c[1] === c[2]).length };
}
