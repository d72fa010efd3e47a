/**
 * The report's two bars about rows (report.ts draws them as parts): the classification tab's
 * "Mistakes" button with the lens's hint (`mistakesBar`: the wrong rows, most confident first, a
 * drill-down target it declares), and, for a report of a subset, its filter in the header with a
 * way back to the whole file (`subsetBar`). The rows come from the host (`model.inspect.drill`);
 * nothing here reads files or computes metrics. Every other drill-down target is declared by the
 * component that draws it (webview/drill.ts), and the report's rows panel lists their rows.
 */
import type { DrillSpec } from '../src/shared/drillTargets';
import { SUBSET_INTERVALS_NOTE, type InspectModel } from '../src/shared/inspectModel';
import { formatCount } from '../src/shared/format';
import { el } from './dom';
import { formatTerm } from '../src/core/rows/where';
import type { DrillSource, OpenRows } from './drill';
import { request } from './vscodeApi';

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

/**
 * The classification tab's "Mistakes" button (the wrong rows, most confident first) with the lens's
 * hint; the button is the bar's drill-down target, its rows opened under the bar.
 */
export function mistakesBar(spec: DrillSpec, open: OpenRows): HTMLElement & DrillSource {
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
  return Object.assign(bar, { drillTargets: [{ element: button, spec, anchor: bar }] });
}
