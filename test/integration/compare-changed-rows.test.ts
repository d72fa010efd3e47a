/// <reference types="mocha" />
/**
 * The comparison panel's Changed rows tab, through the panel's host handlers (the answers the
 * webview gets): the rows that flipped between two runs of the digits example — each checked
 * against the two CSV files read here — and Open at line in both files side by side: two editors
 * beside the report, each with the row's whole line selected.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { CompareResults } from '../../src/core/compare/types';
import type { HostMessage } from '../../src/shared/protocol';
import { activate, closeAllEditors, evaluate, readJson, runAccepting, uri, waitFor, ws } from './helpers';

type DiffMessage = Extract<HostMessage, { type: 'diff' }>;

/**
 * id → [1-based line, label, pred] of the test rows of a digits CSV (id,label,pred,split,… with a
 * header line): the rows a comparison's metrics, and so its Changed rows, cover.
 */
function csvRows(rel: string): Map<string, [number, string, string]> {
  const lines = readFileSync(ws(rel), 'utf8').split('\n');
  assert.match(lines[0]!, /^id,label,pred,split,/);
  const out = new Map<string, [number, string, string]>();
  lines.forEach((l, i) => {
    if (i === 0 || l.trim() === '') return;
    const [id, label, pred, split] = l.split(',');
    if (split === 'test') out.set(id!, [i + 1, label!, pred!]);
  });
  return out;
}

describe('comparison: Changed rows (diff, Open at line in both files)', function () {
  this.timeout(240_000);
  const names = ['digits-lt/knn-vs-logreg.compare.json', 'digits-lt/logreg-vs-knn.compare.json'];
  let file: string;
  before(async () => {
    await activate();
    await closeAllEditors();
    if (!existsSync(ws('digits-lt/logreg.eval.json')))
      await evaluate('digits-lt/logreg.csv', 'digits-lt/logreg.eval.json');
    await evaluate('digits-lt/knn.csv', 'digits-lt/knn.eval.json');
    const a = uri('digits-lt/logreg.eval.json');
    const b = uri('digits-lt/knn.eval.json');
    // The baseline pick defaults to the first: logreg (a results file, read through the prediction file it names).
    await runAccepting('evalLens.compare', [a, [a, b]], () => names.some((n) => existsSync(ws(n))));
    file = names.find((n) => existsSync(ws(n)))!;
  });
  after(closeAllEditors);

  it('lists exactly the rows whose correctness flipped, and opens both lines side by side', async () => {
    const c = readJson<CompareResults>(ws(file));
    const ctx = await activate();
    await vscode.commands.executeCommand('evalLens.openReport', uri(file));
    const p = await waitFor('the comparison panel', () => ctx.panels.panelFor(uri(file)), 30_000);
    const run = c.runs.find((r) => r !== c.baseline)!;
    const [aRel, bRel] = /logreg/.test(c.baseline)
      ? ['digits-lt/logreg.csv', 'digits-lt/knn.csv']
      : ['digits-lt/knn.csv', 'digits-lt/logreg.csv'];
    const m = (await p.compareRows.diffRows(1, { run, where: [], limit: 1000 })) as DiffMessage;
    assert.equal(m.type, 'diff', JSON.stringify(m).slice(0, 300));
    const d = m.diff;
    // Independently: the rows of the two files by id, and those right in one and wrong in the other.
    const A = csvRows(aRel);
    const B = csvRows(bRel);
    const flipped = [...A.keys()].filter(
      (id) => (A.get(id)![1] === A.get(id)![2]) !== (B.get(id)![1] === B.get(id)![2]),
    );
    const lost = flipped.filter((id) => A.get(id)![1] === A.get(id)![2]).length;
    assert.equal(d.n, A.size);
    assert.deepEqual(d.measured, { testRows: 150, rowsInFile: 300 });
    assert.equal(d.changed, flipped.length);
    assert.deepEqual(d.cells && [d.cells.lost, d.cells.gained], [lost, flipped.length - lost]);
    assert.deepEqual(new Set(d.rows.map((r) => r.id)), new Set(flipped));
    for (const r of d.rows) {
      assert.equal(r.lineA, A.get(r.id!)![0], `line of ${r.id} in ${aRel}`);
      assert.equal(r.lineB, B.get(r.id!)![0], `line of ${r.id} in ${bRel}`);
    }
    // Worst for B first: the rows B lost come first.
    assert.ok(d.rows.slice(0, lost).every((r) => r.a === 1 && r.b === 0));

    // A row whose lines differ in the two files, if any (the files keep one order here), else the first.
    const row = d.rows[0]!;
    const editors = await p.compareRows.openLines(run, row.lineA, row.lineB);
    assert.equal(editors.length, 2);
    for (const [rel, line] of [
      [aRel, row.lineA],
      [bRel, row.lineB],
    ] as const) {
      const e = await waitFor(`${rel} in a visible editor`, () =>
        vscode.window.visibleTextEditors.find((x) => x.document.uri.fsPath === ws(rel)),
      );
      const l = line - 1;
      assert.equal(e.selection.start.line, l, rel);
      assert.equal(e.selection.start.character, 0, rel);
      assert.equal(e.selection.end.line, l, rel);
      assert.equal(e.selection.end.character, e.document.lineAt(l).text.length, rel);
      assert.equal(e.document.lineAt(l).text.split(',')[0], row.id, `${rel} line ${line} is the row ${row.id}`);
      assert.notEqual(e.viewColumn, p.panel.viewColumn, 'beside the report, not in its place');
    }
    const [ea, eb] = editors;
    assert.notEqual(ea!.viewColumn, eb!.viewColumn, 'side by side: two columns');
  });

  it('a run that is not in the comparison, or the baseline itself, is answered with a reason', async () => {
    const c = readJson<CompareResults>(ws(file));
    const ctx = await activate();
    const p = ctx.panels.panelFor(uri(file))!;
    for (const run of ['digits-lt/svc_rbf.csv', c.baseline]) {
      const m = await p.compareRows.diffRows(2, { run, where: [], limit: 10 });
      assert.equal(m.type, 'reply');
      assert.match((m as Extract<HostMessage, { type: 'reply' }>).message ?? '', /other than the baseline/);
    }
  });
});
