/**
 * The confusion matrix as an HTML grid (not a canvas): every cell is sized to its text, labels
 * longer than the room are cut with an ellipsis and carry the full name in a tooltip, the axis
 * captions are table headers (never clipped), a select switches counts / shares of the true class
 * / shares of the predicted class, a colour legend explains the shading, and a list names the
 * largest confusions when there are many classes.
 *
 * Hooks for other modules (drill-down): every cell is a `td.cm-cell` with `data-true`,
 * `data-pred` (class names), `data-count`, `data-row`, `data-col` (indices in the shown grid);
 * every top-confusion entry is a `li.cm-top` button with `data-true` / `data-pred`. Enter or Space
 * on a focused cell or entry fires a normal `click` on it, so one click listener serves mouse and
 * keyboard. Arrow keys, Home/End and PageUp/PageDown move between cells (one tab stop).
 */
import { bestContrast, over } from '../src/shared/contrast';
import {
  CLASS_CHOICES,
  chooseClasses,
  CONFUSION_NORMS,
  confusionCellText,
  confusionSubset,
  isClassChoice,
  isConfusionNorm,
  legendTicks,
  normaliseConfusion,
  scaleMax,
  shade,
  widestCellText,
  withOther,
  type ClassChoice,
  type ConfusionNorm,
} from '../src/shared/confusionView';
import type { HeatmapModel } from '../src/shared/model';
import { el } from './dom';
import type { Theme } from './theme';

/** Labels longer than this many characters are cut (the full name stays in the tooltip). */
const LABEL_CHARS = 18;

export interface ConfusionView {
  element: HTMLElement;
  /** Shades the cells from the theme (again after a theme change). */
  paint(theme: Theme): void;
  norm(): ConfusionNorm;
  /** The matrix as shown now (the classes the user chose): what a PNG draws. */
  heatmap(): HeatmapModel;
}

/** The shaded colour of a cell with shade `s` in [0, 1]: the theme's blue over the editor background. */
function cellColour(theme: Theme, s: number, zero: boolean): { fill: string; text: string } {
  const alpha = zero ? 0 : 0.1 + 0.9 * s;
  const base = theme.rgb(theme.colour('blue'));
  const bg = theme.rgb(theme.background);
  const fill = over({ ...base, a: alpha }, bg);
  const text = bestContrast(fill, [
    theme.rgb(theme.foreground),
    bg,
    { r: 0, g: 0, b: 0, a: 1 },
    { r: 255, g: 255, b: 255, a: 1 },
  ]);
  const css = (c: { r: number; g: number; b: number }): string =>
    `rgb(${Math.round(c.r)}, ${Math.round(c.g)}, ${Math.round(c.b)})`;
  return { fill: css(fill), text: css(text) };
}

function label(text: string, cls: string): HTMLElement {
  const cut = text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text;
  return el('span', { class: cls, title: text }, cut);
}

/**
 * The matrix with, when it shows only some classes of many, a chooser of the classes shown above
 * it: a select (the largest confusions, the lowest recall, the most test rows, or classes picked
 * one by one from a filterable list of checkboxes). Changing it redraws the grid with its "other"
 * row and column; the cell values (counts / shares) stay as chosen.
 */
export function renderConfusion(
  h: HeatmapModel,
  initial: ConfusionNorm,
  onNorm: (n: ConfusionNorm) => void,
  theme: Theme,
): ConfusionView {
  const all = h.all;
  if (!all) return renderGrid(h, initial, onNorm, theme);
  let current = h;
  let view = renderGrid(h, initial, onNorm, theme);
  const max = h.rows.length;
  const show = (idx: number[]): void => {
    current = { ...h, ...confusionSubset(all.labels, all.matrix, idx) };
    if (!current.other) delete current.other;
    const next = renderGrid(current, view.norm(), onNorm, theme);
    view.element.replaceWith(next.element);
    view = next;
  };
  const chooser = classChooser(
    all.labels,
    all.matrix,
    max,
    () => current.rows,
    (by, picked) => {
      if (by === 'picked') {
        const at = new Map(all.labels.map((l, i) => [l, i]));
        const idx = [...picked].map((l) => at.get(l)!).sort((a, b) => a - b);
        if (idx.length > 0) show(idx);
      } else show(chooseClasses(all.matrix, by, max));
    },
  );
  const root = el('div', { class: 'confusion-host' }, chooser, view.element);
  return {
    element: root,
    paint: (t) => {
      theme = t;
      view.paint(t);
    },
    norm: () => view.norm(),
    heatmap: () => current,
  };
}

/**
 * The "Classes shown" control: a select of {@link CLASS_CHOICES}; "Chosen classes…" opens a list of
 * every class as checkboxes (at most `max` checked; the others are disabled meanwhile) with a
 * filter box. Native inputs: Tab, Space and typing work as everywhere.
 */
function classChooser(
  labels: readonly string[],
  matrix: readonly (readonly number[])[],
  max: number,
  shown: () => readonly string[],
  onChange: (by: ClassChoice, picked: ReadonlySet<string>) => void,
): HTMLElement {
  const totals = matrix.map((r) => r.reduce((a, b) => a + b, 0));
  const select = el('vscode-single-select', { 'aria-label': 'Classes shown', class: 'cm-classes' });
  for (const c of CLASS_CHOICES)
    select.append(el('vscode-option', { value: c.id, ...(c.id === 'confusions' ? { selected: true } : {}) }, c.label));
  const picked = new Set(shown());
  const count = el('span', { class: 'cm-pick-count', 'aria-live': 'polite' });
  const filter = el('input', {
    type: 'search',
    class: 'cm-pick-filter',
    placeholder: 'Filter classes',
    'aria-label': 'Filter the classes',
  });
  const boxes: { input: HTMLInputElement; item: HTMLElement; label: string }[] = [];
  const list = el('ul', { class: 'cm-pick-list', 'aria-label': `Classes to show (at most ${max})` });
  const sync = (): void => {
    const full = picked.size >= max;
    for (const b of boxes) b.input.disabled = full && !b.input.checked;
    count.textContent = `${picked.size} of at most ${max} classes chosen`;
  };
  labels.forEach((l, i) => {
    const input = el('input', { type: 'checkbox', value: l, ...(picked.has(l) ? { checked: true } : {}) });
    input.dataset.cls = l;
    const item = el(
      'li',
      {},
      el('label', { title: l }, input, ` ${l}`, el('span', { class: 'cm-pick-support' }, ` (${totals[i] ?? 0} rows)`)),
    );
    input.addEventListener('change', () => {
      if (input.checked) picked.add(l);
      else picked.delete(l);
      sync();
      onChange('picked', picked);
    });
    boxes.push({ input, item, label: l });
    list.append(item);
  });
  filter.addEventListener('input', () => {
    const q = filter.value.trim().toLowerCase();
    for (const b of boxes) b.item.hidden = q !== '' && !b.label.toLowerCase().includes(q);
  });
  const pick = el(
    'fieldset',
    { class: 'cm-pick', hidden: true },
    el('legend', {}, 'Classes to show'),
    filter,
    count,
    list,
  );
  select.addEventListener('change', () => {
    const v = (select as unknown as { value: string }).value;
    if (!isClassChoice(v)) return;
    pick.hidden = v !== 'picked';
    if (v === 'picked') {
      // The list starts from the classes shown now.
      picked.clear();
      for (const l of shown()) picked.add(l);
      for (const b of boxes) b.input.checked = picked.has(b.label);
      sync();
      onChange('picked', picked);
    } else onChange(v, picked);
  });
  sync();
  return el(
    'div',
    { class: 'cm-chooser' },
    el('div', { class: 'cm-controls' }, el('span', { class: 'cm-controls-label' }, 'Classes shown'), select),
    pick,
  );
}

function renderGrid(
  h: HeatmapModel,
  initial: ConfusionNorm,
  onNorm: (n: ConfusionNorm) => void,
  theme: Theme,
): ConfusionView {
  let norm: ConfusionNorm = initial;
  const root = el('div', { class: 'confusion' });
  const select = el('vscode-single-select', { 'aria-label': 'Cell values', class: 'cm-norm' });
  for (const n of CONFUSION_NORMS)
    select.append(el('vscode-option', { value: n.id, ...(n.id === norm ? { selected: true } : {}) }, n.label));
  const controls = el(
    'div',
    { class: 'cm-controls' },
    el('span', { class: 'cm-controls-label' }, 'Cells show'),
    select,
  );

  const n = h.rows.length;
  const m = h.cols.length;
  // The "other" row and column (classes not shown): summary cells, not buttons, not shaded.
  const other = h.other;
  const o = other ? 1 : 0;
  const aug = withOther(h);
  const otherName = other ? `other (${other.classes} classes)` : '';
  const otherTitle = other ? `the ${other.classes} classes not shown, together` : '';
  const otherCells: { td: HTMLTableCellElement; i: number; j: number }[] = [];
  const grid = el('table', {
    class: 'cm-grid',
    role: 'grid',
    'aria-label': `Confusion matrix: rows ${h.rowTitle}, columns ${h.colTitle}`,
  });
  // Few classes: column labels read horizontally (cells widen to them); many: vertical, so cells stay narrow.
  const longCols = m > 8 && h.cols.some((c) => c.length > 4);
  const thead = el(
    'thead',
    {},
    el(
      'tr',
      {},
      el('td', { class: 'cm-corner', colspan: '2', rowspan: '2' }),
      el('th', { class: 'cm-axis cm-axis-x', colspan: String(m + o), scope: 'colgroup' }, `${h.colTitle} →`),
    ),
    el(
      'tr',
      {},
      ...h.cols.map((c, j) =>
        el(
          'th',
          { class: `cm-col${longCols ? ' cm-vertical' : ''}`, scope: 'col', 'data-col': String(j), 'data-pred': c },
          label(c, 'cm-label'),
        ),
      ),
      other
        ? el(
            'th',
            { class: `cm-other-col${longCols ? ' cm-vertical' : ''}`, scope: 'col', title: otherTitle },
            el('span', { class: 'cm-label' }, otherName),
          )
        : null,
    ),
  );
  const body = el('tbody');
  const cells: HTMLTableCellElement[][] = [];
  for (let i = 0; i < n + o; i++) {
    const tr = el('tr', i === n ? { class: 'cm-other-row' } : {});
    if (i === 0)
      tr.append(
        el(
          'th',
          { class: 'cm-axis cm-axis-y', rowspan: String(n + o), scope: 'rowgroup' },
          el('span', {}, `${h.rowTitle} →`),
        ),
      );
    tr.append(
      i === n
        ? el(
            'th',
            { class: 'cm-row-other', scope: 'row', title: otherTitle },
            el('span', { class: 'cm-label' }, otherName),
          )
        : el(
            'th',
            { class: 'cm-row', scope: 'row', 'data-row': String(i), 'data-true': h.rows[i]! },
            label(h.rows[i]!, 'cm-label'),
          ),
    );
    const row: HTMLTableCellElement[] = [];
    for (let j = 0; j < m + o; j++) {
      if (i === n || j === m) {
        const td = el('td', { class: 'cm-other', 'data-count': String(aug.values[i]![j]!) });
        otherCells.push({ td, i, j });
        tr.append(td);
        continue;
      }
      const td = el('td', {
        class: `cm-cell${i === j && h.rows[i] === h.cols[j] ? ' cm-diag' : ''}`,
        role: 'gridcell',
        tabindex: i === 0 && j === 0 ? '0' : '-1',
        'data-row': String(i),
        'data-col': String(j),
        'data-true': h.rows[i]!,
        'data-pred': h.cols[j]!,
        'data-count': String(h.values[i]![j]!),
      });
      row.push(td);
      tr.append(td);
    }
    if (i < n) cells.push(row);
    body.append(tr);
  }
  grid.append(thead, body);

  const legendBar = el('div', { class: 'cm-legend-bar', 'aria-hidden': 'true' });
  const legendTicksBox = el('div', { class: 'cm-legend-ticks', 'aria-hidden': 'true' });
  const legendCaption = el('span', { class: 'cm-legend-caption' });
  const legend = el(
    'div',
    { class: 'cm-legend', role: 'img' },
    legendCaption,
    el('div', { class: 'cm-legend-scale' }, legendBar, legendTicksBox),
  );

  const top = h.top && h.top.length > 0 && (h.classes ?? n) >= 10 ? topList(h) : null;
  root.append(controls, el('div', { class: 'cm-scroll' }, grid), legend);
  if (top) root.append(top);

  const fill = (): void => {
    const shownValues = normaliseConfusion(aug.values, norm, aug.rowTotals, aug.colTotals);
    const max = scaleMax(
      shownValues.slice(0, n).map((r) => r.slice(0, m)),
      norm,
    );
    grid.style.setProperty('--cm-cell-ch', String(Math.max(3, widestCellText(shownValues, norm))));
    for (const { td, i, j } of otherCells) {
      const v = shownValues[i]![j]!;
      const text = confusionCellText(v, norm);
      const rowName = i === n ? `a true class not shown` : `true ${h.rows[i]}`;
      const colName = j === m ? `a predicted class not shown` : `predicted ${h.cols[j]}`;
      const what = `${rowName}, ${colName}: ${confusionCellText(aug.values[i]![j]!, 'counts')} rows${norm === 'counts' ? '' : `, ${text} of the ${norm === 'true' ? 'true' : 'predicted'} total`}`;
      td.textContent = text;
      td.dataset.value = v === null ? '' : String(v);
      td.setAttribute('aria-label', what);
      td.title = what;
    }
    root.dataset.norm = norm;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < m; j++) {
        const td = cells[i]![j]!;
        const v = shownValues[i]![j]!;
        const count = h.values[i]![j]!;
        const text = confusionCellText(v, norm);
        td.textContent = text;
        td.dataset.value = v === null ? '' : String(v);
        td.classList.toggle('cm-zero', count === 0);
        const share =
          norm === 'counts'
            ? ''
            : `, ${text} of the ${norm === 'true' ? `true class ${h.rows[i]}` : `predicted class ${h.cols[j]}`}`;
        const what = `true ${h.rows[i]}, predicted ${h.cols[j]}: ${confusionCellText(count, 'counts')} rows${share}`;
        td.setAttribute('aria-label', what);
        td.title = what;
      }
    }
    const meta = CONFUSION_NORMS.find((x) => x.id === norm)!;
    legendCaption.textContent = `Shade: ${meta.legend}`;
    legend.setAttribute(
      'aria-label',
      `Colour scale from ${confusionCellText(0, norm)} (lightest) to ${confusionCellText(max, norm)} (darkest), ${meta.legend}`,
    );
    legendTicksBox.replaceChildren(
      ...legendTicks(max, norm).map((t) => {
        const s = el('span', { class: 'cm-tick' }, t.text);
        s.style.left = `${(t.at * 100).toFixed(1)}%`;
        return s;
      }),
    );
  };

  const paint = (t: Theme): void => {
    theme = t;
    const shownValues = normaliseConfusion(h.values, norm, h.rowTotals, h.colTotals);
    const max = scaleMax(shownValues, norm);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < m; j++) {
        const c = cellColour(t, shade(shownValues[i]![j]!, max), h.values[i]![j]! === 0);
        const td = cells[i]![j]!;
        td.style.backgroundColor = c.fill;
        td.style.color = c.text;
      }
    }
    const stops = [0, 0.25, 0.5, 0.75, 1].map((s) => `${cellColour(t, s, false).fill} ${s * 100}%`);
    legendBar.style.backgroundImage = `linear-gradient(to right, ${stops.join(', ')})`;
  };

  select.addEventListener('change', () => {
    const v = (select as unknown as { value: string }).value;
    if (!isConfusionNorm(v) || v === norm) return;
    norm = v;
    fill();
    paint(theme);
    onNorm(v);
  });

  // One tab stop; arrows move the focus between cells; Enter/Space activate (a click).
  grid.addEventListener('keydown', (e) => {
    const td = (e.target as HTMLElement).closest<HTMLTableCellElement>('td.cm-cell');
    if (!td) return;
    const i = Number(td.dataset.row);
    const j = Number(td.dataset.col);
    let ni = i;
    let nj = j;
    switch (e.key) {
      case 'ArrowUp':
        ni = Math.max(0, i - 1);
        break;
      case 'ArrowDown':
        ni = Math.min(n - 1, i + 1);
        break;
      case 'ArrowLeft':
        nj = Math.max(0, j - 1);
        break;
      case 'ArrowRight':
        nj = Math.min(m - 1, j + 1);
        break;
      case 'Home':
        nj = 0;
        if (e.ctrlKey) ni = 0;
        break;
      case 'End':
        nj = m - 1;
        if (e.ctrlKey) ni = n - 1;
        break;
      case 'PageUp':
        ni = 0;
        break;
      case 'PageDown':
        ni = n - 1;
        break;
      case 'Enter':
      case ' ':
        e.preventDefault();
        td.click();
        return;
      default:
        return;
    }
    e.preventDefault();
    const next = cells[ni]![nj]!;
    td.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  });
  grid.addEventListener('click', (e) => {
    const td = (e.target as HTMLElement).closest<HTMLTableCellElement>('td.cm-cell');
    if (!td) return;
    for (const row of cells) for (const c of row) c.tabIndex = c === td ? 0 : -1;
  });

  fill();
  paint(theme);
  return { element: root, paint, norm: () => norm, heatmap: () => h };
}

/** The largest confusions as a list of buttons (true → predicted, count, share of the true class). */
function topList(h: HeatmapModel): HTMLElement {
  const list = el('ol', { class: 'cm-top-list' });
  for (const t of h.top!) {
    const share = t.share === null ? '' : ` (${(t.share * 100).toFixed(1)}% of ${t.true})`;
    const li = el(
      'li',
      {
        class: 'cm-top',
        role: 'button',
        tabindex: '0',
        'data-true': t.true,
        'data-pred': t.pred,
        'data-count': String(t.count),
        title: `true ${t.true}, predicted ${t.pred}`,
      },
      el('span', { class: 'cm-top-pair' }, `${t.true} → ${t.pred}`),
      el('span', { class: 'cm-top-count' }, `${confusionCellText(t.count, 'counts')}${share}`),
    );
    li.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        li.click();
      }
    });
    list.append(li);
  }
  return el(
    'section',
    { class: 'cm-top-confusions', 'aria-label': 'Largest confusions' },
    el('h4', {}, `Largest confusions (true → predicted)`),
    list,
  );
}

/**
 * The matrix as a PNG for a paper: white background, black text, the shading of the light theme,
 * at twice the pixel density. Drawn from the model (not a screenshot of the grid).
 */
export function confusionPng(h: HeatmapModel, norm: ConfusionNorm, font: string): string {
  // With its "other" row and column when some classes are not shown (rows add up to the supports).
  const aug = withOther(h);
  const otherName = h.other ? `other (${h.other.classes} classes)` : '';
  const rows = h.other ? [...h.rows, otherName] : h.rows;
  const cols = h.other ? [...h.cols, otherName] : h.cols;
  const shownValues = normaliseConfusion(aug.values, norm, aug.rowTotals, aug.colTotals);
  const max = scaleMax(
    shownValues.slice(0, h.rows.length).map((r) => r.slice(0, h.cols.length)),
    norm,
  );
  const probe = document.createElement('canvas').getContext('2d')!;
  probe.font = `12px ${font}`;
  const cut = (s: string): string => (s.length > LABEL_CHARS ? `${s.slice(0, LABEL_CHARS - 1)}…` : s);
  const textW = (s: string): number => probe.measureText(s).width;
  let cellText = 0;
  for (const r of shownValues) for (const v of r) cellText = Math.max(cellText, textW(confusionCellText(v, norm)));
  const cell = Math.ceil(Math.max(28, cellText + 12));
  const rowLabel = Math.ceil(Math.max(...rows.map((r) => textW(cut(r))))) + 12;
  const colLabel = Math.ceil(Math.max(...cols.map((c) => textW(cut(c))))) + 12;
  const left = 24 + rowLabel;
  const topPad = 26 + colLabel;
  const n = rows.length;
  const m = cols.length;
  const legendH = 46;
  const width = Math.max(left + m * cell + 16, 320);
  const height = topPad + n * cell + legendH + 10;
  const scale = 2;
  const canvas = document.createElement('canvas');
  canvas.width = width * scale;
  canvas.height = height * scale;
  const g = canvas.getContext('2d')!;
  g.scale(scale, scale);
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, width, height);
  const base = { r: 26, g: 133, b: 255, a: 1 };
  const white = { r: 255, g: 255, b: 255, a: 1 };
  const colourAt = (s: number, zero: boolean): { r: number; g: number; b: number; a: number } =>
    over({ ...base, a: zero ? 0 : 0.1 + 0.9 * s }, white);
  const css = (c: { r: number; g: number; b: number }): string =>
    `rgb(${Math.round(c.r)}, ${Math.round(c.g)}, ${Math.round(c.b)})`;
  g.font = `12px ${font}`;
  g.textBaseline = 'middle';
  // Captions.
  g.fillStyle = '#000000';
  g.textAlign = 'center';
  g.fillText(`${h.colTitle} →`, left + (m * cell) / 2, 12);
  g.save();
  g.translate(10, topPad + (n * cell) / 2);
  g.rotate(-Math.PI / 2);
  g.fillText(`${h.rowTitle} →`, 0, 0);
  g.restore();
  // Labels.
  g.textAlign = 'right';
  rows.forEach((r, i) => g.fillText(cut(r), left - 6, topPad + i * cell + cell / 2));
  cols.forEach((c, j) => {
    g.save();
    g.translate(left + j * cell + cell / 2, topPad - 6);
    g.rotate(-Math.PI / 2);
    g.textAlign = 'left';
    g.fillText(cut(c), 0, 0);
    g.restore();
  });
  // Cells.
  g.textAlign = 'center';
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      const v = shownValues[i]![j]!;
      const fill = colourAt(shade(v, max), aug.values[i]![j]! === 0);
      g.fillStyle = css(fill);
      g.fillRect(left + j * cell, topPad + i * cell, cell - 1, cell - 1);
      g.fillStyle = css(bestContrast(fill, [{ r: 0, g: 0, b: 0, a: 1 }, white]));
      g.fillText(confusionCellText(v, norm), left + j * cell + cell / 2, topPad + i * cell + cell / 2);
    }
  }
  // Legend.
  const ly = topPad + n * cell + 14;
  const lw = Math.min(240, Math.max(120, m * cell));
  const grad = g.createLinearGradient(left, 0, left + lw, 0);
  for (const s of [0, 0.5, 1]) grad.addColorStop(s, css(colourAt(s, false)));
  g.fillStyle = grad;
  g.fillRect(left, ly, lw, 10);
  g.strokeStyle = '#888888';
  g.strokeRect(left + 0.5, ly + 0.5, lw - 1, 9);
  g.fillStyle = '#000000';
  for (const t of legendTicks(max, norm)) g.fillText(t.text, left + t.at * lw, ly + 22);
  g.textAlign = 'left';
  g.fillText(CONFUSION_NORMS.find((x) => x.id === norm)!.legend, left + lw + 10, ly + 5);
  return canvas.toDataURL('image/png');
}
