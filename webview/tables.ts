/**
 * Tables with `@vscode-elements/elements` (`vscode-table`), plus Copy as Markdown / CSV. A table
 * whose rows (or cells) stand for rows of the file declares them as its drill-down targets: given
 * the table's `TableDrill` and the rows panel's `OpenRows`, it draws them focusable with their hint
 * and opens them on click or Enter itself, and lists them in `drillTargets`.
 */
import type { TableDrill } from '../src/shared/drillSpec';
import type { TableModel } from '../src/shared/model';
import { formatCell, tableToCsv, tableToMarkdown } from '../src/shared/tableText';
import { el } from './dom';
import { activates, ROWS_HINT, type DrillSource, type DrillTarget, type OpenRows } from './drill';
import { request } from './vscodeApi';

/** Very wide tables (a confusion matrix) read better as a plain scrolling table. */
const MAX_COMPONENT_COLUMNS = 10;
/** `vscode-table` scrolls inside a fixed height of up to 20 rows; longer tables are plain, shown whole. */
const MAX_COMPONENT_ROWS = 20;

/** The drill-down of a table: the rows behind its rows and cells, and how to open them. */
export interface TableDrillHost {
  drill: TableDrill;
  open: OpenRows;
}

/** A rendered table; its drill-down targets are empty when it has none. */
export type TableBlock = HTMLElement & DrillSource;

export function renderTable(t: TableModel, status: (text: string) => void, drill?: TableDrillHost): TableBlock {
  const wrap = el('div', { class: 'table-block', 'data-table': t.id });
  const copyMd = el(
    'vscode-button',
    { secondary: true, 'data-act': 'copy-md', title: 'Copy the table as GitHub Markdown' },
    'Copy Markdown',
  );
  const copyCsv = el(
    'vscode-button',
    { secondary: true, 'data-act': 'copy-csv', title: 'Copy the table as CSV' },
    'Copy CSV',
  );
  const copy = async (text: string, what: string): Promise<void> => {
    const r = await request((seq) => ({ type: 'copy', seq, text, what }));
    status(r.message ?? (r.ok ? 'Copied.' : 'Not copied.'));
  };
  copyMd.addEventListener('click', () => void copy(tableToMarkdown(t), `${t.title} as Markdown`));
  copyCsv.addEventListener('click', () => void copy(tableToCsv(t), `${t.title} as CSV`));
  wrap.append(
    el('div', { class: 'table-head' }, el('h3', {}, t.title), el('div', { class: 'actions' }, copyMd, copyCsv)),
  );
  const cls = (i: number, j: number): string => {
    const kind = t.kinds[j] ?? 'text';
    const place = t.marks?.[i]?.[j];
    return [kind === 'text' ? '' : 'num', place ? `place-${place}` : ''].filter(Boolean).join(' ');
  };
  const text = (i: number, j: number): string => formatCell(t.rows[i]![j]!, t.kinds[j]) + (t.suffixes?.[i]?.[j] ?? '');
  // A metric's name is shown; its key (as in the results JSON and the copies) is the hover text.
  const head = (c: string, j: number): [string, { title?: string }] => {
    const name = t.columnNames?.[j];
    return name && name !== c ? [name, { title: `${name} (${c})` }] : [c, {}];
  };
  const first = (i: number): [string, { title?: string }] => {
    const name = t.rowNames?.[i];
    return name
      ? [name + (t.suffixes?.[i]?.[0] ?? ''), { title: `${name} (${formatCell(t.rows[i]![0]!, t.kinds[0])})` }]
      : [text(i, 0), {}];
  };
  const tip = (i: number, j: number): { title?: string } => {
    const why = t.cellTitles?.[i]?.[j];
    return why ? { title: why } : {};
  };
  const cellText = (i: number, j: number): string => (j === 0 ? first(i)[0] : text(i, j));
  if (t.columns.length <= MAX_COMPONENT_COLUMNS && t.rows.length <= MAX_COMPONENT_ROWS) {
    const table = el('vscode-table', {
      zebra: true,
      'bordered-columns': true,
      resizable: true,
      class: `rows-${Math.min(t.rows.length, 20)}`,
    });
    // Column widths in proportion to the longest text of each column (header included), so a
    // header is cut only when the panel is too narrow for all of them.
    const widths = t.columns.map((c, j) =>
      Math.max(head(c, j)[0].length + 3, ...t.rows.map((_, i) => cellText(i, j).length + 2)),
    );
    const sum = widths.reduce((a, b) => a + b, 0);
    (table as unknown as { columns: string[] }).columns = widths.map((w) => `${((100 * w) / sum).toFixed(2)}%`);
    table.append(
      el(
        'vscode-table-header',
        { slot: 'header' },
        ...t.columns.map((c, j) =>
          el(
            'vscode-table-header-cell',
            { class: (t.kinds[j] ?? 'text') === 'text' ? '' : 'num', ...head(c, j)[1] },
            head(c, j)[0],
          ),
        ),
      ),
    );
    const body = el('vscode-table-body', { slot: 'body' });
    t.rows.forEach((r, i) =>
      body.append(
        el(
          'vscode-table-row',
          {},
          ...r.map((_, j) =>
            el(
              'vscode-table-cell',
              { class: cls(i, j), ...(j === 0 ? first(i)[1] : {}), ...tip(i, j) },
              cellText(i, j),
            ),
          ),
        ),
      ),
    );
    table.append(body);
    wrap.append(table);
  } else {
    const table = el('table', { class: 'plain' });
    table.append(
      el(
        'thead',
        {},
        el('tr', {}, ...t.columns.map((c, j) => el('th', { scope: 'col', ...head(c, j)[1] }, head(c, j)[0]))),
      ),
    );
    const body = el('tbody');
    t.rows.forEach((r, i) =>
      body.append(
        el(
          'tr',
          {},
          ...r.map((_, j) =>
            j === 0
              ? el('th', { scope: 'row', ...first(i)[1] }, cellText(i, j))
              : el('td', { class: cls(i, j), ...tip(i, j) }, text(i, j)),
          ),
        ),
      ),
    );
    table.append(body);
    wrap.append(el('div', { class: 'scroll-x' }, table));
  }
  if (t.note) wrap.append(el('p', { class: 'note' }, t.note));
  return withDrillTargets(wrap, drill);
}

/**
 * Marks the rows (and cells) of `wrap` that `host.drill` has rows behind, opens them on click or
 * Enter, and lists them as the block's `drillTargets`. The rows panel opens after the figure that
 * holds the table (a chart's table alternative), or after the table.
 */
function withDrillTargets(wrap: HTMLElement, host: TableDrillHost | undefined): TableBlock {
  const targets: Omit<DrillTarget, 'anchor'>[] = [];
  const rows = [...wrap.querySelectorAll<HTMLElement>('vscode-table-row, tbody tr')];
  const mark = (element: HTMLElement, spec: DrillTarget['spec']): void => {
    element.tabIndex = 0;
    element.classList.add('drillable');
    element.setAttribute('aria-description', `${spec.title}. ${ROWS_HINT}`);
    targets.push({ element, spec });
  };
  if (host) {
    const { drill } = host;
    rows.forEach((row, i) => {
      const spec = drill.rows?.[i];
      if (spec) {
        row.dataset.drillRow = String(i);
        mark(row, spec);
      }
      [...row.children].forEach((cell, j) => {
        const c = drill.cells?.[i]?.[j];
        if (!c || !(cell instanceof HTMLElement)) return;
        cell.dataset.drillCell = `${i},${j}`;
        mark(cell, c);
      });
    });
  }
  const anchor = (): HTMLElement => wrap.closest<HTMLElement>('figure.chart') ?? wrap;
  // A cell's rows before its row's (a click on a cell is a click on its row too).
  const targetOf = (node: EventTarget | null): Omit<DrillTarget, 'anchor'> | undefined => {
    if (!(node instanceof Element)) return undefined;
    const cell = node.closest('[data-drill-cell]');
    const row = node.closest('[data-drill-row]');
    return targets.find((x) => x.element === cell) ?? targets.find((x) => x.element === row);
  };
  if (targets.length > 0) {
    const open = (x: Omit<DrillTarget, 'anchor'>): void => host!.open(x.spec, anchor(), x.element);
    wrap.addEventListener('click', (e) => {
      const x = targetOf(e.target);
      if (x) open(x);
    });
    wrap.addEventListener('keydown', (e) => {
      const x = targets.find((y) => y.element === e.target);
      if (x && activates(e)) open(x);
    });
  }
  return Object.defineProperty(wrap, 'drillTargets', {
    get: (): DrillTarget[] => targets.map((x) => ({ ...x, anchor: anchor() })),
  }) as TableBlock;
}
