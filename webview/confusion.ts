/**
 * The confusion matrix (`<eval-confusion>`) as an HTML grid (not a canvas): every cell is sized to
 * its text, labels longer than the room are cut with an ellipsis and carry the full name in a
 * tooltip, the axis captions are table headers (never clipped), a select switches counts / shares
 * of the true class / shares of the predicted class, a colour legend explains the shading, and a
 * list names the largest confusions when there are many classes. When the matrix shows some
 * classes of many, a chooser above it picks the classes shown (the largest confusions, the lowest
 * recall, the most test rows, or classes picked one by one), with an "other" row and column.
 *
 * One state object (the cell values, the classes shown and how they were chosen, the classes
 * picked, the filter of the list, the focused cell). Its drill-down targets are its cells
 * (`td.cm-cell`, with `data-true`, `data-pred`, `data-count`, `data-row`, `data-col`) and the
 * entries of the largest confusions (`li.cm-top`), declared in {@link ConfusionElement.drillTargets}
 * when the report can list rows: a click, or Enter or Space on the focused target (a click on it), opens the
 * cell's rows (among the rows the matrix counts) after the figure. Arrow keys, Home/End and
 * PageUp/PageDown move between cells (one tab stop). The cells are shaded from the theme through
 * the CSSOM (the panel's CSP allows no style attribute), again when the theme changes: the theme
 * observer is added on connect and removed on disconnect.
 */
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { FilterTerm } from '../src/core/rows/types';
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
import type { DrillSpec } from '../src/shared/drillSpec';
import { confusionCell } from '../src/shared/drillTargets';
import type { HeatmapModel } from '../src/shared/model';
import { activates, ROWS_HINT, type DrillSource, type DrillTarget, type OpenRows } from './drill';
import { readTheme, type Theme } from './theme';

/** Labels longer than this many characters are cut (the full name stays in the tooltip). */
const LABEL_CHARS = 18;

/** The rows behind the cells, and how to open them. */
export interface ConfusionDrill {
  /** The filter of the rows the matrix counts (a split's test rows), before each cell's own. */
  measured: readonly FilterTerm[];
  open: OpenRows;
}

export interface ConfusionHost {
  /** The cell values chosen (the panel keeps them across reloads). */
  norm(n: ConfusionNorm): void;
}

export interface ConfusionState {
  norm: ConfusionNorm;
  /** How the classes shown were chosen (a matrix of some classes of many). */
  choice: ClassChoice;
  /** The classes shown, as indices into the whole matrix; undefined: the model's own. */
  shown?: number[];
  /** The classes ticked in the list ("Chosen classes…"). */
  picked: string[];
  /** The filter typed over the list. */
  filter: string;
  /** The cell that holds the grid's tab stop: [row, column] of the shown grid. */
  focus: [number, number];
}

/** The shaded colour of a cell with shade `s` in [0, 1]: the theme's blue over the editor background. */
export function cellColour(theme: Theme, s: number, zero: boolean): { fill: string; text: string } {
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

function label(text: string, cls: string): TemplateResult {
  const cut = text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text;
  return html`<span class=${cls} title=${text}>${cut}</span>`;
}

export class ConfusionElement extends LitElement implements DrillSource {
  static override properties = {
    heatmap: { attribute: false },
    host: { attribute: false },
    drill: { attribute: false },
    state: { state: true },
  };

  /** The matrix as the report built it (with the whole matrix when it shows some classes of many). */
  declare heatmap: HeatmapModel;
  declare host: ConfusionHost;
  /** The rows behind the cells; undefined: the cells are no targets (no rows to list). */
  declare drill: ConfusionDrill | undefined;
  declare state: ConfusionState;
  /** Reads the theme's colours (the cells' shading). */
  theme: () => Theme = readTheme;
  /** The matrix shown (the classes chosen), made from the state. */
  private view: HeatmapModel | undefined;
  private readonly themeObserver = new MutationObserver(() => this.paint());

  constructor() {
    super();
    this.drill = undefined;
  }

  /** Light DOM: the report's stylesheets apply inside. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // VS Code switches the body's theme class; the shading is read again.
    this.themeObserver.observe(document.body, { attributes: true, attributeFilter: ['class'] });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.themeObserver.disconnect();
  }

  /** The matrix as shown now (the classes chosen): what a PNG draws. */
  get shown(): HeatmapModel {
    return this.view ?? this.heatmap;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const h = this.heatmap;
    // A new matrix (not the first): the classes shown and the focus start again, the cell values stay.
    if (this.state === undefined || (changed.has('heatmap') && changed.get('heatmap') !== undefined))
      this.state = {
        norm: this.state?.norm ?? 'counts',
        choice: 'confusions',
        picked: [...h.rows],
        filter: '',
        focus: [0, 0],
      };
    const all = h.all;
    if (!all || !this.state.shown) this.view = h;
    else {
      const v: HeatmapModel = { ...h, ...confusionSubset(all.labels, all.matrix, this.state.shown) };
      if (!v.other) delete v.other;
      this.view = v;
    }
  }

  protected override updated(): void {
    this.paint();
  }

  /** The rows of the cell of true class `truth` and predicted class `pred`, among the rows the matrix counts. */
  private spec(truth: string, pred: string): DrillSpec | undefined {
    if (!this.drill) return undefined;
    const cell = confusionCell(truth, pred);
    return { ...cell, where: [...this.drill.measured, ...cell.where] };
  }

  /** Every cell of the grid, then every entry of the largest confusions (none without rows to list). */
  get drillTargets(): DrillTarget[] {
    if (!this.drill) return [];
    // The rows panel opens after the figure that holds the matrix.
    const anchor = this.closest<HTMLElement>('figure.chart') ?? this;
    return [...this.querySelectorAll<HTMLElement>('td.cm-cell, li.cm-top')].map((element) => ({
      element,
      spec: this.spec(element.dataset.true!, element.dataset.pred!)!,
      anchor,
    }));
  }

  private open(element: HTMLElement): void {
    const t = this.drillTargets.find((x) => x.element === element);
    if (t) this.drill!.open(t.spec, t.anchor, element);
  }

  private setNorm(v: string): void {
    if (!isConfusionNorm(v) || v === this.state.norm) return;
    this.state = { ...this.state, norm: v };
    // Drawn at once: whoever changed the select reads the new values right after its change event.
    this.performUpdate();
    this.host.norm(v);
  }

  /** Shows the classes `idx` of the whole matrix (none: as it was). */
  private showClasses(patch: Partial<ConfusionState>, idx: number[]): void {
    this.state = { ...this.state, ...patch, ...(idx.length > 0 ? { shown: idx } : {}) };
  }

  private indicesOf(labels: readonly string[]): number[] {
    const at = new Map(this.heatmap.all!.labels.map((l, i) => [l, i]));
    return labels.map((l) => at.get(l)!).sort((a, b) => a - b);
  }

  private choose(v: string): void {
    const all = this.heatmap.all;
    if (!all || !isClassChoice(v)) return;
    if (v === 'picked') {
      // The list starts from the classes shown now.
      const picked = [...this.shown.rows];
      this.showClasses({ choice: v, picked }, this.indicesOf(picked));
    } else this.showClasses({ choice: v }, chooseClasses(all.matrix, v, this.heatmap.rows.length));
  }

  private pick(l: string, on: boolean): void {
    const picked = on ? [...this.state.picked.filter((x) => x !== l), l] : this.state.picked.filter((x) => x !== l);
    this.showClasses({ picked }, this.indicesOf(picked));
  }

  /** One tab stop; arrows move the focus between cells; Enter/Space do what a click does. */
  private onGridKey(e: KeyboardEvent): void {
    const td = (e.target as HTMLElement).closest<HTMLTableCellElement>('td.cm-cell');
    if (!td) return;
    if (activates(e)) {
      td.click();
      return;
    }
    const n = this.shown.rows.length;
    const m = this.shown.cols.length;
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
      default:
        return;
    }
    e.preventDefault();
    this.state = { ...this.state, focus: [ni, nj] };
    this.querySelector<HTMLElement>(`td.cm-cell[data-row="${ni}"][data-col="${nj}"]`)?.focus();
  }

  private onGridClick(e: MouseEvent): void {
    const td = (e.target as HTMLElement).closest<HTMLTableCellElement>('td.cm-cell');
    if (!td) return;
    this.state = { ...this.state, focus: [Number(td.dataset.row), Number(td.dataset.col)] };
    this.open(td);
  }

  override render(): TemplateResult {
    const grid = this.grid(this.shown);
    const all = this.heatmap.all;
    return all ? html`<div class="confusion-host">${this.chooser(all)} ${grid}</div>` : grid;
  }

  /**
   * The "Classes shown" control: a select of {@link CLASS_CHOICES}; "Chosen classes…" opens a list
   * of every class as checkboxes (at most as many as the model shows; the others are disabled
   * meanwhile) with a filter box. Native inputs: Tab, Space and typing work as everywhere.
   */
  private chooser(all: NonNullable<HeatmapModel['all']>): TemplateResult {
    const s = this.state;
    const max = this.heatmap.rows.length;
    const picked = new Set(s.picked);
    const full = picked.size >= max;
    const q = s.filter.trim().toLowerCase();
    const totals = all.matrix.map((r) => r.reduce((a, b) => a + b, 0));
    return html`<div class="cm-chooser">
      <div class="cm-controls">
        <span class="cm-controls-label">Classes shown</span>
        <vscode-single-select
          aria-label="Classes shown"
          class="cm-classes"
          @change=${(e: Event) => this.choose((e.currentTarget as HTMLInputElement).value)}
        >
          ${CLASS_CHOICES.map(
            (c) => html`<vscode-option value=${c.id} ?selected=${c.id === s.choice}>${c.label}</vscode-option>`,
          )}
        </vscode-single-select>
      </div>
      <fieldset class="cm-pick" ?hidden=${s.choice !== 'picked'}>
        <legend>Classes to show</legend>
        <input
          type="search"
          class="cm-pick-filter"
          placeholder="Filter classes"
          aria-label="Filter the classes"
          @input=${(e: Event) => (this.state = { ...this.state, filter: (e.currentTarget as HTMLInputElement).value })}
        />
        <span class="cm-pick-count" aria-live="polite">${picked.size} of at most ${max} classes chosen</span>
        <ul class="cm-pick-list" aria-label=${`Classes to show (at most ${max})`}>
          ${all.labels.map(
            (l, i) =>
              html`<li ?hidden=${q !== '' && !l.toLowerCase().includes(q)}>
                <label title=${l}
                  ><input
                    type="checkbox"
                    value=${l}
                    data-cls=${l}
                    .checked=${live(picked.has(l))}
                    ?disabled=${full && !picked.has(l)}
                    @change=${(e: Event) => this.pick(l, (e.currentTarget as HTMLInputElement).checked)}
                  />
                  ${l}<span class="cm-pick-support"> (${totals[i] ?? 0} rows)</span></label
                >
              </li>`,
          )}
        </ul>
      </fieldset>
    </div>`;
  }

  private grid(h: HeatmapModel): TemplateResult {
    const { norm } = this.state;
    const n = h.rows.length;
    const m = h.cols.length;
    // The "other" row and column (classes not shown): summary cells, not targets, not shaded.
    const other = h.other;
    const o = other ? 1 : 0;
    const aug = withOther(h);
    const shownValues = normaliseConfusion(aug.values, norm, aug.rowTotals, aug.colTotals);
    const max = scaleMax(
      shownValues.slice(0, n).map((r) => r.slice(0, m)),
      norm,
    );
    const otherName = other ? `other (${other.classes} classes)` : '';
    const otherTitle = other ? `the ${other.classes} classes not shown, together` : '';
    // Few classes: column labels read horizontally (cells widen to them); many: vertical, so cells stay narrow.
    const vertical = m > 8 && h.cols.some((c) => c.length > 4) ? ' cm-vertical' : '';
    const [fi, fj] = [Math.min(this.state.focus[0], n - 1), Math.min(this.state.focus[1], m - 1)];
    const drill = this.drill !== undefined;
    const cell = (i: number, j: number): TemplateResult => {
      const v = shownValues[i]![j]!;
      const count = h.values[i]![j]!;
      const text = confusionCellText(v, norm);
      const share =
        norm === 'counts'
          ? ''
          : `, ${text} of the ${norm === 'true' ? `true class ${h.rows[i]}` : `predicted class ${h.cols[j]}`}`;
      const what = `true ${h.rows[i]}, predicted ${h.cols[j]}: ${confusionCellText(count, 'counts')} rows${share}`;
      const spec = this.spec(h.rows[i]!, h.cols[j]!);
      // The text right inside the cell (no white space around it: its text is the value).
      // prettier-ignore
      return html`<td
        class=${`cm-cell${i === j && h.rows[i] === h.cols[j] ? ' cm-diag' : ''}${count === 0 ? ' cm-zero' : ''}${drill ? ' drillable' : ''}`}
        role="gridcell"
        tabindex=${i === fi && j === fj ? '0' : '-1'}
        data-row=${String(i)}
        data-col=${String(j)}
        data-true=${h.rows[i]!}
        data-pred=${h.cols[j]!}
        data-count=${String(count)}
        data-value=${v === null ? '' : String(v)}
        aria-label=${what}
        aria-description=${spec ? `${spec.title}. ${ROWS_HINT}` : nothing}
        title=${what}
      >${text}</td>`;
    };
    const otherCell = (i: number, j: number): TemplateResult => {
      const v = shownValues[i]![j]!;
      const text = confusionCellText(v, norm);
      const rowName = i === n ? `a true class not shown` : `true ${h.rows[i]}`;
      const colName = j === m ? `a predicted class not shown` : `predicted ${h.cols[j]}`;
      const what = `${rowName}, ${colName}: ${confusionCellText(aug.values[i]![j]!, 'counts')} rows${norm === 'counts' ? '' : `, ${text} of the ${norm === 'true' ? 'true' : 'predicted'} total`}`;
      // prettier-ignore
      return html`<td
        class="cm-other"
        data-count=${String(aug.values[i]![j]!)}
        data-value=${v === null ? '' : String(v)}
        aria-label=${what}
        title=${what}
      >${text}</td>`;
    };
    const rowIdx = [...Array(n + o).keys()];
    const colIdx = [...Array(m + o).keys()];
    const meta = CONFUSION_NORMS.find((x) => x.id === norm)!;
    const top = h.top && h.top.length > 0 && (h.classes ?? n) >= 10 ? this.topList(h) : nothing;
    return html`<div class="confusion" data-norm=${norm}>
      <div class="cm-controls">
        <span class="cm-controls-label">Cells show</span>
        <vscode-single-select
          aria-label="Cell values"
          class="cm-norm"
          @change=${(e: Event) => this.setNorm((e.currentTarget as HTMLInputElement).value)}
        >
          ${CONFUSION_NORMS.map(
            (x) => html`<vscode-option value=${x.id} ?selected=${x.id === norm}>${x.label}</vscode-option>`,
          )}
        </vscode-single-select>
      </div>
      <div class="cm-scroll">
        <table
          class="cm-grid"
          role="grid"
          aria-label=${`Confusion matrix: rows ${h.rowTitle}, columns ${h.colTitle}`}
          data-cell-ch=${String(Math.max(3, widestCellText(shownValues, norm)))}
          @keydown=${(e: KeyboardEvent) => this.onGridKey(e)}
          @click=${(e: MouseEvent) => this.onGridClick(e)}
        >
          <thead>
            <tr>
              <td class="cm-corner" colspan="2" rowspan="2"></td>
              <th class="cm-axis cm-axis-x" colspan=${String(m + o)} scope="colgroup">${h.colTitle} →</th>
            </tr>
            <tr>
              ${h.cols.map(
                (c, j) =>
                  html`<th class=${`cm-col${vertical}`} scope="col" data-col=${String(j)} data-pred=${c}>
                    ${label(c, 'cm-label')}
                  </th>`,
              )}
              ${
                other
                  ? html`<th class=${`cm-other-col${vertical}`} scope="col" title=${otherTitle}>
                      <span class="cm-label">${otherName}</span>
                    </th>`
                  : nothing
              }
            </tr>
          </thead>
          <tbody>
            ${rowIdx.map(
              (i) =>
                html`<tr class=${i === n ? 'cm-other-row' : nothing}>
                  ${
                    i === 0
                      ? html`<th class="cm-axis cm-axis-y" rowspan=${String(n + o)} scope="rowgroup">
                          <span>${h.rowTitle} →</span>
                        </th>`
                      : nothing
                  }
                  ${
                    i === n
                      ? html`<th class="cm-row-other" scope="row" title=${otherTitle}>
                          <span class="cm-label">${otherName}</span>
                        </th>`
                      : html`<th class="cm-row" scope="row" data-row=${String(i)} data-true=${h.rows[i]!}>
                          ${label(h.rows[i]!, 'cm-label')}
                        </th>`
                  }
                  ${colIdx.map((j) => (i === n || j === m ? otherCell(i, j) : cell(i, j)))}
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
      <div
        class="cm-legend"
        role="img"
        aria-label=${`Colour scale from ${confusionCellText(0, norm)} (lightest) to ${confusionCellText(max, norm)} (darkest), ${meta.legend}`}
      >
        <span class="cm-legend-caption">Shade: ${meta.legend}</span>
        <div class="cm-legend-scale">
          <div class="cm-legend-bar" aria-hidden="true"></div>
          <div class="cm-legend-ticks" aria-hidden="true">
            ${legendTicks(max, norm).map(
              (t) => html`<span class="cm-tick" data-at=${(t.at * 100).toFixed(1)}>${t.text}</span>`,
            )}
          </div>
        </div>
      </div>
      ${top}
    </div>`;
  }

  /** The largest confusions as a list of buttons (true → predicted, count, share of the true class). */
  private topList(h: HeatmapModel): TemplateResult {
    const drill = this.drill !== undefined;
    return html`<section class="cm-top-confusions" aria-label="Largest confusions">
      <h4>Largest confusions (true → predicted)</h4>
      <ol class="cm-top-list">
        ${h.top!.map((t) => {
          const share = t.share === null ? '' : ` (${(t.share * 100).toFixed(1)}% of ${t.true})`;
          const spec = this.spec(t.true, t.pred);
          return html`<li
            class=${`cm-top${drill ? ' drillable' : ''}`}
            role="button"
            tabindex="0"
            data-true=${t.true}
            data-pred=${t.pred}
            data-count=${String(t.count)}
            title=${`true ${t.true}, predicted ${t.pred}`}
            aria-description=${spec ? `${spec.title}. ${ROWS_HINT}` : nothing}
            @click=${(e: MouseEvent) => this.open(e.currentTarget as HTMLElement)}
            @keydown=${(e: KeyboardEvent) => activates(e) && (e.currentTarget as HTMLElement).click()}
          >
            <span class="cm-top-pair">${t.true} → ${t.pred}</span>
            <span class="cm-top-count">${confusionCellText(t.count, 'counts')}${share}</span>
          </li>`;
        })}
      </ol>
    </section>`;
  }

  /**
   * Shades the cells and the legend from the theme, sizes the cells to the widest text and places
   * the legend's ticks: through the CSSOM (no style attribute).
   */
  private paint(): void {
    const h = this.shown;
    const grid = this.querySelector<HTMLElement>('table.cm-grid');
    if (!grid) return;
    const theme = this.theme();
    const { norm } = this.state;
    grid.style.setProperty('--cm-cell-ch', grid.dataset.cellCh ?? '3');
    const shownValues = normaliseConfusion(h.values, norm, h.rowTotals, h.colTotals);
    const max = scaleMax(shownValues, norm);
    for (const td of this.querySelectorAll<HTMLElement>('td.cm-cell')) {
      const i = Number(td.dataset.row);
      const j = Number(td.dataset.col);
      const c = cellColour(theme, shade(shownValues[i]![j]!, max), h.values[i]![j]! === 0);
      td.style.backgroundColor = c.fill;
      td.style.color = c.text;
    }
    for (const tick of this.querySelectorAll<HTMLElement>('.cm-tick')) tick.style.left = `${tick.dataset.at}%`;
    const stops = [0, 0.25, 0.5, 0.75, 1].map((s) => `${cellColour(theme, s, false).fill} ${s * 100}%`);
    const bar = this.querySelector<HTMLElement>('.cm-legend-bar');
    if (bar) bar.style.backgroundImage = `linear-gradient(to right, ${stops.join(', ')})`;
  }
}

customElements.define('eval-confusion', ConfusionElement);

declare global {
  interface HTMLElementTagNameMap {
    'eval-confusion': ConfusionElement;
  }
}

/** The matrix `h` with cell values `norm`; its cells open their rows when `drill` is given. */
export function confusionMatrix(
  h: HeatmapModel,
  norm: ConfusionNorm,
  host: ConfusionHost,
  drill?: ConfusionDrill,
): ConfusionElement {
  const e = document.createElement('eval-confusion');
  e.heatmap = h;
  e.host = host;
  e.drill = drill;
  e.state = { norm, choice: 'confusions', picked: [...h.rows], filter: '', focus: [0, 0] };
  return e;
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
