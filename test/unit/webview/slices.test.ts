/// <reference lib="dom" />
// The Slices tab's component in a DOM (happy-dom), on the slice table of
// examples/digits-lt/logreg.csv sliced by label (quantile bins, with bootstrap intervals): the rows
// worst first with each slice's size and accuracy counted from the CSV by hand, its targets (a
// slice's row shows the slice's report: click and Enter post its filter), the order, the minimum
// size and the metric chosen, the slice finder above it (not for a ranking run), the picker of
// candidate columns when the results have no slice table (asked once the tab is visible), the
// finder's found slices passed on as the tab's drill-down targets, and the observers (theme,
// visibility) removed on disconnect.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { evaluateFile } from '../../../src/core/evaluate';
import { findSlicesInFile } from '../../../src/core/inspect/sliceFinderFiles';
import type { FilterTerm } from '../../../src/core/rows/types';
import { readSliceTable, type InspectModel, type SliceTable } from '../../../src/shared/inspectModel';
import type { ReportModel } from '../../../src/shared/model';
import { buildReportModel } from '../../../src/shared/report';
import { fakeIntersectionObservers, installDom, until, type TestDom, type VisibilityObserver } from './happyDom';

const CSV = 'examples/digits-lt/logreg.csv';

let dom: TestDom;
let model: ReportModel;
let table: SliceTable;
let sl: typeof import('../../../webview/slices');
let api: typeof import('../../../webview/vscodeApi');

/** The visibility observers made (happy-dom's never fires). */
let observers: VisibilityObserver[];

before(async () => {
  const results = await evaluateFile(CSV, {
    overrides: { slices: ['label'], bootstrap: { n: 200, seed: 0 } },
    root: process.cwd(),
  });
  model = buildReportModel(results);
  const dirs = Object.fromEntries(Object.entries(results.metrics).map(([k, m]) => [k, m.direction]));
  table = readSliceTable(results.tables.slices, dirs)!;
  dom = installDom();
  observers = fakeIntersectionObservers();
  // happy-dom lays nothing out and has no 2D canvas: the chart is left to the UI tests, as for a
  // hidden tab (no offsetParent), which the component does not draw.
  Object.defineProperty(HTMLElement.prototype, 'offsetParent', { get: () => null, configurable: true });
  sl = await import('../../../webview/slices');
  api = await import('../../../webview/vscodeApi');
});
after(() => dom.close());

/** The test rows (the rows the metrics cover) matching `where`, and how many the model got right. */
function byHand(where: FilterTerm[]): { n: number; accuracy: number } {
  let n = 0;
  let right = 0;
  for (const line of readFileSync(CSV, 'utf8').trimEnd().split('\n').slice(1)) {
    const c = line.split(',');
    const label = Number(c[1]);
    const keep = where.every((w) =>
      w.op === '>=' ? label >= Number(w.value) : w.op === '<' ? label < Number(w.value) : assert.fail(w.op),
    );
    if (c[3] !== 'test' || !keep) continue;
    n++;
    if (c[1] === c[2]) right++;
  }
  return { n, accuracy: right / n };
}

function inspect(extra: Partial<InspectModel> = {}): InspectModel {
  return {
    task: 'classification',
    minSliceSize: 1,
    slices: table,
    drill: { charts: {}, tables: {}, cards: {} },
    ...extra,
  };
}

async function mount(insp: InspectModel) {
  const status: string[] = [];
  const panel = document.createElement('div');
  document.body.append(panel);
  const e = sl.renderSlices(
    panel,
    model,
    insp,
    (t) => void status.push(t),
    () => undefined,
  );
  await e.updateComplete;
  const rows = () => [...e.querySelectorAll<HTMLElement>('.slice-table tbody tr')];
  const info = () => e.querySelector('.slices-body > p.note')!.textContent;
  return { e, panel, status, rows, info };
}

test('the slices worst first, each with its size and accuracy counted from the CSV', async () => {
  const { e, rows, info } = await mount(inspect());
  assert.equal(table.rows.length, 4);
  assert.equal(e.querySelector<HTMLElement>('.slice-table')!.dataset.metric, 'accuracy');
  const shown = rows().map((tr) => {
    const slice = table.rows.find((r) => `${r.slice}=${r.value}` === tr.dataset.slice)!;
    return { tr, slice, hand: byHand(slice.where) };
  });
  assert.equal(shown.length, 4);
  for (const { tr, hand } of shown) {
    assert.equal(tr.children[2]!.textContent, String(hand.n));
    assert.equal(Number(tr.querySelector<HTMLElement>('td[data-value]')!.dataset.value), hand.accuracy);
  }
  const accuracies = shown.map((s) => s.hand.accuracy);
  assert.deepEqual(
    accuracies,
    [...accuracies].sort((a, b) => a - b),
    'worst (lowest accuracy) first',
  );
  assert.equal(
    shown.reduce((a, s) => a + s.hand.n, 0),
    150,
    'the bins cover the 150 test rows',
  );
  // the headings are the labels (no white space around them)
  assert.deepEqual(
    [...e.querySelectorAll('.slice-table thead th')].map((th) => th.textContent),
    ['slice', 'value', 'rows', 'accuracy ↑', 'interval', 'Δ vs whole file', 'Δ interval'],
  );
  assert.equal(info(), '4 slices; worst first. Choose a slice (click or Enter) to show the report of its rows.');
  // the slice finder sits above (a classification run)
  assert.ok(e.querySelector('eval-found-slices section.found-slices'));
  e.remove();
});

test("its targets: a slice's row shows the slice's report (click or Enter posts its filter)", async () => {
  const { e, rows, status } = await mount(inspect());
  const targets = e.sliceTargets;
  assert.deepEqual(
    targets.map((t) => t.element),
    rows(),
  );
  for (const t of targets) {
    assert.equal(t.element.tabIndex, 0);
    assert.equal(t.element.dataset.slice, `${t.slice.slice}=${t.slice.value}`);
  }
  targets[1]!.element.click();
  const a = await dom.nextPosted('evaluateSubset');
  assert.deepEqual(a.where, targets[1]!.slice.where);
  api.answer({ type: 'reply', seq: a.seq, ok: true });
  targets[0]!.element.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
  const b = await dom.nextPosted('evaluateSubset');
  assert.deepEqual(b.where, targets[0]!.slice.where);
  api.answer({ type: 'reply', seq: b.seq, ok: false, message: 'The file changed.' });
  await until(() => status.at(-1) === 'The file changed.', 'the status');
  assert.match(status[0]!, /^Evaluating the slice label >= /);
  e.remove();
});

test('sort by a column, a minimum size and another metric redraw the table', async () => {
  const { e, rows, info } = await mount(inspect());
  const sizes = () => rows().map((tr) => Number(tr.children[2]!.textContent));
  const sortBySize = async (): Promise<HTMLElement> => {
    const button = e.querySelector<HTMLElement>('button[data-sort="n"]')!;
    button.click();
    await e.updateComplete;
    return button;
  };
  const button = await sortBySize();
  assert.deepEqual(
    sizes(),
    [...sizes()].sort((a, b) => b - a),
    'largest first',
  );
  assert.equal(button.closest('th')!.getAttribute('aria-sort'), 'descending');
  assert.equal(button.textContent, 'rows ▼');
  assert.match(info(), /sorted by the chosen column/);
  await sortBySize();
  assert.deepEqual(
    sizes(),
    [...sizes()].sort((a, b) => a - b),
    'smallest first',
  );
  assert.equal(button.closest('th')!.getAttribute('aria-sort'), 'ascending');

  const min = e.querySelector<HTMLInputElement>('input.slice-min')!;
  const cut = Math.max(...sizes());
  min.value = String(cut);
  min.dispatchEvent(new Event('change', { bubbles: true }));
  await e.updateComplete;
  assert.ok(sizes().every((n) => n >= cut));
  const left = table.rows.filter((r) => r.n < cut).length;
  assert.ok(left > 0);
  assert.equal(rows().length, 4 - left);
  assert.match(info(), new RegExp(`\\(${left} smaller than ${cut} rows left out\\)`));

  const metric = e.querySelector<HTMLSelectElement>('select.slice-metric')!;
  metric.value = 'ece';
  metric.dispatchEvent(new Event('change', { bubbles: true }));
  await e.updateComplete;
  assert.equal(e.querySelector<HTMLElement>('.slice-table')!.dataset.metric, 'ece');
  assert.ok([...e.querySelectorAll('.slice-table thead th')].some((th) => th.textContent === 'ece ↓'));
  e.remove();
});

test('no slice table: the candidate columns are asked for once the tab is visible, then sliced on demand', async () => {
  const before = observers.length;
  const { e, status } = await mount(inspect({ slices: undefined }));
  const picker = () => e.querySelector('.slice-picker')!;
  assert.equal(picker().textContent!.trim(), 'Looking for columns to slice by…');
  assert.equal(dom.posted.filter((m) => m.type === 'sliceCandidates').length, 0, 'not before the tab is shown');
  const seen = observers[before]!;
  assert.deepEqual(seen.targets, [e]);
  seen.show();
  const q = await dom.nextPosted('sliceCandidates');
  api.answer({
    type: 'sliceCandidates',
    seq: q.seq,
    candidates: [{ column: 'split', numeric: false, distinct: 2 }],
  });
  await until(() => e.querySelector('select.slice-column') !== null, 'the picker');
  assert.match(e.querySelector('select.slice-column option')!.textContent!, /split \(2 distinct values\)/);
  e.querySelector<HTMLElement>('vscode-button[data-act="compute-slices"]')!.click();
  const c = await dom.nextPosted('computeSlices');
  assert.deepEqual(c.by, ['split']);
  api.answer({ type: 'slices', seq: c.seq, table });
  await until(() => e.querySelector('.slice-table') !== null, 'the table computed on demand');
  assert.equal(e.querySelectorAll('.slice-table tbody tr').length, 4);
  assert.match(e.querySelector('.slices-body')!.textContent!, /Sliced by split on demand/);
  assert.deepEqual(status, ['Slicing by split…', '']);
  e.remove();
});

test("the finder's found slices are the tab's drill-down targets, each opening its slice's rows", async () => {
  const found = await findSlicesInFile(CSV, { root: process.cwd() });
  const opened: { where: FilterTerm[]; anchor: HTMLElement }[] = [];
  const panel = document.createElement('div');
  document.body.append(panel);
  const e = sl.renderSlices(
    panel,
    model,
    inspect(),
    () => undefined,
    (spec, anchor) => void opened.push({ where: spec.where, anchor }),
  );
  await e.updateComplete;
  const finder = e.querySelector('eval-found-slices')!;
  await finder.updateComplete;
  assert.equal(e.drillTargets.length, 0, 'none before the finder answers');
  finder.querySelector<HTMLElement>('vscode-button[data-act="find-slices"]')!.click();
  const q = await dom.nextPosted('findSlices');
  api.answer({ type: 'foundSlices', seq: q.seq, result: found });
  await until(() => finder.querySelector('.found-slices-table') !== null, 'the found slices');
  assert.ok(found.slices.length > 0);
  const targets = e.drillTargets;
  assert.deepEqual(
    targets.map((t) => t.spec.where),
    found.slices.map((x) => x.where),
  );
  assert.ok(targets.every((t, i) => t.element === finder.querySelectorAll('tr.found-slice')[i] && t.anchor === finder));
  (targets[0]!.element as HTMLElement).click();
  assert.deepEqual(opened, [{ where: found.slices[0]!.where, anchor: finder }]);
  panel.remove();
});

test('a ranking run has no slice finder; the observers are removed on disconnect', async () => {
  const disconnects: string[] = [];
  const mo = MutationObserver.prototype.disconnect;
  MutationObserver.prototype.disconnect = function (this: MutationObserver) {
    disconnects.push('theme');
    mo.call(this);
  };
  try {
    const before = observers.length;
    const { e, panel } = await mount(inspect({ task: 'ranking' }));
    assert.equal(e.querySelector('eval-found-slices'), null);
    assert.equal(e.querySelector('.slice-table thead th:nth-child(3)')!.textContent, 'users');
    assert.equal(observers[before]!.disconnected, false);
    panel.remove();
    assert.equal(observers[before]!.disconnected, true);
    assert.deepEqual(disconnects, ['theme']);
  } finally {
    MutationObserver.prototype.disconnect = mo;
  }
});
