/**
 * The rows panel: the rows behind a number, opened under the chart, card or table that was
 * clicked. The filter shows as removable chips; the rows are a grid (role="grid", arrow keys move
 * between cells, Enter on a row opens its line) fetched from the host one page at a time, so only
 * the visible page is ever in the webview, whatever the file's size. Every value from the file is
 * set as text.
 */
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
import { el } from './dom';
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

interface PanelState {
  spec: DrillSpec;
  where: FilterTerm[];
  sort: RowSort | undefined;
  offset: number;
  page?: RowPage;
  /** Focused cell: row index in the page (-1 = header), column index. */
  focus: [number, number];
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

/**
 * One rows panel per report: opening another moves it. `onStale` re-evaluates when the file
 * changed since the results were written.
 */
export class RowsPanel {
  readonly root = el('section', { class: 'rows-panel', 'aria-label': 'Rows' });
  private readonly title = el('h3', { class: 'rows-title' });
  private readonly chips = el('div', { class: 'chips', role: 'list', 'aria-label': 'Filter' });
  private readonly gridBox = el('div', { class: 'grid-box' });
  private readonly pager = el('div', { class: 'pager' });
  private readonly message = el('div', { class: 'rows-message', role: 'status', 'aria-live': 'polite' });
  private state: PanelState | undefined;
  private requestNo = 0;

  constructor(private readonly onReevaluate: () => void) {
    const close = el(
      'vscode-button',
      { secondary: true, 'data-act': 'close-rows', title: 'Close the rows panel (Escape)' },
      'Close',
    );
    close.addEventListener('click', () => this.close());
    this.root.append(
      el('div', { class: 'rows-head' }, this.title, el('div', { class: 'actions' }, close)),
      this.chips,
      this.message,
      this.gridBox,
      this.pager,
    );
    this.root.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        this.close();
      }
    });
  }

  /** Where the panel was opened from: focus goes back there when it closes. */
  private origin: HTMLElement | undefined;

  /** Shows the rows of `spec` under `anchor`. */
  open(spec: DrillSpec, anchor: HTMLElement, origin?: HTMLElement): void {
    this.origin = origin;
    anchor.after(this.root);
    this.state = { spec, where: [...spec.where], sort: spec.sort, offset: 0, focus: [0, 0] };
    this.root.setAttribute('aria-label', `Rows: ${spec.title}`);
    this.title.textContent = spec.title;
    void this.load(true);
  }

  close(): void {
    this.state = undefined;
    this.requestNo++;
    this.root.remove();
    this.origin?.focus();
  }

  get isOpen(): boolean {
    return this.state !== undefined;
  }

  private renderChips(): void {
    const s = this.state!;
    this.chips.replaceChildren();
    if (s.where.length === 0) this.chips.append(el('span', { class: 'chip chip-all', role: 'listitem' }, 'all rows'));
    s.where.forEach((term, i) => {
      const text = formatTerm(term);
      const remove = el(
        'button',
        { class: 'chip-remove', type: 'button', 'aria-label': `Remove filter ${text}`, title: `Remove ${text}` },
        '×',
      );
      remove.addEventListener('click', () => {
        s.where.splice(i, 1);
        s.offset = 0;
        this.title.textContent = s.where.length === 0 ? 'All rows' : `${s.spec.title} (filter changed)`;
        void this.load(false).then(() =>
          (
            this.chips.querySelector<HTMLElement>('.chip-remove') ??
            this.gridBox.querySelector<HTMLElement>('[tabindex="0"]')
          )?.focus(),
        );
      });
      this.chips.append(
        el('span', { class: 'chip', role: 'listitem' }, el('span', { class: 'chip-text' }, text), remove),
      );
    });
  }

  /** Fetches the current page; `focusGrid` moves focus into the grid when it arrives. */
  private async load(focusGrid: boolean): Promise<void> {
    const s = this.state;
    if (!s) return;
    this.renderChips();
    const no = ++this.requestNo;
    this.message.textContent = 'Loading rows…';
    this.root.setAttribute('aria-busy', 'true');
    const answer = await ask((seq) => ({
      type: 'queryRows',
      seq,
      query: { where: s.where, ...(s.sort ? { sort: s.sort } : {}), offset: s.offset, limit: PAGE_ROWS },
    }));
    if (no !== this.requestNo || this.state !== s) return;
    this.root.setAttribute('aria-busy', 'false');
    if (answer.type !== 'rows') {
      const message =
        answer.type === 'reply' ? (answer.message ?? 'The rows could not be read.') : 'The rows could not be read.';
      this.message.replaceChildren(el('span', {}, message));
      this.gridBox.replaceChildren();
      this.pager.replaceChildren();
      if (answer.type === 'reply' && answer.stale) {
        const b = el('vscode-button', { 'data-act': 'reevaluate-stale' }, 'Re-evaluate');
        b.addEventListener('click', () => this.onReevaluate());
        this.message.append(' ', b);
      }
      return;
    }
    s.page = answer.page;
    this.message.textContent = answer.page.total === 0 ? 'No rows match this filter.' : '';
    this.renderGrid();
    this.renderPager();
    if (focusGrid) this.focusCell();
  }

  private columns(): Column[] {
    const rows = this.state?.page?.rows ?? [];
    const pos = this.position();
    return rows[0]?.kind === 'ranking'
      ? rankingColumns(rows as RankingRowView[], pos)
      : classificationColumns(rows as ClassificationRowView[], pos);
  }

  /** Line or data row of the current page's file (Parquet and `.npz` rows have no line to open). */
  private position(): RowPosition {
    return rowPosition(this.state?.page ?? {});
  }

  private renderGrid(): void {
    const s = this.state!;
    const page = s.page!;
    const cols = this.columns();
    const pos = this.position();
    const grid = el('table', {
      class: 'rows-grid',
      role: 'grid',
      'aria-label': s.spec.title,
      'aria-rowcount': String(page.total + 1),
      'aria-colcount': String(cols.length + 1),
    });
    const head = el('tr', { role: 'row', 'aria-rowindex': '1' });
    head.append(
      el(
        'th',
        { role: 'columnheader', scope: 'col', 'aria-colindex': '1', tabindex: '-1' },
        el('span', { class: 'sr-only' }, pos.openable ? 'open' : ''),
      ),
    );
    cols.forEach((c, j) => {
      const th = el('th', {
        role: 'columnheader',
        scope: 'col',
        'aria-colindex': String(j + 2),
        tabindex: '-1',
        class: c.num ? 'num' : '',
      });
      if (c.sort) {
        const active = s.sort?.key === c.sort;
        th.setAttribute('aria-sort', active ? (s.sort!.dir === 'asc' ? 'ascending' : 'descending') : 'none');
        th.classList.add('sortable');
        th.dataset.sort = c.sort;
        th.title = `Sort by ${c.title} (Enter)`;
        th.append(
          c.title,
          el(
            'span',
            { class: 'sort-mark', 'aria-hidden': 'true' },
            active ? (s.sort!.dir === 'asc' ? ' ▲' : ' ▼') : ' ↕',
          ),
        );
        th.addEventListener('click', () => this.sortBy(c.sort!));
      } else th.append(c.title);
      head.append(th);
    });
    const body = el('tbody');
    page.rows.forEach((r, i) => {
      const tr = el('tr', { role: 'row', 'aria-rowindex': String(page.offset + i + 2), 'data-line': String(r.line) });
      if (r.kind === 'classification' && !r.correct) tr.classList.add('wrong');
      let open: HTMLElement | null = null;
      if (pos.openable) {
        open = el(
          'button',
          {
            type: 'button',
            class: 'open-line',
            tabindex: '-1',
            title: `Open line ${r.line} of the prediction file beside the report`,
            'aria-label': `Open at line ${r.line}`,
          },
          'Open',
        );
        open.addEventListener('click', () => this.openLine(r.line));
      }
      tr.append(el('td', { role: 'gridcell', 'aria-colindex': '1', ...(open ? {} : { tabindex: '-1' }) }, open));
      cols.forEach((c, j) =>
        tr.append(
          el(
            'td',
            { role: 'gridcell', 'aria-colindex': String(j + 2), tabindex: '-1', class: c.num ? 'num' : '' },
            c.text(r),
          ),
        ),
      );
      if (r.kind === 'classification' && Object.keys(r.columns).length > MAX_EXTRA_COLUMNS)
        tr.title = Object.entries(r.columns)
          .map(([k, v]) => `${k}: ${v}`)
          .join('\n');
      body.append(tr);
    });
    grid.append(el('thead', {}, head), body);
    grid.addEventListener('keydown', (e) => this.onKey(e));
    grid.addEventListener('focusin', (e) => {
      const cell = (e.target as HTMLElement).closest('td, th');
      const tr = cell?.parentElement;
      if (!cell || !tr) return;
      const i = tr.parentElement?.tagName === 'THEAD' ? -1 : [...tr.parentElement!.children].indexOf(tr);
      s.focus = [i, [...tr.children].indexOf(cell)];
      this.setRoving();
    });
    this.gridBox.replaceChildren(el('div', { class: 'scroll-x' }, grid));
    s.focus = [Math.min(s.focus[0], page.rows.length - 1), Math.min(s.focus[1], cols.length)];
    if (page.rows.length === 0) s.focus = [-1, 0];
    this.setRoving();
  }

  /** The focusable element of a cell: the Open button in the first column, else the cell. */
  private cellTarget(i: number, j: number): HTMLElement | undefined {
    const grid = this.gridBox.querySelector('table');
    const tr = i < 0 ? grid?.querySelector('thead tr') : grid?.querySelectorAll('tbody tr')[i];
    const cell = tr?.children[j] as HTMLElement | undefined;
    if (!cell) return undefined;
    return cell.querySelector<HTMLElement>('button') ?? cell;
  }

  /** One tab stop in the grid: the focused cell (roving tabindex). */
  private setRoving(): void {
    const s = this.state!;
    for (const e of this.gridBox.querySelectorAll<HTMLElement>('[tabindex="0"]')) e.tabIndex = -1;
    const t = this.cellTarget(s.focus[0], s.focus[1]);
    if (t) t.tabIndex = 0;
  }

  private focusCell(): void {
    const s = this.state!;
    this.setRoving();
    this.cellTarget(s.focus[0], s.focus[1])?.focus();
  }

  private onKey(e: KeyboardEvent): void {
    const s = this.state;
    if (!s?.page) return;
    const rows = s.page.rows.length;
    const cols = this.columns().length + 1;
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
          const key = (this.cellTarget(i, j) as HTMLElement | undefined)?.dataset.sort;
          if (key) this.sortBy(key);
          return;
        }
        const r = s.page.rows[i];
        if (r && this.position().openable) this.openLine(r.line);
        return;
      }
      default:
        return;
    }
    e.preventDefault();
    s.focus = [i, j];
    this.focusCell();
  }

  /** Next (`dir` 1) or previous page, focus on row `row` of it. */
  private turn(e: KeyboardEvent, dir: 1 | -1, row: number): void {
    e.preventDefault();
    const s = this.state!;
    const next = s.offset + dir * PAGE_ROWS;
    if (next < 0 || next >= (s.page?.total ?? 0)) return;
    s.offset = next;
    s.focus = [row, s.focus[1]];
    void this.load(true);
  }

  private sortBy(key: string): void {
    const s = this.state!;
    s.sort =
      s.sort?.key === key
        ? { key, dir: s.sort.dir === 'desc' ? 'asc' : 'desc' }
        : { key, dir: key === 'line' || key === 'id' ? 'asc' : 'desc' };
    s.offset = 0;
    const col = s.focus[1];
    s.focus = [-1, col];
    void this.load(true);
  }

  private renderPager(): void {
    const s = this.state!;
    const page = s.page!;
    const from = page.total === 0 ? 0 : page.offset + 1;
    const to = page.offset + page.rows.length;
    const prev = el(
      'vscode-button',
      { secondary: true, 'data-act': 'prev-page', ...(page.offset === 0 ? { disabled: true } : {}) },
      'Previous',
    );
    const next = el(
      'vscode-button',
      { secondary: true, 'data-act': 'next-page', ...(to >= page.total ? { disabled: true } : {}) },
      'Next',
    );
    prev.addEventListener('click', () => {
      s.offset = Math.max(0, s.offset - PAGE_ROWS);
      void this.load(false);
    });
    next.addEventListener('click', () => {
      s.offset += PAGE_ROWS;
      void this.load(false);
    });
    const info =
      page.total === 0
        ? `no rows (${formatCount(page.rowsInFile)} in the file)`
        : `rows ${formatCount(from)}–${formatCount(to)} of ${formatCount(page.total)}${page.total === page.rowsInFile ? '' : ` matching (${formatCount(page.rowsInFile)} in the file)`}`;
    this.pager.replaceChildren(prev, el('span', { class: 'page-info', 'data-total': String(page.total) }, info), next);
  }

  private openLine(line: number): void {
    vscode.postMessage({ type: 'openLine', line });
  }
}
