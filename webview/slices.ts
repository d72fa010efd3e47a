/**
 * The Slices tab (`<eval-slices>`): each slice's headline metric with its interval and its
 * difference to the whole file, as a sortable table (worst slices first, slices below the minimum
 * size left out) and a bar chart with intervals. From the results' own slice table, or, when the
 * evaluation did not slice, from a picker of the file's candidate columns (the host computes the
 * table on demand). Choosing a slice (click or Enter) shows the report of that slice's rows. Above
 * it, for classification and importance-weighted runs, the slice finder (`<eval-found-slices>`).
 *
 * One state object (the table shown, the metric, the minimum size, the order, the candidates).
 * The theme observer (the chart's colours) and the visibility observer (the chart is drawn, and the
 * candidates asked for, once the tab is shown) are added on connect and removed on disconnect.
 * Its targets are declared in {@link SlicesElement.sliceTargets}; the found slices' rows are the
 * drill-down targets of the finder's own element, which the tab passes on as its own
 * {@link SlicesElement.drillTargets} (so the report lists them with every other part's).
 */
import { Chart } from 'chart.js';
import { html, LitElement, nothing, type TemplateResult } from 'lit';
import type { InspectModel, SliceCandidate, SliceRow, SliceTable } from '../src/shared/inspectModel';
import { SLICE_INTERVALS_NOTE, worstFirst } from '../src/shared/inspectModel';
import type { ChartModel, ReportModel } from '../src/shared/model';
import { formatCi, formatCount, formatNumber } from '../src/shared/format';
import { formatTerm } from '../src/core/rows/where';
import { drawChart, type Drawn } from './charts';
import { activates, type DrillSource, type DrillTarget, type OpenRows } from './drill';
import './foundSlices';
import { readTheme } from './theme';
import { ask, request } from './vscodeApi';

type SortKey = 'metric' | 'n' | 'diff' | 'name';

/** What the table and the chart show: the slice table, the metric, the minimum size, the order. */
interface View {
  table: SliceTable;
  metric: string;
  minSize: number;
  sort?: { key: SortKey; dir: 1 | -1 } | undefined;
}

/** Whole-file value of a metric, from the report's cards. */
function wholeValue(model: ReportModel, key: string): number | null {
  for (const c of [...model.headline, ...model.tabs.flatMap((t) => t.cards)]) if (c.key === key) return c.value;
  return null;
}

function sorted(v: View): SliceRow[] {
  const rows = worstFirst(v.table, v.metric, v.minSize);
  if (!v.sort) return rows;
  const { key, dir } = v.sort;
  const val = (r: SliceRow): number | string | null =>
    key === 'n'
      ? r.n
      : key === 'name'
        ? `${r.slice} ${r.value}`
        : key === 'diff'
          ? (r.metrics[v.metric]?.diff ?? null)
          : (r.metrics[v.metric]?.value ?? null);
  return rows.sort((a, b) => {
    const x = val(a);
    const y = val(b);
    if (x === null || y === null) return x === null && y === null ? 0 : x === null ? 1 : -1;
    return (typeof x === 'string' ? x.localeCompare(y as string) : x - (y as number)) * dir;
  });
}

function sliceChart(v: View, rows: SliceRow[], whole: number | null): ChartModel {
  const cats = rows.map((r) => `${r.slice} = ${r.value}`);
  const points = rows.map((r, i) => ({ x: i, y: r.metrics[v.metric]?.value ?? null }));
  const errorBars = rows.map((r) => {
    const ci = r.metrics[v.metric]?.ci;
    return ci ? { lo: ci[0], hi: ci[1] } : null;
  });
  return {
    id: 'slices',
    title: `${v.metric} per slice`,
    description: `Bars of ${v.metric} for ${rows.length} slices with their intervals, worst first${whole !== null ? `, and the whole file's value as a line` : ''}.`,
    x: { label: 'slice', type: 'category', categories: cats },
    y: { label: v.metric, type: 'linear', min: 0 },
    series: [
      { label: v.metric, colour: 'blue', style: 'bar', points },
      // The intervals in the text colour, on a dot at the value: readable over the bar in every theme.
      ...(errorBars.some((e) => e !== null)
        ? [{ label: 'bootstrap interval', colour: 'foreground' as const, style: 'points' as const, points, errorBars }]
        : []),
      // The whole file's value as a dashed line named in the legend (a label on the plot would sit under a bar).
      ...(whole !== null
        ? [
            {
              label: `whole file ${formatNumber(whole, v.metric)}`,
              colour: 'orange' as const,
              style: 'line' as const,
              dashed: true,
              points: rows.map((_, i) => ({ x: i, y: whole })),
            },
          ]
        : []),
    ],

    table: { id: 'slices.table', title: 'Slices', columns: [], kinds: [], rows: [] },
  };
}

/** The file's candidate columns, while the results have no slice table. */
export type Candidates =
  | { phase: 'waiting' }
  | { phase: 'asking' }
  | { phase: 'none'; message: string }
  | { phase: 'error'; message: string }
  | { phase: 'ready'; list: SliceCandidate[]; computing: boolean };

export interface SlicesState {
  /** The slice table shown (the results' own, or one computed on demand with its note). */
  shown?: { table: SliceTable; note?: string };
  metric: string;
  minSize: number;
  sort?: { key: SortKey; dir: 1 | -1 };
  candidates: Candidates;
}

export interface SlicesHost {
  status(text: string): void;
  /** Lists a found slice's rows (the rows panel). */
  openRows?: OpenRows;
}

/** A slice of the table: its row (click or Enter shows the slice's report) and the slice. */
export interface SliceTarget {
  element: HTMLElement;
  slice: SliceRow;
}

export class SlicesElement extends LitElement implements DrillSource {
  static override properties = {
    model: { attribute: false },
    inspect: { attribute: false },
    host: { attribute: false },
    state: { state: true },
  };

  declare model: ReportModel;
  declare inspect: InspectModel;
  declare host: SlicesHost;
  declare state: SlicesState;
  private drawn: Drawn | undefined;
  private readonly theme = new MutationObserver(() => {
    if (this.drawn) this.draw();
  });
  private visible: IntersectionObserver | undefined;

  constructor() {
    super();
    this.state = { metric: '', minSize: 1, candidates: { phase: 'waiting' } };
  }

  /** Light DOM: the report's stylesheets apply inside. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // VS Code switches the body's theme class; the chart's colours are read again.
    this.theme.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    // The tab's canvas has no size until the tab is shown; finding candidates reads the whole file.
    this.visible = new IntersectionObserver((entries) => {
      if (!entries.some((x) => x.isIntersecting)) return;
      if (this.state.shown && !this.drawn) this.draw();
      if (!this.state.shown && this.state.candidates.phase === 'waiting') void this.findCandidates();
    });
    this.visible.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.theme.disconnect();
    this.visible?.disconnect();
    this.visible = undefined;
    this.drawn?.destroy();
    this.drawn = undefined;
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('inspect') && this.inspect.slices && this.inspect.slices.rows.length > 0 && !this.state.shown)
      this.show(this.inspect.slices);
  }

  protected override updated(): void {
    if (this.state.shown) this.draw();
  }

  /** Shows `table` (headline metric first, the model's minimum size, worst first). */
  show(table: SliceTable, note?: string): void {
    const headline = this.model.headline.map((c) => c.key).find((k) => table.metrics.some((m) => m.key === k));
    this.state = {
      ...this.state,
      shown: { table, ...(note !== undefined ? { note } : {}) },
      metric: headline ?? table.metrics[0]?.key ?? '',
      minSize: this.inspect.minSliceSize,
      sort: undefined,
    };
  }

  /** The slices listed, in the order shown. */
  get rows(): SliceRow[] {
    const shown = this.state.shown;
    return shown ? sorted({ ...this.state, table: shown.table }) : [];
  }

  /** The slice rows of the table (each shows its slice's report); none while no table is shown. */
  /** The drill-down targets drawn in the tab: the slice finder's found slices (none before its answer). */
  get drillTargets(): DrillTarget[] {
    return this.querySelector('eval-found-slices')?.drillTargets ?? [];
  }

  get sliceTargets(): SliceTarget[] {
    const rows = this.querySelectorAll<HTMLElement>('tr.slice-row');
    return this.rows.map((slice, i) => ({ element: rows[i]!, slice }));
  }

  private get unit(): 'users' | 'rows' {
    // A ranking run's slices are sets of users; other runs' are sets of rows.
    return this.inspect.task === 'ranking' ? 'users' : 'rows';
  }

  /** Shows the report of the slice's rows. */
  async choose(r: SliceRow): Promise<void> {
    if (r.where.length === 0) {
      this.host.status(`The slice ${r.slice} = ${r.value} cannot be written as a filter.`);
      return;
    }
    this.host.status(`Evaluating the slice ${r.where.map(formatTerm).join(' and ')}…`);
    const res = await request((seq) => ({ type: 'evaluateSubset', seq, where: r.where }));
    this.host.status(res.message ?? (res.ok ? '' : 'The slice could not be evaluated.'));
  }

  private draw(): void {
    const canvas = this.querySelector<HTMLCanvasElement>('.slices-body canvas');
    const shown = this.state.shown;
    this.drawn?.destroy();
    this.drawn = undefined;
    const rows = this.rows;
    if (!canvas || !shown || rows.length === 0 || this.offsetParent === null) return;
    try {
      const v = { ...this.state, table: shown.table };
      this.drawn = drawChart(canvas, sliceChart(v, rows, wholeValue(this.model, v.metric)), readTheme());
    } catch (err) {
      console.error('Eval Lens slices chart:', err);
    }
  }

  private async findCandidates(): Promise<void> {
    this.state = { ...this.state, candidates: { phase: 'asking' } };
    const a = await ask((seq) => ({ type: 'sliceCandidates', seq }));
    let candidates: Candidates;
    if (a.type !== 'sliceCandidates')
      candidates = {
        phase: 'error',
        message: a.type === 'reply' ? (a.message ?? 'No slice candidates.') : 'No slice candidates.',
      };
    else if (a.candidates.length === 0)
      candidates = {
        phase: 'none',
        message:
          this.inspect.task === 'ranking'
            ? 'This run has no per-user number to slice by (train interactions need a `train` file in the config).'
            : 'The file has no column besides the evaluated ones with at most 50 distinct values.',
      };
    else candidates = { phase: 'ready', list: a.candidates, computing: false };
    this.state = { ...this.state, candidates };
  }

  private async computeSlices(column: string): Promise<void> {
    const c = this.state.candidates;
    if (c.phase !== 'ready' || c.computing) return;
    this.state = { ...this.state, candidates: { ...c, computing: true } };
    this.host.status(`Slicing by ${column}…`);
    const r = await ask((seq) => ({ type: 'computeSlices', seq, by: [column] }));
    this.state = { ...this.state, candidates: { ...c, computing: false } };
    if (r.type === 'slices') {
      this.host.status('');
      this.show(
        r.table,
        `Sliced by ${column} on demand (not stored in the results file; add "slices" to eval-lens.json to keep it).`,
      );
    } else this.host.status(r.type === 'reply' ? (r.message ?? 'Slicing failed.') : 'Slicing failed.');
  }

  override render(): TemplateResult {
    // The slice finder works on right/wrong rows: classification and importance-weighted binary runs.
    const finder =
      this.inspect.task === 'ranking'
        ? nothing
        : html`<eval-found-slices
            .options=${{ status: (t: string) => this.host.status(t), openRows: this.host.openRows }}
          ></eval-found-slices>`;
    return html`${finder}
      <div class="slices-body">${this.state.shown ? this.table(this.state.shown) : this.picker()}</div>`;
  }

  private picker(): TemplateResult {
    const c = this.state.candidates;
    let inner: TemplateResult;
    if (c.phase === 'waiting' || c.phase === 'asking')
      inner = html`<p class="note">Looking for columns to slice by…</p>`;
    else if (c.phase === 'error') inner = html`<p class="error">${c.message}</p>`;
    else if (c.phase === 'none') inner = html`<p class="note">${c.message}</p>`;
    else
      inner = html`<label
          >Column
          <select class="slice-column" aria-label="Column to slice by">
            ${c.list.map(
              (x) =>
                html`<option value=${x.column}>
                  ${`${x.column} (${x.numeric ? (x.binning ?? 'quantile bins') : `${formatCount(x.distinct ?? 0)} distinct values`})`}
                </option>`,
            )}
          </select></label
        >
        <vscode-button
          data-act="compute-slices"
          ?disabled=${c.computing}
          @click=${() => void this.computeSlices(this.querySelector<HTMLSelectElement>('select.slice-column')!.value)}
          >Slice</vscode-button
        >`;
    return html`<p>
        This evaluation was not sliced. Choose a column to slice by: each of its values (a numeric column: quantile
        bins) gets its own metrics with intervals.
      </p>
      <div class="slice-picker">${inner}</div>`;
  }

  private table({ table, note }: NonNullable<SlicesState['shown']>): TemplateResult {
    const v = this.state;
    const unit = this.unit;
    const rows = this.rows;
    const hidden = table.rows.length - rows.length;
    const info = `${rows.length} slice${rows.length === 1 ? '' : 's'}${hidden > 0 ? ` (${hidden} smaller than ${formatCount(v.minSize)} ${unit} left out)` : ''}; ${v.sort ? 'sorted by the chosen column' : 'worst first'}. Choose a slice (click or Enter) to show the report of its ${unit}.`;
    const dir = table.metrics.find((m) => m.key === v.metric)?.direction ?? 'higher';
    const head = (label: string, key: SortKey, num: boolean): TemplateResult => {
      const active = v.sort?.key === key;
      const sortBy = (): void => {
        const sort: { key: SortKey; dir: 1 | -1 } = active
          ? { key, dir: v.sort!.dir === 1 ? -1 : 1 }
          : { key, dir: key === 'n' ? -1 : 1 };
        this.state = { ...this.state, sort };
      };
      const order = active ? (v.sort!.dir === 1 ? 'ascending' : 'descending') : 'none';
      const arrow = active ? (v.sort!.dir === 1 ? ' ▲' : ' ▼') : '';
      // On one line: the heading's text is the label (no white space around it; the UI tests read it).
      // prettier-ignore
      const button = html`<button type="button" class="sort-button" data-sort=${key} title=${`Sort by ${label}`} @click=${sortBy}>${label}<span aria-hidden="true">${arrow}</span></button>`;
      return html`<th scope="col" class=${num ? 'num' : ''} aria-sort=${order}>${button}</th>`;
    };
    const cell = (r: SliceRow): TemplateResult => {
      const c = r.metrics[v.metric];
      const value = c?.value === null || c?.value === undefined ? 'null' : String(c.value);
      const diff =
        c?.diff === undefined || c.diff === null ? '—' : `${c.diff > 0 ? '+' : ''}${formatNumber(c.diff, v.metric)}`;
      return html`<tr
        tabindex="0"
        class="drillable slice-row"
        data-slice=${`${r.slice}=${r.value}`}
        aria-description="Press Enter (or click) to show the report of this slice."
        @click=${() => void this.choose(r)}
        @keydown=${(e: KeyboardEvent) => activates(e) && void this.choose(r)}
      >
        <th scope="row">${r.slice}</th>
        <td>${r.value}</td>
        <td class="num">${formatCount(r.n)}</td>
        <td class="num" data-value=${value}>${formatNumber(c?.value ?? null, v.metric)}</td>
        <td class="num">${c?.ci ? formatCi(c.ci, v.metric) : ''}</td>
        <td class="num">${diff}</td>
        <td class="num">${c?.diffCi ? formatCi(c.diffCi, v.metric) : ''}</td>
      </tr>`;
    };
    const onCanvasClick = (e: MouseEvent): void => {
      const chart = Chart.getChart(e.target as HTMLCanvasElement);
      const hit = chart?.getElementsAtEventForMode(e, 'index', { intersect: false, axis: 'x' }, false)[0];
      const r = hit ? rows[hit.index] : undefined;
      if (r) void this.choose(r);
    };
    return html`<div class="slice-controls">
        <label
          >Metric
          <select
            class="slice-metric"
            aria-label="Metric"
            @change=${(e: Event) => {
              this.state = { ...this.state, metric: (e.target as HTMLSelectElement).value };
            }}
          >
            ${table.metrics.map((m) => html`<option value=${m.key} ?selected=${m.key === v.metric}>${m.key}</option>`)}
          </select></label
        >
        <label
          >Minimum slice size
          <input
            type="number"
            min="1"
            step="1"
            .value=${String(v.minSize)}
            class="slice-min"
            aria-label=${`Minimum slice size (${unit})`}
            @change=${(e: Event) => {
              const n = Math.floor(Number((e.target as HTMLInputElement).value));
              this.state = { ...this.state, minSize: Number.isFinite(n) && n >= 1 ? n : this.state.minSize };
            }}
        /></label>
      </div>
      <p class="note">${info}</p>
      <div class="canvas-box">
        <canvas
          tabindex="-1"
          role="img"
          aria-label="Slices chart; the table below holds the same values."
          @click=${onCanvasClick}
        ></canvas>
      </div>
      <div class="slice-table-box">
        <div class="scroll-x">
          <table class="plain slice-table" data-metric=${v.metric}>
            <thead>
              <tr>
                ${head('slice', 'name', false)}
                <th scope="col">value</th>
                ${head(unit, 'n', true)} ${head(`${v.metric} ${dir === 'higher' ? '↑' : '↓'}`, 'metric', true)}
                <th scope="col" class="num">interval</th>
                ${head('Δ vs whole file', 'diff', true)}
                <th scope="col" class="num">Δ interval</th>
              </tr>
            </thead>
            <tbody>
              ${rows.map(cell)}
            </tbody>
          </table>
        </div>
      </div>
      ${note || table.note ? html`<p class="note">${note ?? table.note}</p>` : nothing}
      <p class="note" data-note="slice-intervals">${SLICE_INTERVALS_NOTE}</p>`;
  }
}

customElements.define('eval-slices', SlicesElement);

declare global {
  interface HTMLElementTagNameMap {
    'eval-slices': SlicesElement;
  }
}

/** The Slices tab's content: the slices of `model`. */
export function slicesView(
  model: ReportModel,
  insp: InspectModel,
  status: (text: string) => void,
  openRows?: OpenRows,
): SlicesElement {
  const e = document.createElement('eval-slices');
  e.model = model;
  e.inspect = insp;
  e.host = { status, ...(openRows ? { openRows } : {}) };
  return e;
}

/** Fills the Slices tab `panel` with the slices of `model`. */
export function renderSlices(
  panel: HTMLElement,
  model: ReportModel,
  insp: InspectModel,
  status: (text: string) => void,
  openRows?: OpenRows,
): SlicesElement {
  const e = slicesView(model, insp, status, openRows);
  panel.replaceChildren(e);
  return e;
}
