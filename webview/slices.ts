/**
 * The Slices tab: each slice's headline metric with its interval and its difference to the whole
 * file, as a sortable table (worst slices first, slices below the minimum size left out) and a
 * bar chart with intervals. From the results' own slice table, or, when the evaluation did not
 * slice, from a picker of the file's candidate columns (the host computes the table on demand).
 * Choosing a slice (click or Enter) shows the report of that slice's rows.
 */
import { Chart } from 'chart.js';
import type { InspectModel, SliceRow, SliceTable } from '../src/shared/inspectModel';
import { SLICE_INTERVALS_NOTE, worstFirst } from '../src/shared/inspectModel';
import type { ChartModel, ReportModel } from '../src/shared/model';
import { formatCi, formatCount, formatNumber } from '../src/shared/format';
import { drawChart, type Drawn } from './charts';
import type { DrillSpec } from '../src/shared/drillSpec';
import { foundSlicesSection } from './foundSlices';
import { el } from './dom';
import { formatTerm } from '../src/core/inspect/where';
import { readTheme } from './theme';
import { ask, request } from './vscodeApi';

type SortKey = 'metric' | 'n' | 'diff' | 'name';

interface View {
  table: SliceTable;
  metric: string;
  minSize: number;
  sort: { key: SortKey; dir: 1 | -1 } | undefined;
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

/** Redraws the shown slices chart (set by the latest render). */
let redrawShown: (() => void) | undefined;
// VS Code switches the body's theme class; the chart's colours are read again.
new MutationObserver(() => redrawShown?.()).observe(document.body, { attributes: true, attributeFilter: ['class'] });

export function renderSlices(
  panel: HTMLElement,
  model: ReportModel,
  insp: InspectModel,
  status: (text: string) => void,
  openRows?: (spec: DrillSpec, anchor: HTMLElement, origin: HTMLElement) => void,
): void {
  let drawn: Drawn | undefined;
  redrawShown = undefined;
  const body = el('div', { class: 'slices-body' });
  // The slice finder works on right/wrong rows: classification and importance-weighted binary runs.
  panel.replaceChildren(...(insp.task === 'ranking' ? [] : [foundSlicesSection({ status, openRows })]), body);

  const choose = async (r: SliceRow): Promise<void> => {
    if (r.where.length === 0) {
      status(`The slice ${r.slice} = ${r.value} cannot be written as a filter.`);
      return;
    }
    status(`Evaluating the slice ${r.where.map(formatTerm).join(' and ')}…`);
    const res = await request((seq) => ({ type: 'evaluateSubset', seq, where: r.where }));
    status(res.message ?? (res.ok ? '' : 'The slice could not be evaluated.'));
  };

  // A ranking run's slices are sets of users; other runs' are sets of rows.
  const unit = insp.task === 'ranking' ? 'users' : 'rows';
  const show = (table: SliceTable, note?: string): void => {
    const headline = model.headline.map((c) => c.key).find((k) => table.metrics.some((m) => m.key === k));
    const v: View = {
      table,
      metric: headline ?? table.metrics[0]?.key ?? '',
      minSize: insp.minSliceSize,
      sort: undefined,
    };
    const controls = el('div', { class: 'slice-controls' });
    const metricSelect = el('select', { class: 'slice-metric', 'aria-label': 'Metric' });
    for (const m of table.metrics)
      metricSelect.append(el('option', { value: m.key, ...(m.key === v.metric ? { selected: true } : {}) }, m.key));
    const minInput = el('input', {
      type: 'number',
      min: '1',
      step: '1',
      value: String(v.minSize),
      class: 'slice-min',
      'aria-label': `Minimum slice size (${unit})`,
    });
    controls.append(el('label', {}, 'Metric ', metricSelect), el('label', {}, 'Minimum slice size ', minInput));
    const chartBox = el('div', { class: 'canvas-box' });
    const canvas = el('canvas', {
      tabindex: '-1',
      role: 'img',
      'aria-label': 'Slices chart; the table below holds the same values.',
    });
    chartBox.append(canvas);
    const tableBox = el('div', { class: 'slice-table-box' });
    const info = el('p', { class: 'note' });
    body.replaceChildren(
      controls,
      info,
      chartBox,
      tableBox,
      ...(note || table.note ? [el('p', { class: 'note' }, note ?? table.note!)] : []),
      el('p', { class: 'note', 'data-note': 'slice-intervals' }, SLICE_INTERVALS_NOTE),
    );

    const redraw = (): void => {
      const rows = sorted(v);
      const hidden = table.rows.length - rows.length;
      info.textContent = `${rows.length} slice${rows.length === 1 ? '' : 's'}${hidden > 0 ? ` (${hidden} smaller than ${formatCount(v.minSize)} ${unit} left out)` : ''}; ${v.sort ? 'sorted by the chosen column' : 'worst first'}. Choose a slice (click or Enter) to show the report of its ${unit}.`;
      const dir = table.metrics.find((m) => m.key === v.metric)?.direction ?? 'higher';
      const head = (label: string, key: SortKey, num: boolean): HTMLElement => {
        const active = v.sort?.key === key;
        const b = el(
          'button',
          { type: 'button', class: 'sort-button', 'data-sort': key, title: `Sort by ${label}` },
          label,
          el('span', { 'aria-hidden': 'true' }, active ? (v.sort!.dir === 1 ? ' ▲' : ' ▼') : ''),
        );
        b.addEventListener('click', () => {
          v.sort = active ? { key, dir: v.sort!.dir === 1 ? -1 : 1 } : { key, dir: key === 'n' ? -1 : 1 };
          redraw();
          (tableBox.querySelector(`button[data-sort="${key}"]`) as HTMLElement | null)?.focus();
        });
        return el(
          'th',
          {
            scope: 'col',
            class: num ? 'num' : '',
            'aria-sort': active ? (v.sort!.dir === 1 ? 'ascending' : 'descending') : 'none',
          },
          b,
        );
      };
      const t = el('table', { class: 'plain slice-table', 'data-metric': v.metric });
      t.append(
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            head('slice', 'name', false),
            el('th', { scope: 'col' }, 'value'),
            head(unit, 'n', true),
            head(`${v.metric} ${dir === 'higher' ? '↑' : '↓'}`, 'metric', true),
            el('th', { scope: 'col', class: 'num' }, 'interval'),
            head('Δ vs whole file', 'diff', true),
            el('th', { scope: 'col', class: 'num' }, 'Δ interval'),
          ),
        ),
      );
      const tb = el('tbody');
      for (const r of rows) {
        const c = r.metrics[v.metric];
        const tr = el('tr', {
          tabindex: '0',
          class: 'drillable slice-row',
          'data-slice': `${r.slice}=${r.value}`,
          'aria-description': 'Press Enter (or click) to show the report of this slice.',
        });
        tr.append(
          el('th', { scope: 'row' }, r.slice),
          el('td', {}, r.value),
          el('td', { class: 'num' }, formatCount(r.n)),
          el(
            'td',
            { class: 'num', 'data-value': c?.value === null || c?.value === undefined ? 'null' : String(c.value) },
            formatNumber(c?.value ?? null, v.metric),
          ),
          el('td', { class: 'num' }, c?.ci ? formatCi(c.ci, v.metric) : ''),
          el(
            'td',
            { class: 'num' },
            c?.diff === undefined || c.diff === null
              ? '—'
              : `${c.diff > 0 ? '+' : ''}${formatNumber(c.diff, v.metric)}`,
          ),
          el('td', { class: 'num' }, c?.diffCi ? formatCi(c.diffCi, v.metric) : ''),
        );
        tr.addEventListener('click', () => void choose(r));
        tr.addEventListener('keydown', (e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            void choose(r);
          }
        });
        tb.append(tr);
      }
      t.append(tb);
      tableBox.replaceChildren(el('div', { class: 'scroll-x' }, t));
      drawn?.destroy();
      drawn = undefined;
      if (rows.length > 0 && panel.offsetParent !== null) {
        try {
          drawn = drawChart(canvas, sliceChart(v, rows, wholeValue(model, v.metric)), readTheme());
        } catch (err) {
          console.error('Eval Lens slices chart:', err);
        }
      }
      canvas.onclick = (e): void => {
        const chart = Chart.getChart(canvas);
        const hit = chart?.getElementsAtEventForMode(e, 'index', { intersect: false, axis: 'x' }, false)[0];
        const r = hit ? rows[hit.index] : undefined;
        if (r) void choose(r);
      };
    };
    redrawShown = () => {
      if (drawn) redraw();
    };
    metricSelect.addEventListener('change', () => {
      v.metric = metricSelect.value;
      redraw();
    });
    minInput.addEventListener('change', () => {
      const n = Math.floor(Number(minInput.value));
      if (Number.isFinite(n) && n >= 1) v.minSize = n;
      redraw();
    });
    // The tab's canvas has no size until the tab is shown.
    new IntersectionObserver((entries) => {
      if (entries.some((x) => x.isIntersecting) && !drawn) redraw();
    }).observe(chartBox);
    redraw();
  };

  if (insp.slices && insp.slices.rows.length > 0) {
    show(insp.slices);
    return;
  }
  // No slices in the results: offer the file's candidate columns.
  const picker = el('div', { class: 'slice-picker' });
  body.append(
    el(
      'p',
      {},
      'This evaluation was not sliced. Choose a column to slice by: each of its values (a numeric column: quantile bins) gets its own metrics with intervals.',
    ),
    picker,
  );
  picker.append(el('p', { class: 'note' }, 'Looking for columns to slice by…'));
  // Asked only when the tab is shown: finding the candidates reads the whole file.
  const seen = new IntersectionObserver((entries) => {
    if (!entries.some((x) => x.isIntersecting)) return;
    seen.disconnect();
    void findCandidates();
  });
  seen.observe(picker);
  const findCandidates = (): Promise<void> =>
    ask((seq) => ({ type: 'sliceCandidates', seq })).then((a) => {
      if (a.type !== 'sliceCandidates') {
        picker.replaceChildren(
          el(
            'p',
            { class: 'error' },
            a.type === 'reply' ? (a.message ?? 'No slice candidates.') : 'No slice candidates.',
          ),
        );
        return;
      }
      if (a.candidates.length === 0) {
        picker.replaceChildren(
          el(
            'p',
            { class: 'note' },
            model.inspect?.task === 'ranking'
              ? 'This run has no per-user number to slice by (train interactions need a `train` file in the config).'
              : 'The file has no column besides the evaluated ones with at most 50 distinct values.',
          ),
        );
        return;
      }
      const select = el('select', { class: 'slice-column', 'aria-label': 'Column to slice by' });
      for (const c of a.candidates)
        select.append(
          el(
            'option',
            { value: c.column },
            `${c.column} (${c.numeric ? (c.binning ?? 'quantile bins') : `${formatCount(c.distinct ?? 0)} distinct values`})`,
          ),
        );
      const go = el('vscode-button', { 'data-act': 'compute-slices' }, 'Slice');
      go.addEventListener('click', async () => {
        go.setAttribute('disabled', '');
        status(`Slicing by ${select.value}…`);
        const r = await ask((seq) => ({ type: 'computeSlices', seq, by: [select.value] }));
        go.removeAttribute('disabled');
        if (r.type === 'slices') {
          status('');
          show(
            r.table,
            `Sliced by ${select.value} on demand (not stored in the results file; add "slices" to eval-lens.json to keep it).`,
          );
        } else status(r.type === 'reply' ? (r.message ?? 'Slicing failed.') : 'Slicing failed.');
      });
      picker.replaceChildren(el('label', {}, 'Column ', select), go);
    });
}
