/**
 * The slice finder in the panel (`<eval-found-slices>`): "Find weak slices" in a report's Slices
 * tab (the slices whose accuracy is significantly below the whole file) and "Where B loses" in a
 * comparison's Slices tab (the slices where run B is significantly below the baseline). The host
 * runs the finder in its inspection worker; this renders the answer (text only) as a table whose
 * rows open the slice's rows (one run: click or Enter).
 *
 * One state object (idle, running, done with the answer's view, error; an input rejected). The
 * found slices are its drill-down targets, declared in {@link FoundSlicesElement.drillTargets}.
 */
import { html, LitElement, nothing, type TemplateResult } from 'lit';
import type { DrillSpec } from '../src/shared/drillSpec';
import { foundSlicesView, type FoundSliceLine, type FoundSlicesView } from '../src/shared/foundSlicesView';
import { activates, type DrillSource, type DrillTarget, type OpenRows } from './drill';
import { ask } from './vscodeApi';

export interface FoundSlicesOptions {
  status(text: string): void;
  /** One run: lists the rows of a found slice under `anchor` (the rows panel). */
  openRows?: OpenRows;
  /** A comparison: its baseline and the other runs, one of which is B. */
  compare?: { baseline: string; runs: { id: string; name: string }[] };
}

export interface FoundSlicesState {
  phase: 'idle' | 'running' | 'done' | 'error';
  /** The finder's answer as shown (phase done). */
  view?: FoundSlicesView;
  /** Why the finder failed (phase error). */
  error?: string;
  /** An input the button refused (the phase stays as it was). */
  invalid?: string;
}

/** Max slices listed by default, as `--max-slices`. */
const DEFAULT_LIMIT = 20;

/** A whole number typed in `input` within [min, max]; undefined when empty, null when not one. */
function wholeNumber(input: HTMLInputElement | null, min: number, max: number): number | undefined | null {
  const text = input?.value.trim() ?? '';
  if (text === '') return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n >= min && n <= max ? n : null;
}

/** The rows of a found slice. */
function sliceSpec(line: FoundSliceLine): DrillSpec {
  return { title: `Slice ${line.name}`, where: line.where };
}

export class FoundSlicesElement extends LitElement implements DrillSource {
  static override properties = { options: { attribute: false }, state: { state: true } };

  declare options: FoundSlicesOptions;
  declare state: FoundSlicesState;

  constructor() {
    super();
    this.state = { phase: 'idle' };
  }

  /** Light DOM: the report's stylesheets apply inside. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  /** The found slices' table rows, each opening its slice's rows (one run only; none before an answer). */
  get drillTargets(): DrillTarget[] {
    const { view } = this.state;
    if (!view || view.empty || !this.options.openRows) return [];
    const rows = this.querySelectorAll<HTMLElement>('tr.found-slice');
    // The rows panel opens after the element, outside what Lit draws.
    return view.lines.map((line, i) => ({ element: rows[i]!, spec: sliceSpec(line), anchor: this }));
  }

  private open(i: number): void {
    const t = this.drillTargets[i];
    if (t) this.options.openRows?.(t.spec, t.anchor, t.element);
  }

  /** Asks the host for the slices with the inputs' values. */
  async find(): Promise<void> {
    if (this.state.phase === 'running') return;
    const minSupport = wholeNumber(this.querySelector('input.found-min-support'), 1, Number.MAX_SAFE_INTEGER);
    const limit = wholeNumber(this.querySelector('input.found-limit'), 0, 1000);
    if (minSupport === null || limit === null) {
      this.state = {
        ...this.state,
        invalid:
          minSupport === null
            ? 'Min support expects a whole number ≥ 1 (or empty for the default).'
            : 'Max slices expects a whole number from 0 to 1000.',
      };
      return;
    }
    const run = this.querySelector<HTMLSelectElement>('select.found-run')?.value;
    this.state = { phase: 'running' };
    this.options.status('Finding slices…');
    const a = await ask((seq) => ({
      type: 'findSlices',
      seq,
      ...(minSupport !== undefined ? { minSupport } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(run !== undefined ? { run } : {}),
    }));
    this.options.status('');
    if (a.type !== 'foundSlices') {
      const error = a.type === 'reply' ? (a.message ?? 'The slice finder failed.') : 'The slice finder failed.';
      this.state = { phase: 'error', error };
      return;
    }
    this.state = { phase: 'done', view: foundSlicesView(a.result) };
  }

  override render(): TemplateResult {
    const { compare } = this.options;
    const two = compare !== undefined;
    const s = this.state;
    return html`<section
      class="found-slices"
      data-state=${s.phase}
      data-found=${s.view ? String(s.view.lines.length) : nothing}
    >
      <h3>${two ? 'Where B loses' : 'Weak slices'}</h3>
      <p class="note">
        ${
          two
            ? 'The slices (one value or bin of a column, or a pair of them) where B’s accuracy is significantly below A’s on the same rows.'
            : 'The slices (one value or bin of a column, or a pair of them) whose accuracy is significantly below the whole file.'
        }
      </p>
      <div class="found-slices-controls">
        ${
          compare
            ? html`<label
                >B (against the baseline ${compare.baseline})
                <select class="found-run" aria-label="Run B (compared with the baseline A)">
                  ${compare.runs.map((r) => html`<option value=${r.id}>${r.name}</option>`)}
                </select></label
              >`
            : nothing
        }
        <label
          >Min support
          <input
            type="number"
            min="1"
            step="1"
            placeholder="default"
            title="Empty: the larger of 30 and 1% of the rows"
            class="found-min-support"
            aria-label="Minimum support: rows a slice needs to be tried (empty: the larger of 30 and 1% of the rows)"
        /></label>
        <label
          >Max slices
          <input
            type="number"
            min="0"
            max="1000"
            step="1"
            value=${DEFAULT_LIMIT}
            class="found-limit"
            aria-label="Slices listed at most"
        /></label>
        <vscode-button data-act="find-slices" ?disabled=${s.phase === 'running'} @click=${() => void this.find()}
          >${two ? 'Find where B loses' : 'Find weak slices'}</vscode-button
        >
      </div>
      <div class="found-slices-out" aria-live="polite">${this.output()}</div>
    </section>`;
  }

  private output(): TemplateResult | typeof nothing {
    const s = this.state;
    if (s.invalid) return html`<p class="error">${s.invalid}</p>`;
    if (s.phase === 'running') return html`<p class="note">Finding slices…</p>`;
    if (s.phase === 'error') return html`<p class="error" role="alert">${s.error}</p>`;
    const v = s.view;
    if (!v) return nothing;
    const note = html`<p class="note found-slices-note">${v.note}</p>`;
    if (v.empty)
      return html`${note}
        <p class="found-slices-empty">${v.empty}</p>`;
    const drill = this.options.openRows !== undefined;
    return html`${note}
      <div class="scroll-x">
        <table class="plain found-slices-table">
          <thead>
            <tr>
              ${v.columns.map((c, j) => html`<th scope="col" class=${j === 0 ? '' : 'num'}>${c}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${v.lines.map(
              (line, i) =>
                html`<tr
                  class=${`found-slice${line.significant ? ' significant' : ''}${drill ? ' drillable' : ''}`}
                  data-slice=${line.name}
                  tabindex=${drill ? '0' : nothing}
                  aria-description=${drill ? 'Press Enter (or click) to list the rows of this slice.' : nothing}
                  @click=${drill ? () => this.open(i) : nothing}
                  @keydown=${drill ? (e: KeyboardEvent) => activates(e) && this.open(i) : nothing}
                >
                  <th scope="row">${line.name}</th>
                  ${line.cells.map((c) => html`<td class="num">${c}</td>`)}
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${drill ? html`<p class="note">Choose a slice (click or Enter) to list its rows.</p>` : nothing}`;
  }
}

customElements.define('eval-found-slices', FoundSlicesElement);

declare global {
  interface HTMLElementTagNameMap {
    'eval-found-slices': FoundSlicesElement;
  }
}

/** The section: its inputs, its button, and the found slices once asked for. */
export function foundSlicesSection(opts: FoundSlicesOptions): FoundSlicesElement {
  const e = document.createElement('eval-found-slices');
  e.options = opts;
  return e;
}
