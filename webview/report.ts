/**
 * `<eval-report>`: the report of one webview. It draws the {@link ReportModel} the host sends
 * (header, headline cards, one tab per metric family with charts and tables) and never computes
 * metrics; main.ts only hands it the host's messages.
 *
 * One state object ({@link ReportState}): the report shown (its uri and model, or the error shown
 * instead), what the panel remembers through `vscode.setState` (the tab, the charts shown as
 * tables, the variants and choices made), the threshold explorer's markers by chart, and the parts
 * drawn. Each part (the header, the headline cards, the tab list, and in each tab its Mistakes bar,
 * cards, tables, explorer, user inspector, Changed rows, figures — `<eval-figure>`, figure.ts —,
 * notes; the Slices tab one part) is drawn from a few inputs of the model, kept with a signature
 * of them. A `show` of the same report (the same uri: a stage of the evaluation, the final
 * results, the file evaluated again, a slice of it) keeps the user's place: a part whose inputs
 * are unchanged stays (the same element: its component keeps its own state, its chart stays
 * drawn), one that changed is drawn anew in its place (a chart shown as a table stays a table, a
 * variant chosen stays chosen), the tab shown stays shown and the scroll position is put back. A
 * `show` of another report (another uri) starts fresh: the report before leaves the document, and
 * its components take their listeners and observers with them.
 *
 * Lifecycle: the report is drawn when it enters the document (from its state: a `show` made before
 * is drawn then) and on each `show` while in it; leaving the document, it takes every part down
 * (its components disconnect their observers, the rows panel closes, the timers stop) and keeps
 * only its state, so that entering again draws the same report at the same place. It listens to
 * nothing outside itself: the tab list, buttons and components listen on their own elements.
 *
 * Drill-down targets (webview/drill.ts) are declared by the parts that draw them — the metric
 * cards, the Mistakes button, the tables, the figures (their matrix's cells, their table's rows,
 * their chart's points), the slice finder's found slices (a run's Slices tab passes them on) — and {@link ReportElement.drillTargets} lists those drawn. The report
 * holds the one rows panel (`<eval-rows>`) they open.
 *
 * A plain `HTMLElement`, not a Lit element: what it draws is a list of parts kept or replaced by
 * the signature of their inputs, and the rows panel is moved in among them where it is opened
 * (after the figure or cards clicked). Lit owns the nodes between the markers of each part it
 * renders, so it would take that panel away with a part drawn anew, and its templates would add
 * nothing to parts that are components or built elements already. Light DOM, as every component
 * of the report: the report's stylesheets and the UI tests' selectors reach inside.
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
import type { DrillSpec } from '../src/shared/drillSpec';
import type { CardModel, ChartModel, RefLine, ReportModel, TableModel, TabModel } from '../src/shared/model';
import { isWebviewState, type WebviewState } from '../src/shared/protocol';
import { cardEl, type CardElement } from './cards';
import { el } from './dom';
import type { DrillSource, DrillTarget, OpenRows } from './drill';
import { chartFigure, FigureElement, type FigureHost } from './figure';
import { mistakesBar, subsetBar } from './inspect';
import { changedRowsView } from './changedRows';
import { foundSlicesSection } from './foundSlices';
import { rowsPanel, type RowsElement } from './rows';
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

/**
 * A part to draw: its key, the signature of its inputs, and how to draw it (`before`: the parts of
 * the same box drawn before it, in order).
 */
interface Part {
  key: string;
  sig: string;
  build(before: readonly DrawnPart[]): HTMLElement;
}

export interface ReportState {
  /** The report shown (a `*.eval.json`, `*.compare.json` or foreign JSON, as a URI string). */
  uri: string | undefined;
  model: ReportModel | undefined;
  /** Shown instead of a report (the host could not read or build it). */
  error: string | undefined;
  /** What the panel remembers when hidden or reloaded (the tab, tables shown, choices made). */
  saved: WebviewState;
  /**
   * Chart id → the threshold explorer's marker, drawn over the chart's own lines (its model
   * unchanged); replaced, never changed, when a marker changes (the figures hold it).
   */
  marks: ReadonlyMap<string, RefLine>;
  /** A metric, chart or tab to bring into view once the report is drawn (asked while out of the document). */
  focus: string | undefined;
  /** The parts drawn at the top (header, headline cards, tabs) and in each tab panel (by tab id). */
  top: DrawnPart[];
  panels: Map<string, { panel: HTMLElement; parts: DrawnPart[] }>;
  /** The family tabs, while drawn. */
  tabs: HTMLElement | undefined;
  /** Clears the status line; takes the highlight off what was brought into view. */
  statusTimer: number | undefined;
  flashTimer: number | undefined;
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
  const drawn: DrawnPart[] = [];
  if (!same) box.replaceChildren();
  parts.forEach((p, i) => {
    const old = same ? before[i]! : undefined;
    if (old?.sig === p.sig) {
      drawn.push(old);
      return;
    }
    const e = p.build(drawn);
    if (old) old.el.replaceWith(e);
    else box.append(e);
    drawn.push({ key: p.key, sig: p.sig, el: e });
  });
  return drawn;
}

/** The drill-down targets declared by these parts (a row of cards: its cards'). */
function targetsOf(parts: readonly DrawnPart[]): DrillTarget[] {
  return parts.flatMap((p) => {
    const e = p.el as HTMLElement & Partial<DrillSource>;
    if (e.drillTargets) return e.drillTargets;
    return cardsOf([p]).flatMap((c) => c.drillTargets);
  });
}

/** The metric cards of these parts (the headline's, a tab's row of cards). */
function cardsOf(parts: readonly DrawnPart[]): CardElement[] {
  return parts
    .filter((p) => p.key === 'headline' || p.key === 'cards')
    .flatMap((p) => [...p.el.children] as CardElement[]);
}

export class ReportElement extends HTMLElement implements DrillSource {
  readonly state: ReportState = {
    uri: undefined,
    model: undefined,
    error: undefined,
    saved: { uri: '' },
    marks: new Map(),
    focus: undefined,
    top: [],
    panels: new Map(),
    tabs: undefined,
    statusTimer: undefined,
    flashTimer: undefined,
  };
  private readonly statusLine = el('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  /** The rows behind a number (one panel per report, moved where it is opened). */
  readonly rows: RowsElement = rowsPanel({
    reevaluate: () => vscode.postMessage({ type: 'command', command: 'reevaluate' }),
  });
  /** Opens the rows panel: the rows of `spec` after `anchor`, focus back to `origin` when it closes. */
  private readonly openRows: OpenRows = (spec, anchor, origin) => this.rows.open(spec, anchor, origin);
  private readonly statusFn = (text: string): void => this.status(text);

  /** Drawn from its state as it enters the document. */
  connectedCallback(): void {
    const focus = this.state.focus;
    this.state.focus = undefined;
    this.draw(focus);
  }

  /** Takes every part down as it leaves the document; the state stays. */
  disconnectedCallback(): void {
    this.takeDown();
  }

  /**
   * Shows `m`: in place of the report shown when it is the same report (`uri`), keeping the
   * user's place; anew otherwise. `focus`: a metric or tab to bring into view. Drawn now when in
   * the document, else when it enters it.
   */
  show(m: ReportModel, uri: string, focus?: string): void {
    const s = this.state;
    const same = s.model !== undefined && s.uri === uri;
    if (!same) this.start(uri);
    // The rows panel stays open while it lists rows of the same file, filtered the same way.
    if (!same || sig(s.model!.inspect?.drill, s.model!.inspect?.subset) !== sig(m.inspect?.drill, m.inspect?.subset))
      this.rows.close();
    s.model = m;
    if (this.isConnected) this.draw(focus);
    else if (focus) s.focus = focus;
  }

  /** Brings `target` (a metric, a chart, a tab) into view, and lists its rows when it stands for rows. */
  focusOn(target: string): void {
    const s = this.state;
    const model = s.model;
    if (!this.isConnected) {
      s.focus = target;
      return;
    }
    if (!model) return;
    const where = model.targets[target] ?? (model.tabs.some((t) => t.id === target) ? { tab: target } : undefined);
    const i = where && s.tabs ? model.tabs.findIndex((t) => t.id === where.tab) : -1;
    if (i >= 0) this.selectTab(i);
    const spec = model.inspect?.drill.cards[target];
    if (!(where && s.tabs) && !spec) return;
    // A frame later: the tab selected is shown.
    requestAnimationFrame(() => {
      if (s.model !== model || !this.isConnected) return;
      if (where && s.tabs) this.bringIntoView(target, where);
      if (spec) this.drillTo(target, spec);
    });
  }

  /** Shows `message` instead of a report (the report before leaves the document). */
  error(message: string): void {
    const s = this.state;
    this.start(s.uri ?? '');
    s.model = undefined;
    s.error = message;
    if (this.isConnected) this.draw(undefined);
  }

  /** Shows `text` in the status line for a few seconds. */
  status(text: string): void {
    const s = this.state;
    this.statusLine.textContent = text;
    window.clearTimeout(s.statusTimer);
    s.statusTimer = window.setTimeout(() => (this.statusLine.textContent = ''), 4000);
  }

  /** The drill-down targets of the parts drawn (every tab's), in the order drawn. */
  get drillTargets(): DrillTarget[] {
    const s = this.state;
    return [...targetsOf(s.top), ...[...s.panels.values()].flatMap((p) => targetsOf(p.parts))];
  }

  /** Starts afresh for `uri`: the report before leaves the document, with its components' listeners and observers. */
  private start(uri: string): void {
    const s = this.state;
    this.takeDown();
    s.model = undefined;
    s.error = undefined;
    s.focus = undefined;
    s.uri = uri;
    const prev = vscode.getState();
    s.saved = isWebviewState(prev) && prev.uri === uri ? prev : { uri };
    this.save();
  }

  /** Takes the parts drawn down (the state's model stays, to be drawn again). */
  private takeDown(): void {
    const s = this.state;
    this.rows.close();
    // Components withdraw what they lent (the explorer's markers) as they leave: before the maps are emptied.
    this.replaceChildren();
    s.top = [];
    s.panels.clear();
    s.tabs = undefined;
    s.marks = new Map();
    window.clearTimeout(s.statusTimer);
    window.clearTimeout(s.flashTimer);
    s.statusTimer = s.flashTimer = undefined;
    this.statusLine.textContent = '';
  }

  /** Draws the state's report (or error): in place of the parts drawn when there are any. */
  private draw(focus: string | undefined): void {
    const s = this.state;
    if (s.error !== undefined) {
      this.replaceChildren(el('div', { class: 'error', role: 'alert' }, s.error));
      return;
    }
    const m = s.model;
    if (!m) return;
    const tabsBefore = s.tabs;
    const drawn = tabsBefore !== undefined;
    const [x, y] = [window.scrollX, window.scrollY];
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
    s.top = reconcile(this, top, drawn ? s.top : undefined);
    if (this.statusLine.parentNode !== this) this.append(this.statusLine);
    const tabs = s.tabs!;
    if (tabs === tabsBefore) {
      // The same tabs: each panel keeps what did not change.
      for (const t of m.tabs) {
        const panel = s.panels.get(t.id);
        if (panel) panel.parts = reconcile(panel.panel, this.panelParts(m, t), panel.parts);
      }
    }
    // The rows panel closes if what it was opened under was drawn anew (it left the document).
    if (this.rows.isOpen && !this.rows.isConnected) this.rows.close();
    if (drawn && (window.scrollX !== x || window.scrollY !== y)) window.scrollTo(x, y);
    if (tabs === tabsBefore) {
      if (focus) this.focusOn(focus);
      return;
    }
    const initial = Math.max(
      0,
      m.tabs.findIndex((t) => t.id === s.saved.tab),
    );
    void customElements.whenDefined('vscode-tabs').then(() => {
      // Drawn again or taken down meanwhile: that drawing selects its own tab.
      if (s.tabs !== tabs) return;
      wrapTabList(tabs);
      this.selectTab(initial);
      if (focus) this.focusOn(focus);
    });
  }

  private save(): void {
    vscode.setState(this.state.saved);
  }

  private remember(key: string, value: string): void {
    const s = this.state.saved;
    s.selected = { ...(s.selected ?? {}), [key]: value };
    this.save();
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
        build: (before) => {
          // The item map's picker follows the tab's user inspector (a highlight is the picker's to draw again).
          const follows = before.find((p) => p.key === 'inspector')?.el;
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

  /** The figures drawn, in every tab. */
  private figures(): FigureElement[] {
    return [...this.state.panels.values()].flatMap((p) =>
      p.parts.flatMap((x) => (x.el instanceof FigureElement ? [x.el] : [])),
    );
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
    chartPoints: (id) => this.state.model?.inspect?.drill.charts[id]?.points,
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
        for (const f of this.figures()) if (f.charts.some((x) => x.id === chart)) f.marks = marks;
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

  /** Scrolls to, focuses and highlights the chart or card of `target` in its tab. */
  private bringIntoView(target: string, where: { tab: string; element?: string }): void {
    const s = this.state;
    const figure = where.element ? this.figures().find((f) => f.figure?.id === `chart-${where.element}`) : undefined;
    const card = cardsOf(s.panels.get(where.tab)?.parts ?? []).find((c) => c.dataset.metric === target);
    const node = figure?.figure ?? card;
    if (!node) return;
    node.scrollIntoView({ block: 'center' });
    (figure ? figure.focusable : card)?.focus();
    node.classList.add('flash');
    window.clearTimeout(s.flashTimer);
    s.flashTimer = window.setTimeout(() => node.classList.remove('flash'), 1600);
  }

  /**
   * "Open the report at `acc_few`" (tree, CodeLens) also lists the rows behind it when the metric
   * stands for a set of rows (few-shot rows, a group's rows, the mistakes): those of its card shown
   * (in the headline, or in the tab shown), opened under its row of cards.
   */
  private drillTo(target: string, spec: DrillSpec): void {
    const s = this.state;
    const shown = [...s.top, ...(s.panels.get(s.saved.tab ?? '')?.parts ?? [])];
    const card = cardsOf(shown).find((c) => c.dataset.metric === target);
    const declared = card?.drillTargets[0];
    if (declared) this.openRows(declared.spec, declared.anchor, card!);
    else if (s.tabs) this.rows.open(spec, s.tabs);
  }
}

customElements.define('eval-report', ReportElement);

declare global {
  interface HTMLElementTagNameMap {
    'eval-report': ReportElement;
  }
}

/** A report element, empty until shown. */
export function reportElement(): ReportElement {
  return document.createElement('eval-report');
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
