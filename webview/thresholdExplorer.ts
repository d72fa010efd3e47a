/**
 * The threshold explorer: a slider and a number box over the score threshold or the coverage,
 * a readout of the operating point, and "Use this operating point". Every value shown is read from
 * a stored exact point of the results' curves ({@link OperatingPointModel}); moving the slider picks
 * a point, it never interpolates and never computes a metric. The current point is marked on the
 * risk–coverage, reliability or PR chart.
 */
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { Chart } from 'chart.js';
import { extent } from '../src/shared/extent';
import { formatCount, formatNumber } from '../src/shared/format';
import type { ChartModel, RefLine } from '../src/shared/model';
import { pointAtThreshold, type OperatingPointModel } from '../src/shared/operatingPoint';
import { el } from './dom';
import { request } from './vscodeApi';

export interface ExplorerHost {
  /** Every chart model of the report (markers are added to their `lines`). */
  charts: ChartModel[];
  status(text: string): void;
  /** A remembered value of this report's explorer (mode, threshold), kept across reloads. */
  recall(key: string): string | undefined;
  remember(key: string, value: string): void;
}

type Mode = 'threshold' | 'coverage';

/** Thresholds are scores: 6 significant digits tell neighbouring points apart. */
export function formatThreshold(t: number): string {
  return Number.isFinite(t) ? String(Number(t.toPrecision(6))) : '—';
}

/** Index of the first point whose coverage reaches `c` (as `targetCoverage` chooses); the last when none. */
function pointAtCoverage(coverage: readonly number[], c: number): number {
  const goal = c * (1 - 1e-12);
  const i = coverage.findIndex((x) => x >= goal);
  return i < 0 ? coverage.length - 1 : i;
}

export function thresholdExplorer(m: OperatingPointModel, host: ExplorerHost): HTMLElement {
  const n = m.threshold.length;
  const hasCoverage = m.coverage !== undefined && m.keys.coverage !== undefined;
  let mode: Mode = hasCoverage && host.recall('explorer.mode') === 'coverage' ? 'coverage' : 'threshold';
  const remembered = Number(host.recall('explorer.threshold'));
  let index =
    Number.isFinite(remembered) && host.recall('explorer.threshold') !== undefined
      ? Math.max(0, pointAtThreshold(m.threshold, remembered))
      : m.current >= 0
        ? m.current
        : n - 1;

  const section = el('section', {
    class: 'explorer',
    'aria-labelledby': `explorer-title-${m.family}`,
    'data-explorer': m.family,
  });
  const title = el('h3', { id: `explorer-title-${m.family}` }, 'Threshold explorer');
  const slider = el('input', { type: 'range', class: 'explorer-slider', step: 'any' });
  // a text field: the number type's step check would mark every score as invalid
  const box = el('vscode-textfield', { class: 'explorer-value', inputmode: 'decimal' }) as HTMLElement & {
    value: string;
  };
  const boxLabel = el('label', { class: 'explorer-box-label' });
  const modes = el('div', { class: 'explorer-modes', role: 'radiogroup', 'aria-label': 'Move the operating point by' });
  const modeButtons = new Map<Mode, HTMLElement>();
  const modeList: Mode[] = hasCoverage ? ['threshold', 'coverage'] : ['threshold'];
  for (const md of modeList) {
    const b = el(
      'button',
      { type: 'button', role: 'radio', class: 'explorer-mode', 'data-mode': md },
      md === 'threshold' ? 'Score threshold' : 'Coverage',
    );
    b.addEventListener('click', () => setMode(md));
    b.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft' && e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
      e.preventDefault();
      const next =
        modeList[
          (modeList.indexOf(md) + (e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : modeList.length - 1)) %
            modeList.length
        ]!;
      setMode(next);
      modeButtons.get(next)?.focus();
    });
    modeButtons.set(md, b);
    modes.append(b);
  }
  const use = el(
    'vscode-button',
    { class: 'explorer-use', title: 'Write this point into eval-lens.json and evaluate again' },
    'Use this operating point',
  );
  const back = el(
    'vscode-button',
    { secondary: true, class: 'explorer-back', title: 'Go back to the operating point of the evaluation' },
    'Evaluated point',
  );
  const readout = el('dl', { class: 'explorer-readout', 'aria-live': 'polite' });
  const cells = new Map<string, HTMLElement>();
  const row = (key: string, label: string): void => {
    const dd = el('dd', { 'data-key': key });
    cells.set(key, dd);
    readout.append(el('dt', {}, label), dd);
  };
  row('threshold', m.family === 'importance' ? 'threshold (positive when score ≥ t)' : 'threshold (accept score ≥ t)');
  for (const c of m.columns) row(c.key, c.label);
  const where = el('p', { class: 'note explorer-where' });

  const bounds = (): [number, number] => {
    const xs = mode === 'coverage' ? m.coverage! : m.threshold;
    return extent(xs);
  };
  const valueOf = (i: number): number => (mode === 'coverage' ? m.coverage![i]! : m.threshold[i]!);
  /** The point a typed or dragged value selects, by the rule the config key would apply. */
  const pointFor = (v: number): number =>
    mode === 'coverage' ? pointAtCoverage(m.coverage!, v) : Math.max(0, pointAtThreshold(m.threshold, v));

  const markerLines = new Map<string, RefLine>();
  const mark = (): void => {
    for (const mk of m.markers) {
      const chart = host.charts.find((c) => c.id === mk.chart);
      const x = mk.x[index];
      if (!chart) continue;
      const old = markerLines.get(mk.chart);
      chart.lines = (chart.lines ?? []).filter((l) => l !== old);
      if (typeof x === 'number' && Number.isFinite(x)) {
        const line: RefLine = {
          axis: 'x',
          value: x,
          label: `${mk.label} ${mk.label === 'accept ≥' ? formatThreshold(x) : formatNumber(x)}`,
          colour: 'purple',
        };
        chart.lines.push(line);
        markerLines.set(mk.chart, line);
      }
      const canvas = document.querySelector<HTMLCanvasElement>(`#chart-${CSS.escape(mk.chart)} canvas`);
      if (canvas) Chart.getChart(canvas)?.draw();
    }
  };

  const show = (i: number, from: 'slider' | 'box' | 'other'): void => {
    index = Math.min(n - 1, Math.max(0, i));
    const t = m.threshold[index]!;
    const cellT = cells.get('threshold')!;
    cellT.textContent = formatThreshold(t);
    cellT.dataset.value = String(t);
    for (const c of m.columns) {
      const v = c.values[index] ?? null;
      const cell = cells.get(c.key)!;
      cell.textContent = v === null ? '—' : c.kind === 'int' ? formatCount(v) : formatNumber(v, c.key);
      cell.dataset.value = v === null ? 'null' : String(v);
    }
    section.dataset.index = String(index);
    const v = valueOf(index);
    if (from !== 'slider') slider.value = String(v);
    if (from !== 'box') box.value = mode === 'coverage' ? String(Number(v.toPrecision(6))) : formatThreshold(v);
    slider.setAttribute(
      'aria-valuetext',
      `${mode === 'coverage' ? 'coverage' : 'threshold'} ${mode === 'coverage' ? formatNumber(v) : formatThreshold(v)}, point ${index + 1} of ${n}`,
    );
    host.remember('explorer.threshold', String(t));
    mark();
  };

  function setMode(md: Mode): void {
    mode = md;
    host.remember('explorer.mode', md);
    for (const [k, b] of modeButtons) {
      b.setAttribute('aria-checked', String(k === md));
      b.tabIndex = k === md ? 0 : -1;
    }
    const [lo, hi] = bounds();
    slider.min = String(lo);
    slider.max = String(hi);
    const what = md === 'coverage' ? 'Coverage' : 'Score threshold';
    slider.setAttribute('aria-label', `${what}: the operating point`);
    box.setAttribute('aria-label', `${what} (type a value and press Enter)`);
    boxLabel.textContent = md === 'coverage' ? 'coverage' : 'threshold';
    use.title = `Write ${md === 'coverage' ? m.keys.coverage : m.keys.threshold} into the config and evaluate again`;
    show(index, 'other');
  }

  slider.addEventListener('input', () => {
    const i = pointFor(slider.valueAsNumber);
    show(i, 'other');
  });
  // One keystroke = one exact point (the native step would jump by a fraction of the range).
  slider.addEventListener('keydown', (e) => {
    const up = mode === 'coverage' ? 1 : -1; // direction of the index when the value grows
    const page = Math.max(1, Math.round(n / 20));
    const moves: Record<string, number> = {
      ArrowRight: up,
      ArrowUp: up,
      ArrowLeft: -up,
      ArrowDown: -up,
      PageUp: up * page,
      PageDown: -up * page,
    };
    if (e.key in moves) {
      e.preventDefault();
      show(index + moves[e.key]!, 'other');
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      const lowest = mode === 'coverage' ? 0 : n - 1;
      show(e.key === 'Home' ? lowest : n - 1 - lowest, 'other');
    }
  });
  const fromBox = (): void => {
    const v = Number(box.value);
    if (box.value.trim() === '' || !Number.isFinite(v)) {
      host.status(`Type a number for the ${mode === 'coverage' ? 'coverage' : 'threshold'}.`);
      return;
    }
    const i = pointFor(v);
    show(i, 'other');
    const got = valueOf(i);
    if (got !== v)
      host.status(
        `No stored point at ${v}: the nearest exact point by the rule of ${mode === 'coverage' ? m.keys.coverage : m.keys.threshold} is ${mode === 'coverage' ? formatNumber(got) : formatThreshold(got)}.`,
      );
  };
  box.addEventListener('change', fromBox);
  box.addEventListener('keydown', (e) => {
    if ((e as KeyboardEvent).key === 'Enter') fromBox();
  });
  back.addEventListener('click', () => show(m.current, 'other'));
  use.addEventListener('click', async () => {
    const key = mode === 'coverage' ? m.keys.coverage! : m.keys.threshold;
    const value = mode === 'coverage' ? m.coverage![index]! : m.threshold[index]!;
    use.setAttribute('disabled', '');
    host.status(`Writing ${key} ${value} and evaluating again…`);
    try {
      const r = await request((seq) => ({ type: 'useOperatingPoint', seq, key, value }));
      host.status(r.message ?? (r.ok ? 'Done.' : 'Not written.'));
    } finally {
      use.removeAttribute('disabled');
    }
  });
  if (m.locked) {
    use.setAttribute('disabled', '');
    use.title = m.locked;
  }

  const stored =
    m.stored < m.total
      ? `The slider snaps to ${formatCount(m.stored)} exact points stored in the results (of ${formatCount(m.total)}, one per distinct score); values are never interpolated.`
      : `Every one of the ${formatCount(m.total)} exact points (one per distinct score) is stored; the slider snaps to them.`;
  where.textContent = `${stored} Arrow keys move one point, Page Up/Down a twentieth of them.`;
  section.append(
    el('div', { class: 'explorer-head' }, title),
    el(
      'div',
      { class: 'explorer-controls' },
      modeList.length > 1 ? modes : null,
      slider,
      el('div', { class: 'explorer-box' }, boxLabel, box),
      use,
      m.current >= 0 ? back : null,
    ),
    readout,
    where,
    ...(m.locked ? [el('p', { class: 'note' }, m.locked)] : []),
    ...m.notes.map((t) => el('p', { class: 'note' }, t)),
  );
  setMode(mode);
  return section;
}
