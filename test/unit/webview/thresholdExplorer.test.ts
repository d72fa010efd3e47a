/// <reference lib="dom" />
// The threshold explorer's component in a DOM (happy-dom), on the selective family of
// examples/digits-lt/logreg.csv: the readout of the evaluated point (targetCoverage 0.8 on the
// validation rows; the threshold's accepted test rows and errors counted from the CSV by hand), the markers it hands the host
// for the risk–coverage and reliability charts (drawn from its own state: the report's chart models
// are left as they were), the slider's keys, the number box, the mode buttons, the remembered
// point, "Use this operating point" (the message it posts), and the markers withdrawn on disconnect.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Results } from '../../../src/core/results/types';
import { formatNumber } from '../../../src/shared/format';
import type { RefLine, ReportModel } from '../../../src/shared/model';
import { pointAtThreshold, type OperatingPointModel } from '../../../src/shared/operatingPoint';
import { logregReport } from './classificationExample';
import { installDom, until, type TestDom } from './happyDom';

const CSV = 'examples/digits-lt/logreg.csv';

let dom: TestDom;
let model: ReportModel;
let results: Results;
let m: OperatingPointModel;
let te: typeof import('../../../webview/thresholdExplorer');
let api: typeof import('../../../webview/vscodeApi');

before(async () => {
  ({ model, results } = await logregReport());
  m = model.tabs.find((t) => t.explorer)!.explorer!;
  dom = installDom();
  te = await import('../../../webview/thresholdExplorer');
  api = await import('../../../webview/vscodeApi');
});
after(() => dom.close());

/** The test rows (the rows the curve was measured on) accepted at threshold `t` (confidence ≥ t), and the errors among them, counted from the CSV. */
function acceptedAt(t: number): { accepted: number; errors: number; test: number } {
  let accepted = 0;
  let errors = 0;
  let rows = 0;
  for (const line of readFileSync(CSV, 'utf8').trimEnd().split('\n').slice(1)) {
    const c = line.split(',');
    if (c[3] !== 'test') continue;
    rows++;
    if (Math.max(...c.slice(4).map(Number)) < t) continue;
    accepted++;
    if (c[1] !== c[2]) errors++;
  }
  return { accepted, errors, test: rows };
}

/** A host that records what the explorer asks of it; `marks` holds the markers drawn now, by chart. */
function host(memory: Record<string, string> = {}) {
  const h = {
    memory,
    status: [] as string[],
    marks: new Map<string, RefLine>(),
    markCalls: 0,
    recall: (k: string) => memory[k],
    remember: (k: string, v: string) => void (memory[k] = v),
    statusOf: (t: string) => void h.status.push(t),
    mark: (chart: string, line: RefLine | undefined) => {
      h.markCalls++;
      if (line) h.marks.set(chart, line);
      else h.marks.delete(chart);
    },
  };
  return h;
}

async function mount(memory: Record<string, string> = {}) {
  const h = host(memory);
  const e = te.thresholdExplorer(m, { status: h.statusOf, recall: h.recall, remember: h.remember, mark: h.mark });
  document.body.append(e);
  await e.updateComplete;
  const section = (): HTMLElement => e.querySelector<HTMLElement>('section.explorer')!;
  const readout = (): Record<string, string> =>
    Object.fromEntries(
      [...e.querySelectorAll<HTMLElement>('dd[data-key]')].map((dd) => [dd.dataset.key!, dd.dataset.value!]),
    );
  const slider = (): HTMLInputElement => e.querySelector<HTMLInputElement>('input.explorer-slider')!;
  return { e, h, section, readout, slider };
}

const key = (target: HTMLElement, k: string): boolean =>
  target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));

test('the evaluated point: the readout is the curve’s stored point, equal to a count from the CSV', async () => {
  const { e, h, section, readout, slider } = await mount();
  const c = results.curves.riskCoverage!;
  const k = m.current;
  assert.equal(section().dataset.explorer, 'selective');
  assert.equal(section().dataset.index, String(k));
  const r = readout();
  // targetCoverage 0.8 chose the threshold on the validation rows: the point shown is the metrics' own, on the test rows
  assert.equal(r.coverage, String(results.metrics.coverage!.value));
  assert.equal(r.selective_risk, String(results.metrics.selective_risk!.value));
  assert.equal(r.threshold, String(c.extra!.threshold![k]));
  // by hand: the test rows whose largest class probability reaches the threshold
  const byHand = acceptedAt(c.extra!.threshold![k]!);
  assert.equal(r.accepted, String(byHand.accepted));
  assert.equal(Number(r.coverage), byHand.accepted / byHand.test);
  assert.equal(Number(r.selective_risk), byHand.errors / byHand.accepted);
  assert.equal(e.querySelector('dd[data-key="coverage"]')!.textContent, formatNumber(c.xs[k]!));
  assert.equal(Number(slider().value), c.extra!.threshold![k]);
  assert.equal(
    slider().getAttribute('aria-valuetext'),
    `threshold ${te.formatThreshold(c.extra!.threshold![k]!)}, point ${k + 1} of ${m.threshold.length}`,
  );
  assert.equal(e.querySelector('.explorer-box-label')!.textContent, 'threshold');
  assert.equal(
    e.querySelector('.explorer-use')!.getAttribute('title'),
    'Write acceptThreshold into the config and evaluate again',
  );
  assert.deepEqual(h.memory, { 'explorer.mode': 'threshold', 'explorer.threshold': String(c.extra!.threshold![k]) });
  e.remove();
});

test('the markers are drawn from the explorer’s state; the report’s chart models are not changed', async () => {
  const charts = model.tabs.flatMap((t) => t.charts);
  const linesBefore = new Map(charts.map((c) => [c.id, JSON.stringify(c.lines ?? null)]));
  const { e, h, slider } = await mount();
  const k = m.current;
  const t = m.threshold[k]!;
  assert.deepEqual(
    [...h.marks],
    [
      [
        'riskCoverage',
        { axis: 'x', value: m.coverage![k], label: `coverage ${formatNumber(m.coverage![k]!)}`, colour: 'purple' },
      ],
      ['reliability', { axis: 'x', value: t, label: `accept ≥ ${te.formatThreshold(t)}`, colour: 'purple' }],
    ],
  );
  assert.deepEqual(
    e.marks,
    [...h.marks].map(([chart, line]) => ({ chart, line })),
  );
  key(slider(), 'ArrowLeft');
  await e.updateComplete;
  assert.equal(h.marks.get('riskCoverage')!.value, m.coverage![k + 1]);
  assert.equal(h.marks.get('reliability')!.value, m.threshold[k + 1]);
  for (const c of charts) assert.equal(JSON.stringify(c.lines ?? null), linesBefore.get(c.id), `chart ${c.id}`);
  e.remove();
});

test('the slider’s keys move one stored point (Page a twentieth, Home/End the ends); a drag snaps to a point', async () => {
  const { e, h, section, readout, slider } = await mount();
  const k = m.current;
  const n = m.threshold.length;
  const at = async (k0: string): Promise<number> => {
    assert.equal(key(slider(), k0), false, `${k0} is taken by the explorer`);
    await e.updateComplete;
    return Number(section().dataset.index);
  };
  // threshold mode: the thresholds decrease along the points, so a lower value is a later point
  assert.equal(await at('ArrowLeft'), k + 1);
  assert.equal(await at('ArrowUp'), k);
  assert.equal(await at('PageDown'), k + Math.round(n / 20));
  assert.equal(await at('Home'), n - 1);
  assert.equal(await at('End'), 0);
  assert.equal(await at('ArrowRight'), 0, 'clamped at the first point');
  assert.equal(readout().threshold, String(m.threshold[0]));
  assert.equal(h.memory['explorer.threshold'], String(m.threshold[0]));
  // a value between two stored thresholds: the smallest stored threshold ≥ it
  const between = (m.threshold[40]! + m.threshold[41]!) / 2;
  slider().value = String(between);
  slider().dispatchEvent(new Event('input', { bubbles: true }));
  await e.updateComplete;
  assert.equal(section().dataset.index, String(pointAtThreshold(m.threshold, between)));
  assert.equal(section().dataset.index, '40');
  assert.equal(Number(slider().value), m.threshold[40], 'the thumb sits on the stored point');
  e.remove();
});

test('the number box and the mode buttons (keyboard too); Evaluated point goes back', async () => {
  const { e, h, section, readout, slider } = await mount();
  const box = e.querySelector<HTMLElement & { value: string }>('vscode-textfield.explorer-value')!;
  const type = async (text: string): Promise<void> => {
    box.value = text;
    key(box, 'Enter');
    await e.updateComplete;
  };
  await type('0.5');
  const k = pointAtThreshold(m.threshold, 0.5);
  assert.equal(section().dataset.index, String(k));
  assert.equal(
    h.status.at(-1),
    `No stored point at 0.5: the nearest exact point by the rule of acceptThreshold is ${te.formatThreshold(m.threshold[k]!)}.`,
  );
  assert.equal(box.value, te.formatThreshold(m.threshold[k]!));
  await type('high');
  assert.equal(h.status.at(-1), 'Type a number for the threshold.');
  assert.equal(section().dataset.index, String(k));

  const coverage = e.querySelector<HTMLElement>('.explorer-mode[data-mode="coverage"]')!;
  const threshold = e.querySelector<HTMLElement>('.explorer-mode[data-mode="threshold"]')!;
  assert.equal(threshold.getAttribute('aria-checked'), 'true');
  assert.equal(threshold.tabIndex, 0);
  assert.equal(coverage.tabIndex, -1);
  coverage.click();
  await e.updateComplete;
  assert.equal(coverage.getAttribute('aria-checked'), 'true');
  assert.equal(h.memory['explorer.mode'], 'coverage');
  assert.equal(e.querySelector('.explorer-box-label')!.textContent, 'coverage');
  assert.equal(slider().getAttribute('aria-label'), 'Coverage: the operating point');
  assert.equal(Number(slider().value), m.coverage![k]);
  // coverage 0.9: the first point that reaches it; the keys now move towards more coverage
  await type('0.9');
  const j = m.coverage!.findIndex((x) => x >= 0.9 * (1 - 1e-12));
  assert.equal(section().dataset.index, String(j));
  assert.equal(readout().coverage, String(m.coverage![j]));
  key(slider(), 'ArrowRight');
  await e.updateComplete;
  assert.equal(section().dataset.index, String(j + 1));
  // arrows on the radio group move the choice and the focus
  key(coverage, 'ArrowRight');
  await e.updateComplete;
  assert.equal(threshold.getAttribute('aria-checked'), 'true');
  assert.equal(document.activeElement, threshold);
  e.querySelector<HTMLElement>('.explorer-back')!.click();
  await e.updateComplete;
  assert.equal(section().dataset.index, String(m.current));
  e.remove();
});

test('a remembered point and mode come back; "Use this operating point" posts the point’s key and value', async () => {
  const j = m.current - 10;
  const { e, h, section } = await mount({ 'explorer.mode': 'coverage', 'explorer.threshold': String(m.threshold[j]) });
  assert.equal(section().dataset.index, String(j));
  assert.equal(e.querySelector('.explorer-mode[aria-checked="true"]')!.getAttribute('data-mode'), 'coverage');
  const use = e.querySelector<HTMLElement>('vscode-button.explorer-use')!;
  use.click();
  const q = await dom.nextPosted('useOperatingPoint');
  assert.deepEqual(q, { type: 'useOperatingPoint', seq: q.seq, key: 'targetCoverage', value: m.coverage![j] });
  await e.updateComplete;
  assert.ok(use.hasAttribute('disabled'), 'no second write while one is under way');
  assert.equal(h.status.at(-1), `Writing targetCoverage ${m.coverage![j]} and evaluating again…`);
  api.answer({ type: 'reply', seq: q.seq, ok: true, message: 'Wrote targetCoverage.' });
  await until(() => !use.hasAttribute('disabled'), 'the button enabled again');
  assert.equal(h.status.at(-1), 'Wrote targetCoverage.');
  e.remove();
});

test('the markers are withdrawn when the explorer leaves the document and drawn again when it comes back', async () => {
  const { e, h, slider } = await mount();
  const parent = e.parentElement!;
  assert.deepEqual([...h.marks.keys()], ['riskCoverage', 'reliability']);
  e.remove();
  assert.equal(h.marks.size, 0);
  // detached, the explorer marks nothing
  const calls = h.markCalls;
  key(slider(), 'ArrowLeft');
  await e.updateComplete;
  assert.equal(h.markCalls, calls);
  parent.append(e);
  await e.updateComplete;
  assert.equal(h.marks.get('riskCoverage')!.value, m.coverage![m.current + 1]);
  assert.equal(h.marks.get('reliability')!.value, m.threshold[m.current + 1]);
  e.remove();
});
