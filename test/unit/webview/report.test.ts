/// <reference lib="dom" />
// The report (<eval-report>, webview/report.ts) in a DOM (happy-dom), with the classification
// report of examples/digits-lt/logreg.csv as the host sends it (its model with the drill-down
// targets of its numbers and a Slices tab) and the ranking report of examples/ranking-debian-deps;
// the rows asked for are answered by the core's row query (openInspection), as the host's
// inspection worker answers them. Checked: a report shown before it enters the document is drawn
// as it enters (the model's title, tabs and headline, the accuracy counted from the CSV); a second
// show of the same report (a later stage: a banner, a chart changed) keeps the tab shown, the
// charts shown as tables, the variant chosen and the scroll position, keeps the very elements of
// what did not change (their charts' observers still watching) and draws anew only what did (the
// chart before taken down); a show of another report starts fresh (first tab, charts as charts, no
// element kept) and takes the report before down with its components' observers; leaving the
// document, the report takes every part down (no listener left on the document, the window or
// itself, no observer watching, the rows panel closed) and entering it again draws the same report
// at the same place; its drill-down targets are those its parts declare (the Mistakes button, the
// cards with rows behind them, the figures', the tables'), with the host's filters, and open the
// rows panel under them (the 39 wrong test rows counted from the CSV); "open the report at
// acc_few" selects its tab, brings it into view and lists its rows; the threshold explorer's marker
// reaches the figures (<eval-figure>) of the charts it names and follows its point.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openInspection, type Inspection } from '../../../src/core/inspect';
import type { DrillTargets } from '../../../src/shared/drillSpec';
import type { ReportModel } from '../../../src/shared/model';
import type { WebviewMessage, WebviewState } from '../../../src/shared/protocol';
import { closeAbs } from '../helpers/numericClose';
import { logregReport } from './classificationExample';
import { rankingExample } from './rankingExample';
import {
  countListeners,
  fakeIntersectionObservers,
  fakeResizeObservers,
  installDom,
  until,
  type SizeObserver,
  type TestDom,
  type VisibilityObserver,
} from './happyDom';

const CSV = 'examples/digits-lt/logreg.csv';
const LOGREG_URI = 'file:///work/examples/digits-lt/logreg.eval.json';
const RANKING_URI = 'file:///work/examples/ranking-debian-deps/cooccurrence.eval.json';

let dom: TestDom;
/** The classification report as the host sends it: with its rows (drill-down targets) and a Slices tab. */
let logreg: ReportModel;
let drill: DrillTargets;
let ranking: ReportModel;
let inspection: Inspection;
let sizes: SizeObserver[];
let views: VisibilityObserver[];
let rp: typeof import('../../../webview/report');
let api: typeof import('../../../webview/vscodeApi');

before(async () => {
  const ex = await logregReport();
  const model = ex.model;
  drill = ex.drill;
  logreg = {
    ...model,
    inspect: { task: 'classification', minSliceSize: 30, drill },
    tabs: [...model.tabs, { id: 'slices', title: 'Slices', cards: [], charts: [], tables: [], notes: [] }],
    targets: { ...model.targets, slices: { tab: 'slices' } },
  };
  ranking = (await rankingExample()).model;
  inspection = await openInspection(CSV, { overrides: { bootstrap: { n: 0 } }, root: process.cwd() });
  dom = installDom();
  sizes = fakeResizeObservers();
  views = fakeIntersectionObservers();
  // happy-dom has no 2D canvas: the theme's colour probe (webview/theme.ts, which the confusion
  // matrix reads its shading from) gets a stand-in that keeps the colour it is given, as a canvas
  // keeps a colour in hex. The charts are never drawn here (they get no size).
  (HTMLCanvasElement.prototype as unknown as { getContext(): unknown }).getContext = () => ({ fillStyle: '' });
  rp = await import('../../../webview/report');
  api = await import('../../../webview/vscodeApi');
});
after(() => dom.close());

const saved = (): WebviewState => dom.state as WebviewState;

type Report = InstanceType<typeof rp.ReportElement>;

/** The panel's `main#app`, in the document. */
function panel(): HTMLElement {
  const app = document.createElement('main');
  app.id = 'app';
  document.body.append(app);
  return app;
}

/** A report in a `main#app` of its own; `watch` sees the report before it enters the document. */
function mount(watch?: (report: Report) => void) {
  const app = panel();
  const report = rp.reportElement();
  watch?.(report);
  app.append(report);
  return { app, report };
}

/** Shows `m` for `uri` and waits for its tab `tab` to be selected (once the tab list is defined). */
async function shown(report: Report, m: ReportModel, uri: string, tab: string) {
  report.show(m, uri);
  await until(() => saved()?.uri === uri && saved()?.tab === tab, `the tab ${tab} selected`);
}

/** The test rows of the CSV (id,label,pred,split,prob_0…prob_9): true class, prediction. */
const TEST_ROWS = readFileSync(CSV, 'utf8')
  .trimEnd()
  .split('\n')
  .slice(1)
  .map((l) => l.split(','))
  .filter((c) => c[3] === 'test')
  .map((c) => ({ label: c[1]!, pred: c[2]! }));

type RowsRequest = Extract<WebviewMessage, { type: 'queryRows' }>;

/** Answers a request for rows as the host does (the core's row query on the file). */
function reply(m: RowsRequest): void {
  api.answer({ type: 'rows', seq: m.seq, page: inspection.query(m.query) });
}

type Tabs = HTMLElement & { selectedIndex: number };
const tabsOf = (app: HTMLElement): Tabs => app.querySelector<Tabs>('vscode-tabs')!;

/** Selects tab `id` as the tab list does when its header is clicked (its index set, then its event). */
function pickTab(app: HTMLElement, m: ReportModel, id: string): void {
  const tabs = tabsOf(app);
  const i = m.tabs.findIndex((t) => t.id === id);
  assert.ok(i > 0, `a tab ${id} after the first`);
  tabs.selectedIndex = i;
  tabs.dispatchEvent(new CustomEvent('vsc-tabs-select', { detail: { selectedIndex: i }, composed: true }));
}

/** The figure of chart `id` (ids such as `perUser.recall@10` are no CSS selector). */
const figure = (app: HTMLElement, id: string): HTMLElement =>
  [...app.querySelectorAll<HTMLElement>('figure.chart')].find((f) => f.id === `chart-${id}`)!;
/** A size observer still watching something (not disconnected, a target left). */
const watching = (o: SizeObserver): boolean => !o.disconnected && o.targets.length > 0;
/** The size observer of the chart in figure `id` (each <eval-chart> makes one when it enters the document). */
const sizeOf = (app: HTMLElement, id: string): SizeObserver =>
  sizes.filter((o) => o.targets.includes(figure(app, id).querySelector('eval-chart')!)).at(-1)!;

test('a report shown before it enters the document is drawn as it enters it: title, tabs, headline, status line', async () => {
  dom.state = undefined;
  const report = rp.reportElement();
  report.show(logreg, LOGREG_URI);
  assert.equal(report.childElementCount, 0, 'nothing drawn out of the document');
  assert.equal(report.state.model, logreg);
  const app = panel();
  app.append(report);
  await until(() => saved()?.tab === logreg.tabs[0]!.id, 'the first tab selected');
  assert.equal(report.querySelector('header.report-header h1')!.textContent, logreg.header.title);
  assert.deepEqual(
    [...report.querySelectorAll('vscode-tab-header')].map((h) => [h.getAttribute('data-tab'), h.textContent]),
    logreg.tabs.map((t) => [t.id, t.title]),
  );
  assert.deepEqual(
    [...report.querySelectorAll('vscode-tab-panel')].map((p) => p.getAttribute('data-tab')),
    logreg.tabs.map((t) => t.id),
  );
  // The headline accuracy: the test rows predicted right, counted from the CSV (111 of 150).
  const right = TEST_ROWS.filter((r) => r.label === r.pred).length;
  assert.equal(TEST_ROWS.length, 150);
  assert.equal(right, 111);
  const accuracy = report.querySelector<HTMLElement>('section.cards.headline .card[data-metric="accuracy"]')!;
  assert.equal(Number(accuracy.dataset.value), right / TEST_ROWS.length);
  assert.equal(accuracy.querySelector('.card-value')!.textContent, '0.7400');
  assert.equal(report.lastElementChild?.className, 'status');
  app.remove();
});

test('a second show of the same report keeps the tab, the tables shown, the scroll and what did not change', async () => {
  dom.state = undefined;
  const { app, report } = mount();
  await shown(report, logreg, LOGREG_URI, logreg.tabs[0]!.id);
  assert.deepEqual(
    [...app.querySelectorAll('vscode-tab-header')].map((h) => h.getAttribute('data-tab')),
    logreg.tabs.map((t) => t.id),
  );
  assert.equal(app.querySelector('.stage-banner'), null);

  // The user's place: the Selective tab, the risk–coverage chart as its table, scrolled down.
  pickTab(app, logreg, 'selective');
  assert.equal(saved().tab, 'selective');
  const toggle = figure(app, 'riskCoverage').querySelector<HTMLElement>('vscode-button[data-act="toggle"]')!;
  toggle.click();
  assert.equal(toggle.textContent, 'Show chart');
  assert.deepEqual(saved().tableView, ['riskCoverage']);
  window.scrollTo(0, 420);
  const y = window.scrollY;

  const before = {
    tabs: tabsOf(app),
    header: app.querySelector('header.report-header'),
    headline: app.querySelector('section.cards.headline'),
    riskCoverage: figure(app, 'riskCoverage'),
    reliability: figure(app, 'reliability'),
    confusion: figure(app, 'confusion'),
    slices: app.querySelector('eval-slices'),
    mistakes: app.querySelector('.inspect-bar'),
  };
  const riskSize = sizeOf(app, 'riskCoverage');
  const reliabilitySize = sizeOf(app, 'reliability');
  assert.equal(riskSize.disconnected, false);

  // The provisional stage's report, then the final one: a banner in the header, the risk–coverage chart changed.
  const next: ReportModel = structuredClone(logreg);
  next.header.stage = 'provisional intervals';
  const risk = next.tabs.flatMap((t) => t.charts).find((c) => c.id === 'riskCoverage')!;
  risk.description = `${risk.description} Intervals provisional.`;
  report.show(next, LOGREG_URI);

  assert.equal(tabsOf(app), before.tabs, 'the tab list is kept');
  assert.equal(
    tabsOf(app).selectedIndex,
    logreg.tabs.findIndex((t) => t.id === 'selective'),
  );
  assert.equal(saved().tab, 'selective');
  assert.equal(window.scrollY, y);
  // Drawn anew: the header (its banner) and the changed chart's figure, still showing its table.
  assert.notEqual(app.querySelector('header.report-header'), before.header);
  assert.match(app.querySelector('.stage-banner')?.textContent ?? '', /^Showing provisional intervals — /);
  const fig = figure(app, 'riskCoverage');
  assert.notEqual(fig, before.riskCoverage);
  assert.equal(before.riskCoverage.isConnected, false);
  assert.equal(fig.querySelector('vscode-button[data-act="toggle"]')!.textContent, 'Show chart');
  assert.equal(fig.querySelector<HTMLElement>('.canvas-box')!.hidden, true);
  assert.equal(fig.querySelector<HTMLElement>('.table-alt')!.hidden, false);
  await fig.querySelector('eval-chart')!.updateComplete;
  assert.equal(
    fig.querySelector('canvas')!.getAttribute('aria-label'),
    `Risk–coverage. ${risk.description} Press Enter for the data table.`,
  );
  assert.equal(riskSize.disconnected, true, 'the chart before is taken down');
  // Kept: the elements of what did not change, their charts still watching for a size.
  assert.equal(app.querySelector('section.cards.headline'), before.headline);
  assert.equal(figure(app, 'reliability'), before.reliability);
  assert.equal(figure(app, 'confusion'), before.confusion);
  assert.equal(app.querySelector('eval-slices'), before.slices);
  assert.equal(app.querySelector('.inspect-bar'), before.mistakes);
  assert.equal(reliabilitySize.disconnected, false);
  // The status line stays the report's last element.
  assert.equal(report.lastElementChild?.className, 'status');
  // The final report: the banner goes, the figure drawn again for its model, the place still kept.
  report.show(logreg, LOGREG_URI);
  assert.equal(app.querySelector('.stage-banner'), null);
  assert.equal(tabsOf(app), before.tabs);
  assert.equal(saved().tab, 'selective');
  assert.deepEqual(saved().tableView, ['riskCoverage']);
  assert.equal(figure(app, 'reliability'), before.reliability);
  app.remove();
});

test('a chosen variant stays chosen across a show of the same report', async () => {
  const perUser = ranking.tabs.flatMap((t) => t.charts).filter((c) => c.group?.id === 'perUser');
  assert.ok(perUser.length > 1, 'the ranking report offers per-user variants');
  const chosen = perUser[1]!;
  // Remembered by the panel (as after a choice made before the panel was hidden).
  dom.state = { uri: RANKING_URI, selected: { perUser: chosen.id } } satisfies WebviewState;
  const { app, report } = mount();
  await shown(report, ranking, RANKING_URI, ranking.tabs[0]!.id);
  const fig = figure(app, chosen.id);
  assert.ok(fig, 'the chosen variant is drawn');
  assert.equal(figure(app, perUser[0]!.id), undefined);
  const next: ReportModel = structuredClone(ranking);
  next.header.stage = 'provisional intervals';
  report.show(next, RANKING_URI);
  assert.equal(figure(app, chosen.id), fig, 'the chosen variant stays, the same figure');
  assert.deepEqual(saved().selected, { perUser: chosen.id });
  app.remove();
});

/**
 * The logreg report in a panel of its own, the listeners on the report counted, with the user's
 * place in it: the Calibration tab, the reliability diagram shown as its table; with the size and
 * visibility observers its components made.
 */
async function placed() {
  let onReport: ReturnType<typeof countListeners> | undefined;
  const { app, report } = mount((r) => (onReport = countListeners(r)));
  const sizesBefore = sizes.length;
  const viewsBefore = views.length;
  await shown(report, logreg, LOGREG_URI, logreg.tabs[0]!.id);
  pickTab(app, logreg, 'calibration');
  figure(app, 'reliability').querySelector<HTMLElement>('vscode-button[data-act="toggle"]')!.click();
  const made = { sizes: sizes.slice(sizesBefore), views: views.slice(viewsBefore) };
  assert.ok(made.sizes.length >= 3, 'the charts watch for a size');
  assert.ok(made.views.length >= 1, 'the Slices tab watches for being shown');
  return { app, report, onReport: onReport!, made };
}

test('a show of another report starts fresh and takes the report before down with its observers and listeners', async () => {
  dom.state = undefined;
  const counted = [countListeners(document), countListeners(window)];
  try {
    const { app, report, onReport, made } = await placed();
    const first = { tabs: tabsOf(app), reliability: figure(app, 'reliability') };
    const [logregSizes, logregViews] = [made.sizes, made.views];

    await shown(report, ranking, RANKING_URI, ranking.tabs[0]!.id);
    assert.equal(first.tabs.isConnected, false);
    assert.equal(first.reliability.isConnected, false);
    assert.deepEqual(logregSizes.filter(watching), [], 'every chart (and table) of the report before is taken down');
    assert.deepEqual(
      logregViews.filter((o) => !o.disconnected),
      [],
      'the visibility observers of the report before are gone',
    );
    assert.deepEqual(saved(), { uri: RANKING_URI, tab: ranking.tabs[0]!.id });
    assert.equal(tabsOf(app).selectedIndex, 0);

    // Back to the first report: fresh again (its remembered place was the panel's, now the ranking report's).
    await shown(report, logreg, LOGREG_URI, logreg.tabs[0]!.id);
    assert.notEqual(tabsOf(app), first.tabs);
    assert.equal(tabsOf(app).selectedIndex, 0);
    assert.equal(figure(app, 'reliability').querySelector<HTMLElement>('.table-alt')!.hidden, true);
    assert.equal(saved().tableView, undefined);

    // Out of the document, the report is taken down.
    app.remove();
    assert.equal(report.childElementCount, 0);
    assert.deepEqual(sizes.filter(watching), [], 'no chart or table is left watching');
    assert.deepEqual(
      views.filter((o) => !o.disconnected),
      [],
      'no component is left watching',
    );
    for (const { listening } of [...counted, onReport])
      for (const [type, n] of listening) assert.equal(n, 0, `${type} listeners left on the document, window or report`);
    onReport.restore();
  } finally {
    for (const c of counted) c.restore();
  }
});

test('leaving the document, the report takes every part down; entering it again draws the same report at the same place', async () => {
  dom.state = undefined;
  const counted = [countListeners(document), countListeners(window)];
  let onReport: ReturnType<typeof countListeners> | undefined;
  try {
    const placing = await placed();
    const { app, report, made } = placing;
    onReport = placing.onReport;
    // The user's place: also the mistakes listed, and a status shown.
    report.querySelector<HTMLElement>('vscode-button[data-act="mistakes"]')!.click();
    await dom.nextPosted('queryRows');
    assert.equal(report.rows.isOpen, true);
    assert.ok(report.rows.previousElementSibling === report.querySelector('.inspect-bar'), 'listed under the bar');
    report.status('Copied.');
    const first = { tabs: tabsOf(app), reliability: figure(app, 'reliability') };

    app.remove();
    assert.equal(report.childElementCount, 0, 'every part taken down');
    assert.equal(report.rows.isOpen, false, 'the rows panel closed');
    assert.equal(report.rows.isConnected, false);
    assert.deepEqual(made.sizes.filter(watching), [], 'no chart or table left watching for a size');
    assert.deepEqual(
      made.views.filter((o) => !o.disconnected),
      [],
      'no component left watching for being shown',
    );
    for (const { listening } of [...counted, onReport!])
      for (const [type, n] of listening) assert.equal(n, 0, `${type} listeners left on the document, window or report`);
    // Its state stays: the report shown and the panel's memory.
    assert.equal(report.state.model, logreg);
    assert.equal(report.state.uri, LOGREG_URI);
    assert.deepEqual([saved().uri, saved().tab, saved().tableView], [LOGREG_URI, 'calibration', ['reliability']]);

    // Back in the document: the same report drawn anew, at the same place.
    document.body.append(app);
    const calibration = logreg.tabs.findIndex((t) => t.id === 'calibration');
    await until(() => tabsOf(app)?.selectedIndex === calibration, 'the Calibration tab selected');
    assert.notEqual(tabsOf(app), first.tabs);
    assert.notEqual(figure(app, 'reliability'), first.reliability);
    assert.equal(figure(app, 'reliability').querySelector<HTMLElement>('.table-alt')!.hidden, false);
    assert.equal(report.querySelector('.status')!.textContent, '', 'the status line cleared');
    assert.equal(report.rows.isOpen, false);
    app.remove();
  } finally {
    for (const c of counted) c.restore();
    onReport?.restore();
  }
});

test("the report's drill-down targets are those its parts declare, with the host's filters", async () => {
  dom.state = undefined;
  const { app, report } = mount();
  await shown(report, logreg, LOGREG_URI, logreg.tabs[0]!.id);
  const targets = report.drillTargets;
  // Elements are compared by identity (a failed deep comparison would print the whole DOM).
  const at = (e: Element): number => targets.findIndex((t) => t.element === e);
  // The Mistakes button: the wrong test rows, most confident first, listed under its bar.
  const bar = report.querySelector<HTMLElement>('.inspect-bar')!;
  const button = bar.querySelector<HTMLElement>('vscode-button[data-act="mistakes"]')!;
  const mistakes = targets[at(button)]!;
  assert.ok(mistakes, 'the Mistakes button is a target');
  assert.ok(mistakes.spec === drill.mistakes && mistakes.anchor === bar, 'its rows, under its bar');
  assert.equal(targets.filter((t) => t.element === button).length, 1);
  assert.equal(mistakes.spec.title, 'Most confident mistakes');
  assert.deepEqual(mistakes.spec.where, [
    { key: 'split_role', op: '=', value: 'test' },
    { key: 'correct', op: '=', value: 'false' },
  ]);
  // The metric cards with rows behind them (the headline's and each tab's), each under its row of cards.
  const cards = [...report.querySelectorAll<HTMLElement>('.card.drillable')];
  const onCards = targets.filter((t) => t.element.classList.contains('card'));
  assert.equal(onCards.length, cards.length);
  cards.forEach((c, i) => {
    const t = onCards[i]!;
    assert.ok(t.element === c, `card ${c.dataset.metric} in order`);
    assert.ok(t.spec === drill.cards[c.dataset.metric!], `card ${c.dataset.metric}: the host's rows`);
    assert.ok(t.anchor === c.closest('section.cards'), `card ${c.dataset.metric}: under its row of cards`);
  });
  const modelCards = [...logreg.headline, ...logreg.tabs.flatMap((t) => t.cards)].map((c) => c.key);
  assert.deepEqual(
    [...new Set(cards.map((c) => c.dataset.metric))].sort(),
    [...new Set(modelCards.filter((k) => drill.cards[k]))].sort(),
  );
  assert.ok(cards.some((c) => c.dataset.metric === 'acc_few'));
  assert.deepEqual(drill.cards.acc_few!.where.at(-1), { key: 'shot', op: '=', value: 'few' });
  // The figures' (their tables' rows and cells, the matrix's cells and largest confusions) and the tables'.
  const figures = [...report.querySelectorAll('eval-figure')];
  const inFigures = figures.flatMap((f) => f.drillTargets);
  assert.ok(inFigures.length > 100, 'the confusion matrix alone has 100 cells');
  assert.ok(
    inFigures.every((t) => {
      const x = targets[at(t.element)];
      // A matrix cell's rows are made when asked for: the same filter, not the same object.
      return x !== undefined && JSON.stringify(x.spec) === JSON.stringify(t.spec) && x.anchor === t.anchor;
    }),
    "every figure's target is the report's",
  );
  const tables = [
    ...report.querySelectorAll<HTMLElement & { drillTargets?: unknown[] }>('vscode-tab-panel > .table-block'),
  ];
  assert.equal(
    targets.length,
    1 + cards.length + inFigures.length + tables.reduce((n, t) => n + (t.drillTargets?.length ?? 0), 0),
  );

  // The Mistakes button lists the 39 wrong test rows (counted from the CSV) under its bar.
  button.click();
  assert.ok(report.rows.previousElementSibling === bar, 'the rows panel under the bar');
  const q = await dom.nextPosted('queryRows');
  assert.deepEqual(q.query.where, drill.mistakes!.where);
  reply(q);
  await until(() => report.rows.querySelector('.page-info[data-total]') !== null, 'the rows drawn');
  assert.equal(TEST_ROWS.filter((r) => r.label !== r.pred).length, 39);
  assert.equal(report.rows.querySelector<HTMLElement>('.page-info')!.dataset.total, '39');
  assert.equal(report.rows.querySelector('.rows-title')!.textContent, 'Most confident mistakes');
  app.remove();
});

test('opening the report at a metric with rows behind it selects its tab, brings it into view and lists its rows under its card', async () => {
  dom.state = undefined;
  const { app, report } = mount();
  await shown(report, logreg, LOGREG_URI, logreg.tabs[0]!.id);
  const where = logreg.targets.acc_few!;
  const spec = drill.cards.acc_few!;
  report.focusOn('acc_few');
  assert.equal(saved().tab, where.tab);
  assert.equal(
    tabsOf(app).selectedIndex,
    logreg.tabs.findIndex((t) => t.id === where.tab),
  );
  await until(() => report.rows.isOpen, 'the rows panel open');
  const tabPanel = [...report.querySelectorAll<HTMLElement>('vscode-tab-panel')].find(
    (p) => p.dataset.tab === where.tab,
  )!;
  const card = [...report.querySelectorAll<HTMLElement>('.card[data-metric="acc_few"]')].find(
    (c) => c.closest('section.cards.headline') !== null || tabPanel.contains(c),
  )!;
  // Brought into view: the chart it is read from (its canvas focused), or else its card.
  const place = where.element ? figure(app, where.element) : card;
  assert.ok(place, `the place of acc_few (${JSON.stringify(where)})`);
  assert.ok(place.classList.contains('flash'), 'highlighted');
  assert.ok(
    document.activeElement === (where.element ? place.querySelector('canvas') : card),
    'its chart or card focused',
  );
  assert.ok(report.rows.previousElementSibling === card.closest('section.cards'), 'its rows under its row of cards');
  const q = await dom.nextPosted('queryRows');
  assert.deepEqual(q.query.where, spec.where);
  reply(q);
  await until(() => report.rows.querySelector('.page-info[data-total]') !== null, 'the rows drawn');
  // The card's number is the accuracy over exactly these rows (summed in another order: to 1e-12).
  const page = inspection.query({ ...q.query, limit: 1000 });
  const right = (page.rows as { correct?: boolean }[]).filter((r) => r.correct).length;
  assert.equal(report.rows.querySelector<HTMLElement>('.page-info')!.dataset.total, String(page.total));
  assert.equal(page.rows.length, page.total);
  closeAbs(Number(card.dataset.value), right / page.total, 1e-12, 'acc_few');
  app.remove();
});

/** The figures of these charts, drawn (Lit draws a property change a microtask later). */
async function settled(app: HTMLElement, charts: readonly { chart: string }[]): Promise<void> {
  for (const { chart } of charts) await figure(app, chart).closest('eval-figure')!.updateComplete;
}

test("the threshold explorer's marker reaches the figures of the charts it names, and follows its point", async () => {
  dom.state = undefined;
  const { app, report } = mount();
  await shown(report, logreg, LOGREG_URI, logreg.tabs[0]!.id);
  const explorer = app.querySelector('eval-threshold-explorer')!;
  await explorer.updateComplete;
  /** The markers each chart's <eval-chart> is given, and those the explorer says it draws. */
  const given = () =>
    explorer.marks.map(({ chart }) => [chart, figure(app, chart).querySelector('eval-chart')!.marks] as const);
  const said = () => explorer.marks.map(({ chart, line }) => [chart, line ? [line] : []] as const);
  assert.deepEqual(
    explorer.marks.map((m) => m.chart),
    ['riskCoverage', 'reliability'],
  );
  assert.ok(explorer.marks.every((m) => m.line !== undefined));
  assert.deepEqual(given(), said());
  const before = explorer.marks.map((m) => m.line!.value);
  // Five points along the slider: every figure's chart gets the new point's marker.
  const slider = explorer.querySelector<HTMLElement>('.explorer-slider')!;
  for (let i = 0; i < 5; i++)
    slider.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true, cancelable: true }));
  await explorer.updateComplete;
  await settled(app, explorer.marks);
  assert.notDeepEqual(
    explorer.marks.map((m) => m.line!.value),
    before,
  );
  assert.deepEqual(given(), said());
  // The explorer gone (its tab's part drawn anew without it), its markers are withdrawn.
  explorer.remove();
  await settled(app, explorer.marks);
  assert.deepEqual(
    explorer.marks.map(({ chart }) => figure(app, chart).querySelector('eval-chart')!.marks),
    [[], []],
  );
  app.remove();
});
