/**
 * Makes a rendered report a lens: chart points that stand for a set of rows open those rows in the
 * rows panel (click). The report (report.ts) draws with it the classification tab's "Mistakes"
 * button (`mistakesBar`) and, for a report of a subset, its filter in the header with a way back
 * to the whole file (`subsetBar`). The targets come from the
 * host (`model.inspect.drill`); nothing here reads files or computes metrics. Metric cards, tables,
 * the confusion matrix, the Slices tab and the slice finder declare and open their own targets
 * (webview/drill.ts); this class opens the rows panel for them (`open`).
 */
import { Chart } from 'chart.js';
import type { DrillSpec } from '../src/shared/drillTargets';
import { SUBSET_INTERVALS_NOTE, type InspectModel } from '../src/shared/inspectModel';
import type { ReportModel } from '../src/shared/model';
import { formatCount } from '../src/shared/format';
import { el } from './dom';
import { formatTerm } from '../src/core/rows/where';
import type { OpenRows } from './drill';
import { rowsPanel, type RowsElement } from './rows';
import { request, vscode } from './vscodeApi';

/** The drill-down behind a point of a chart.js chart under a mouse event. */
function chartPoint(canvas: HTMLCanvasElement, e: MouseEvent, points: (DrillSpec | null)[][]): DrillSpec | undefined {
  const chart = Chart.getChart(canvas);
  if (!chart) return undefined;
  const category = (chart.options.scales?.x as { type?: string } | undefined)?.type === 'category';
  const hits = chart.getElementsAtEventForMode(
    e,
    category ? 'index' : 'nearest',
    { intersect: false, axis: 'x' },
    false,
  );
  for (const h of hits) {
    const spec = points[h.datasetIndex]?.[h.index];
    if (spec) return spec;
  }
  return undefined;
}

/** A report of a subset of the file: its filter, and a way back to the whole file (in the header). */
export function subsetBar(sub: NonNullable<InspectModel['subset']>, status: (text: string) => void): HTMLElement {
  const clear = el(
    'vscode-button',
    { 'data-act': 'clear-subset', title: 'Show the report of the whole file again' },
    'Show whole file',
  );
  clear.addEventListener('click', async () => {
    const r = await request((seq) => ({ type: 'evaluateSubset', seq, where: [] }));
    if (!r.ok) status(r.message ?? 'Could not show the whole file.');
  });
  return el(
    'div',
    { class: 'subset-bar', role: 'note', 'data-subset': sub.where.map(formatTerm).join(' and ') },
    el('span', { class: 'subset-label' }, `Subset of ${formatCount(sub.rows)} rows:`),
    ...sub.where.map((t) => el('span', { class: 'chip' }, formatTerm(t))),
    clear,
    el('span', { class: 'note', 'data-note': 'subset-intervals' }, SUBSET_INTERVALS_NOTE),
  );
}

/** The classification tab's "Mistakes" button (the wrong rows, most confident first) with the lens's hint. */
export function mistakesBar(spec: DrillSpec, open: OpenRows): HTMLElement {
  const button = el(
    'vscode-button',
    { 'data-act': 'mistakes', title: 'List the rows the model got wrong, most confident first' },
    'Mistakes',
  );
  const bar = el(
    'div',
    { class: 'inspect-bar' },
    button,
    el(
      'span',
      { class: 'note' },
      "Click a bar, a cell, a point or a card to list the rows behind it. Keyboard: Enter on a card, or on a row of a chart's table (Enter on a chart shows its table).",
    ),
  );
  button.addEventListener('click', () => open(spec, bar, button));
  return bar;
}

export class ReportLens {
  private readonly rows: RowsElement;
  private model: ReportModel | undefined;
  private readonly onClick = (e: MouseEvent): void => {
    const hit = this.specAt(e.target as HTMLElement, e);
    if (!hit) return;
    this.open(hit.spec, hit.anchor, (e.target as HTMLElement).closest<HTMLElement>('[tabindex]') ?? undefined);
  };
  private readonly onHover = (e: MouseEvent): void => {
    const t = e.target;
    if (!(t instanceof HTMLCanvasElement)) return;
    t.classList.toggle('pointing', this.specAt(t, e) !== undefined);
  };

  constructor(private readonly app: HTMLElement) {
    this.rows = rowsPanel({ reevaluate: () => vscode.postMessage({ type: 'command', command: 'reevaluate' }) });
    app.addEventListener('click', this.onClick);
    app.addEventListener('mousemove', this.onHover);
  }

  /** Stops listening to the report's clicks. */
  dispose(): void {
    this.rows.close();
    this.app.removeEventListener('click', this.onClick);
    this.app.removeEventListener('mousemove', this.onHover);
  }

  private get inspect(): InspectModel | undefined {
    return this.model?.inspect;
  }

  /**
   * The report shown is now `model`; the rows panel stays open only when `keepRows` (the same
   * file's rows, filtered the same way) and its place is still in the document ({@link settle}).
   */
  attach(model: ReportModel | undefined, keepRows: boolean): void {
    this.model = model;
    if (!keepRows) this.rows.close();
  }

  /** Closes the rows panel if what it was opened under was drawn anew (it left the document). */
  settle(): void {
    if (this.rows.isOpen && !this.rows.isConnected) this.rows.close();
  }

  /**
   * "Open the report at `acc_few`" (tree, CodeLens) also lists the rows behind it when the metric
   * stands for a set of rows (few-shot rows, a group's rows, the mistakes).
   */
  drillTo(target: string): void {
    const spec = this.inspect?.drill.cards[target];
    if (!spec) return;
    requestAnimationFrame(() => {
      const card = [...this.app.querySelectorAll<HTMLElement>('.card[data-metric]')].find(
        (c) => c.dataset.metric === target && c.offsetParent !== null,
      );
      const anchor = card?.closest<HTMLElement>('section.cards') ?? this.app.querySelector<HTMLElement>('vscode-tabs');
      if (anchor) this.open(spec, anchor, card);
    });
  }

  /** Opens the rows of `spec` under `anchor` (the figure, table or cards that hold the number). */
  open(spec: DrillSpec, anchor: HTMLElement, origin?: HTMLElement): void {
    this.rows.open(spec, anchor, origin);
  }

  /**
   * The spec and anchor of a click on `target`, if it is a chart point that stands for rows (cards,
   * tables and the confusion matrix open their own targets; the keyboard reaches a chart's points
   * through its table).
   */
  private specAt(target: HTMLElement, e: MouseEvent): { spec: DrillSpec; anchor: HTMLElement } | undefined {
    const insp = this.inspect;
    if (!insp || !(target instanceof HTMLCanvasElement)) return undefined;
    const fig = target.closest<HTMLElement>('figure.chart');
    const points = fig ? insp.drill.charts[fig.dataset.chart!]?.points : undefined;
    if (!fig || !points) return undefined;
    const spec = chartPoint(target, e, points);
    // The rows panel opens after the figure component, outside what it draws.
    return spec ? { spec, anchor: fig.closest<HTMLElement>('eval-figure') ?? fig } : undefined;
  }
}
