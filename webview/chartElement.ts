/**
 * `<eval-chart>`: one chart.js chart of the report (charts.ts draws it) on its own canvas. It owns
 * the chart.js instance: drawn the first time the element has a size (a chart in a hidden tab, or
 * behind its data table, has none), drawn again when its model or the theme changes, given new
 * markers without being rebuilt, and destroyed when the element leaves the document, as are its
 * theme and size observers. The figure around it (caption, variant select, table, PNG) is
 * `<eval-figure>`'s (figure.ts). Light DOM: the report's stylesheets and the UI tests' selectors reach the canvas.
 *
 * Its points are no elements, so no drill-down targets (webview/drill.ts): it says which points lie
 * under a mouse event (`pointsAt`), and the figure around it (`<eval-figure>`), which knows the rows
 * behind them, opens them on a click; the keyboard reaches the same rows through the chart's table.
 */
import { LitElement, html } from 'lit';
import type { ChartModel, RefLine } from '../src/shared/model';
import { drawChart, type ChartPoint, type DrawOptions, type Drawn } from './charts';
import { readTheme, type Theme } from './theme';
import { vscode } from './vscodeApi';

/** Draws a chart on a canvas ({@link drawChart}; a test hands in its own: happy-dom has no 2D canvas). */
export type DrawChart = (canvas: HTMLCanvasElement, model: ChartModel, theme: Theme, opts?: DrawOptions) => Drawn;

/**
 * The chart's one state object: waiting for a size (never drawn, or taken down on leaving the
 * document), drawn (with the model and markers drawn), or failed (chart.js threw; the table stays).
 */
export type ChartState =
  | { phase: 'waiting' }
  | { phase: 'drawn'; model: ChartModel; marks: readonly RefLine[] }
  | { phase: 'failed'; message: string };

export class ChartElement extends LitElement {
  static override properties = {
    model: { attribute: false },
    marks: { attribute: false },
    state: { state: true },
  };

  /** The chart drawn (the report's, or the item map with a user highlighted); read, never changed. */
  declare model: ChartModel;
  /** Lines laid over the model's own (the threshold explorer's marker). */
  declare marks: readonly RefLine[];
  declare state: ChartState;
  /** Draws on the canvas; chart.js through charts.ts unless a test hands in its own. */
  draw: DrawChart = drawChart;
  /** Reads the theme's colours. */
  theme: () => Theme = readTheme;

  private drawn: Drawn | undefined;
  private readonly themeObserver = new MutationObserver(() => {
    if (this.drawn) this.paint();
  });
  private sizeObserver: ResizeObserver | undefined;

  constructor() {
    super();
    this.marks = [];
    this.state = { phase: 'waiting' };
  }

  /** Light DOM: the report's stylesheets apply inside. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // VS Code switches the body's theme class; the chart's colours are read again.
    this.themeObserver.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    // A canvas without a size (hidden tab, table shown) is drawn once it gets one; after that
    // chart.js follows the size itself.
    this.sizeObserver = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1]?.contentRect;
      if (box && box.width > 0 && box.height > 0 && this.state.phase === 'waiting') this.paint();
    });
    this.sizeObserver.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.themeObserver.disconnect();
    this.sizeObserver?.disconnect();
    this.sizeObserver = undefined;
    this.drawn?.destroy();
    this.drawn = undefined;
    this.state = { phase: 'waiting' };
  }

  /** The chart.js chart on the canvas, while drawn. */
  get chart(): Drawn | undefined {
    return this.drawn;
  }

  /** The points under a mouse event on the canvas, nearest first; none while the chart is not drawn. */
  pointsAt(e: MouseEvent): ChartPoint[] {
    return this.drawn?.pointsAt?.(e) ?? [];
  }

  protected override render(): unknown {
    const c = this.model;
    return html`<canvas
      tabindex="0"
      role="img"
      aria-label=${`${c.title}. ${c.description} Press Enter for the data table.`}
    ></canvas>`;
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    const s = this.state;
    // A failed chart is tried again with a new model (the item map's highlight); a waiting one is
    // drawn with whatever model it has when it gets a size.
    if (s.phase === 'failed' && changed.has('model')) this.paint();
    if (s.phase !== 'drawn') return;
    if (changed.has('model') && s.model !== this.model) this.paint();
    else if (changed.has('marks') && s.marks !== this.marks) {
      this.drawn?.mark?.(this.marks);
      this.state = { ...s, marks: this.marks };
    }
  }

  /** Draws the chart anew (the chart before it destroyed). */
  private paint(): void {
    const canvas = this.querySelector('canvas');
    this.drawn?.destroy();
    this.drawn = undefined;
    if (!canvas) return;
    try {
      this.drawn = this.draw(canvas, this.model, this.theme(), { marks: this.marks });
      this.state = { phase: 'drawn', model: this.model, marks: this.marks };
    } catch (err) {
      const message = (err as Error).message;
      console.error(`Eval Lens chart ${this.model.id}:`, err);
      vscode.postMessage({ type: 'log', level: 'error', message: `chart ${this.model.id}: ${message}` });
      this.state = { phase: 'failed', message };
    }
  }
}

customElements.define('eval-chart', ChartElement);

declare global {
  interface HTMLElementTagNameMap {
    'eval-chart': ChartElement;
  }
}

/** A chart element drawing `model` with `marks` (drawn once it has a size). */
export function chartElement(model: ChartModel, marks: readonly RefLine[]): ChartElement {
  const e = document.createElement('eval-chart');
  e.model = model;
  e.marks = marks;
  return e;
}
