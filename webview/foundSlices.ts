/**
 * The slice finder in the panel: "Find weak slices" in a report's Slices tab (the slices whose
 * accuracy is significantly below the whole file) and "Where B loses" in a comparison's Slices tab
 * (the slices where run B is significantly below the baseline). The host runs the finder in its
 * inspection worker; this renders the answer (text only) as a table whose rows open the slice's
 * rows (one run: click or Enter).
 */
import type { DrillSpec } from '../src/shared/drillSpec';
import { foundSlicesView } from '../src/shared/foundSlicesView';
import { el } from './dom';
import { ask } from './vscodeApi';

export interface FoundSlicesOptions {
  status(text: string): void;
  /** One run: lists the rows of a found slice under `anchor` (the rows panel). */
  openRows?: (spec: DrillSpec, anchor: HTMLElement, origin: HTMLElement) => void;
  /** A comparison: its baseline and the other runs, one of which is B. */
  compare?: { baseline: string; runs: { id: string; name: string }[] };
}

/** Max slices listed by default, as `--max-slices`. */
const DEFAULT_LIMIT = 20;

/** The section: its inputs, its button, and the found slices once asked for. */
export function foundSlicesSection(opts: FoundSlicesOptions): HTMLElement {
  const two = opts.compare !== undefined;
  const section = el('section', { class: 'found-slices', 'data-state': 'idle' });
  const minInput = el('input', {
    type: 'number',
    min: '1',
    step: '1',
    placeholder: 'default',
    title: 'Empty: the larger of 30 and 1% of the rows',
    class: 'found-min-support',
    'aria-label': 'Minimum support: rows a slice needs to be tried (empty: the larger of 30 and 1% of the rows)',
  });
  const limitInput = el('input', {
    type: 'number',
    min: '0',
    max: '1000',
    step: '1',
    value: String(DEFAULT_LIMIT),
    class: 'found-limit',
    'aria-label': 'Slices listed at most',
  });
  const controls = el(
    'div',
    { class: 'found-slices-controls' },
    el('label', {}, 'Min support ', minInput),
    el('label', {}, 'Max slices ', limitInput),
  );
  let runSelect: HTMLSelectElement | undefined;
  if (opts.compare) {
    runSelect = el('select', { class: 'found-run', 'aria-label': 'Run B (compared with the baseline A)' });
    for (const r of opts.compare.runs) runSelect.append(el('option', { value: r.id }, r.name));
    controls.prepend(el('label', {}, `B (against the baseline ${opts.compare.baseline}) `, runSelect));
  }
  const go = el('vscode-button', { 'data-act': 'find-slices' }, two ? 'Find where B loses' : 'Find weak slices');
  controls.append(go);
  const out = el('div', { class: 'found-slices-out', 'aria-live': 'polite' });
  section.append(
    el('h3', {}, two ? 'Where B loses' : 'Weak slices'),
    el(
      'p',
      { class: 'note' },
      two
        ? 'The slices (one value or bin of a column, or a pair of them) where B’s accuracy is significantly below A’s on the same rows.'
        : 'The slices (one value or bin of a column, or a pair of them) whose accuracy is significantly below the whole file.',
    ),
    controls,
    out,
  );

  const wholeNumber = (input: HTMLInputElement, min: number, max: number): number | undefined | null => {
    const text = input.value.trim();
    if (text === '') return undefined;
    const n = Number(text);
    return Number.isInteger(n) && n >= min && n <= max ? n : null;
  };

  go.addEventListener('click', async () => {
    if (section.dataset.state === 'running') return;
    const minSupport = wholeNumber(minInput, 1, Number.MAX_SAFE_INTEGER);
    const limit = wholeNumber(limitInput, 0, 1000);
    if (minSupport === null || limit === null) {
      out.replaceChildren(
        el(
          'p',
          { class: 'error' },
          minSupport === null
            ? 'Min support expects a whole number ≥ 1 (or empty for the default).'
            : 'Max slices expects a whole number from 0 to 1000.',
        ),
      );
      return;
    }
    section.dataset.state = 'running';
    go.setAttribute('disabled', '');
    out.replaceChildren(el('p', { class: 'note' }, 'Finding slices…'));
    opts.status('Finding slices…');
    const a = await ask((seq) => ({
      type: 'findSlices',
      seq,
      ...(minSupport !== undefined ? { minSupport } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(runSelect ? { run: runSelect.value } : {}),
    }));
    go.removeAttribute('disabled');
    if (a.type !== 'foundSlices') {
      section.dataset.state = 'error';
      const message = a.type === 'reply' ? (a.message ?? 'The slice finder failed.') : 'The slice finder failed.';
      out.replaceChildren(el('p', { class: 'error', role: 'alert' }, message));
      opts.status('');
      return;
    }
    const v = foundSlicesView(a.result);
    const note = el('p', { class: 'note found-slices-note' }, v.note);
    if (v.empty) {
      out.replaceChildren(note, el('p', { class: 'found-slices-empty' }, v.empty));
    } else {
      const table = el('table', { class: 'plain found-slices-table' });
      table.append(
        el(
          'thead',
          {},
          el('tr', {}, ...v.columns.map((c, j) => el('th', { scope: 'col', class: j === 0 ? '' : 'num' }, c))),
        ),
      );
      const tb = el('tbody');
      for (const line of v.lines) {
        const tr = el('tr', {
          class: `found-slice${line.significant ? ' significant' : ''}${opts.openRows ? ' drillable' : ''}`,
          'data-slice': line.name,
          ...(opts.openRows
            ? { tabindex: '0', 'aria-description': 'Press Enter (or click) to list the rows of this slice.' }
            : {}),
        });
        tr.append(el('th', { scope: 'row' }, line.name), ...line.cells.map((c) => el('td', { class: 'num' }, c)));
        if (opts.openRows) {
          const open = (): void => opts.openRows!({ title: `Slice ${line.name}`, where: line.where }, section, tr);
          tr.addEventListener('click', open);
          tr.addEventListener('keydown', (e) => {
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault();
              open();
            }
          });
        }
        tb.append(tr);
      }
      table.append(tb);
      out.replaceChildren(
        note,
        el('div', { class: 'scroll-x' }, table),
        ...(opts.openRows ? [el('p', { class: 'note' }, 'Choose a slice (click or Enter) to list its rows.')] : []),
      );
    }
    section.dataset.state = 'done';
    section.dataset.found = String(v.lines.length);
    opts.status('');
  });
  return section;
}
