/**
 * The Changed rows tab of a comparison: the run to diff against the baseline, the metric, a filter
 * in the rows' filter language; then the four correct/incorrect cells with McNemar's exact p, n,
 * the rows that changed and Δ, and the changed rows worst for the run first. Each row opens its
 * line in both prediction files side by side (Enter on the focused row, or its Open button).
 * The rows are computed by the host (in its inspection worker) when the tab is first shown and
 * again when a control changes; an answer to an older request is dropped. Values are set as text.
 */
import type { DiffRow, RowDiff } from '../src/core/compare/diffTypes';
import { parseWhere, WhereSyntaxError } from '../src/core/rows/where';
import type { FilterTerm } from '../src/core/rows/types';
import type { ChangedRowsModel } from '../src/shared/model';
import { formatCount, formatNumber, pStatement } from '../src/shared/format';
import { MAX_DIFF_ROWS } from '../src/shared/protocol';
import { el } from './dom';
import { ask, vscode } from './vscodeApi';

/** Rows asked for at first; "Show more" doubles it, up to {@link MAX_DIFF_ROWS}. */
const FIRST_ROWS = 50;

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

/** The summary: n, changed, Δ and, for accuracy, the four cells with McNemar's exact p. */
function summary(d: RowDiff): HTMLElement {
  const box = el('div', { class: 'diff-summary' });
  box.append(
    el(
      'p',
      { class: 'diff-counts', 'data-n': String(d.n), 'data-changed': String(d.changed) },
      `${d.measured ? `The split's test rows, as the metrics: ${formatCount(d.measured.testRows)} of ${formatCount(d.measured.rowsInFile)}; ` : ''}${formatCount(d.n)} matched rows${d.where ? ` where ${d.where}` : ''}; ${formatCount(d.changed)} changed; ${d.metric} Δ (B − A) = ${signed(d.delta)}.`,
    ),
  );
  if (d.cells) {
    const c = d.cells;
    const cell = (v: number, key: string): HTMLElement => el('td', { class: 'num', 'data-cell': key }, formatCount(v));
    box.append(
      el(
        'table',
        { class: 'rows-grid diff-cells', 'aria-label': 'Rows right and wrong in A and B' },
        el(
          'thead',
          {},
          el('tr', {}, el('th', {}, ''), el('th', { class: 'num' }, 'B right'), el('th', { class: 'num' }, 'B wrong')),
        ),
        el(
          'tbody',
          {},
          el('tr', {}, el('th', { scope: 'row' }, 'A right'), cell(c.bothRight, 'bothRight'), cell(c.lost, 'lost')),
          el('tr', {}, el('th', { scope: 'row' }, 'A wrong'), cell(c.gained, 'gained'), cell(c.bothWrong, 'bothWrong')),
        ),
      ),
    );
  }
  if (d.mcnemar)
    box.append(
      el(
        'p',
        { class: 'diff-test' },
        `McNemar's exact test (lost ${formatCount(d.mcnemar.b)} against gained ${formatCount(d.mcnemar.c)}): ${pStatement(d.mcnemar.p)}.`,
      ),
    );
  return box;
}

/** The Changed rows view of a comparison tab. */
export function changedRowsView(m: ChangedRowsModel, status: (text: string) => void): HTMLElement {
  const root = el('section', { class: 'changed-rows', 'aria-label': 'Changed rows' });
  const controls = el('div', { class: 'slice-controls diff-controls' });
  const runSelect = el('select', { class: 'diff-run', 'aria-label': 'Run B (compared with the baseline)' });
  for (const r of m.runs) runSelect.append(el('option', { value: r.run }, r.name));
  const metricSelect = el('select', { class: 'diff-metric', 'aria-label': 'Metric' });
  const fillMetrics = (keys: readonly string[], chosen: string | undefined): void => {
    metricSelect.replaceChildren(
      ...keys.map((k) => el('option', { value: k, ...(k === chosen ? { selected: true } : {}) }, k)),
    );
  };
  fillMetrics(m.metrics, m.metrics[0]);
  const whereInput = el('input', {
    type: 'text',
    class: 'diff-where',
    'aria-label': "Filter on the baseline's rows, e.g. label=3 and confidence>=0.9",
    placeholder: 'label=3 and confidence>=0.9',
    spellcheck: 'false',
  });
  const apply = el('vscode-button', { secondary: true, 'data-act': 'diff-apply' }, 'Apply');
  controls.append(
    el('span', {}, `A = ${m.baseline.name} (baseline)`),
    m.runs.length > 1 ? el('label', {}, 'B = ', runSelect) : el('span', {}, `B = ${m.runs[0]?.name ?? ''}`),
    el('label', {}, 'Metric ', metricSelect),
    el('label', { class: 'diff-where-label' }, 'Where ', whereInput),
    apply,
  );
  const message = el('div', { class: 'rows-message', role: 'status', 'aria-live': 'polite' });
  const body = el('div', { class: 'diff-body' });
  root.append(controls, message, body);

  let requestNo = 0;
  let limit = FIRST_ROWS;
  let where: FilterTerm[] = [];
  let shown: RowDiff | undefined;
  const run = (): string => (m.runs.length > 1 ? runSelect.value : (m.runs[0]?.run ?? ''));

  const load = async (focusGrid = false): Promise<void> => {
    const no = ++requestNo;
    const metric = metricSelect.value || undefined;
    message.textContent = 'Computing the changed rows…';
    root.setAttribute('aria-busy', 'true');
    const answer = await ask((seq) => ({
      type: 'diffRows',
      seq,
      query: { run: run(), ...(metric ? { metric } : {}), where, limit },
    }));
    // A newer request was made meanwhile: its answer is the one to show.
    if (no !== requestNo) return;
    root.setAttribute('aria-busy', 'false');
    if (answer.type !== 'diff') {
      message.textContent =
        answer.type === 'reply'
          ? (answer.message ?? 'The changed rows could not be computed.')
          : 'The changed rows could not be computed.';
      body.replaceChildren();
      return;
    }
    const d = answer.diff;
    shown = d;
    fillMetrics(d.metrics, d.metric);
    message.textContent = '';
    render(d, focusGrid);
  };

  const openRow = (r: DiffRow): void => {
    vscode.postMessage({ type: 'openLines', run: run(), lineA: r.lineA, lineB: r.lineB });
    status(`Opening line ${r.lineA} of A and line ${r.lineB} of B side by side…`);
  };

  const render = (d: RowDiff, focusGrid: boolean): void => {
    const cols = columns(d);
    const grid = el('table', {
      class: 'rows-grid diff-grid',
      role: 'grid',
      'aria-label': `Rows whose ${d.metric} changed, worst for B first`,
      'aria-rowcount': String(d.rows.length + 1),
    });
    const head = el(
      'tr',
      { role: 'row' },
      el('th', { role: 'columnheader', scope: 'col' }, el('span', { class: 'sr-only' }, d.rowAddressed ? '' : 'open')),
      ...cols.map((c) => el('th', { role: 'columnheader', scope: 'col', class: c.num ? 'num' : '' }, c.title)),
    );
    const tbody = el('tbody');
    d.rows.forEach((r, i) => {
      const tr = el('tr', {
        role: 'row',
        class: 'diff-row',
        tabindex: i === 0 ? '0' : '-1',
        'data-line-a': String(r.lineA),
        'data-line-b': String(r.lineB),
        'aria-rowindex': String(i + 2),
        ...(d.rowAddressed ? {} : { title: 'Enter (or Open) shows this row in both files side by side' }),
      });
      let open: HTMLElement | string = d.rowAddressed ? `row ${r.lineA - 1}` : '';
      if (!d.rowAddressed) {
        open = el(
          'button',
          {
            type: 'button',
            class: 'open-line',
            tabindex: '-1',
            'aria-label': `Open line ${r.lineA} of A and line ${r.lineB} of B side by side`,
          },
          'Open',
        );
        open.addEventListener('click', (e) => {
          e.stopPropagation();
          openRow(r);
        });
      }
      tr.append(
        el('td', { role: 'gridcell' }, open),
        ...cols.map((c) => el('td', { role: 'gridcell', class: c.num ? 'num' : '' }, c.text(r))),
      );
      tbody.append(tr);
    });
    grid.append(el('thead', {}, head), tbody);
    // Keyboard: one tab stop (the focused row); arrows move between rows, Enter opens.
    grid.addEventListener('keydown', (e) => {
      const rows = [...tbody.querySelectorAll<HTMLElement>('tr.diff-row')];
      const i = rows.indexOf((e.target as HTMLElement).closest('tr') as HTMLElement);
      if (i < 0) return;
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        if (!d.rowAddressed) openRow(d.rows[i]!);
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
      rows[i]!.tabIndex = -1;
      rows[next]!.tabIndex = 0;
      rows[next]!.focus();
    });
    const parts: HTMLElement[] = [summary(d), el('div', { class: 'scroll-x' }, grid)];
    if (d.rows.length === 0) parts.push(el('p', { class: 'note' }, 'No row changed.'));
    if (d.rows.length < d.changed) {
      const more = el(
        'vscode-button',
        { secondary: true, 'data-act': 'diff-more', ...(limit >= MAX_DIFF_ROWS ? { disabled: true } : {}) },
        'Show more',
      );
      more.addEventListener('click', () => {
        limit = Math.min(MAX_DIFF_ROWS, limit * 2);
        void load();
      });
      parts.push(
        el(
          'div',
          { class: 'pager' },
          el(
            'span',
            { class: 'page-info' },
            `the ${formatCount(d.rows.length)} worst for B of ${formatCount(d.changed)}`,
          ),
          more,
        ),
      );
    }
    parts.push(
      el(
        'p',
        { class: 'note' },
        `A row's contribution is its change divided by the ${formatCount(d.n)} matched rows, so the contributions add up to Δ. ${d.rowAddressed ? 'The runs are Parquet or .npz files: their rows have numbers, not lines to open.' : 'Open shows the row in both prediction files side by side, each line selected.'}`,
      ),
    );
    body.replaceChildren(...parts);
    if (focusGrid) tbody.querySelector<HTMLElement>('tr.diff-row')?.focus();
  };

  const applyWhere = (): void => {
    const text = whereInput.value.trim();
    try {
      where = text === '' ? [] : parseWhere(text);
    } catch (err) {
      message.textContent =
        err instanceof WhereSyntaxError ? err.message : `The filter could not be read: ${(err as Error).message}`;
      return;
    }
    limit = FIRST_ROWS;
    void load();
  };
  whereInput.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      applyWhere();
    }
  });
  apply.addEventListener('click', applyWhere);
  runSelect.addEventListener('change', () => {
    limit = FIRST_ROWS;
    void load();
  });
  metricSelect.addEventListener('change', () => {
    limit = FIRST_ROWS;
    void load();
  });
  // Computed the first time the tab is shown (a hidden tab panel does not intersect).
  const seen = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting) || shown !== undefined || requestNo > 0) return;
    seen.disconnect();
    void load();
  });
  seen.observe(root);
  return root;
}
