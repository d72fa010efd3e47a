/**
 * `<eval-figure>`: the figure around one chart of the report (`figure.chart`): its caption, the
 * variant select of a group of charts, the chart/table toggle, Save PNG, the chart itself
 * (`<eval-chart>`, or the confusion matrix `<eval-confusion>`), its data table, the item map's
 * user picker and the chart's note.
 *
 * One state object ({@link FigureState}: the chart shown — the variant chosen —, whether it is shown
 * as its table, and the model drawn instead of it while the item map highlights a user). The panel
 * remembers the variant, the table shown and the matrix's cell values through its host, so a figure
 * drawn anew comes back as it was. Its drill-down targets (webview/drill.ts) are those of what it
 * holds — the rows and cells of its table, the cells and largest confusions of its matrix —,
 * declared in {@link FigureElement.drillTargets} with the figure component as their anchor: the
 * rows panel opens after it, outside what it draws. Its chart's points are no elements: the figure
 * declares the rows behind them in {@link FigureElement.pointAt} (the point under a mouse event,
 * which `<eval-chart>` finds) and opens them on a click on the canvas, which shows a pointer over a
 * point with rows; the keyboard reaches them through the table: Enter or Space on the focused chart
 * shows the table and focuses its first button. Every listener is on its own elements (Lit's, the
 * table's, the matrix's); its chart and matrix take their observers with them when it leaves the
 * document, and the item map its link to the user inspector.
 */
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import type { FilterTerm } from '../src/core/rows/types';
import { isConfusionNorm } from '../src/shared/confusionView';
import type { DrillSpec, TableDrill } from '../src/shared/drillSpec';
import type { ChartModel, RefLine } from '../src/shared/model';
import { chartFileName } from '../src/shared/outputName';
import './chartElement';
import { chartPng } from './charts';
import { confusionMatrix, confusionPng, type ConfusionElement } from './confusion';
import type { DrillSource, DrillTarget, OpenRows } from './drill';
import { itemMapPicker } from './itemMap';
import { renderTable, type TableBlock } from './tables';
import { readTheme } from './theme';
import type { UserSearchHost } from './userSearch';
import { request } from './vscodeApi';

/** Horizontal bars of more categories than this scroll inside their card (about 960 px of rows). */
const HORIZONTAL_ROWS_MAX = 32;
const NO_MARKS: readonly RefLine[] = [];

/** What the figure may touch outside itself: the status line, the panel's memory, the rows panel. */
export interface FigureHost extends UserSearchHost {
  /** Whether chart `id` is shown as its table (the panel remembers it). */
  tableShown(id: string): boolean;
  showTable(id: string, on: boolean): void;
  /** The rows behind table `id`'s rows and cells, when the report can list rows. */
  tableDrill(id: string): TableDrill | undefined;
  /** The rows behind chart `id`'s points (by series, then point; null: none), when the report can list rows. */
  chartPoints(id: string): readonly (readonly (DrillSpec | null)[])[] | undefined;
  /** The filter of the rows matrix `id` counts, when its cells list their rows. */
  cellsMeasured(id: string): readonly FilterTerm[] | undefined;
  /** Lists rows (the rows panel); the figure opens them after itself. */
  open: OpenRows;
  /** The report's title (the PNG's file name starts with it). */
  reportTitle(): string;
}

/** The item map's user picker: the users it suggests and the user inspector it follows. */
export interface FigurePicker {
  users: readonly string[];
  follows?: EventTarget;
}

export interface FigureState {
  /** The chart shown (of a group: the variant chosen). */
  chart: ChartModel;
  /** Shown as its data table instead of the chart. */
  table: boolean;
  /** Drawn instead of the chart's model (the item map with a user highlighted); undefined: the chart's own. */
  highlight: ChartModel | undefined;
}

export class FigureElement extends LitElement implements DrillSource {
  static override properties = {
    charts: { attribute: false },
    host: { attribute: false },
    marks: { attribute: false },
    picker: { attribute: false },
    state: { state: true },
  };

  /** The chart, or the variants of its group (the first unless the panel remembers another). */
  declare charts: readonly ChartModel[];
  declare host: FigureHost;
  /** Chart id → the threshold explorer's marker, drawn over the chart's own lines. */
  declare marks: ReadonlyMap<string, RefLine>;
  /** The item map's user picker (only an item map has one, and only when the report lists rows). */
  declare picker: FigurePicker | undefined;
  declare state: FigureState;
  /** The markers handed to the chart: the same array while its marker is the same (no repaint). */
  private shownMarks: readonly RefLine[] = NO_MARKS;

  constructor() {
    super();
    this.marks = new Map();
    this.picker = undefined;
  }

  /** Light DOM: the report's stylesheets and the UI tests' selectors apply inside. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Drawn as it enters the document (not a microtask later): the report that put it there finds
    // its place in it right after (a chart shown as its table, the element to focus).
    this.performUpdate();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (this.state === undefined || changed.has('charts')) {
      const first = this.charts[0]!;
      const remembered = first.group ? this.host.recall(first.group.id) : undefined;
      const chart = this.charts.find((x) => x.id === remembered) ?? first;
      this.state = { chart, table: this.host.tableShown(chart.id), highlight: undefined };
    }
    const line = this.marks.get(this.state.chart.id);
    if (line !== this.shownMarks[0]) this.shownMarks = line ? [line] : NO_MARKS;
  }

  protected override updated(): void {
    // Horizontal bars need room for every category row (about 28 px each, two bars per row); set
    // through the CSSOM: the webview's content security policy allows no inline style attribute.
    const c = this.state.chart;
    const box = this.querySelector<HTMLElement>('.canvas-box');
    if (box) box.style.height = c.horizontal ? `${Math.max(240, 60 + 28 * (c.x.categories?.length ?? 0))}px` : '';
  }

  /** The figure's own element (`figure.chart`), once drawn. */
  get figure(): HTMLElement | null {
    return this.querySelector('figure.chart');
  }

  /** The chart element (none for a confusion matrix), once drawn. */
  get chart(): HTMLElementTagNameMap['eval-chart'] | null {
    return this.querySelector('eval-chart');
  }

  /** The confusion matrix (a heatmap's figure), once drawn. */
  get matrix(): ConfusionElement | null {
    return this.querySelector('eval-confusion');
  }

  /** What takes the focus when the report brings the figure into view: its canvas, or its matrix's cell with the tab stop. */
  get focusable(): HTMLElement | null {
    return this.querySelector<HTMLElement>('canvas, td.cm-cell[tabindex="0"]');
  }

  /** The data table of the chart shown, once drawn. */
  get table(): TableBlock | null {
    return this.querySelector<TableBlock>('.table-alt > .table-block');
  }

  /** The matrix's cells and largest confusions, then the table's rows and cells; all open after the figure. */
  get drillTargets(): DrillTarget[] {
    return [...(this.matrix?.drillTargets ?? []), ...(this.table?.drillTargets ?? [])].map((t) => ({
      ...t,
      anchor: this,
    }));
  }

  /**
   * The rows behind the chart's point under mouse event `e` (on its canvas), if any: of the points
   * under it, nearest first, the first with rows.
   */
  pointAt(e: MouseEvent): DrillSpec | undefined {
    const chart = this.chart;
    const points = this.host.chartPoints(this.state.chart.id);
    if (!chart || !points || !(e.target instanceof HTMLCanvasElement)) return undefined;
    for (const p of chart.pointsAt(e)) {
      const spec = points[p.series]?.[p.index];
      if (spec) return spec;
    }
    return undefined;
  }

  /** A click on a point with rows behind it lists them after the figure; focus comes back to the canvas. */
  private onChartClick(e: MouseEvent): void {
    const spec = this.pointAt(e);
    if (spec) this.host.open(spec, this, e.target as HTMLCanvasElement);
  }

  /** The pointer over a point with rows behind it says it can be clicked. */
  private onChartHover(e: MouseEvent): void {
    if (e.target instanceof HTMLCanvasElement) e.target.classList.toggle('pointing', this.pointAt(e) !== undefined);
  }

  /** What the table and the matrix open: the rows panel, after this figure. */
  private readonly openHere: OpenRows = (spec, _anchor, origin) => this.host.open(spec, this, origin);

  /** Shows the chart (`false`) or its table (`true`); the panel remembers it. */
  showTable(on: boolean): void {
    const s = this.state;
    if (s.table === on) return;
    this.state = { ...s, table: on };
    // Drawn at once: the table is focused, or the chart gets its size, right after.
    this.performUpdate();
    this.host.showTable(s.chart.id, on);
  }

  /** Shows the variant `id` of the group. */
  private choose(id: string): void {
    const next = this.charts.find((g) => g.id === id);
    const group = next?.group;
    if (!next || !group || next === this.state.chart) return;
    this.host.remember(group.id, id);
    this.state = { chart: next, table: this.host.tableShown(next.id), highlight: undefined };
  }

  private onChartKey(e: KeyboardEvent): void {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    this.showTable(true);
    this.querySelector<HTMLElement>('.table-alt vscode-button')?.focus();
  }

  private async savePng(): Promise<void> {
    const c = this.state.chart;
    if (this.state.table) this.showTable(false);
    const font = readTheme().font;
    const matrix = this.matrix;
    const dataUrl = c.heatmap
      ? confusionPng(matrix?.shown ?? c.heatmap, matrix?.state.norm ?? 'counts', font)
      : chartPng(this.state.highlight ?? c, font, this.shownMarks);
    const fileName = chartFileName(this.host.reportTitle(), c.title);
    const r = await request((seq) => ({ type: 'savePng', seq, fileName, dataUrl }));
    this.host.status(r.message ?? (r.ok ? 'Saved.' : 'Not saved.'));
  }

  /** The confusion matrix of heatmap chart `c`, with the cell values the panel remembers. */
  private matrixOf(c: ChartModel): ConfusionElement {
    const norm = this.host.recall(`${c.id}.norm`);
    const measured = this.host.cellsMeasured(c.id);
    return confusionMatrix(
      c.heatmap!,
      isConfusionNorm(norm) ? norm : 'counts',
      { norm: (n) => this.host.remember(`${c.id}.norm`, n) },
      measured ? { measured, open: this.openHere } : undefined,
    );
  }

  /** The data table of chart `c`, its rows and cells opening their rows when the report has them. */
  private tableOf(c: ChartModel): TableBlock {
    const drill = this.host.tableDrill(c.table.id);
    return renderTable(c.table, (text) => this.host.status(text), drill ? { drill, open: this.openHere } : undefined);
  }

  private pickerOf(c: ChartModel, picker: FigurePicker): HTMLElement {
    const host = this.host;
    return itemMapPicker(
      c,
      picker.users,
      {
        status: (text) => host.status(text),
        recall: (key) => host.recall(key),
        remember: (key, value) => host.remember(key, value),
        draw: (m) => {
          if (this.state.chart === c) this.state = { ...this.state, highlight: m };
        },
      },
      picker.follows,
    );
  }

  protected override render(): TemplateResult {
    const s = this.state;
    const c = s.chart;
    const variants =
      this.charts.length > 1
        ? // prettier-ignore
          html`<vscode-single-select aria-label=${c.group?.title ?? 'Variant'} class="variant" @change=${(e: Event) => this.choose((e.currentTarget as unknown as { value: string }).value)}>${this.charts.map((g) => html`<vscode-option value=${g.id} ?selected=${g.id === c.id}>${g.group?.option ?? g.title}</vscode-option>`)}</vscode-single-select>`
        : nothing;
    // The chart (drawn once it has a size, again on a theme change, taken down with the figure).
    const drawn = c.heatmap
      ? guard([c], () => this.matrixOf(c))
      : // prettier-ignore
        html`<eval-chart .model=${s.highlight ?? c} .marks=${this.shownMarks} @keydown=${(e: KeyboardEvent) => this.onChartKey(e)} @click=${(e: MouseEvent) => this.onChartClick(e)} @mousemove=${(e: MouseEvent) => this.onChartHover(e)}></eval-chart>`;
    // prettier-ignore
    const box = html`<div class=${c.heatmap ? 'canvas-box heatmap' : 'canvas-box'} ?hidden=${s.table}>${drawn}</div>`;
    // Very many horizontal bars: the card scrolls inside rather than growing past a screen.
    const tall = c.horizontal === true && (c.x.categories?.length ?? 0) > HORIZONTAL_ROWS_MAX;
    // The item map: a user's recommendations highlighted (needs the rows, as the user inspector does).
    const picker = this.picker;
    // The texts right inside their elements (no white space around them: the DOM the report drew before).
    // prettier-ignore
    return html`<figure class="chart" id=${`chart-${c.id}`} data-chart=${c.id}><div class="chart-head"><figcaption>${c.title}</figcaption><div class="actions">${variants}<vscode-button secondary data-act="toggle" title="Switch between the chart and its data table" @click=${() => this.showTable(!s.table)}>${s.table ? 'Show chart' : 'Show table'}</vscode-button><vscode-button secondary data-act="png" title="Save the chart as a PNG image" @click=${() => void this.savePng()}>Save PNG</vscode-button></div></div>${tall ? html`<div class="canvas-scroll">${box}</div>` : box}<div class="table-alt" ?hidden=${!s.table}>${guard([c], () => this.tableOf(c))}</div>${c.itemMap && picker ? guard([c, picker], () => this.pickerOf(c, picker)) : nothing}${c.note ? html`<p class="note">${c.note}</p>` : nothing}</figure>`;
  }
}

customElements.define('eval-figure', FigureElement);

declare global {
  interface HTMLElementTagNameMap {
    'eval-figure': FigureElement;
  }
}

/** The figure of `charts` (one chart, or a group's variants), with `host`; drawn once in the document. */
export function chartFigure(
  charts: readonly ChartModel[],
  host: FigureHost,
  marks: ReadonlyMap<string, RefLine>,
  picker?: FigurePicker,
): FigureElement {
  return Object.assign(document.createElement('eval-figure'), { charts, host, marks, picker });
}
