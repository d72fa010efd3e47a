/**
 * The report of one webview: draws the {@link ReportModel} the host sends (header, headline
 * cards, one tab per metric family with charts and tables). It never computes metrics.
 *
 * One state object ({@link ReportState}): the report shown (its uri and model), what the panel
 * remembers through `vscode.setState` (the tab, the charts shown as tables, the variants and
 * choices made), the charts' markers and highlights, and the parts drawn. Each part (the header,
 * the headline cards, the tab list, and in each tab its cards, tables, explorer, user inspector,
 * figures, notes) is drawn from a few inputs of the model, kept with a signature of them. A `show`
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
import { chartPng } from './charts';
import { chartElement, type ChartElement } from './chartElement';
import { confusionMatrix, confusionPng, type ConfusionElement } from './confusion';
import { isConfusionNorm } from '../src/shared/confusionView';
import { chartFileName } from '../src/shared/outputName';
import { cardEl } from './cards';
import { el } from './dom';
import type { OpenRows } from './drill';
import { mistakesBar, ReportLens, subsetBar } from './inspect';
import { changedRowsView } from './changedRows';
import { foundSlicesSection } from './foundSlices';
import { slicesView } from './slices';
import { renderTable, type TableDrillHost } from './tables';
import { readTheme } from './theme';
import { thresholdExplorer, type ExplorerHost } from './thresholdExplorer';
import { userInspector } from './userInspector';
import { itemMapPicker } from './itemMap';
import { request, vscode } from './vscodeApi';

/** Horizontal bars of more categories than this scroll inside their card (about 960 px of rows). */
const HORIZONTAL_ROWS_MAX = 32;

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
  /** Chart id → the model drawn instead of the report's (the item map with a user highlighted). */
  overrides: Map<string, ChartModel>;
  /** Chart id → the threshold explorer's marker, drawn over the chart's own lines (its model unchanged). */
  marks: Map<string, RefLine>;
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
    overrides: new Map(),
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
    s.overrides.clear();
    s.marks.clear();
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

  private marksOf(id: string): RefLine[] {
    const line = this.state.marks.get(id);
    return line ? [line] : [];
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
          // Drawn anew: a highlight drawn over the chart before is the picker's to draw again.
          for (const x of members) this.state.overrides.delete(x.id);
          const chosen = (c.group && members.find((x) => x.id === this.state.saved.selected?.[c.group!.id])) || c;
          const inspector = box.querySelector<HTMLElement>('eval-user-inspector') ?? undefined;
          return this.chartFigure(chosen, c.group ? members : undefined, inspector);
        },
      });
    }
    for (const tbl of t.tables) parts.push(table('table', tbl));
    t.notes.forEach((n, i) =>
      parts.push({ key: `note:${i}`, sig: sig(n), build: () => el('p', { class: 'note' }, n) }),
    );
    return parts;
  }

  /** `next` takes the place of the drawn part `old` (a variant chosen). */
  private swap(old: HTMLElement, next: HTMLElement): void {
    old.replaceWith(next);
    for (const { parts } of this.state.panels.values()) for (const p of parts) if (p.el === old) p.el = next;
  }

  /**
   * A chart figure: canvas (keyboard-reachable, labelled) with a table alternative and PNG export.
   * `inspector`: the tab's user inspector, whose shown user an item map highlights too.
   */
  private chartFigure(c: ChartModel, group?: ChartModel[], inspector?: EventTarget): HTMLElement {
    const s = this.state;
    const model = s.model;
    const fig = el('figure', { class: 'chart', id: `chart-${c.id}`, 'data-chart': c.id });
    const showTable = s.saved.tableView?.includes(c.id) ?? false;
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
          el(
            'vscode-option',
            { value: g.id, ...(g.id === c.id ? { selected: true } : {}) },
            g.group?.option ?? g.title,
          ),
        );
      select.addEventListener('change', () => {
        const id = (select as unknown as { value: string }).value;
        const next = group.find((g) => g.id === id);
        if (!next || !c.group) return;
        this.remember(c.group.id, id);
        // The figure replaced takes its chart down with it (<eval-chart> on leaving the document).
        this.swap(fig, this.chartFigure(next, group, inspector));
      });
      actions.append(select);
    }
    actions.append(toggle, png);
    // The chart (drawn once it has a size, again on a theme change, taken down with the figure).
    const chart = c.heatmap ? undefined : chartElement(s.overrides.get(c.id) ?? c, this.marksOf(c.id));
    // Horizontal bars need room for every category row (about 28 px each, two bars per row).
    const box = el('div', {
      class: `canvas-box${c.heatmap ? ' heatmap' : ''}`,
      ...(showTable ? { hidden: true } : {}),
    });
    // Set through the CSSOM: the webview's content security policy allows no inline style attribute.
    if (c.horizontal) box.style.height = `${Math.max(240, 60 + 28 * (c.x.categories?.length ?? 0))}px`;
    let matrix: ConfusionElement | undefined;
    if (c.heatmap) {
      const norm = s.saved.selected?.[`${c.id}.norm`];
      // Its cells list their rows (among the rows the metrics cover) when the report can list rows.
      const drill = model?.inspect?.drill;
      matrix = confusionMatrix(
        c.heatmap,
        isConfusionNorm(norm) ? norm : 'counts',
        { norm: (n) => this.remember(`${c.id}.norm`, n) },
        drill?.charts[c.id]?.cells ? { measured: drill.measured ?? [], open: this.openRows } : undefined,
      );
      box.append(matrix);
    } else if (chart) {
      box.append(chart);
    }
    const tableBox = el(
      'div',
      { class: 'table-alt', ...(showTable ? {} : { hidden: true }) },
      renderTable(c.table, this.statusFn, this.tableDrill(c.table.id)),
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
      fig.append(
        itemMapPicker(
          c,
          users,
          {
            ...this.explorerHost(),
            draw: (m) => {
              if (m) s.overrides.set(c.id, m);
              else s.overrides.delete(c.id);
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
      const set = new Set(s.saved.tableView ?? []);
      if (on) set.add(c.id);
      else set.delete(c.id);
      s.saved.tableView = [...set];
      this.save();
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
        : chartPng(s.overrides.get(c.id) ?? c, font, this.marksOf(c.id));
      const name = chartFileName(this.state.model?.title ?? 'report', c.title);
      const r = await request((seq) => ({ type: 'savePng', seq, fileName: name, dataUrl }));
      this.status(r.message ?? (r.ok ? 'Saved.' : 'Not saved.'));
    });
    return fig;
  }

  /** The chart element of chart `id`'s figure, when it is in the document. */
  private chartOf(id: string): ChartElement | null {
    return document.getElementById(`chart-${id}`)?.querySelector('eval-chart') ?? null;
  }

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
        if (line) s.marks.set(chart, line);
        else s.marks.delete(chart);
        const drawn = this.chartOf(chart);
        if (drawn) drawn.marks = this.marksOf(chart);
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
