/**
 * The Changed rows tab of a comparison (`<eval-changed-rows>`): the run to diff against the
 * baseline, the metric, a filter in the rows' filter language; then the four correct/incorrect
 * cells with McNemar's exact p, n, the rows that changed and Δ, and the changed rows worst for the
 * run first. The rows are computed by the host (in its inspection worker) when the tab is first
 * shown and again when a control changes; an answer to an older request is dropped. Values are
 * set as text.
 *
 * One state object (the run B, the metric and the metrics offered, the filter typed and the one
 * applied, how many rows are asked for, the answer shown, the message, the row holding the grid's
 * tab stop). Its targets are the changed rows (`tr.diff-row`), declared in
 * {@link ChangedRowsElement.lineTargets}: each opens its line in both prediction files side by
 * side (Enter or Space on the focused row, or its Open button); a run of Parquet or `.npz` files
 * has numbered rows and no lines, so no targets. Arrow keys, Home and End move between rows (one
 * tab stop). The visibility observer (the rows are asked for once the tab is shown) is added on
 * connect and removed on disconnect.
 */
import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { DiffRow, RowDiff } from '../src/core/compare/diffTypes';
import { parseWhere, WhereSyntaxError } from '../src/core/rows/where';
import type { FilterTerm } from '../src/core/rows/types';
import type { ChangedRowsModel } from '../src/shared/model';
import { formatCount, formatNumber, pStatement } from '../src/shared/format';
import { MAX_DIFF_ROWS } from '../src/shared/protocol';
import { activates } from './drill';
import { ask, vscode } from './vscodeApi';

/** Rows asked for at first; "Show more" doubles it, up to {@link MAX_DIFF_ROWS}. */
export const FIRST_ROWS = 50;

const fmt = (v: number | null | undefined): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : formatNumber(v, '', 4);

/** A signed difference, `+0.0133` / `−0.0133`. */
function signed(v: number | null | undefined, digits = 4): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  const s = Math.abs(v).toFixed(digits);
  return Number(s) === 0 ? s : `${v > 0 ? '+' : '−'}${s}`;
}

interface Column {
  title: string;
  num?: boolean;
  text(r: DiffRow): string;
}

function columns(d: RowDiff): Column[] {
  const at = (line: number): string => String(d.rowAddressed ? line - 1 : line);
  const pos = d.rowAddressed ? 'row' : 'line';
  const value = (v: number | null): string =>
    d.metric === 'accuracy' && v !== null ? (v === 1 ? '✓ right' : '✗ wrong') : fmt(v);
  const classification = d.cells !== null;
  return [
    { title: classification ? 'id' : 'user', text: (r) => r.id ?? '—' },
    ...(classification ? [{ title: 'label', text: (r: DiffRow) => r.label ?? '' }] : []),
    { title: `${pos} A`, num: true, text: (r) => at(r.lineA) },
    { title: `${pos} B`, num: true, text: (r) => at(r.lineB) },
    ...(classification
      ? [
          { title: 'pred A', text: (r: DiffRow) => r.predA ?? '' },
          { title: 'pred B', text: (r: DiffRow) => r.predB ?? '' },
        ]
      : []),
    { title: `${d.metric} A`, num: true, text: (r) => value(r.a) },
    { title: `${d.metric} B`, num: true, text: (r) => value(r.b) },
    { title: 'change', num: true, text: (r) => signed(r.change) },
    { title: 'contribution to Δ', num: true, text: (r) => signed(r.contribution, 6) },
  ];
}

/** The line of the counts: the rows compared, how many changed, and Δ. */
export function countsText(d: RowDiff): string {
  const measured = d.measured
    ? `The split's test rows, as the metrics: ${formatCount(d.measured.testRows)} of ${formatCount(d.measured.rowsInFile)}; `
    : '';
  return `${measured}${formatCount(d.n)} matched rows${d.where ? ` where ${d.where}` : ''}; ${formatCount(d.changed)} changed; ${d.metric} Δ (B − A) = ${signed(d.delta)}.`;
}

/** The summary: n, changed, Δ and, for accuracy, the four cells with McNemar's exact p. */
function summary(d: RowDiff): TemplateResult {
  const c = d.cells;
  // The values right inside their elements (no white space around them: their text is the value).
  const cell = (v: number, key: string): TemplateResult =>
    html`<td class="num" data-cell=${key}>${formatCount(v)}</td>`;
  const cells = c
    ? html`<table class="rows-grid diff-cells" aria-label="Rows right and wrong in A and B">
        <thead>
          <tr>
            <th></th>
            <th class="num">B right</th>
            <th class="num">B wrong</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">A right</th>
            ${cell(c.bothRight, 'bothRight')}${cell(c.lost, 'lost')}
          </tr>
          <tr>
            <th scope="row">A wrong</th>
            ${cell(c.gained, 'gained')}${cell(c.bothWrong, 'bothWrong')}
          </tr>
        </tbody>
      </table>`
    : nothing;
  const test = d.mcnemar
    ? `McNemar's exact test (lost ${formatCount(d.mcnemar.b)} against gained ${formatCount(d.mcnemar.c)}): ${pStatement(d.mcnemar.p)}.`
    : undefined;
  return html`<div class="diff-summary">
    <p class="diff-counts" data-n=${String(d.n)} data-changed=${String(d.changed)}>${countsText(d)}</p>
    ${cells}${test === undefined ? nothing : html`<p class="diff-test">${test}</p>`}
  </div>`;
}

/** What the tab may touch outside itself: the status line. */
export interface ChangedRowsHost {
  status(text: string): void;
}

export interface ChangedRowsState {
  /** Run B (as the comparison names it). */
  run: string;
  /** The metric chosen; undefined: the task's default, which the first answer names. */
  metric: string | undefined;
  /** The metrics offered: the model's until the first answer, then the answer's. */
  metrics: readonly string[];
  /** The filter as typed, and the filter applied (the last one read without error). */
  whereText: string;
  where: FilterTerm[];
  /** How many changed rows are asked for. */
  limit: number;
  /** Undefined before the first request; true while a request is under way. */
  busy: boolean | undefined;
  /** The status above the rows: computing, why the rows could not be computed, a filter not read. */
  message: string;
  /** The answer shown, with the run B it was computed for (the run its rows open in). */
  shown: { diff: RowDiff; run: string } | undefined;
  /** The row that holds the grid's tab stop. */
  focus: number;
}

/** A changed row: its table row opens its line in both prediction files side by side. */
export interface LineTarget {
  element: HTMLElement;
  row: DiffRow;
  /** Run B of the lines (run A is the baseline). */
  run: string;
}

export class ChangedRowsElement extends LitElement {
  static override properties = {
    model: { attribute: false },
    host: { attribute: false },
    state: { state: true },
  };

  declare model: ChangedRowsModel;
  declare host: ChangedRowsHost;
  declare state: ChangedRowsState;
  /** Requests made; only the answer to the last one is shown. */
  private requests = 0;
  private visible: IntersectionObserver | undefined;

  /** Light DOM: the report's stylesheets apply inside. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.requests > 0) return;
    // Computed the first time the tab is shown (a hidden tab panel does not intersect).
    this.visible = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting) || this.requests > 0) return;
      this.stopWatching();
      void this.load();
    });
    this.visible.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopWatching();
  }

  private stopWatching(): void {
    this.visible?.disconnect();
    this.visible = undefined;
  }

  /** The changed rows' table rows, each opening its lines (none for numbered rows, none before an answer). */
  get lineTargets(): LineTarget[] {
    const shown = this.state.shown;
    if (!shown || shown.diff.rowAddressed) return [];
    const rows = this.querySelectorAll<HTMLElement>('tr.diff-row');
    return shown.diff.rows.map((row, i) => ({ element: rows[i]!, row, run: shown.run }));
  }

  /** Asks the host for the changed rows with the state's run, metric, filter and limit. */
  async load(): Promise<void> {
    const no = ++this.requests;
    const { run, metric, where, limit } = this.state;
    this.state = { ...this.state, busy: true, message: 'Computing the changed rows…' };
    const answer = await ask((seq) => ({
      type: 'diffRows',
      seq,
      query: { run, ...(metric ? { metric } : {}), where, limit },
    }));
    // A newer request was made meanwhile: its answer is the one to show.
    if (no !== this.requests) return;
    if (answer.type !== 'diff') {
      const why = answer.type === 'reply' ? answer.message : undefined;
      this.state = {
        ...this.state,
        busy: false,
        message: why ?? 'The changed rows could not be computed.',
        shown: undefined,
      };
      return;
    }
    const d = answer.diff;
    this.state = {
      ...this.state,
      busy: false,
      message: '',
      metrics: d.metrics,
      metric: d.metric,
      shown: { diff: d, run },
      focus: 0,
    };
  }

  /** A control changed: the first rows again. */
  private change(patch: Partial<ChangedRowsState>): void {
    this.state = { ...this.state, ...patch, limit: FIRST_ROWS };
    void this.load();
  }

  private applyWhere(): void {
    const text = this.state.whereText.trim();
    let where: FilterTerm[];
    try {
      where = text === '' ? [] : parseWhere(text);
    } catch (err) {
      const message =
        err instanceof WhereSyntaxError ? err.message : `The filter could not be read: ${(err as Error).message}`;
      this.state = { ...this.state, message };
      return;
    }
    this.change({ where });
  }

  private more(): void {
    this.state = { ...this.state, limit: Math.min(MAX_DIFF_ROWS, this.state.limit * 2) };
    void this.load();
  }

  private openLines(t: LineTarget): void {
    vscode.postMessage({ type: 'openLines', run: t.run, lineA: t.row.lineA, lineB: t.row.lineB });
    this.host.status(`Opening line ${t.row.lineA} of A and line ${t.row.lineB} of B side by side…`);
  }

  private open(i: number): void {
    const t = this.lineTargets[i];
    if (t) this.openLines(t);
  }

  /** One tab stop (the focused row); arrows, Home and End move between rows; Enter or Space opens. */
  private onGridKey(e: KeyboardEvent): void {
    const rows = [...this.querySelectorAll<HTMLElement>('tr.diff-row')];
    const i = rows.indexOf((e.target as HTMLElement).closest('tr') as HTMLElement);
    if (i < 0) return;
    if (activates(e)) {
      this.open(i);
      return;
    }
    const moves: Record<string, number> = {
      ArrowDown: Math.min(rows.length - 1, i + 1),
      ArrowUp: Math.max(0, i - 1),
      Home: 0,
      End: rows.length - 1,
    };
    const next = moves[e.key];
    if (next === undefined) return;
    e.preventDefault();
    this.state = { ...this.state, focus: next };
    rows[next]!.focus();
  }

  /** A row focused by a click keeps the tab stop. */
  private onGridFocus(e: FocusEvent): void {
    const tr = (e.target as HTMLElement).closest<HTMLElement>('tr.diff-row');
    const i = tr ? Number(tr.dataset.index) : -1;
    if (i >= 0 && i !== this.state.focus) this.state = { ...this.state, focus: i };
  }

  override render(): TemplateResult {
    const m = this.model;
    const s = this.state;
    const run =
      m.runs.length > 1
        ? html`<label
            >B =
            <select
              class="diff-run"
              aria-label="Run B (compared with the baseline)"
              @change=${(e: Event) => this.change({ run: (e.currentTarget as HTMLSelectElement).value })}
            >
              ${m.runs.map((r) => html`<option value=${r.run} .selected=${live(r.run === s.run)}>${r.name}</option>`)}
            </select></label
          >`
        : html`<span>${`B = ${m.runs[0]?.name ?? ''}`}</span>`;
    return html`<section
      class="changed-rows"
      aria-label="Changed rows"
      aria-busy=${s.busy === undefined ? nothing : String(s.busy)}
    >
      <div class="slice-controls diff-controls">
        <span>${`A = ${m.baseline.name} (baseline)`}</span>
        ${run}
        <label
          >Metric
          <select
            class="diff-metric"
            aria-label="Metric"
            @change=${(e: Event) => this.change({ metric: (e.currentTarget as HTMLSelectElement).value || undefined })}
          >
            ${s.metrics.map((k) => html`<option value=${k} .selected=${live(k === s.metric)}>${k}</option>`)}
          </select></label
        >
        <label class="diff-where-label"
          >Where
          <input
            type="text"
            class="diff-where"
            aria-label="Filter on the baseline's rows, e.g. label=3 and confidence>=0.9"
            placeholder="label=3 and confidence>=0.9"
            spellcheck="false"
            .value=${live(s.whereText)}
            @input=${(e: Event) => (this.state = { ...this.state, whereText: (e.currentTarget as HTMLInputElement).value })}
            @keydown=${(e: KeyboardEvent) => {
              if (e.key !== 'Enter') return;
              e.preventDefault();
              this.applyWhere();
            }}
        /></label>
        <vscode-button secondary data-act="diff-apply" @click=${() => this.applyWhere()}>Apply</vscode-button>
      </div>
      <div class="rows-message" role="status" aria-live="polite">${s.message}</div>
      <div class="diff-body">${s.shown ? this.body(s.shown.diff) : nothing}</div>
    </section>`;
  }

  private body(d: RowDiff): TemplateResult {
    const cols = columns(d);
    const focus = Math.min(this.state.focus, d.rows.length - 1);
    const limit = this.state.limit;
    const rows = d.rows.map((r, i) => {
      const label = `Open line ${r.lineA} of A and line ${r.lineB} of B side by side`;
      const click = (e: MouseEvent): void => {
        e.stopPropagation();
        this.open(i);
      };
      // prettier-ignore
      const open = d.rowAddressed
        ? `row ${r.lineA - 1}`
        : html`<button type="button" class="open-line" tabindex="-1" aria-label=${label} @click=${click}>Open</button>`;
      // The cells' text right inside them (no white space around it: the text is the value).
      // prettier-ignore
      return html`<tr
        role="row"
        class="diff-row"
        tabindex=${i === focus ? '0' : '-1'}
        data-index=${String(i)}
        data-line-a=${String(r.lineA)}
        data-line-b=${String(r.lineB)}
        aria-rowindex=${String(i + 2)}
        title=${d.rowAddressed ? nothing : 'Enter (or Open) shows this row in both files side by side'}
      ><td role="gridcell">${open}</td>${cols.map((c) => html`<td role="gridcell" class=${c.num ? 'num' : ''}>${c.text(r)}</td>`)}</tr>`;
    });
    const pager =
      d.rows.length < d.changed
        ? html`<div class="pager">
            <span class="page-info"
              >${`the ${formatCount(d.rows.length)} worst for B of ${formatCount(d.changed)}`}</span
            >
            <vscode-button
              secondary
              data-act="diff-more"
              ?disabled=${limit >= MAX_DIFF_ROWS}
              @click=${() => this.more()}
              >Show more</vscode-button
            >
          </div>`
        : nothing;
    const note = `A row's contribution is its change divided by the ${formatCount(d.n)} matched rows, so the contributions add up to Δ. ${d.rowAddressed ? 'The runs are Parquet or .npz files: their rows have numbers, not lines to open.' : 'Open shows the row in both prediction files side by side, each line selected.'}`;
    // prettier-ignore
    return html`${summary(d)}
      <div class="scroll-x">
        <table
          class="rows-grid diff-grid"
          role="grid"
          aria-label=${`Rows whose ${d.metric} changed, worst for B first`}
          aria-rowcount=${String(d.rows.length + 1)}
          @keydown=${(e: KeyboardEvent) => this.onGridKey(e)}
          @focusin=${(e: FocusEvent) => this.onGridFocus(e)}
        >
          <thead>
            <tr role="row"><th role="columnheader" scope="col"><span class="sr-only">${d.rowAddressed ? '' : 'open'}</span></th>${cols.map((c) => html`<th role="columnheader" scope="col" class=${c.num ? 'num' : ''}>${c.title}</th>`)}</tr>
          </thead>
          <tbody>
            ${rows}
          </tbody>
        </table>
      </div>
      ${d.rows.length === 0 ? html`<p class="note">No row changed.</p>` : nothing} ${pager}
      <p class="note">${note}</p>`;
  }
}

customElements.define('eval-changed-rows', ChangedRowsElement);

declare global {
  interface HTMLElementTagNameMap {
    'eval-changed-rows': ChangedRowsElement;
  }
}

/** The Changed rows tab of a comparison, with its model's first run as B and its first metric. */
export function changedRowsView(m: ChangedRowsModel, host: ChangedRowsHost): ChangedRowsElement {
  const e = document.createElement('eval-changed-rows');
  e.model = m;
  e.host = host;
  e.state = {
    run: m.runs[0]?.run ?? '',
    metric: m.metrics[0],
    metrics: m.metrics,
    whereText: '',
    where: [],
    limit: FIRST_ROWS,
    busy: undefined,
    message: '',
    shown: undefined,
    focus: 0,
  };
  return e;
}
