/**
 * Makes a rendered report a lens: chart points that stand for a set of rows open those rows in the
 * rows panel (click);
 * the classification tab gets a "Mistakes" view; a report of a subset shows its filter in the
 * header with a way back to the whole file; the Slices tab is filled. The targets come from the
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
import { RowsPanel } from './rows';
import { renderSlices } from './slices';
import { foundSlicesSection } from './foundSlices';
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

export class ReportLens {
  private readonly rows: RowsPanel;
  private model: ReportModel | undefined;

  constructor(
    private readonly app: HTMLElement,
    private readonly status: (text: string) => void,
  ) {
    this.rows = new RowsPanel(() => vscode.postMessage({ type: 'command', command: 'reevaluate' }));
    app.addEventListener('click', (e) => this.onClick(e));
    app.addEventListener('mousemove', (e) => this.onHover(e));
  }

  private get inspect(): InspectModel | undefined {
    return this.model?.inspect;
  }

  /** Wires a freshly rendered report. */
  attach(model: ReportModel): void {
    this.model = model;
    this.rows.close();
    const insp = model.inspect;
    const compareSlices = model.compareSlices;
    const slicesTab = this.app.querySelector<HTMLElement>('vscode-tab-panel[data-tab="slices"]');
    if (compareSlices && slicesTab)
      slicesTab.replaceChildren(foundSlicesSection({ status: this.status, compare: compareSlices }));
    if (!insp) return;
    this.subsetBar(insp);
    this.mistakesButton(insp);
    const slicesPanel = this.app.querySelector<HTMLElement>('vscode-tab-panel[data-tab="slices"]');
    if (slicesPanel)
      renderSlices(slicesPanel, model, insp, this.status, (spec, anchor, origin) => this.open(spec, anchor, origin));
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

  private subsetBar(insp: InspectModel): void {
    const sub = insp.subset;
    const header = this.app.querySelector('.report-header');
    if (!sub || !header) return;
    const clear = el(
      'vscode-button',
      { 'data-act': 'clear-subset', title: 'Show the report of the whole file again' },
      'Show whole file',
    );
    clear.addEventListener('click', async () => {
      const r = await request((seq) => ({ type: 'evaluateSubset', seq, where: [] }));
      if (!r.ok) this.status(r.message ?? 'Could not show the whole file.');
    });
    header.append(
      el(
        'div',
        { class: 'subset-bar', role: 'note', 'data-subset': sub.where.map(formatTerm).join(' and ') },
        el('span', { class: 'subset-label' }, `Subset of ${formatCount(sub.rows)} rows:`),
        ...sub.where.map((t) => el('span', { class: 'chip' }, formatTerm(t))),
        clear,
        el('span', { class: 'note', 'data-note': 'subset-intervals' }, SUBSET_INTERVALS_NOTE),
      ),
    );
  }

  private mistakesButton(insp: InspectModel): void {
    const spec = insp.drill.mistakes;
    const panel = this.app.querySelector<HTMLElement>('vscode-tab-panel[data-tab="classification"]');
    if (!spec || !panel) return;
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
    button.addEventListener('click', () => this.open(spec, bar, button));
    panel.prepend(bar);
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
    return spec ? { spec, anchor: fig } : undefined;
  }

  private onClick(e: MouseEvent): void {
    const hit = this.specAt(e.target as HTMLElement, e);
    if (!hit) return;
    this.open(hit.spec, hit.anchor, (e.target as HTMLElement).closest<HTMLElement>('[tabindex]') ?? undefined);
  }

  private onHover(e: MouseEvent): void {
    const t = e.target;
    if (!(t instanceof HTMLCanvasElement)) return;
    t.classList.toggle('pointing', this.specAt(t, e) !== undefined);
  }
}
