/**
 * The report webview: renders a {@link ReportModel} sent by the host (header, headline cards,
 * one tab per metric family with charts and tables). It never computes metrics. UI state (tab,
 * chart/table toggles, selects) is kept with setState so a hidden or reloaded panel comes back as
 * it was.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-tabs/index.js';
import '@vscode-elements/elements/dist/vscode-tab-header/index.js';
import '@vscode-elements/elements/dist/vscode-tab-panel/index.js';
import '@vscode-elements/elements/dist/vscode-table/index.js';
import '@vscode-elements/elements/dist/vscode-table-header/index.js';
import '@vscode-elements/elements/dist/vscode-table-header-cell/index.js';
import '@vscode-elements/elements/dist/vscode-table-body/index.js';
import '@vscode-elements/elements/dist/vscode-table-row/index.js';
import '@vscode-elements/elements/dist/vscode-table-cell/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import type { CardModel, ChartModel, RefLine, ReportModel, TabModel } from '../src/shared/model';
import { isHostMessage, isWebviewState, type HostMessage, type WebviewState } from '../src/shared/protocol';
import { chartPng } from './charts';
import { chartElement, type ChartElement } from './chartElement';
import { confusionMatrix, confusionPng, type ConfusionElement } from './confusion';
import { isConfusionNorm } from '../src/shared/confusionView';
import { chartFileName } from '../src/shared/outputName';
import { cardEl } from './cards';
import { el } from './dom';
import type { OpenRows } from './drill';
import { ReportLens } from './inspect';
import { changedRowsView } from './changedRows';
import { renderTable, type TableDrillHost } from './tables';
import { readTheme } from './theme';
import { thresholdExplorer, type ExplorerHost } from './thresholdExplorer';
import { userInspector } from './userInspector';
import { itemMapPicker } from './itemMap';
import { answer, request, vscode } from './vscodeApi';

const app = document.getElementById('app')!;
let model: ReportModel | undefined;
let state: WebviewState = { uri: '' };
/** Chart id → the model drawn instead of the report's (the item map with a user highlighted). */
const overrides = new Map<string, ChartModel>();
/** Chart id → the threshold explorer's marker, drawn over the chart's own lines (its model unchanged). */
const marks = new Map<string, RefLine>();
const marksOf = (id: string): RefLine[] => {
  const line = marks.get(id);
  return line ? [line] : [];
};
/** Horizontal bars of more categories than this scroll inside their card (about 960 px of rows). */
const HORIZONTAL_ROWS_MAX = 32;

function saveState(): void {
  vscode.setState(state);
}

const statusLine = el('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
let statusTimer: number | undefined;
function status(text: string): void {
  statusLine.textContent = text;
  window.clearTimeout(statusTimer);
  statusTimer = window.setTimeout(() => (statusLine.textContent = ''), 4000);
}

/** A metric card, a drill-down target when its number stands for rows of the file. */
function card(c: CardModel): HTMLElement {
  const spec = model?.inspect?.drill.cards[c.key];
  return cardEl(c, spec ? { spec, open: openRows } : undefined);
}

function headerEl(m: ReportModel): HTMLElement {
  const actions = el('div', { class: 'actions' });
  const button = (label: string, command: 'export' | 'revealJson' | 'reevaluate', title: string): void => {
    const b = el('vscode-button', { secondary: true, title }, label);
    b.addEventListener('click', () => vscode.postMessage({ type: 'command', command }));
    actions.append(b);
  };
  button('Export…', 'export', 'Export the report as HTML, Markdown or CSV');
  button('Open JSON', 'revealJson', 'Open the results JSON');
  if (m.kind === 'results') button('Re-evaluate', 'reevaluate', 'Evaluate the prediction file again');
  const h = el(
    'header',
    { class: 'report-header' },
    el('div', { class: 'title-row' }, el('h1', {}, m.header.title), actions),
  );
  h.append(
    el('dl', { class: 'meta' }, ...m.header.lines.flatMap((l) => [el('dt', {}, l.label), el('dd', {}, l.value)])),
  );
  if (m.header.stage) {
    // Announced by screen readers (role status) and replaced by the final report when it is ready.
    h.append(
      el(
        'div',
        { class: 'stage-banner', role: 'status' },
        el('vscode-progress-ring', { 'aria-hidden': 'true' }),
        el(
          'span',
          {},
          `Showing ${m.header.stage} — this report updates by itself when the bootstrap intervals are ready.`,
        ),
      ),
    );
  }
  if (m.header.warnings.length > 0) {
    h.append(
      el(
        'details',
        { class: 'warnings' },
        el('summary', {}, `${m.header.warnings.length} warning${m.header.warnings.length === 1 ? '' : 's'}`),
        el('ul', {}, ...m.header.warnings.map((w) => el('li', {}, w))),
      ),
    );
  }
  const notes = m.header.notes ?? [];
  if (notes.length > 0) {
    h.append(
      el(
        'details',
        { class: 'notes' },
        el('summary', {}, `${notes.length} note${notes.length === 1 ? '' : 's'}`),
        el('ul', {}, ...notes.map((w) => el('li', {}, w))),
      ),
    );
  }
  return h;
}

/**
 * A chart figure: canvas (keyboard-reachable, labelled) with a table alternative and PNG export.
 * `inspector`: the tab's user inspector, whose shown user an item map highlights too.
 */
function chartFigure(c: ChartModel, group?: ChartModel[], inspector?: EventTarget): HTMLElement {
  const fig = el('figure', { class: 'chart', id: `chart-${c.id}`, 'data-chart': c.id });
  const showTable = state.tableView?.includes(c.id) ?? false;
  const toggle = el(
    'vscode-button',
    { secondary: true, 'data-act': 'toggle', title: 'Switch between the chart and its data table' },
    showTable ? 'Show chart' : 'Show table',
  );
  const png = el(
    'vscode-button',
    { secondary: true, 'data-act': 'png', title: 'Save the chart as a PNG image' },
    'Save PNG',
  );
  const actions = el('div', { class: 'actions' });
  if (group && group.length > 1) {
    const select = el('vscode-single-select', { 'aria-label': c.group?.title ?? 'Variant', class: 'variant' });
    for (const g of group)
      select.append(
        el('vscode-option', { value: g.id, ...(g.id === c.id ? { selected: true } : {}) }, g.group?.option ?? g.title),
      );
    select.addEventListener('change', () => {
      const id = (select as unknown as { value: string }).value;
      const next = group.find((g) => g.id === id);
      if (!next || !c.group) return;
      state.selected = { ...(state.selected ?? {}), [c.group.id]: id };
      saveState();
      // The figure replaced takes its chart down with it (<eval-chart> on leaving the document).
      fig.replaceWith(chartFigure(next, group, inspector));
    });
    actions.append(select);
  }
  actions.append(toggle, png);
  // The chart (drawn once it has a size, again on a theme change, taken down with the figure).
  const chart = c.heatmap ? undefined : chartElement(overrides.get(c.id) ?? c, marksOf(c.id));
  // Horizontal bars need room for every category row (about 28 px each, two bars per row).
  const box = el('div', { class: `canvas-box${c.heatmap ? ' heatmap' : ''}`, ...(showTable ? { hidden: true } : {}) });
  // Set through the CSSOM: the webview's content security policy allows no inline style attribute.
  if (c.horizontal) box.style.height = `${Math.max(240, 60 + 28 * (c.x.categories?.length ?? 0))}px`;
  let matrix: ConfusionElement | undefined;
  if (c.heatmap) {
    const norm = state.selected?.[`${c.id}.norm`];
    // Its cells list their rows (among the rows the metrics cover) when the report can list rows.
    const drill = model?.inspect?.drill;
    matrix = confusionMatrix(
      c.heatmap,
      isConfusionNorm(norm) ? norm : 'counts',
      {
        norm: (n) => {
          state.selected = { ...(state.selected ?? {}), [`${c.id}.norm`]: n };
          saveState();
        },
      },
      drill?.charts[c.id]?.cells ? { measured: drill.measured ?? [], open: openRows } : undefined,
    );
    box.append(matrix);
  } else if (chart) {
    box.append(chart);
  }
  const tableBox = el(
    'div',
    { class: 'table-alt', ...(showTable ? {} : { hidden: true }) },
    renderTable(c.table, status, tableDrill(c.table.id)),
  );
  // Very many horizontal bars: the card scrolls inside rather than growing past a screen.
  const tall = c.horizontal && (c.x.categories?.length ?? 0) > HORIZONTAL_ROWS_MAX;
  fig.append(
    el('div', { class: 'chart-head' }, el('figcaption', {}, c.title), actions),
    tall ? el('div', { class: 'canvas-scroll' }, box) : box,
    tableBox,
  );
  // The item map: a user's recommendations highlighted (needs the rows, as the user inspector does).
  if (c.itemMap && model?.inspect) {
    const users = model.tabs.find((t) => t.userInspector)?.userInspector?.users ?? [];
    const host = explorerHost();
    fig.append(
      itemMapPicker(
        c,
        users,
        {
          ...host,
          draw: (m) => {
            if (m) overrides.set(c.id, m);
            else overrides.delete(c.id);
            if (chart) chart.model = m ?? c;
          },
        },
        inspector,
      ),
    );
  }
  if (c.note) fig.append(el('p', { class: 'note' }, c.note));
  const setTable = (on: boolean): void => {
    box.hidden = on;
    tableBox.hidden = !on;
    toggle.textContent = on ? 'Show chart' : 'Show table';
    const set = new Set(state.tableView ?? []);
    if (on) set.add(c.id);
    else set.delete(c.id);
    state.tableView = [...set];
    saveState();
  };
  toggle.addEventListener('click', () => setTable(box.hidden === false));
  chart?.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      setTable(true);
      (tableBox.querySelector('vscode-button') as HTMLElement | null)?.focus();
    }
  });
  png.addEventListener('click', async () => {
    if (box.hidden) setTable(false);
    const font = readTheme().font;
    const dataUrl = c.heatmap
      ? confusionPng(matrix?.shown ?? c.heatmap, matrix?.state.norm ?? 'counts', font)
      : chartPng(overrides.get(c.id) ?? c, font, marksOf(c.id));
    const name = chartFileName(model?.title ?? 'report', c.title);
    const r = await request((seq) => ({ type: 'savePng', seq, fileName: name, dataUrl }));
    status(r.message ?? (r.ok ? 'Saved.' : 'Not saved.'));
  });
  return fig;
}

/** The chart element of chart `id`'s figure, when it is in the document. */
function chartOf(id: string): ChartElement | null {
  return document.getElementById(`chart-${id}`)?.querySelector('eval-chart') ?? null;
}

/** The drill-down of table `id` (its rows or cells list rows of the file), when the report has one. */
function tableDrill(id: string): TableDrillHost | undefined {
  const drill = model?.inspect?.drill.tables[id];
  return drill ? { drill, open: openRows } : undefined;
}

/** Opens the rows panel (the report lens below). */
const openRows: OpenRows = (spec, anchor, origin) => lens.open(spec, anchor, origin);

/** What the threshold explorer may touch: the charts' markers, the status line, its state. */
function explorerHost(): ExplorerHost {
  return {
    mark: (chart, line) => {
      if (line) marks.set(chart, line);
      else marks.delete(chart);
      const drawn = chartOf(chart);
      if (drawn) drawn.marks = marksOf(chart);
    },
    status,
    recall: (key) => state.selected?.[key],
    remember: (key, value) => {
      state.selected = { ...(state.selected ?? {}), [key]: value };
      saveState();
    },
  };
}

function tabPanel(t: TabModel): HTMLElement {
  const panel = el('vscode-tab-panel', { 'data-tab': t.id });
  if (t.cards.length > 0) panel.append(el('section', { class: 'cards' }, ...t.cards.map(card)));
  for (const tbl of t.leadTables ?? []) panel.append(renderTable(tbl, status, tableDrill(tbl.id)));
  if (t.explorer) panel.append(thresholdExplorer(t.explorer, explorerHost()));
  // The user inspector is linked to the tab's item map (which highlights the user it shows).
  const inspector = t.userInspector && model?.inspect ? userInspector(t.userInspector, explorerHost()) : undefined;
  if (inspector) panel.append(inspector);
  if (t.changedRows) panel.append(changedRowsView(t.changedRows, { status }));
  const groups = new Map<string, ChartModel[]>();
  for (const c of t.charts) if (c.group) groups.set(c.group.id, [...(groups.get(c.group.id) ?? []), c]);
  const done = new Set<string>();
  for (const c of t.charts) {
    if (c.group) {
      if (done.has(c.group.id)) continue;
      done.add(c.group.id);
      const members = groups.get(c.group.id)!;
      const chosen = members.find((m) => m.id === state.selected?.[c.group!.id]) ?? members[0]!;
      panel.append(chartFigure(chosen, members, inspector));
    } else {
      panel.append(chartFigure(c, undefined, inspector));
    }
  }
  for (const tbl of t.tables) panel.append(renderTable(tbl, status, tableDrill(tbl.id)));
  for (const n of t.notes) panel.append(el('p', { class: 'note' }, n));
  return panel;
}

function selectTab(tabs: HTMLElement, index: number): void {
  const t = model?.tabs[index];
  if (!t) return;
  (tabs as unknown as { selectedIndex: number }).selectedIndex = index;
  state.tab = t.id;
  saveState();
}

function focusTarget(target: string): void {
  if (!model) return;
  const where = model.targets[target] ?? (model.tabs.some((t) => t.id === target) ? { tab: target } : undefined);
  const tabs = document.querySelector('vscode-tabs') as HTMLElement | null;
  if (!where || !tabs) return;
  const i = model.tabs.findIndex((t) => t.id === where.tab);
  if (i >= 0) selectTab(tabs, i);
  requestAnimationFrame(() => {
    const node =
      (where.element ? document.getElementById(`chart-${where.element}`) : null) ??
      document.querySelector<HTMLElement>(
        `vscode-tab-panel[data-tab="${CSS.escape(where.tab)}"] .card[data-metric="${CSS.escape(target)}"]`,
      );
    if (!node) return;
    node.scrollIntoView({ block: 'center' });
    const focusable = node.matches('.card')
      ? node
      : node.querySelector<HTMLElement>('canvas, td.cm-cell[tabindex="0"]');
    focusable?.focus();
    node.classList.add('flash');
    window.setTimeout(() => node.classList.remove('flash'), 1600);
  });
}

/** Drill-down from the numbers to the rows behind them, and the Slices tab. */
const lens = new ReportLens(app, status);

function render(m: ReportModel, uri: string, focus: string | undefined): void {
  // The charts of the report shown before are taken down as their elements leave the document.
  overrides.clear();
  model = m;
  const prev = vscode.getState();
  state = isWebviewState(prev) && prev.uri === uri ? prev : { uri };
  saveState();
  app.replaceChildren();
  app.setAttribute('aria-busy', 'false');
  app.append(headerEl(m));
  if (m.headline.length > 0)
    app.append(el('section', { class: 'cards headline', 'aria-label': 'Headline metrics' }, ...m.headline.map(card)));
  const tabs = el('vscode-tabs', { class: 'family-tabs' });
  for (const t of m.tabs) tabs.append(el('vscode-tab-header', { slot: 'header', 'data-tab': t.id }, t.title));
  for (const t of m.tabs) tabs.append(tabPanel(t));
  tabs.addEventListener('vsc-tabs-select', (e) => {
    const i = (e as CustomEvent<{ selectedIndex: number }>).detail.selectedIndex;
    const t = m.tabs[i];
    if (!t) return;
    state.tab = t.id;
    saveState();
  });
  app.append(tabs, statusLine);
  lens.attach(m);
  const initial = Math.max(
    0,
    m.tabs.findIndex((t) => t.id === state.tab),
  );
  customElements.whenDefined('vscode-tabs').then(() => {
    wrapTabList(tabs);
    selectTab(tabs, initial);
    if (focus) focusTarget(focus);
    if (focus) lens.drillTo(focus);
  });
}

/**
 * In a narrow panel the family tabs wrap onto a second row instead of widening the page (the
 * component's tab list is a flex row that does not wrap, inside its shadow root).
 */
function wrapTabList(tabs: HTMLElement): void {
  const root = tabs.shadowRoot;
  if (!root) return;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync('.tablist { flex-wrap: wrap; }');
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  const msg = e.data;
  if (!isHostMessage(msg)) return;
  handle(msg);
});

function handle(msg: HostMessage): void {
  switch (msg.type) {
    case 'show':
      render(msg.model, msg.uri, msg.focus);
      break;
    case 'focus':
      focusTarget(msg.target);
      lens.drillTo(msg.target);
      break;
    case 'reply':
    case 'rows':
    case 'sliceCandidates':
    case 'slices':
    case 'foundSlices':
    case 'diff':
      answer(msg);
      break;
    case 'error':
      app.replaceChildren(el('div', { class: 'error', role: 'alert' }, msg.message));
      break;
  }
}

document.addEventListener('securitypolicyviolation', (e) => {
  vscode.postMessage({
    type: 'cspViolation',
    directive: e.violatedDirective,
    blocked: e.blockedURI || e.sourceFile || 'inline',
  });
});
window.addEventListener('error', (e) =>
  vscode.postMessage({ type: 'log', level: 'error', message: `${e.message} (${e.filename}:${e.lineno})` }),
);
vscode.postMessage({ type: 'ready' });
