/**
 * The rows panel (`<eval-rows>`): the rows behind a number, opened under the chart, card or table
 * that was clicked. The filter shows as removable chips; the rows are a grid (role="grid", arrow
 * keys move between cells, Enter on a row opens its line) fetched from the host one page at a
 * time, so only the visible page is ever in the webview, whatever the file's size. Every value from
 * the file is set as text.
 *
 * One state object (the rows listed: their title and filter as opened, the filter left, the sort,
 * the page asked for, a request under way, the page shown, the message above the grid, whether
 * the file changed since its results, the focused cell). Its targets are its rows, declared in
 * {@link RowsElement.lineTargets}: each opens its line of the prediction file beside the report
 * (Enter or Space on any of its cells, or its Open button); the rows of Parquet and `.npz` files
 * have numbers, not lines, so none. It listens to nothing outside itself: every listener is on
 * its own elements and goes with them.
 */
import { html, LitElement, nothing, type TemplateResult } from 'lit';
import type {
  ClassificationRowView,
  FilterTerm,
  RankingRowView,
  RowPage,
  RowSort,
  RowView,
} from '../src/core/rows/types';
import type { DrillSpec } from '../src/shared/drillTargets';
import { formatCount, formatNumber } from '../src/shared/format';
import { rowPosition, type RowPosition } from '../src/shared/rowPosition';
import { formatTerm } from '../src/core/rows/where';
import { ask, vscode } from './vscodeApi';

/** Rows per page. */
export const PAGE_ROWS = 50;
/** Extra columns of the file shown (the rest are in the row's tooltip). */
const MAX_EXTRA_COLUMNS = 6;

interface Column {
  id: string;
  title: string;
  /** The sort key when the column is sortable. */
  sort?: string;
  num?: boolean;
  text(r: RowView): string;
}

const fmt = (v: number | null | undefined, digits = 4): string =>
  v === null || v === undefined ? '—' : formatNumber(v, '', digits);

/** The line column (`row`, the data row, for Parquet and `.npz` files); sorted by line either way. */
function lineColumn(pos: RowPosition): Column {
  return { id: 'line', title: pos.title, sort: 'line', num: true, text: (r) => String(pos.value(r.line)) };
}

function classificationColumns(rows: ClassificationRowView[], pos: RowPosition): Column[] {
  const cols: Column[] = [
    lineColumn(pos),
    { id: 'id', title: 'id', sort: 'id', text: (r) => (r as ClassificationRowView).id ?? '—' },
    { id: 'label', title: 'label', text: (r) => (r as ClassificationRowView).label },
    { id: 'pred', title: 'pred', text: (r) => (r as ClassificationRowView).pred },
    { id: 'correct', title: 'correct', text: (r) => ((r as ClassificationRowView).correct ? '✓ yes' : '✗ no') },
    {
      id: 'confidence',
      title: 'confidence',
      sort: 'confidence',
      num: true,
      text: (r) => fmt((r as ClassificationRowView).confidence),
    },
    { id: 'loss', title: 'loss', sort: 'loss', num: true, text: (r) => fmt((r as ClassificationRowView).loss) },
    {
      id: 'top',
      title: 'top 3',
      text: (r) => (r as ClassificationRowView).top.map(([c, p]) => `${c} ${fmt(p, 3)}`).join(' · '),
    },
  ];
  // `group` is the file's per-row group column; the class-frequency group of the true class is
  // `class_group` (its filter key), titled so the two are never confused.
  const titles: Partial<Record<string, string>> = { classGroup: 'class group (train frequency)' };
  const ids: Partial<Record<string, string>> = { classGroup: 'class_group' };
  for (const k of ['weight', 'group', 'classGroup', 'shot', 'split', 'stratum', 'accepted'] as const) {
    if (!rows.some((r) => r[k] !== undefined)) continue;
    cols.push({
      id: ids[k] ?? k,
      title: titles[k] ?? k,
      num: k === 'weight',
      text: (r) => {
        const v = (r as ClassificationRowView)[k];
        return v === undefined ? '—' : typeof v === 'number' ? fmt(v) : typeof v === 'boolean' ? (v ? 'yes' : 'no') : v;
      },
    });
  }
  const extra = [...new Set(rows.flatMap((r) => Object.keys(r.columns)))].slice(0, MAX_EXTRA_COLUMNS);
  for (const k of extra)
    cols.push({ id: `col:${k}`, title: k, text: (r) => (r as ClassificationRowView).columns[k] ?? '' });
  return cols;
}

function rankingColumns(rows: RankingRowView[], pos: RowPosition): Column[] {
  const cols: Column[] = [
    lineColumn(pos),
    { id: 'user', title: 'user', text: (r) => (r as RankingRowView).user },
    {
      id: 'hits',
      title: 'hits',
      num: true,
      text: (r) => String((r as RankingRowView).items.filter((i) => i.hit).length),
    },
    {
      id: 'items',
      title: 'top K (rank. item; ✓ = relevant)',
      text: (r) =>
        (r as RankingRowView).items
          .map(
            (i) =>
              `${i.rank}. ${i.hit ? '✓' : ''}${i.item}${i.repeatOf !== undefined ? ` (repeat of ${i.repeatOf})` : ''}`,
          )
          .join(' · '),
    },
    {
      id: 'missed',
      title: 'missed relevant',
      text: (r) => {
        const m = (r as RankingRowView).missed;
        return m.length <= 5 ? m.join(' · ') : `${m.slice(0, 5).join(' · ')} … (${m.length})`;
      },
    },
  ];
  if (rows.some((r) => r.trainCount !== undefined))
    cols.push({
      id: 'trainCount',
      title: 'train interactions',
      num: true,
      text: (r) => ((r as RankingRowView).trainCount === undefined ? '—' : String((r as RankingRowView).trainCount)),
    });
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r.metrics)))];
  for (const k of keys)
    cols.push({ id: `m:${k}`, title: k, sort: k, num: true, text: (r) => fmt((r as RankingRowView).metrics[k]) });
  return cols;
}

/** The columns of a page of rows. */
function columnsOf(page: RowPage | undefined): Column[] {
  const rows = page?.rows ?? [];
  const pos = rowPosition(page ?? {});
  return rows[0]?.kind === 'ranking'
    ? rankingColumns(rows as RankingRowView[], pos)
    : classificationColumns(rows as ClassificationRowView[], pos);
}

/** What the panel may touch outside itself. */
export interface RowsHost {
  /** Evaluates the file again (it changed since its results were written). */
  reevaluate(): void;
}

export interface RowsState {
  /** The rows opened: their title and filter. */
  spec: DrillSpec;
  /** The title shown: the spec's, or what a removed chip made of it. */
  title: string;
  /** The filter applied (the spec's less the chips removed), the sort, the first row asked for. */
  where: FilterTerm[];
  sort: RowSort | undefined;
  offset: number;
  /** True while a page is being fetched. */
  busy: boolean;
  /** The page shown (kept while the next one is fetched; none when the rows could not be read). */
  page: RowPage | undefined;
  /** Above the grid: loading, no rows, or why the rows could not be read. */
  message: string;
  /** The rows could not be read (`stale`: the file changed since its results; Re-evaluate is offered). */
  failed: { stale: boolean } | undefined;
  /** Focused cell: row index in the page (-1 = header), column index. */
  focus: [number, number];
}

/** A row of the page: its table row opens its line of the prediction file. */
export interface RowLineTarget {
  element: HTMLElement;
  row: RowView;
  line: number;
}

/** Where focus goes once the page asked for is drawn. */
type FocusAfter = 'grid' | 'chip' | undefined;

/**
 * One rows panel per report: opening another moves it (`open`). Closed (`close`, Escape, its
 * Close button), it leaves the document and focus goes back where it was opened from.
 */
export class RowsElement extends LitElement {
  static override properties = {
    host: { attribute: false },
    state: { state: true },
  };

  declare host: RowsHost;
  declare state: RowsState | undefined;
  /** Requests made; only the answer to the last one is shown. */
  private requests = 0;
  /** Where the panel was opened from: focus goes back there when it closes. */
  private origin: HTMLElement | undefined;

  constructor() {
    super();
    this.state = undefined;
  }

  /** Light DOM: the report's stylesheets apply inside. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  get isOpen(): boolean {
    return this.state !== undefined;
  }

  /** Shows the rows of `spec` under `anchor`; `origin` gets the focus back when the panel closes. */
  open(spec: DrillSpec, anchor: HTMLElement, origin?: HTMLElement): void {
    this.origin = origin;
    anchor.after(this);
    this.state = {
      spec,
      title: spec.title,
      where: [...spec.where],
      sort: spec.sort,
      offset: 0,
      busy: false,
      page: undefined,
      message: '',
      failed: undefined,
      focus: [0, 0],
    };
    void this.load('grid');
  }

  close(): void {
    const open = this.state !== undefined;
    this.state = undefined;
    this.requests++;
    this.remove();
    if (open) this.origin?.focus();
    this.origin = undefined;
  }

  /** The rows of the page shown, each opening its line (none for numbered rows, none before a page). */
  get lineTargets(): RowLineTarget[] {
    const page = this.state?.page;
    if (!page || !rowPosition(page).openable) return [];
    const trs = this.querySelectorAll<HTMLElement>('.rows-grid tbody tr');
    return page.rows.map((row, i) => ({ element: trs[i]!, row, line: row.line }));
  }

  /** Fetches the state's page; `focus` says where focus goes when it is drawn. */
  private async load(focus: FocusAfter): Promise<void> {
    const s = this.state;
    if (!s) return;
    const no = ++this.requests;
    this.state = { ...s, busy: true, message: 'Loading rows…', failed: undefined };
    const answer = await ask((seq) => ({
      type: 'queryRows',
      seq,
      query: { where: s.where, ...(s.sort ? { sort: s.sort } : {}), offset: s.offset, limit: PAGE_ROWS },
    }));
    const now = this.state;
    // Closed, moved or asked again meanwhile: this answer is not the one to show.
    if (no !== this.requests || !now) return;
    if (answer.type !== 'rows') {
      const message =
        answer.type === 'reply' ? (answer.message ?? 'The rows could not be read.') : 'The rows could not be read.';
      this.state = {
        ...now,
        busy: false,
        message,
        page: undefined,
        failed: { stale: answer.type === 'reply' && answer.stale === true },
      };
      return;
    }
    const page = answer.page;
    const cols = columnsOf(page).length;
    this.state = {
      ...now,
      busy: false,
      page,
      message: page.total === 0 ? 'No rows match this filter.' : '',
      focus:
        page.rows.length === 0 ? [-1, 0] : [Math.min(now.focus[0], page.rows.length - 1), Math.min(now.focus[1], cols)],
    };
    if (!focus) return;
    await this.updateComplete;
    if (focus === 'grid') this.focusCell();
    else
      (
        this.querySelector<HTMLElement>('.chip-remove') ?? this.querySelector<HTMLElement>('.grid-box [tabindex="0"]')
      )?.focus();
  }

  /** The focusable element of a cell: the Open button in the first column, else the cell. */
  private cellTarget(i: number, j: number): HTMLElement | undefined {
    const grid = this.querySelector('.grid-box table');
    const tr = i < 0 ? grid?.querySelector('thead tr') : grid?.querySelectorAll('tbody tr')[i];
    const cell = tr?.children[j] as HTMLElement | undefined;
    if (!cell) return undefined;
    return cell.querySelector<HTMLElement>('button') ?? cell;
  }

  private focusCell(): void {
    const s = this.state;
    if (s) this.cellTarget(s.focus[0], s.focus[1])?.focus();
  }

  private removeChip(i: number): void {
    const s = this.state;
    if (!s) return;
    const where = s.where.filter((_, k) => k !== i);
    this.state = {
      ...s,
      where,
      offset: 0,
      title: where.length === 0 ? 'All rows' : `${s.spec.title} (filter changed)`,
    };
    void this.load('chip');
  }

  private onKey(e: KeyboardEvent): void {
    const s = this.state;
    if (!s?.page) return;
    const rows = s.page.rows.length;
    const cols = columnsOf(s.page).length + 1;
    let [i, j] = s.focus;
    switch (e.key) {
      case 'ArrowDown':
        if (i + 1 < rows) i++;
        else if (s.offset + rows < s.page.total) return this.turn(e, 1, 0);
        break;
      case 'ArrowUp':
        if (i > 0 || (i === 0 && s.offset === 0)) i--;
        else if (i === 0) return this.turn(e, -1, PAGE_ROWS - 1);
        break;
      case 'ArrowRight':
        j = Math.min(cols - 1, j + 1);
        break;
      case 'ArrowLeft':
        j = Math.max(0, j - 1);
        break;
      case 'Home':
        if (e.ctrlKey) i = rows > 0 ? 0 : -1;
        j = 0;
        break;
      case 'End':
        if (e.ctrlKey) i = rows - 1;
        j = cols - 1;
        break;
      case 'PageDown':
        return this.turn(e, 1, 0);
      case 'PageUp':
        return this.turn(e, -1, 0);
      case 'Enter':
      case ' ': {
        e.preventDefault();
        if (i < 0) {
          const key = this.cellTarget(i, j)?.dataset.sort;
          if (key) this.sortBy(key);
          return;
        }
        const t = this.lineTargets[i];
        if (t) this.openLine(t.line);
        return;
      }
      default:
        return;
    }
    e.preventDefault();
    this.state = { ...s, focus: [i, j] };
    // The cell is there already (the same page): focused now, its tab stop drawn with the state.
    this.cellTarget(i, j)?.focus();
  }

  /** A cell focused (click, Tab) holds the tab stop. */
  private onFocusIn(e: FocusEvent): void {
    const s = this.state;
    const cell = (e.target as HTMLElement).closest('td, th');
    const tr = cell?.parentElement;
    if (!s || !cell || !tr) return;
    const i = tr.parentElement?.tagName === 'THEAD' ? -1 : [...tr.parentElement!.children].indexOf(tr);
    const j = [...tr.children].indexOf(cell);
    if (i !== s.focus[0] || j !== s.focus[1]) this.state = { ...s, focus: [i, j] };
  }

  /** Next (`dir` 1) or previous page, focus on row `row` of it. */
  private turn(e: KeyboardEvent, dir: 1 | -1, row: number): void {
    e.preventDefault();
    const s = this.state;
    if (!s) return;
    const next = s.offset + dir * PAGE_ROWS;
    if (next < 0 || next >= (s.page?.total ?? 0)) return;
    this.state = { ...s, offset: next, focus: [row, s.focus[1]] };
    void this.load('grid');
  }

  private page(offset: number): void {
    const s = this.state;
    if (!s) return;
    this.state = { ...s, offset };
    void this.load(undefined);
  }

  private sortBy(key: string): void {
    const s = this.state;
    if (!s) return;
    const sort: RowSort =
      s.sort?.key === key
        ? { key, dir: s.sort.dir === 'desc' ? 'asc' : 'desc' }
        : { key, dir: key === 'line' || key === 'id' ? 'asc' : 'desc' };
    this.state = { ...s, sort, offset: 0, focus: [-1, s.focus[1]] };
    void this.load('grid');
  }

  private openLine(line: number): void {
    vscode.postMessage({ type: 'openLine', line });
  }

  override render(): TemplateResult | typeof nothing {
    const s = this.state;
    if (!s) return nothing;
    // The texts right inside their elements (no white space around them: their text is the value).
    // prettier-ignore
    return html`<section
      class="rows-panel"
      aria-label=${`Rows: ${s.spec.title}`}
      aria-busy=${String(s.busy)}
      @keydown=${(e: KeyboardEvent) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        this.close();
      }}
    ><div class="rows-head"><h3 class="rows-title">${s.title}</h3><div class="actions"><vscode-button secondary data-act="close-rows" title="Close the rows panel (Escape)" @click=${() => this.close()}>Close</vscode-button></div></div><div class="chips" role="list" aria-label="Filter">${this.chips(s)}</div><div class="rows-message" role="status" aria-live="polite">${this.message(s)}</div><div class="grid-box">${s.page ? this.grid(s, s.page) : nothing}</div><div class="pager">${s.page ? this.pager(s.page) : nothing}</div></section>`;
  }

  private chips(s: RowsState): TemplateResult | TemplateResult[] {
    if (s.where.length === 0) return html`<span class="chip chip-all" role="listitem">all rows</span>`;
    return s.where.map((term, i) => {
      const text = formatTerm(term);
      // prettier-ignore
      return html`<span class="chip" role="listitem"><span class="chip-text">${text}</span><button class="chip-remove" type="button" aria-label=${`Remove filter ${text}`} title=${`Remove ${text}`} @click=${() => this.removeChip(i)}>×</button></span>`;
    });
  }

  private message(s: RowsState): unknown {
    if (!s.failed) return s.message;
    const again = s.failed.stale
      ? html` <vscode-button data-act="reevaluate-stale" @click=${() => this.host.reevaluate()}
          >Re-evaluate</vscode-button
        >`
      : nothing;
    return html`<span>${s.message}</span>${again}`;
  }

  private grid(s: RowsState, page: RowPage): TemplateResult {
    const cols = columnsOf(page);
    const pos = rowPosition(page);
    const [fi, fj] = s.focus;
    const tab = (i: number, j: number): string => (i === fi && j === fj ? '0' : '-1');
    const head = cols.map((c, j) => {
      const cls = c.num ? 'num' : '';
      if (!c.sort)
        // prettier-ignore
        return html`<th role="columnheader" scope="col" aria-colindex=${String(j + 2)} tabindex=${tab(-1, j + 1)} class=${cls}>${c.title}</th>`;
      const key = c.sort;
      const active = s.sort?.key === key;
      const dir = active ? s.sort!.dir : undefined;
      // prettier-ignore
      return html`<th role="columnheader" scope="col" aria-colindex=${String(j + 2)} tabindex=${tab(-1, j + 1)} class=${cls ? `${cls} sortable` : 'sortable'} aria-sort=${dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'} data-sort=${key} title=${`Sort by ${c.title} (Enter)`} @click=${() => this.sortBy(key)}>${c.title}<span class="sort-mark" aria-hidden="true">${dir === 'asc' ? ' ▲' : dir === 'desc' ? ' ▼' : ' ↕'}</span></th>`;
    });
    const rows = page.rows.map((r, i) => {
      const open = pos.openable
        ? // prettier-ignore
          html`<button type="button" class="open-line" tabindex=${tab(i, 0)} title=${`Open line ${r.line} of the prediction file beside the report`} aria-label=${`Open at line ${r.line}`} @click=${() => this.openLine(r.line)}>Open</button>`
        : nothing;
      const tip =
        r.kind === 'classification' && Object.keys(r.columns).length > MAX_EXTRA_COLUMNS
          ? Object.entries(r.columns)
              .map(([k, v]) => `${k}: ${v}`)
              .join('\n')
          : undefined;
      // prettier-ignore
      return html`<tr role="row" aria-rowindex=${String(page.offset + i + 2)} data-line=${String(r.line)} class=${r.kind === 'classification' && !r.correct ? 'wrong' : nothing} title=${tip ?? nothing}><td role="gridcell" aria-colindex="1" tabindex=${pos.openable ? nothing : tab(i, 0)}>${open}</td>${cols.map((c, j) => html`<td role="gridcell" aria-colindex=${String(j + 2)} tabindex=${tab(i, j + 1)} class=${c.num ? 'num' : ''}>${c.text(r)}</td>`)}</tr>`;
    });
    // prettier-ignore
    return html`<div class="scroll-x"><table
      class="rows-grid"
      role="grid"
      aria-label=${s.spec.title}
      aria-rowcount=${String(page.total + 1)}
      aria-colcount=${String(cols.length + 1)}
      @keydown=${(e: KeyboardEvent) => this.onKey(e)}
      @focusin=${(e: FocusEvent) => this.onFocusIn(e)}
    ><thead><tr role="row" aria-rowindex="1"><th role="columnheader" scope="col" aria-colindex="1" tabindex=${tab(-1, 0)}><span class="sr-only">${pos.openable ? 'open' : ''}</span></th>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
  }

  private pager(page: RowPage): TemplateResult {
    const from = page.total === 0 ? 0 : page.offset + 1;
    const to = page.offset + page.rows.length;
    const info =
      page.total === 0
        ? `no rows (${formatCount(page.rowsInFile)} in the file)`
        : `rows ${formatCount(from)}–${formatCount(to)} of ${formatCount(page.total)}${page.total === page.rowsInFile ? '' : ` matching (${formatCount(page.rowsInFile)} in the file)`}`;
    // prettier-ignore
    return html`<vscode-button secondary data-act="prev-page" ?disabled=${page.offset === 0} @click=${() => this.page(Math.max(0, page.offset - PAGE_ROWS))}>Previous</vscode-button><span class="page-info" data-total=${String(page.total)}>${info}</span><vscode-button secondary data-act="next-page" ?disabled=${to >= page.total} @click=${() => this.page(page.offset + PAGE_ROWS)}>Next</vscode-button>`;
  }
}

customElements.define('eval-rows', RowsElement);

declare global {
  interface HTMLElementTagNameMap {
    'eval-rows': RowsElement;
  }
}

/** The report's rows panel (closed until opened). */
export function rowsPanel(host: RowsHost): RowsElement {
  const e = document.createElement('eval-rows');
  e.host = host;
  return e;
}
