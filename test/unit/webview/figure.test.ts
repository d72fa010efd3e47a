/// <reference lib="dom" />
// The figure component (<eval-figure>, webview/figure.ts) in a DOM (happy-dom), with the charts of
// the classification report of examples/digits-lt/logreg.csv (its drill-down targets as the host
// builds them) and of the ranking report of examples/ranking-debian-deps/cooccurrence.jsonl.
// Checked: the figure of the reliability diagram (caption, buttons, the chart and its canvas's
// label, its table hidden with each bin's count as counted from the CSV); the toggle and Enter or
// Space on the chart switching to the table (focus on its first button) and back, remembered by
// the panel; the per-user variants of the ranking report (the remembered one drawn, another
// chosen in place and remembered); the explorer's marker handed to the chart; the drill-down
// targets (the reliability table's rows, the confusion matrix's cells, largest confusions and
// table cells, each with the host's filter, opened after the figure by click and Enter; none
// without rows to list); a chart's point clicked listing its rows after the figure (the chart
// drawn by a stand-in saying which points lie under the mouse); the item map highlighted through
// its picker; and no listener or observer left once the figure leaves the document.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { DrillSpec, DrillTargets } from '../../../src/shared/drillSpec';
import type { ChartModel, RefLine, ReportModel } from '../../../src/shared/model';
import type { ChartPoint } from '../../../webview/charts';
import { logregReport } from './classificationExample';
import { rankingExample, type RankingExample } from './rankingExample';
import { countListeners, fakeResizeObservers, installDom, until, type SizeObserver, type TestDom } from './happyDom';

const CSV = 'examples/digits-lt/logreg.csv';

let dom: TestDom;
let logreg: ReportModel;
let drill: DrillTargets;
let ex: RankingExample;
let sizes: SizeObserver[];
let fg: typeof import('../../../webview/figure');
let dr: typeof import('../../../webview/drill');
let api: typeof import('../../../webview/vscodeApi');

before(async () => {
  ({ model: logreg, drill } = await logregReport());
  ex = await rankingExample();
  dom = installDom();
  sizes = fakeResizeObservers();
  // happy-dom has no 2D canvas: the theme's colour probe (the confusion matrix's shading) gets a
  // stand-in that keeps the colour it is given. The charts are never drawn here (they get no size).
  (HTMLCanvasElement.prototype as unknown as { getContext(): unknown }).getContext = () => ({ fillStyle: '' });
  fg = await import('../../../webview/figure');
  dr = await import('../../../webview/drill');
  api = await import('../../../webview/vscodeApi');
});
after(() => dom.close());

const chartOf = (m: ReportModel, id: string): ChartModel => m.tabs.flatMap((t) => t.charts).find((c) => c.id === id)!;

/** The test rows of the CSV: true class, prediction, top probability. */
function testRows(): { label: string; pred: string; top: number }[] {
  return readFileSync(CSV, 'utf8')
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','))
    .filter((c) => c[3] === 'test')
    .map((c) => ({ label: c[1]!, pred: c[2]!, top: Math.max(...c.slice(4).map(Number)) }));
}

/** What the figure asked of the panel. */
interface Panel {
  memory: Record<string, string>;
  tables: Set<string>;
  status: string[];
  opened: { spec: DrillSpec; anchor: HTMLElement; origin: HTMLElement }[];
}

/** A figure of `charts` in the document, its host the panel `p` with the drill-down targets `d` (none: no rows). */
function mount(
  m: ReportModel,
  charts: readonly ChartModel[],
  d: DrillTargets | undefined,
  p: Partial<Panel> = {},
  picker?: { users: readonly string[]; follows?: EventTarget },
) {
  const panel: Panel = { memory: {}, tables: new Set(), status: [], opened: [], ...p };
  const host: import('../../../webview/figure').FigureHost = {
    status: (text) => void panel.status.push(text),
    recall: (key) => panel.memory[key],
    remember: (key, value) => void (panel.memory[key] = value),
    tableShown: (id) => panel.tables.has(id),
    showTable: (id, on) => void (on ? panel.tables.add(id) : panel.tables.delete(id)),
    tableDrill: (id) => d?.tables[id],
    chartPoints: (id) => d?.charts[id]?.points,
    cellsMeasured: (id) => (d?.charts[id]?.cells ? (d.measured ?? []) : undefined),
    open: (spec, anchor, origin) => void panel.opened.push({ spec, anchor, origin }),
    reportTitle: () => m.title,
  };
  const f = fg.chartFigure(charts, host, new Map(), picker);
  document.body.append(f);
  return { f, panel };
}

const key = (e: HTMLElement, k: string): void =>
  void e.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
const hidden = (f: HTMLElement, sel: string): boolean => f.querySelector<HTMLElement>(sel)!.hidden;

test('draws the figure of a chart: caption, buttons, the chart, and its table hidden with the counts of the CSV', async () => {
  const c = chartOf(logreg, 'reliability');
  const { f } = mount(logreg, [c], drill);
  // Drawn as it entered the document.
  const fig = f.figure!;
  assert.equal(fig.id, 'chart-reliability');
  assert.equal(fig.dataset.chart, 'reliability');
  assert.equal(fig.className, 'chart');
  assert.equal(fig.querySelector('figcaption')!.textContent, 'Reliability diagram');
  assert.deepEqual(
    [...fig.querySelectorAll('.chart-head .actions > *')].map((b) => [b.getAttribute('data-act'), b.textContent]),
    [
      ['toggle', 'Show table'],
      ['png', 'Save PNG'],
    ],
  );
  assert.equal(fig.querySelector('vscode-single-select'), null, 'one chart: no variants');
  const chart = f.chart!;
  assert.equal(chart.model, c);
  await chart.updateComplete;
  assert.equal(
    fig.querySelector('canvas')!.getAttribute('aria-label'),
    `Reliability diagram. ${c.description} Press Enter for the data table.`,
  );
  assert.equal(hidden(f, '.canvas-box'), false);
  assert.equal(hidden(f, '.table-alt'), true);
  // The table: one row per confidence bin, each with the test rows whose top probability is in it.
  const table = f.table!;
  assert.equal(table.dataset.table, 'reliability.table');
  const rows = [...table.querySelectorAll('vscode-table-row')];
  const byHand = Array.from({ length: 10 }, () => 0);
  for (const r of testRows()) byHand[Math.min(9, Math.ceil(r.top * 10) - 1)]!++;
  assert.deepEqual(
    rows.map((r) => Number(r.children[1]!.textContent)),
    byHand,
  );
  assert.equal(
    byHand.reduce((a, b) => a + b, 0),
    150,
  );
  assert.equal(rows[2]!.children[0]!.textContent, '(0.200, 0.300]');
  assert.equal(byHand[2], 7);
  f.remove();
});

test('the toggle and Enter or Space on the chart show its table (focus on its first button), remembered by the panel', async () => {
  const c = chartOf(logreg, 'riskCoverage');
  const { f, panel } = mount(logreg, [c], drill);
  const toggle = f.querySelector<HTMLElement>('vscode-button[data-act="toggle"]')!;
  toggle.click();
  assert.equal(f.state.table, true);
  assert.equal(toggle.textContent, 'Show chart');
  assert.equal(hidden(f, '.canvas-box'), true);
  assert.equal(hidden(f, '.table-alt'), false);
  assert.deepEqual([...panel.tables], ['riskCoverage']);
  toggle.click();
  assert.equal(toggle.textContent, 'Show table');
  assert.equal(hidden(f, '.table-alt'), true);
  assert.deepEqual([...panel.tables], []);

  await f.chart!.updateComplete;
  const canvas = f.querySelector<HTMLCanvasElement>('canvas')!;
  assert.equal(canvas.getAttribute('tabindex'), '0', 'the chart is reachable by Tab');
  key(canvas, 'a');
  assert.equal(f.state.table, false, 'another key does nothing');
  for (const k of ['Enter', ' ']) {
    canvas.focus();
    key(canvas, k);
    assert.equal(f.state.table, true, `${JSON.stringify(k)} shows the table`);
    assert.equal(hidden(f, '.table-alt'), false);
    assert.equal(document.activeElement, f.querySelector('.table-alt vscode-button[data-act="copy-md"]'));
    assert.deepEqual([...panel.tables], ['riskCoverage']);
    toggle.click();
  }
  f.remove();

  // Drawn anew (a later stage of the report), the figure shows what the panel remembers: the table.
  const again = mount(logreg, [c], drill, { tables: new Set(['riskCoverage']) }).f;
  assert.equal(hidden(again, '.canvas-box'), true);
  assert.equal(hidden(again, '.table-alt'), false);
  assert.equal(again.querySelector('vscode-button[data-act="toggle"]')!.textContent, 'Show chart');
  again.remove();
});

test('a group of charts: the variant remembered is drawn, another one chosen in place and remembered', async () => {
  const perUser = ex.model.tabs.flatMap((t) => t.charts).filter((c) => c.group?.id === 'perUser');
  assert.equal(perUser.length, 26);
  const { f, panel } = mount(ex.model, perUser, undefined, { memory: { perUser: perUser[2]!.id } });
  const select = f.querySelector<HTMLElement & { value: string }>('vscode-single-select.variant')!;
  assert.equal(select.getAttribute('aria-label'), 'Per-user distribution');
  const options = [...select.querySelectorAll('vscode-option')];
  assert.deepEqual(
    options.map((o) => [o.getAttribute('value'), o.textContent]),
    perUser.map((c) => [c.id, c.group!.option]),
  );
  assert.deepEqual(
    options.filter((o) => o.hasAttribute('selected')).map((o) => o.textContent),
    ['Recall at 20'],
  );
  assert.equal(f.figure!.id, `chart-${perUser[2]!.id}`);
  assert.equal(f.chart!.model, perUser[2]);
  assert.equal(f.table!.dataset.table, 'perUser.recall@20.table');

  // The user picks NDCG at 10 (the select's value set, then its change event).
  const fig = f.figure;
  const chart = f.chart;
  const next = perUser.find((c) => c.id === 'perUser.ndcg@10')!;
  select.value = next.id;
  select.dispatchEvent(new Event('change', { bubbles: true }));
  await f.updateComplete;
  assert.equal(panel.memory.perUser, 'perUser.ndcg@10');
  assert.equal(f.figure, fig, 'drawn in place');
  assert.equal(f.figure!.id, 'chart-perUser.ndcg@10');
  assert.equal(f.figure!.dataset.chart, 'perUser.ndcg@10');
  assert.equal(f.querySelector('figcaption')!.textContent, next.title);
  assert.equal(f.chart, chart, 'the same chart element, drawing the variant');
  assert.equal(f.chart!.model, next);
  assert.equal(f.table!.dataset.table, 'perUser.ndcg@10.table');
  assert.deepEqual(
    options.filter((o) => o.hasAttribute('selected')).map((o) => o.textContent),
    ['NDCG at 10'],
  );
  f.remove();
});

test("the explorer's marker goes to the chart, the same array until it changes", async () => {
  const c = chartOf(logreg, 'riskCoverage');
  const { f } = mount(logreg, [c], drill);
  assert.deepEqual(f.chart!.marks, []);
  const line: RefLine = { axis: 'x', value: 0.8, label: 'coverage 0.8', colour: 'purple' };
  f.marks = new Map([['riskCoverage', line]]);
  await f.updateComplete;
  const marks = f.chart!.marks;
  assert.deepEqual(marks, [line]);
  f.querySelector<HTMLElement>('vscode-button[data-act="toggle"]')!.click();
  f.marks = new Map([
    ['riskCoverage', line],
    ['reliability', { ...line, value: 0.5 }],
  ]);
  await f.updateComplete;
  assert.equal(f.chart!.marks, marks, 'not handed again: the chart is not marked again');
  f.marks = new Map();
  await f.updateComplete;
  assert.deepEqual(f.chart!.marks, []);
  f.remove();
});

test("the reliability table's rows are the figure's targets, opened after the figure by click and Enter", () => {
  const c = chartOf(logreg, 'reliability');
  const { f, panel } = mount(logreg, [c], drill);
  const specs = drill.tables['reliability.table']!.rows!;
  const targets = f.drillTargets;
  const rows = [...f.querySelectorAll<HTMLElement>('.table-alt vscode-table-row')];
  assert.deepEqual(
    targets.map((t) => [t.element, t.spec, t.anchor]),
    specs.flatMap((s, i) => (s ? [[rows[i], s, f]] : [])),
  );
  assert.equal(targets.length, 10);
  // The bin (0.2, 0.3]: its 7 test rows.
  const bin = targets[2]!;
  assert.deepEqual(bin.spec.where, [
    { key: 'split_role', op: '=', value: 'test' },
    { key: 'confidence', op: '>', value: '0.2' },
    { key: 'confidence', op: '<=', value: '0.3' },
  ]);
  assert.equal(bin.element.getAttribute('tabindex'), '0');
  assert.equal(bin.element.getAttribute('aria-description'), `Confidence in (0.200, 0.300]. ${dr.ROWS_HINT}`);
  bin.element.click();
  key(targets[5]!.element, 'Enter');
  assert.deepEqual(
    panel.opened.map((o) => [o.spec, o.anchor, o.origin]),
    [
      [bin.spec, f, bin.element],
      [targets[5]!.spec, f, targets[5]!.element],
    ],
  );
  f.remove();
});

test("a click on a chart's point lists the rows behind it after the figure; the pointer shows which points have rows", async () => {
  const c = chartOf(logreg, 'reliability');
  const points = drill.charts.reliability!.points!;
  const { f, panel } = mount(logreg, [c], drill);
  const chart = f.chart!;
  await chart.updateComplete;
  // happy-dom has no 2D canvas: the chart is drawn by a stand-in that says which points lie under the mouse.
  let under: ChartPoint[] = [];
  chart.draw = (canvas) => ({ canvas, destroy: () => undefined, pointsAt: () => under });
  sizes
    .filter((o) => o.targets.includes(chart))
    .at(-1)!
    .resize(640, 340);
  assert.equal(chart.state.phase, 'drawn');
  const canvas = f.querySelector('canvas')!;
  const mouse = (type: string): void => void canvas.dispatchEvent(new MouseEvent(type, { bubbles: true }));
  // The point of the bin (0.2, 0.3]: its 7 test rows (counted from the CSV in the table's test above).
  const bin = '(0.200, 0.300]';
  const series = points.findIndex((s) => s.some((p) => p?.title === `Confidence in ${bin}`));
  const index = points[series]!.findIndex((p) => p?.title === `Confidence in ${bin}`);
  const spec = points[series]![index]!;
  assert.deepEqual(spec, drill.tables['reliability.table']!.rows![2]);
  assert.deepEqual(spec.where, [
    { key: 'split_role', op: '=', value: 'test' },
    { key: 'confidence', op: '>', value: '0.2' },
    { key: 'confidence', op: '<=', value: '0.3' },
  ]);
  under = [{ series, index }];
  mouse('mousemove');
  assert.equal(canvas.classList.contains('pointing'), true);
  mouse('click');
  assert.deepEqual(panel.opened, [{ spec, anchor: f, origin: canvas }]);
  // Nothing under the mouse: no pointer, nothing opened.
  under = [];
  mouse('mousemove');
  assert.equal(canvas.classList.contains('pointing'), false);
  mouse('click');
  assert.equal(panel.opened.length, 1);
  // Of the points under it, nearest first, the first with rows behind it.
  const other = points[series]!.findIndex((p, i) => p !== null && i !== index);
  under = [
    { series: points.length, index: 0 },
    { series, index: other },
  ];
  assert.equal(f.pointAt(new MouseEvent('click')), undefined, 'not on the canvas');
  mouse('click');
  assert.deepEqual(panel.opened[1], { spec: points[series]![other], anchor: f, origin: canvas });
  f.remove();

  // A report that cannot list rows: its points have none.
  const bare = mount(logreg, [c], undefined);
  const bareChart = bare.f.chart!;
  await bareChart.updateComplete;
  bareChart.draw = (cv) => ({ canvas: cv, destroy: () => undefined, pointsAt: () => [{ series, index }] });
  sizes
    .filter((o) => o.targets.includes(bareChart))
    .at(-1)!
    .resize(640, 340);
  bare.f.querySelector('canvas')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  assert.deepEqual(bare.panel.opened, []);
  bare.f.remove();
});

test("the confusion matrix's cells, largest confusions and table cells are the figure's targets", async () => {
  const c = chartOf(logreg, 'confusion');
  const { f, panel } = mount(logreg, [c], drill);
  const matrix = f.matrix!;
  await matrix.updateComplete;
  assert.equal(f.chart, null, 'a heatmap is drawn as a grid, not on a canvas');
  assert.ok(f.querySelector('.canvas-box')!.classList.contains('heatmap'));
  const cells = [...matrix.querySelectorAll<HTMLElement>('td.cm-cell')];
  const tops = [...matrix.querySelectorAll<HTMLElement>('li.cm-top')];
  const tableCells = drill.tables['confusion.table']!.cells!.flat().filter((x) => x);
  assert.equal(cells.length, 100);
  const targets = f.drillTargets;
  assert.equal(targets.length, cells.length + tops.length + tableCells.length);
  assert.deepEqual(
    targets.slice(0, cells.length + tops.length).map((t) => t.element),
    [...cells, ...tops],
  );
  assert.deepEqual(
    targets.slice(cells.length + tops.length).map((t) => t.spec),
    tableCells,
  );
  assert.ok(targets.every((t) => t.anchor === f));
  // The largest confusion, counted from the CSV: its cell lists exactly those test rows.
  const counts = new Map<string, number>();
  for (const r of testRows())
    if (r.label !== r.pred) counts.set(`${r.label}>${r.pred}`, (counts.get(`${r.label}>${r.pred}`) ?? 0) + 1);
  const [worst, n] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  const [truth, pred] = worst.split('>');
  const cell = cells.find((x) => x.dataset.true === truth && x.dataset.pred === pred)!;
  assert.equal(Number(cell.dataset.count), n);
  cell.click();
  const opened = panel.opened.at(-1)!;
  assert.equal(opened.anchor, f, 'the rows panel opens after the figure');
  assert.equal(opened.origin, cell);
  assert.deepEqual(opened.spec.where, [
    { key: 'split_role', op: '=', value: 'test' },
    { key: 'label', op: '=', value: truth },
    { key: 'pred', op: '=', value: pred },
  ]);
  f.remove();

  // Without the rows (a results file opened alone): no targets.
  const bare = mount(logreg, [c], undefined).f;
  await bare.matrix!.updateComplete;
  assert.deepEqual(bare.drillTargets, []);
  assert.equal(bare.querySelectorAll('.drillable').length, 0);
  bare.remove();
});

test('the item map: a user highlighted through its picker is drawn on the chart, Clear draws the map alone', async () => {
  const users = ex.tab.userInspector!.users;
  const plain = mount(ex.model, [ex.itemMap], undefined).f;
  assert.equal(plain.querySelector('eval-item-map'), null, 'no picker without the rows');
  plain.remove();
  const { f } = mount(ex.model, [ex.itemMap], undefined, {}, { users });
  const picker = f.querySelector('eval-item-map')!;
  assert.equal(picker.previousElementSibling?.className, 'table-alt');
  await picker.updateComplete;
  // A user of the run file whose top K has hits on the map, as the run file says.
  const k = ex.results.tables.itemMap!.k;
  const onMap = new Set(ex.results.tables.itemMap!.ids);
  const line = ex.lines.find(
    (l) => l.items.slice(0, k).filter((i) => onMap.has(i) && l.relevant.includes(i)).length >= 2,
  )!;
  const hits = line.items.slice(0, k).filter((i) => onMap.has(i) && line.relevant.includes(i)).length;
  const input = picker.querySelector<HTMLInputElement>('input.user-search')!;
  input.value = line.user;
  input.dispatchEvent(new InputEvent('input', { bubbles: true }));
  picker.querySelector<HTMLElement>('.item-map-show')!.click();
  const q = await dom.nextPosted('queryRows');
  api.answer({ type: 'rows', seq: q.seq, page: ex.query(q.query) });
  await until(() => f.state.highlight !== undefined, 'the highlighted map');
  await f.updateComplete;
  assert.equal(f.chart!.model, f.state.highlight);
  assert.equal(f.chart!.model.series.find((s) => s.label === `hits of ${line.user}`)!.points.length, hits);
  picker.querySelector<HTMLElement>('.item-map-clear')!.click();
  await until(() => f.state.highlight === undefined, 'the map alone');
  await f.updateComplete;
  assert.equal(f.chart!.model, ex.itemMap);
  f.remove();
});

test('removed, the figure leaves no listener on the document or the window, and its charts stop watching', async () => {
  const counted = [countListeners(document), countListeners(window)];
  const follows = document.createElement('div');
  const onFollows = countListeners(follows);
  try {
    const before = sizes.length;
    const figures = [
      mount(logreg, [chartOf(logreg, 'reliability')], drill).f,
      mount(logreg, [chartOf(logreg, 'confusion')], drill).f,
      mount(ex.model, [ex.itemMap], undefined, {}, { users: ex.tab.userInspector!.users, follows }).f,
    ];
    for (const f of figures) await f.updateComplete;
    assert.equal(onFollows.listening.get('evallens:user-shown'), 1, 'the item map follows the user inspector');
    const made = sizes.slice(before);
    assert.ok(made.length >= 2, 'the charts watch for a size');
    // Used: the toggle, the keyboard, a target opened.
    for (const f of figures) f.querySelector<HTMLElement>('vscode-button[data-act="toggle"]')!.click();
    key(figures[0]!.drillTargets[3]!.element, 'Enter');
    for (const f of figures) f.remove();
    assert.deepEqual(
      made.filter((o) => !o.disconnected && o.targets.length > 0),
      [],
      'no chart left watching for a size',
    );
    for (const { listening } of [...counted, onFollows])
      for (const [type, n] of listening) assert.equal(n, 0, `${type} listeners left`);
  } finally {
    for (const c of counted) c.restore();
    onFollows.restore();
  }
});
