/**
 * The report of one webview: draws the {@link ReportModel} the host sends (header, headline
 * cards, one tab per metric family with charts and tables). It never computes metrics.
 *
 * One state object ({@link ReportState}): the report shown (its uri and model), what the panel
 * remembers through `vscode.setState` (the tab, the charts shown as tables, the variants and
 * choices made), the threshold explorer's markers by chart, and the parts drawn. Each part (the
 * header, the headline cards, the tab list, and in each tab its cards, tables, explorer, user
 * inspector, figures — `<eval-figure>`, figure.ts —, notes) is drawn from a few inputs of the model, kept with a signature of them. A `show`
 * of the same report (the same uri: a stage of the evaluation, the final results, the file
 * evaluated again, a slice of it) keeps the user's place: a part whose inputs are unchanged stays
 * (the same element: its component keeps its own state, its chart stays drawn), one that changed is
 * drawn anew in its place (a chart shown as a table stays a table, a variant chosen stays chosen),
 * the tab shown stays shown and the scroll position is put back. A `show` of another report (another
 * uri) starts fresh: the report before leaves the document, and its components take their
 * listeners and observers with them.
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
import type { CardModel, ChartModel, RefLine, ReportModel, TableModel, TabModel } from '../src/shared/model';
import { isWebviewState, type WebviewState } from '../src/shared/protocol';
import { cardEl } from './cards';
import { el } from './dom';
import type { OpenRows } from './drill';
import { chartFigure, type FigureHost } from './figure';
import { mistakesBar, ReportLens, subsetBar } from './inspect';
import { changedRowsView } from './changedRows';
import { foundSlicesSection } from './foundSlices';
import { slicesView } from './slices';
import { renderTable, type TableDrillHost } from './tables';
import { thresholdExplorer, type ExplorerHost } from './thresholdExplorer';
import { userInspector } from './userInspector';
import { vscode } from './vscodeApi';

/** One part drawn: its key (unique among its siblings), the signature of its inputs, its element. */
export interface DrawnPart {
  key: string;
  sig: string;
  el: HTMLElement;
}

/** A part to draw: its key, the signature of its inputs, and how to draw it (into `box`). */
interface Part {
  key: string;
  sig: string;
  build(box: HTMLElement): HTMLElement;
}

export interface ReportState {
  /** The report shown (a `*.eval.json`, `*.compare.json` or foreign JSON, as a URI string). */
  uri: string | undefined;
  model: ReportModel | undefined;
  /** What the panel remembers when hidden or reloaded (the tab, tables shown, choices made). */
  saved: WebviewState;
  /**
   * Chart id → the threshold explorer's marker, drawn over the chart's own lines (its model
   * unchanged); replaced, never changed, when a marker changes (the figures hold it).
   */
  marks: ReadonlyMap<string, RefLine>;
  /** The parts drawn at the top (header, headline cards, tabs) and in each tab panel (by tab id). */
  top: DrawnPart[];
  panels: Map<string, { panel: HTMLElement; parts: DrawnPart[] }>;
  /** The family tabs, while drawn. */
  tabs: HTMLElement | undefined;
  /** Clears the status line. */
  statusTimer: number | undefined;
}

/** The signature of a part's inputs: they are plain data (the model came as JSON). */
const sig = (...inputs: unknown[]): string => JSON.stringify(inputs);

/**
 * Draws `parts` into `box`. When the parts drawn before have the same keys in the same order, a
 * part of the same signature is kept and one that changed is drawn in its place (anything else in
 * `box` — the rows panel — stays where it is); otherwise `box` is drawn anew.
 */
function reconcile(box: HTMLElement, parts: Part[], before: DrawnPart[] | undefined): DrawnPart[] {
  const same =
    before !== undefined &&
    before.length === parts.length &&
    parts.every((p, i) => before[i]!.key === p.key && before[i]!.el.parentNode === box);
  if (same)
    return parts.map((p, i) => {
      const old = before[i]!;
      if (old.sig === p.sig) return old;
      const e = p.build(box);
      old.el.replaceWith(e);
      return { key: p.key, sig: p.sig, el: e };
    });
  box.replaceChildren();
  return parts.map((p) => {
    const e = p.build(box);
    box.append(e);
    return { key: p.key, sig: p.sig, el: e };
  });
}

export class Report {
  readonly state: ReportState = {
    uri: undefined,
    model: undefined,
    saved: { uri: '' },
    marks: new Map(),
    top: [],
    panels: new Map(),
    tabs: undefined,
    statusTimer: undefined,
  };
  private readonly statusLine = el('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  /** Drill-down from the numbers to the rows behind them (the rows panel, chart points). */
  private readonly lens: ReportLens;
  /** Opens the rows panel. */
  private readonly openRows: OpenRows = (spec, anchor, origin) => this.lens.open(spec, anchor, origin);
  private readonly statusFn = (text: string): void => this.status(text);

  constructor(private readonly app: HTMLElement) {
    this.lens = new ReportLens(app);
  }

  /**
   * Shows `m`: in place of the report shown when it is the same report (`uri`), keeping the
   * user's place; anew otherwise. `focus`: a metric or tab to bring into view.
   */
  show(m: ReportModel, uri: string, focus?: string): void {
    const s = this.state;
    const same = s.model !== undefined && s.uri === uri && s.tabs?.isConnected === true;
    if (!same) this.start(uri);
    const [x, y] = [window.scrollX, window.scrollY];
    // The rows panel stays open while it lists rows of the same file, filtered the same way.
    const keepRows =
      same && sig(s.model!.inspect?.drill, s.model!.inspect?.subset) === sig(m.inspect?.drill, m.inspect?.subset);
    s.model = m;
    this.lens.attach(m, keepRows);
    this.app.setAttribute('aria-busy', 'false');
    const tabsBefore = s.tabs;
    const top: Part[] = [
      {
        key: 'header',
        sig: sig(m.kind, m.header, m.inspect?.subset),
        build: () => this.headerEl(m),
      },
    ];
    if (m.headline.length > 0)
      top.push({
        key: 'headline',
        sig: sig(m.headline, this.cardDrills(m, m.headline)),
        build: () =>
          el(
            'section',
            { class: 'cards headline', 'aria-label': 'Headline metrics' },
            ...m.headline.map((c) => this.card(c)),
          ),
      });
    top.push({
      key: 'tabs',
      sig: sig(m.tabs.map((t) => [t.id, t.title])),
      build: () => this.tabsEl(m),
    });
    s.top = reconcile(this.app, top, same ? s.top : undefined);
    if (this.statusLine.parentNode !== this.app) this.app.append(this.statusLine);
    const tabs = s.tabs!;
    if (tabs === tabsBefore) {
      // The same tabs: each panel keeps what did not change.
      for (const t of m.tabs) {
        const drawn = s.panels.get(t.id);
        if (drawn) drawn.parts = reconcile(drawn.panel, this.panelParts(m, t), drawn.parts);
      }
      this.lens.settle();
      if (window.scrollX !== x || window.scrollY !== y) window.scrollTo(x, y);
      if (focus) this.focus(focus);
      return;
    }
    this.lens.settle();
    if (same && (window.scrollX !== x || window.scrollY !== y)) window.scrollTo(x, y);
    const initial = Math.max(
      0,
      m.tabs.findIndex((t) => t.id === s.saved.tab),
    );
    customElements.whenDefined('vscode-tabs').then(() => {
      // Drawn again meanwhile: that drawing selects its own tab.
      if (s.tabs !== tabs) return;
      wrapTabList(tabs);
      this.selectTab(initial);
      if (focus) this.focus(focus);
    });
  }

  /** Brings `target` (a metric, a chart, a tab) into view, and lists its rows when it stands for rows. */
  focus(target: string): void {
    this.focusTarget(target);
    this.lens.drillTo(target);
  }

  /** Shows `message` instead of a report (the report before leaves the document). */
  error(message: string): void {
    this.start(this.state.uri ?? '');
    this.state.model = undefined;
    this.app.replaceChildren(el('div', { class: 'error', role: 'alert' }, message));
  }

  /** Takes the report down and stops listening. */
  dispose(): void {
    this.start('');
    this.state.model = undefined;
    this.lens.dispose();
  }

  /** Starts afresh for `uri`: the report before leaves the document, with its components' listeners and observers. */
  private start(uri: string): void {
    const s = this.state;
    this.lens.attach(undefined, false);
    // Components withdraw what they lent (the explorer's markers) as they leave: before the maps are emptied.
    this.app.replaceChildren();
    s.top = [];
    s.panels.clear();
    s.tabs = undefined;
    s.marks = new Map();
    window.clearTimeout(s.statusTimer);
    s.statusTimer = undefined;
    this.statusLine.textContent = '';
    s.uri = uri;
    const prev = vscode.getState();
    s.saved = isWebviewState(prev) && prev.uri === uri ? prev : { uri };
    this.save();
  }

  private save(): void {
    vscode.setState(this.state.saved);
  }

  private remember(key: string, value: string): void {
    const s = this.state.saved;
    s.selected = { ...(s.selected ?? {}), [key]: value };
    this.save();
  }

  status(text: string): void {
    const s = this.state;
    this.statusLine.textContent = text;
    window.clearTimeout(s.statusTimer);
    s.statusTimer = window.setTimeout(() => (this.statusLine.textContent = ''), 4000);
  }

  /** The drill-downs of these cards (part of what they are drawn from). */
  private cardDrills(m: ReportModel, cards: readonly CardModel[]): unknown[] {
    return cards.map((c) => m.inspect?.drill.cards[c.key] ?? null);
  }

  /** A metric card, a drill-down target when its number stands for rows of the file. */
  private card(c: CardModel): HTMLElement {
    const spec = this.state.model?.inspect?.drill.cards[c.key];
    return cardEl(c, spec ? { spec, open: this.openRows } : undefined);
  }

  private headerEl(m: ReportModel): HTMLElement {
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
    // A report of a subset: its filter, and the way back to the whole file.
    if (m.inspect?.subset) h.append(subsetBar(m.inspect.subset, this.statusFn));
    return h;
  }

  /** The family tabs with their panels (the state's tab is selected once the component is defined). */
  private tabsEl(m: ReportModel): HTMLElement {
    const s = this.state;
    const tabs = el('vscode-tabs', { class: 'family-tabs' });
    for (const t of m.tabs) tabs.append(el('vscode-tab-header', { slot: 'header', 'data-tab': t.id }, t.title));
    s.panels.clear();
    for (const t of m.tabs) {
      const panel = el('vscode-tab-panel', { 'data-tab': t.id });
      s.panels.set(t.id, { panel, parts: reconcile(panel, this.panelParts(m, t), undefined) });
      tabs.append(panel);
    }
    tabs.addEventListener('vsc-tabs-select', (e) => {
      const i = (e as CustomEvent<{ selectedIndex: number }>).detail.selectedIndex;
      const t = this.state.model?.tabs[i];
      if (!t) return;
      s.saved.tab = t.id;
      this.save();
    });
    s.tabs = tabs;
    return tabs;
  }

  /** The parts of tab `t`'s panel, in order. */
  private panelParts(m: ReportModel, t: TabModel): Part[] {
    const insp = m.inspect;
    // The Slices tab: the slices of the file (a run's report), or where run B loses (a comparison).
    if (t.id === 'slices' && insp)
      return [
        {
          key: 'slices',
          sig: sig(t, insp, m.headline),
          build: () => slicesView(m, insp, this.statusFn, this.openRows),
        },
      ];
    if (t.id === 'slices' && m.compareSlices) {
      const compare = m.compareSlices;
      return [
        {
          key: 'slices',
          sig: sig(t, compare),
          build: () => foundSlicesSection({ status: this.statusFn, compare }),
        },
      ];
    }
    const parts: Part[] = [];
    const mistakes = t.id === 'classification' ? insp?.drill.mistakes : undefined;
    if (mistakes)
      parts.push({ key: 'mistakes', sig: sig(mistakes), build: () => mistakesBar(mistakes, this.openRows) });
    if (t.cards.length > 0)
      parts.push({
        key: 'cards',
        sig: sig(t.cards, this.cardDrills(m, t.cards)),
        build: () => el('section', { class: 'cards' }, ...t.cards.map((c) => this.card(c))),
      });
    const table = (key: string, tbl: TableModel): Part => ({
      key: `${key}:${tbl.id}`,
      sig: sig(tbl, insp?.drill.tables[tbl.id]),
      build: () => renderTable(tbl, this.statusFn, this.tableDrill(tbl.id)),
    });
    for (const tbl of t.leadTables ?? []) parts.push(table('lead', tbl));
    const explorer = t.explorer;
    if (explorer)
      parts.push({
        key: 'explorer',
        sig: sig(explorer),
        build: () => thresholdExplorer(explorer, this.explorerHost()),
      });
    // The user inspector is linked to the tab's item map (which highlights the user it shows).
    const inspectorModel = t.userInspector && insp ? t.userInspector : undefined;
    const inspectorSig = sig(inspectorModel);
    if (inspectorModel)
      parts.push({
        key: 'inspector',
        sig: inspectorSig,
        build: () => userInspector(inspectorModel, this.explorerHost()),
      });
    const changed = t.changedRows;
    if (changed)
      parts.push({
        key: 'changed',
        sig: sig(changed),
        build: () => changedRowsView(changed, { status: this.statusFn }),
      });
    const groups = new Map<string, ChartModel[]>();
    for (const c of t.charts) if (c.group) groups.set(c.group.id, [...(groups.get(c.group.id) ?? []), c]);
    const done = new Set<string>();
    const users = m.tabs.find((x) => x.userInspector)?.userInspector?.users ?? [];
    for (const c of t.charts) {
      if (c.group && done.has(c.group.id)) continue;
      const members = c.group ? groups.get(c.group.id)! : [c];
      if (c.group) done.add(c.group.id);
      const drill = insp?.drill;
      parts.push({
        key: `figure:${c.group ? `group:${c.group.id}` : c.id}`,
        sig: sig(
          members,
          members.map((x) => [drill?.charts[x.id] ?? null, drill?.tables[x.table.id] ?? null]),
          members.some((x) => x.heatmap) ? (drill?.measured ?? null) : null,
          members.some((x) => x.itemMap) ? [insp !== undefined, users, inspectorSig] : null,
        ),
        build: (box) => {
          // The item map's picker follows the tab's user inspector (a highlight is the picker's to draw again).
          const follows = box.querySelector<HTMLElement>('eval-user-inspector') ?? undefined;
          const picker = insp && members.some((x) => x.itemMap) ? { users, follows } : undefined;
          return chartFigure(members, this.figureHost, this.state.marks, picker);
        },
      });
    }
    for (const tbl of t.tables) parts.push(table('table', tbl));
    t.notes.forEach((n, i) =>
      parts.push({ key: `note:${i}`, sig: sig(n), build: () => el('p', { class: 'note' }, n) }),
    );
    return parts;
  }

  /** What the figures may touch: the status line, the panel's memory, the drill-downs, the rows panel. */
  private readonly figureHost: FigureHost = {
    status: this.statusFn,
    recall: (key) => this.state.saved.selected?.[key],
    remember: (key, value) => this.remember(key, value),
    tableShown: (id) => this.state.saved.tableView?.includes(id) ?? false,
    showTable: (id, on) => {
      const s = this.state.saved;
      const set = new Set(s.tableView ?? []);
      if (on) set.add(id);
      else set.delete(id);
      s.tableView = [...set];
      this.save();
    },
    tableDrill: (id) => this.state.model?.inspect?.drill.tables[id],
    cellsMeasured: (id) => {
      // The matrix's cells list their rows (among the rows the metrics cover) when the report can list rows.
      const drill = this.state.model?.inspect?.drill;
      return drill?.charts[id]?.cells ? (drill.measured ?? []) : undefined;
    },
    open: this.openRows,
    reportTitle: () => this.state.model?.title ?? 'report',
  };

  /** The drill-down of table `id` (its rows or cells list rows of the file), when the report has one. */
  private tableDrill(id: string): TableDrillHost | undefined {
    const drill = this.state.model?.inspect?.drill.tables[id];
    return drill ? { drill, open: this.openRows } : undefined;
  }

  /** What the threshold explorer may touch: the charts' markers, the status line, its state. */
  private explorerHost(): ExplorerHost {
    const s = this.state;
    return {
      mark: (chart, line) => {
        const marks = new Map(s.marks);
        if (line) marks.set(chart, line);
        else marks.delete(chart);
        s.marks = marks;
        for (const f of this.app.querySelectorAll('eval-figure'))
          if (f.charts.some((x) => x.id === chart)) f.marks = marks;
      },
      status: this.statusFn,
      recall: (key) => s.saved.selected?.[key],
      remember: (key, value) => this.remember(key, value),
    };
  }

  private selectTab(index: number): void {
    const t = this.state.model?.tabs[index];
    const tabs = this.state.tabs;
    if (!t || !tabs) return;
    (tabs as unknown as { selectedIndex: number }).selectedIndex = index;
    this.state.saved.tab = t.id;
    this.save();
  }

  private focusTarget(target: string): void {
    const model = this.state.model;
    if (!model) return;
    const where = model.targets[target] ?? (model.tabs.some((t) => t.id === target) ? { tab: target } : undefined);
    if (!where || !this.state.tabs) return;
    const i = model.tabs.findIndex((t) => t.id === where.tab);
    if (i >= 0) this.selectTab(i);
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
