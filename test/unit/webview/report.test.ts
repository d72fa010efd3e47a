/// <reference lib="dom" />
// The report (webview/report.ts) in a DOM (happy-dom), with the classification report of
// examples/digits-lt/logreg.csv as the host sends it (its model with the drill-down targets of its
// numbers and a Slices tab) and the ranking report of examples/ranking-debian-deps. Checked: a
// second show of the same report (a later stage: a banner, a chart changed) keeps the tab shown,
// the charts shown as tables, the variant chosen and the scroll position, keeps the very elements
// of what did not change (their charts' observers still watching) and draws anew only what did
// (the chart before taken down); a show of another report starts fresh (first tab, charts as
// charts, no element kept) and takes the report before down with its components' observers; the
// report taken down leaves no listener on the document, the window or the panel; the threshold
// explorer's marker reaches the figures (<eval-figure>) of the charts it names and follows its point.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReportModel } from '../../../src/shared/model';
import type { WebviewState } from '../../../src/shared/protocol';
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

const LOGREG_URI = 'file:///work/examples/digits-lt/logreg.eval.json';
const RANKING_URI = 'file:///work/examples/ranking-debian-deps/cooccurrence.eval.json';

let dom: TestDom;
/** The classification report as the host sends it: with its rows (drill-down targets) and a Slices tab. */
let logreg: ReportModel;
let ranking: ReportModel;
let sizes: SizeObserver[];
let views: VisibilityObserver[];
let rp: typeof import('../../../webview/report');

before(async () => {
  const { model, drill } = await logregReport();
  logreg = {
    ...model,
    inspect: { task: 'classification', minSliceSize: 30, drill },
    tabs: [...model.tabs, { id: 'slices', title: 'Slices', cards: [], charts: [], tables: [], notes: [] }],
    targets: { ...model.targets, slices: { tab: 'slices' } },
  };
  ranking = (await rankingExample()).model;
  dom = installDom();
  sizes = fakeResizeObservers();
  views = fakeIntersectionObservers();
  // happy-dom has no 2D canvas: the theme's colour probe (webview/theme.ts, which the confusion
  // matrix reads its shading from) gets a stand-in that keeps the colour it is given, as a canvas
  // keeps a colour in hex. The charts are never drawn here (they get no size).
  (HTMLCanvasElement.prototype as unknown as { getContext(): unknown }).getContext = () => ({ fillStyle: '' });
  rp = await import('../../../webview/report');
});
after(() => dom.close());

const saved = (): WebviewState => dom.state as WebviewState;

/** A report in a `main#app` of its own; `watch` sees the panel before the report is made. */
function mount(watch?: (app: HTMLElement) => void) {
  const app = document.createElement('main');
  app.id = 'app';
  document.body.append(app);
  watch?.(app);
  const report = new rp.Report(app);
  return { app, report };
}

/** Shows `m` for `uri` and waits for its tab `tab` to be selected (once the tab list is defined). */
async function shown(report: InstanceType<typeof rp.Report>, m: ReportModel, uri: string, tab: string) {
  report.show(m, uri);
  await until(() => saved()?.uri === uri && saved()?.tab === tab, `the tab ${tab} selected`);
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

test('a second show of the same report keeps the tab, the tables shown, the scroll and what did not change', async () => {
  dom.state = undefined;
  const { app, report } = mount();
  await shown(report, logreg, LOGREG_URI, logreg.tabs[0]!.id);
  assert.deepEqual(
    [...app.querySelectorAll('vscode-tab-header')].map((h) => h.getAttribute('data-tab')),
    logreg.tabs.map((t) => t.id),
  );
  assert.equal(app.getAttribute('aria-busy'), 'false');
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
  assert.equal(app.lastElementChild?.className, 'status');
  // The final report: the banner goes, the figure drawn again for its model, the place still kept.
  report.show(logreg, LOGREG_URI);
  assert.equal(app.querySelector('.stage-banner'), null);
  assert.equal(tabsOf(app), before.tabs);
  assert.equal(saved().tab, 'selective');
  assert.deepEqual(saved().tableView, ['riskCoverage']);
  assert.equal(figure(app, 'reliability'), before.reliability);
  report.dispose();
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
  report.dispose();
  app.remove();
});

test('a show of another report starts fresh and takes the report before down with its observers and listeners', async () => {
  dom.state = undefined;
  const counted = [countListeners(document), countListeners(window)];
  try {
    let onApp: ReturnType<typeof countListeners> | undefined;
    const { app, report } = mount((a) => (onApp = countListeners(a)));
    const sizesBefore = sizes.length;
    const viewsBefore = views.length;
    await shown(report, logreg, LOGREG_URI, logreg.tabs[0]!.id);
    pickTab(app, logreg, 'calibration');
    figure(app, 'reliability').querySelector<HTMLElement>('vscode-button[data-act="toggle"]')!.click();
    const first = { tabs: tabsOf(app), reliability: figure(app, 'reliability') };
    const logregSizes = sizes.slice(sizesBefore);
    const logregViews = views.slice(viewsBefore);
    assert.ok(logregSizes.length >= 3, 'the charts watch for a size');
    assert.ok(logregViews.length >= 1, 'the Slices tab watches for being shown');

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

    report.dispose();
    assert.equal(app.childElementCount, 0);
    assert.deepEqual(sizes.filter(watching), [], 'no chart or table is left watching');
    assert.deepEqual(
      views.filter((o) => !o.disconnected),
      [],
      'no component is left watching',
    );
    for (const { listening } of [...counted, onApp!])
      for (const [type, n] of listening) assert.equal(n, 0, `${type} listeners left on the document, window or panel`);
    onApp!.restore();
    app.remove();
  } finally {
    for (const c of counted) c.restore();
  }
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
  report.dispose();
  app.remove();
});
