/// <reference lib="dom" />
// The chart element (<eval-chart>) in a DOM (happy-dom), with the risk–coverage chart of the
// report of examples/digits-lt/logreg.csv. happy-dom has no 2D canvas, so chart.js cannot draw
// here: the element is given a drawing function that records what it is asked to draw (the UI
// tests draw the real charts in Chromium). Checked: the canvas and its accessible text; nothing
// drawn before the element has a size; drawn once with the report's model and markers when it
// gets one; new markers laid over the drawn chart without drawing it again; a new model (the item
// map's highlight) and a theme change draw it again, the chart before destroyed; leaving the
// document destroys the chart and disconnects the theme and size observers (a later theme change
// draws nothing); a chart that fails to draw says so in the host's log and is tried again with a
// new model.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChartModel, RefLine, ReportModel } from '../../../src/shared/model';
import type { DrawOptions, Drawn } from '../../../webview/charts';
import type { Theme } from '../../../webview/theme';
import { logregReport } from './classificationExample';
import { lightTheme } from './lightTheme';
import { countListeners, fakeResizeObservers, installDom, type SizeObserver, type TestDom } from './happyDom';

let dom: TestDom;
let model: ReportModel;
let sizes: SizeObserver[];
let ce: typeof import('../../../webview/chartElement');

before(async () => {
  ({ model } = await logregReport());
  dom = installDom();
  sizes = fakeResizeObservers();
  ce = await import('../../../webview/chartElement');
});
after(() => dom.close());

const chartOf = (id: string): ChartModel => model.tabs.flatMap((t) => t.charts).find((c) => c.id === id)!;

const THEME: Theme = lightTheme();

/** One call of the drawing function, with what the chart it returned was asked since. */
interface Drawing {
  canvas: HTMLCanvasElement;
  model: ChartModel;
  marks: readonly RefLine[];
  theme: Theme;
  destroyed: number;
  marked: (readonly RefLine[])[];
}

/** A chart element drawing `c` through a recording function, in a `.canvas-box` in the document. */
async function mount(c: ChartModel, marks: readonly RefLine[] = [], fail?: string) {
  const drawings: Drawing[] = [];
  const e = ce.chartElement(c, marks);
  e.theme = () => THEME;
  e.draw = (canvas: HTMLCanvasElement, m: ChartModel, theme: Theme, opts?: DrawOptions): Drawn => {
    if (fail) throw new Error(fail);
    const d: Drawing = { canvas, model: m, marks: opts?.marks ?? [], theme, destroyed: 0, marked: [] };
    drawings.push(d);
    return { canvas, destroy: () => void d.destroyed++, mark: (lines) => void d.marked.push(lines) };
  };
  const box = document.createElement('div');
  box.className = 'canvas-box';
  box.append(e);
  const made = sizes.length;
  document.body.append(box);
  await e.updateComplete;
  assert.equal(sizes.length, made + 1, 'one size observer per element');
  const size = sizes[sizes.length - 1]!;
  assert.deepEqual(size.targets, [e]);
  return { e, box, size, drawings };
}

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

test('the canvas is labelled from the model; drawn once it has a size, with the report’s model and markers', async () => {
  const c = chartOf('riskCoverage');
  const mark: RefLine = { axis: 'x', value: 0.8, label: 'coverage 0.800', colour: 'orange' };
  const { e, box, size, drawings } = await mount(c, [mark]);
  const canvas = e.querySelector('canvas')!;
  assert.equal(canvas.getAttribute('tabindex'), '0');
  assert.equal(canvas.getAttribute('role'), 'img');
  assert.equal(canvas.getAttribute('aria-label'), `Risk–coverage. ${c.description} Press Enter for the data table.`);
  assert.ok(box.querySelector('.canvas-box canvas'), 'the UI tests’ selectors reach the canvas');
  // A hidden tab (or the table shown): no size, nothing drawn.
  assert.equal(drawings.length, 0);
  assert.deepEqual(e.state, { phase: 'waiting' });
  size.resize(0, 0);
  assert.equal(drawings.length, 0);
  size.resize(960, 340);
  assert.equal(drawings.length, 1);
  assert.equal(drawings[0]!.canvas, canvas);
  assert.equal(drawings[0]!.model, c, 'the report’s own model object, not a copy');
  assert.deepEqual(drawings[0]!.marks, [mark]);
  assert.equal(drawings[0]!.theme, THEME);
  assert.equal(e.state.phase, 'drawn');
  assert.equal(e.chart?.canvas, canvas);
  // chart.js follows later sizes itself: another size draws nothing anew.
  size.resize(700, 340);
  assert.equal(drawings.length, 1);
  box.remove();
});

test('markers are laid over the drawn chart; a new model and a theme change draw it again', async () => {
  const c = chartOf('reliability');
  const linesBefore = JSON.stringify(c.lines ?? null);
  const { e, box, size, drawings } = await mount(c);
  size.resize(960, 340);
  assert.equal(drawings.length, 1);
  const mark: RefLine = { axis: 'x', value: 0.9, label: 'threshold 0.900', colour: 'orange' };
  e.marks = [mark];
  await e.updateComplete;
  assert.equal(drawings.length, 1, 'a marker does not rebuild the chart');
  assert.deepEqual(drawings[0]!.marked, [[mark]]);
  assert.equal(JSON.stringify(c.lines ?? null), linesBefore, 'the model is not changed');
  // Another model (the item map's highlight does this): the chart before is destroyed.
  const other = { ...c, series: c.series.slice(0, 1) };
  e.model = other;
  await e.updateComplete;
  assert.equal(drawings.length, 2);
  assert.equal(drawings[0]!.destroyed, 1);
  assert.equal(drawings[1]!.model, other);
  assert.deepEqual(drawings[1]!.marks, [mark]);
  // VS Code switches the body's theme class: drawn again with the colours read anew.
  document.body.className = 'vscode-dark';
  await tick();
  assert.equal(drawings.length, 3);
  assert.equal(drawings[1]!.destroyed, 1);
  assert.equal(drawings[2]!.model, other);
  box.remove();
  document.body.className = '';
  await tick();
});

test('leaving the document destroys the chart and disconnects its observers; no listener is left', async () => {
  const onWindow = countListeners(window);
  const onDocument = countListeners(document);
  const onBody = countListeners(document.body);
  // The body's observers (the theme's), counted as they observe and disconnect.
  const proto = MutationObserver.prototype;
  const { observe, disconnect } = proto;
  const watching = new Set<MutationObserver>();
  proto.observe = function (this: MutationObserver, target: Node, options?: MutationObserverInit) {
    if (target === document.body) watching.add(this);
    observe.call(this, target, options);
  };
  proto.disconnect = function (this: MutationObserver) {
    watching.delete(this);
    disconnect.call(this);
  };
  const { e, box, size, drawings } = await mount(chartOf('perClassAccuracy'));
  assert.equal(watching.size, 1, 'the theme observer');
  size.resize(960, 340);
  assert.equal(drawings.length, 1);
  box.remove();
  assert.equal(drawings[0]!.destroyed, 1, 'chart.destroy() on disconnect');
  assert.equal(size.disconnected, true);
  assert.equal(e.chart, undefined);
  assert.deepEqual(e.state, { phase: 'waiting' });
  assert.equal(watching.size, 0, 'the theme observer disconnected');
  proto.observe = observe;
  proto.disconnect = disconnect;
  // The theme observer is gone with it: a theme change draws nothing.
  document.body.className = 'vscode-light';
  await tick();
  assert.equal(drawings.length, 1);
  document.body.className = '';
  await tick();
  for (const counted of [onWindow, onDocument, onBody]) {
    for (const [type, n] of counted.listening) assert.equal(n, 0, `${type} listeners left`);
    counted.restore();
  }
  // Back in the document (the same figure moved): drawn again once it has a size.
  document.body.append(box);
  await e.updateComplete;
  const again = sizes[sizes.length - 1]!;
  assert.notEqual(again, size);
  again.resize(960, 340);
  assert.equal(drawings.length, 2);
  box.remove();
  assert.equal(drawings[1]!.destroyed, 1);
});

test('a chart that fails to draw says so in the host’s log and is tried again with a new model', async () => {
  const c = chartOf('aurcBars');
  const { e, box, size, drawings } = await mount(c, [], 'no context');
  const logged = dom.posted.length;
  const errors: unknown[][] = [];
  const consoleError = console.error;
  console.error = (...args: unknown[]) => void errors.push(args);
  try {
    size.resize(960, 340);
  } finally {
    console.error = consoleError;
  }
  assert.equal(errors.length, 1);
  assert.deepEqual(e.state, { phase: 'failed', message: 'no context' });
  assert.deepEqual(dom.posted.slice(logged), [{ type: 'log', level: 'error', message: 'chart aurcBars: no context' }]);
  assert.equal(drawings.length, 0);
  e.draw = (canvas, m, theme, opts) => {
    drawings.push({ canvas, model: m, marks: opts?.marks ?? [], theme, destroyed: 0, marked: [] });
    return { canvas, destroy: () => undefined };
  };
  e.model = { ...c };
  await e.updateComplete;
  assert.equal(drawings.length, 1);
  assert.equal(e.state.phase, 'drawn');
  box.remove();
});
