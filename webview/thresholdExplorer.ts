/**
 * The threshold explorer (`<eval-threshold-explorer>`): a slider and a number box over the score
 * threshold or the coverage, a readout of the operating point, and "Use this operating point".
 * Every value shown is read from a stored exact point of the results' curves
 * ({@link OperatingPointModel}); moving the slider picks a point, it never interpolates and never
 * computes a metric.
 *
 * One state object (the mode, the point shown, a write under way). The current point is marked on
 * the risk–coverage, reliability or PR chart: the marker lines are drawn from this state
 * ({@link ThresholdExplorerElement.marks}) and handed to the host (`mark`), which lays them over
 * the chart without changing its model; they are withdrawn when the explorer leaves the document.
 * No drill-down targets: a point of the curve is a threshold, not a set of rows shown here.
 */
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { extent } from '../src/shared/extent';
import { formatCount, formatNumber } from '../src/shared/format';
import type { RefLine } from '../src/shared/model';
import { pointAtThreshold, type OperatingPointModel } from '../src/shared/operatingPoint';
import { request } from './vscodeApi';

export interface ExplorerHost {
  status(text: string): void;
  /** A remembered value of this report's explorer (mode, threshold), kept across reloads. */
  recall(key: string): string | undefined;
  remember(key: string, value: string): void;
  /** Draws `line` over chart `chart`'s own lines (undefined: no marker); the chart's model is not changed. */
  mark(chart: string, line: RefLine | undefined): void;
}

export type ExplorerMode = 'threshold' | 'coverage';

export interface ExplorerState {
  mode: ExplorerMode;
  /** The stored point shown (an index into the model's columns). */
  index: number;
  /** "Use this operating point" is writing the config. */
  writing: boolean;
}

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

/** The mode and point a fresh explorer shows: the remembered ones, else the evaluated point (else the last). */
export function initialState(m: OperatingPointModel, recall: (key: string) => string | undefined): ExplorerState {
  const hasCoverage = m.coverage !== undefined && m.keys.coverage !== undefined;
  const mode: ExplorerMode = hasCoverage && recall('explorer.mode') === 'coverage' ? 'coverage' : 'threshold';
  const text = recall('explorer.threshold');
  const remembered = Number(text);
  const index =
    text !== undefined && Number.isFinite(remembered)
      ? Math.max(0, pointAtThreshold(m.threshold, remembered))
      : m.current >= 0
        ? m.current
        : m.threshold.length - 1;
  return { mode, index, writing: false };
}

const ARROWS = new Set(['ArrowRight', 'ArrowLeft', 'ArrowUp', 'ArrowDown']);

export class ThresholdExplorerElement extends LitElement {
  static override properties = { model: { attribute: false }, host: { attribute: false }, state: { state: true } };

  declare model: OperatingPointModel;
  declare host: ExplorerHost;
  declare state: ExplorerState;
  /** The charts this explorer has marked (to withdraw the markers). */
  private marked = new Set<string>();

  /** Light DOM: the report's stylesheets apply inside. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Back in the document: its markers again (the first ones are drawn after the first update).
    if (this.hasUpdated) this.publishMarks();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const chart of this.marked) this.host.mark(chart, undefined);
    this.marked.clear();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // A new model (or the first): the remembered point, else the evaluated one.
    if (changed.has('model') || this.state === undefined)
      this.state = initialState(this.model, (key) => this.host.recall(key));
  }

  protected override updated(): void {
    const { mode, index } = this.state;
    this.host.remember('explorer.mode', mode);
    this.host.remember('explorer.threshold', String(this.model.threshold[index]));
    if (this.isConnected) this.publishMarks();
  }

  private get modes(): ExplorerMode[] {
    return this.model.coverage !== undefined && this.model.keys.coverage !== undefined
      ? ['threshold', 'coverage']
      : ['threshold'];
  }

  /** The marker of the current point on each chart the model names (none where it has no finite x). */
  get marks(): { chart: string; line: RefLine | undefined }[] {
    const i = this.state.index;
    return this.model.markers.map((mk) => {
      const x = mk.x[i];
      const line: RefLine | undefined =
        typeof x === 'number' && Number.isFinite(x)
          ? {
              axis: 'x',
              value: x,
              label: `${mk.label} ${mk.label === 'accept ≥' ? formatThreshold(x) : formatNumber(x)}`,
              colour: 'purple',
            }
          : undefined;
      return { chart: mk.chart, line };
    });
  }

  private publishMarks(): void {
    for (const { chart, line } of this.marks) {
      this.host.mark(chart, line);
      this.marked.add(chart);
    }
  }

  /** The slider's (and the box's) value of point `i` in the current mode. */
  private pointValue(i: number): number {
    return this.state.mode === 'coverage' ? this.model.coverage![i]! : this.model.threshold[i]!;
  }

  /** The point a typed or dragged value selects, by the rule the config key would apply. */
  private pointFor(v: number): number {
    const m = this.model;
    return this.state.mode === 'coverage'
      ? pointAtCoverage(m.coverage!, v)
      : Math.max(0, pointAtThreshold(m.threshold, v));
  }

  /** Shows stored point `i` (clamped to the points). */
  show(i: number): void {
    this.state = { ...this.state, index: Math.min(this.model.threshold.length - 1, Math.max(0, i)) };
  }

  setMode(mode: ExplorerMode): void {
    this.state = { ...this.state, mode };
  }

  /** The point of a value typed in the box (Enter or change); a status line when it is no stored point. */
  private fromBox(text: string): void {
    const { mode } = this.state;
    const v = Number(text);
    if (text.trim() === '' || !Number.isFinite(v)) {
      this.host.status(`Type a number for the ${mode === 'coverage' ? 'coverage' : 'threshold'}.`);
      return;
    }
    const i = this.pointFor(v);
    this.show(i);
    const got = this.pointValue(i);
    const key = mode === 'coverage' ? this.model.keys.coverage : this.model.keys.threshold;
    if (got !== v)
      this.host.status(
        `No stored point at ${v}: the nearest exact point by the rule of ${key} is ${mode === 'coverage' ? formatNumber(got) : formatThreshold(got)}.`,
      );
  }

  /** One keystroke = one exact point (the native step would jump by a fraction of the range). */
  private onSliderKey(e: KeyboardEvent): void {
    const n = this.model.threshold.length;
    const { mode, index } = this.state;
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
      this.show(index + moves[e.key]!);
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      const lowest = mode === 'coverage' ? 0 : n - 1;
      this.show(e.key === 'Home' ? lowest : n - 1 - lowest);
    }
  }

  /** Arrow keys move the choice between the mode buttons (a radio group, one tab stop). */
  private onModeKey(e: KeyboardEvent, md: ExplorerMode): void {
    if (!ARROWS.has(e.key)) return;
    e.preventDefault();
    const list = this.modes;
    const forward = e.key === 'ArrowRight' || e.key === 'ArrowDown';
    const next = list[(list.indexOf(md) + (forward ? 1 : list.length - 1)) % list.length]!;
    this.setMode(next);
    this.querySelector<HTMLElement>(`.explorer-mode[data-mode="${next}"]`)?.focus();
  }

  /** Writes the point's key into the config (the host evaluates again). */
  async use(): Promise<void> {
    const m = this.model;
    const { mode, index } = this.state;
    const key = mode === 'coverage' ? m.keys.coverage! : m.keys.threshold;
    const value = mode === 'coverage' ? m.coverage![index]! : m.threshold[index]!;
    this.state = { ...this.state, writing: true };
    this.host.status(`Writing ${key} ${value} and evaluating again…`);
    try {
      const r = await request((seq) => ({ type: 'useOperatingPoint', seq, key, value }));
      this.host.status(r.message ?? (r.ok ? 'Done.' : 'Not written.'));
    } finally {
      this.state = { ...this.state, writing: false };
    }
  }

  override render(): TemplateResult {
    const m = this.model;
    const { mode, index, writing } = this.state;
    const n = m.threshold.length;
    const coverage = mode === 'coverage';
    const [lo, hi] = extent(coverage ? m.coverage! : m.threshold);
    const v = this.pointValue(index);
    const what = coverage ? 'Coverage' : 'Score threshold';
    const modes = this.modes;
    const t = m.threshold[index]!;
    const stored =
      m.stored < m.total
        ? `The slider snaps to ${formatCount(m.stored)} exact points stored in the results (of ${formatCount(m.total)}, one per distinct score); values are never interpolated.`
        : `Every one of the ${formatCount(m.total)} exact points (one per distinct score) is stored; the slider snaps to them.`;
    const cell = (key: string, label: string, value: number | null, text: string): TemplateResult =>
      html`<dt>${label}</dt>
        <dd data-key=${key} data-value=${value === null ? 'null' : String(value)}>${text}</dd>`;
    return html`<section
      class="explorer"
      aria-labelledby=${`explorer-title-${m.family}`}
      data-explorer=${m.family}
      data-index=${String(index)}
    >
      <div class="explorer-head"><h3 id=${`explorer-title-${m.family}`}>Threshold explorer</h3></div>
      <div class="explorer-controls">
        ${
          modes.length > 1
            ? html`<div class="explorer-modes" role="radiogroup" aria-label="Move the operating point by">
                ${modes.map(
                  (md) =>
                    html`<button
                      type="button"
                      role="radio"
                      class="explorer-mode"
                      data-mode=${md}
                      aria-checked=${String(md === mode)}
                      tabindex=${md === mode ? '0' : '-1'}
                      @click=${() => this.setMode(md)}
                      @keydown=${(e: KeyboardEvent) => this.onModeKey(e, md)}
                    >
                      ${md === 'threshold' ? 'Score threshold' : 'Coverage'}
                    </button>`,
                )}
              </div>`
            : nothing
        }
        <input
          type="range"
          class="explorer-slider"
          step="any"
          min=${String(lo)}
          max=${String(hi)}
          .value=${live(String(v))}
          aria-label=${`${what}: the operating point`}
          aria-valuetext=${`${coverage ? 'coverage' : 'threshold'} ${coverage ? formatNumber(v) : formatThreshold(v)}, point ${index + 1} of ${n}`}
          @input=${(e: Event) => this.show(this.pointFor((e.target as HTMLInputElement).valueAsNumber))}
          @keydown=${(e: KeyboardEvent) => this.onSliderKey(e)}
        />
        <div class="explorer-box">
          <label class="explorer-box-label">${coverage ? 'coverage' : 'threshold'}</label>
          <!-- a text field: the number type's step check would mark every score as invalid -->
          <vscode-textfield
            class="explorer-value"
            inputmode="decimal"
            aria-label=${`${what} (type a value and press Enter)`}
            .value=${live(coverage ? String(Number(v.toPrecision(6))) : formatThreshold(v))}
            @change=${(e: Event) => this.fromBox((e.currentTarget as HTMLInputElement).value)}
            @keydown=${(e: KeyboardEvent) => e.key === 'Enter' && this.fromBox((e.currentTarget as HTMLInputElement).value)}
          ></vscode-textfield>
        </div>
        <vscode-button
          class="explorer-use"
          title=${m.locked ?? `Write ${coverage ? m.keys.coverage : m.keys.threshold} into the config and evaluate again`}
          ?disabled=${m.locked !== undefined || writing}
          @click=${() => void this.use()}
          >Use this operating point</vscode-button
        >
        ${
          m.current >= 0
            ? html`<vscode-button
                secondary
                class="explorer-back"
                title="Go back to the operating point of the evaluation"
                @click=${() => this.show(m.current)}
                >Evaluated point</vscode-button
              >`
            : nothing
        }
      </div>
      <dl class="explorer-readout" aria-live="polite">
        ${cell(
          'threshold',
          m.family === 'importance' ? 'threshold (positive when score ≥ t)' : 'threshold (accept score ≥ t)',
          t,
          formatThreshold(t),
        )}
        ${m.columns.map((c) => {
          const x = c.values[index] ?? null;
          return cell(c.key, c.label, x, x === null ? '—' : c.kind === 'int' ? formatCount(x) : formatNumber(x, c.key));
        })}
      </dl>
      <p class="note explorer-where">${stored} Arrow keys move one point, Page Up/Down a twentieth of them.</p>
      ${m.locked ? html`<p class="note">${m.locked}</p>` : nothing}
      ${m.notes.map((x) => html`<p class="note">${x}</p>`)}
    </section>`;
  }
}

customElements.define('eval-threshold-explorer', ThresholdExplorerElement);

declare global {
  interface HTMLElementTagNameMap {
    'eval-threshold-explorer': ThresholdExplorerElement;
  }
}

/** The explorer of the operating points `m`. */
export function thresholdExplorer(m: OperatingPointModel, host: ExplorerHost): ThresholdExplorerElement {
  const e = document.createElement('eval-threshold-explorer');
  e.model = m;
  e.host = host;
  return e;
}
