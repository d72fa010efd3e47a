/// <reference lib="dom" />
// The Changed rows tab's component in a DOM (happy-dom), on a comparison of three bundled digits
// runs (examples/digits-lt: logreg, the baseline, against knn and svc_rbf) built as the host builds
// it (compareFiles, then the panel's model with its Changed rows tab), answered with the host's own
// computation (diffRuns, as the inspection worker runs it). Checked against the CSV files read here:
// the rows that flipped (lost first, in the baseline's file order), each row's cells, the four cells,
// the counts line with Δ and McNemar's exact p (computed here from the binomial distribution); its
// targets (each changed row opens its lines in both files: Open, Enter, Space), the keyboard's one
// tab stop, the run, the metric, the filter and "Show more" asking again (an older answer dropped),
// numbered rows without targets, and the visibility observer and listeners gone on disconnect.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compareFiles } from '../../../src/core/compare/files';
import { diffRuns } from '../../../src/core/compare/diffRows';
import type { RowDiff } from '../../../src/core/compare/diffTypes';
import type { CompareResults } from '../../../src/core/compare/types';
import { formatWhere } from '../../../src/core/rows/where';
import { withChangedRowsTab } from '../../../src/shared/changedRowsModel';
import { buildCompareModel } from '../../../src/shared/compareModel';
import type { ChangedRowsModel } from '../../../src/shared/model';
import type { DiffQuery, WebviewMessage } from '../../../src/shared/protocol';
import {
  countListeners,
  fakeIntersectionObservers,
  installDom,
  until,
  type TestDom,
  type VisibilityObserver,
} from './happyDom';

const DIR = 'examples/digits-lt';
const [LOGREG, KNN, SVC] = ['logreg', 'knn', 'svc_rbf'].map((n) => `${DIR}/${n}.csv`) as [string, string, string];

let dom: TestDom;
let c: CompareResults;
let model: ChangedRowsModel;
let cr: typeof import('../../../webview/changedRows');
let api: typeof import('../../../webview/vscodeApi');

/** The host's answers, computed before the DOM is installed (the core runs in plain Node, as on the host). */
const answers = new Map<string, RowDiff>();
const key = (q: DiffQuery): string => JSON.stringify([q.run, q.metric ?? null, q.where, q.limit]);
const QUERIES: DiffQuery[] = [
  { run: KNN, metric: 'accuracy', where: [], limit: 50 },
  { run: KNN, metric: 'accuracy', where: [{ key: 'label', op: '=', value: '9' }], limit: 50 },
  { run: KNN, metric: 'nll', where: [], limit: 50 },
  { run: KNN, metric: 'nll', where: [], limit: 100 },
  { run: SVC, metric: 'accuracy', where: [], limit: 50 },
];

/** The visibility observers made (happy-dom's never fires). */
let observers: VisibilityObserver[];

before(async () => {
  c = await compareFiles([LOGREG, KNN, SVC], { overrides: { bootstrap: { n: 0 } }, root: process.cwd() });
  const tab = withChangedRowsTab(buildCompareModel(c), c).tabs.find((t) => t.id === 'changed');
  model = tab!.changedRows!;
  for (const q of QUERIES) {
    const d = await diffRuns(c.baseline, q.run, {
      ...(q.metric !== undefined ? { metric: q.metric } : {}),
      where: q.where,
      ...(q.where.length > 0 ? { whereText: formatWhere(q.where) } : {}),
      limit: q.limit,
      root: process.cwd(),
    });
    answers.set(key(q), { ...d, runs: [c.baseline, q.run] });
  }
  dom = installDom();
  observers = fakeIntersectionObservers();
  cr = await import('../../../webview/changedRows');
  api = await import('../../../webview/vscodeApi');
});
after(() => dom.close());

type DiffRequest = Extract<WebviewMessage, { type: 'diffRows' }>;

/** Answers a request as the host does (its computation, done beforehand for the queries above). */
function reply(m: DiffRequest): RowDiff {
  const d = answers.get(key(m.query));
  assert.ok(d, `an answer computed for ${key(m.query)}`);
  api.answer({ type: 'diff', seq: m.seq, diff: d });
  return d;
}

/** The data lines of a digits CSV (id,label,pred,split,…): by id, with their 1-based line. */
function csv(path: string): Map<string, { label: string; pred: string; split: string; line: number }> {
  const out = new Map<string, { label: string; pred: string; split: string; line: number }>();
  readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .forEach((text, i) => {
      const [id, label, pred, split] = text.split(',');
      if (i > 0) out.set(id!, { label: label!, pred: pred!, split: split!, line: i + 1 });
    });
  return out;
}

/** The test rows of the baseline (the rows the metrics cover) whose correctness flipped in `other`. */
function flips(other: string, label?: string) {
  const A = csv(LOGREG);
  const B = csv(other);
  const right = (r: { label: string; pred: string }): boolean => r.label === r.pred;
  const test = [...A].filter(([, a]) => a.split === 'test' && (label === undefined || a.label === label));
  const lost = test.filter(([id, a]) => right(a) && !right(B.get(id)!));
  const gained = test.filter(([id, a]) => !right(a) && right(B.get(id)!));
  const bothRight = test.filter(([id, a]) => right(a) && right(B.get(id)!)).length;
  const row = ([id, a]: (typeof test)[number]) => ({ id, a, b: B.get(id)! });
  return { n: test.length, lost: lost.map(row), gained: gained.map(row), bothRight };
}

/** McNemar's exact two-sided p: twice the binomial(b + c, ½) tail at the smaller count, at most 1. */
function mcnemarP(b: number, c: number): number {
  const n = b + c;
  let tail = 0;
  let choose = 1;
  for (let k = 0; k <= Math.min(b, c); k++) {
    tail += choose / 2 ** n;
    choose = (choose * (n - k)) / (k + 1);
  }
  return Math.min(1, 2 * tail);
}

async function mount(m: ChangedRowsModel = model) {
  const status: string[] = [];
  const e = cr.changedRowsView(m, { status: (t) => void status.push(t) });
  document.body.append(e);
  await e.updateComplete;
  const section = () => e.querySelector<HTMLElement>('section.changed-rows')!;
  const rows = () => [...e.querySelectorAll<HTMLElement>('tr.diff-row')];
  const cells = (tr: HTMLElement) => [...tr.children].map((td) => td.textContent);
  const text = (sel: string) => e.querySelector(sel)?.textContent ?? null;
  return { e, status, section, rows, cells, text };
}

/** Shows the tab (its visibility observer fires) and answers the request it makes. */
async function show(e: HTMLElement): Promise<RowDiff> {
  const o = observers.find((x) => x.targets.includes(e) && !x.disconnected)!;
  o.show();
  const d = reply(await dom.nextPosted('diffRows'));
  await until(() => e.querySelector('section[aria-busy="false"] .diff-counts') !== null, 'the answer drawn');
  return d;
}

const press = (k: string) => new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true });

test('the tab as the host builds it: A the baseline, B the other runs, accuracy and nll; nothing asked while hidden', async () => {
  assert.equal(c.baseline, LOGREG);
  assert.deepEqual(model, {
    task: 'classification',
    baseline: { run: LOGREG, name: 'logreg' },
    runs: [
      { run: KNN, name: 'knn' },
      { run: SVC, name: 'svc_rbf' },
    ],
    metrics: ['accuracy', 'nll'],
  });
  const { e, section, text } = await mount();
  assert.equal(section().getAttribute('aria-label'), 'Changed rows');
  assert.equal(section().hasAttribute('aria-busy'), false);
  assert.equal(text('.diff-controls > span'), 'A = logreg (baseline)');
  assert.deepEqual(
    [...e.querySelectorAll<HTMLOptionElement>('select.diff-run option')].map((o) => [o.value, o.textContent]),
    [
      [KNN, 'knn'],
      [SVC, 'svc_rbf'],
    ],
  );
  assert.deepEqual(
    [...e.querySelectorAll<HTMLOptionElement>('select.diff-metric option')].map((o) => o.value),
    ['accuracy', 'nll'],
  );
  assert.equal(e.querySelector<HTMLSelectElement>('select.diff-run')!.value, KNN);
  assert.equal(e.querySelector<HTMLSelectElement>('select.diff-metric')!.value, 'accuracy');
  assert.equal(e.querySelectorAll('tr.diff-row').length, 0);
  assert.equal(
    dom.posted.filter((m) => m.type === 'diffRows').length,
    0,
    'the rows are asked for once the tab is shown',
  );
  e.remove();
});

test('the rows that flipped, lost first in file order, with their cells, the four cells, Δ and McNemar p', async () => {
  const { e, section, rows, cells, text } = await mount();
  const o = observers.find((x) => x.targets.includes(e))!;
  o.show();
  const asked = await dom.nextPosted('diffRows');
  assert.deepEqual(asked.query, { run: KNN, metric: 'accuracy', where: [], limit: 50 });
  await e.updateComplete;
  assert.equal(section().getAttribute('aria-busy'), 'true');
  assert.equal(text('.rows-message'), 'Computing the changed rows…');
  assert.equal(o.disconnected, true, 'asked once: the observer is done');
  reply(asked);
  await until(() => rows().length > 0, 'the rows');
  assert.equal(section().getAttribute('aria-busy'), 'false');
  assert.equal(text('.rows-message'), '');

  // By hand: 5 rows logreg got right and knn wrong, 1 back, of the 150 test rows of 300.
  const hand = flips(KNN);
  assert.deepEqual([hand.n, hand.lost.length, hand.gained.length, hand.bothRight], [150, 5, 1, 106]);
  const changed = hand.lost.length + hand.gained.length;
  assert.equal(rows().length, changed);
  const counts = e.querySelector<HTMLElement>('.diff-counts')!;
  assert.equal(counts.dataset.n, '150');
  assert.equal(counts.dataset.changed, String(changed));
  // Δ = (1 − 5) / 150 = −0.0267 (a minus sign, not a hyphen).
  assert.equal(
    counts.textContent,
    "The split's test rows, as the metrics: 150 of 300; 150 matched rows; 6 changed; accuracy Δ (B − A) = −0.0267.",
  );
  assert.deepEqual(
    ['bothRight', 'lost', 'gained', 'bothWrong'].map((k) => text(`[data-cell="${k}"]`)),
    ['106', '5', '1', '38'],
  );
  // b = 5, c = 1: p = 2 × (1 + 6) / 2⁶ = 0.21875.
  assert.equal(mcnemarP(5, 1), 0.21875);
  assert.equal(text('.diff-test'), "McNemar's exact test (lost 5 against gained 1): p = 0.2188.");

  assert.deepEqual(
    [...e.querySelectorAll('table.diff-grid thead th')].map((th) => th.textContent),
    [
      'open',
      'id',
      'label',
      'line A',
      'line B',
      'pred A',
      'pred B',
      'accuracy A',
      'accuracy B',
      'change',
      'contribution to Δ',
    ],
  );
  const expected = [
    ...hand.lost.map((r) => ({ ...r, values: ['✓ right', '✗ wrong', '−1.0000', '−0.006667'] })),
    ...hand.gained.map((r) => ({ ...r, values: ['✗ wrong', '✓ right', '+1.0000', '+0.006667'] })),
  ];
  assert.deepEqual(
    rows().map(cells),
    expected.map((r) => ['Open', r.id, r.a.label, String(r.a.line), String(r.b.line), r.a.pred, r.b.pred, ...r.values]),
  );
  assert.deepEqual(cells(rows()[0]!).slice(0, 4), ['Open', '1736', '9', '53']);
  assert.equal(
    e.querySelector('table.diff-grid')!.getAttribute('aria-label'),
    'Rows whose accuracy changed, worst for B first',
  );
  assert.equal(e.querySelector('table.diff-grid')!.getAttribute('aria-rowcount'), '7');
  assert.equal(e.querySelector('.pager'), null, 'every changed row is shown');
  assert.equal(
    [...e.querySelectorAll('.diff-body > p.note')].at(-1)!.textContent,
    "A row's contribution is its change divided by the 150 matched rows, so the contributions add up to Δ. Open shows the row in both prediction files side by side, each line selected.",
  );
  e.remove();
});

test('its targets: each changed row opens its line in both files (Open, Enter, Space); arrows move the tab stop', async () => {
  const { e, status, rows } = await mount();
  await show(e);
  const targets = e.lineTargets;
  assert.deepEqual(
    targets.map((t) => t.element),
    rows(),
  );
  const hand = flips(KNN);
  const all = [...hand.lost, ...hand.gained];
  targets.forEach((t, i) => {
    assert.equal(t.run, KNN);
    assert.equal(t.row.id, all[i]!.id);
    assert.equal(t.row.lineA, all[i]!.a.line, `line of ${t.row.id} in logreg.csv`);
    assert.equal(t.row.lineB, all[i]!.b.line, `line of ${t.row.id} in knn.csv`);
    assert.equal(t.element.dataset.lineA, String(t.row.lineA));
    assert.equal(t.element.dataset.lineB, String(t.row.lineB));
    assert.equal(t.element.tabIndex, i === 0 ? 0 : -1, 'one tab stop: the first row');
    assert.equal(t.element.title, 'Enter (or Open) shows this row in both files side by side');
    assert.equal(
      t.element.querySelector('button.open-line')!.getAttribute('aria-label'),
      `Open line ${t.row.lineA} of A and line ${t.row.lineB} of B side by side`,
    );
  });

  const opened = async (): Promise<Extract<WebviewMessage, { type: 'openLines' }>> => dom.nextPosted('openLines');
  // The Open button of the third row.
  targets[2]!.element.querySelector<HTMLElement>('button.open-line')!.click();
  assert.deepEqual(await opened(), {
    type: 'openLines',
    run: KNN,
    lineA: targets[2]!.row.lineA,
    lineB: targets[2]!.row.lineB,
  });
  assert.equal(
    status.at(-1),
    `Opening line ${targets[2]!.row.lineA} of A and line ${targets[2]!.row.lineB} of B side by side…`,
  );
  // The keyboard: ArrowDown moves the tab stop to the second row, Enter opens it.
  targets[0]!.element.focus();
  targets[0]!.element.dispatchEvent(press('ArrowDown'));
  assert.equal(document.activeElement, targets[1]!.element);
  await e.updateComplete;
  assert.deepEqual(
    rows().map((tr) => tr.tabIndex),
    [-1, 0, -1, -1, -1, -1],
  );
  const enter = press('Enter');
  targets[1]!.element.dispatchEvent(enter);
  assert.equal(enter.defaultPrevented, true);
  assert.deepEqual(await opened(), {
    type: 'openLines',
    run: KNN,
    lineA: targets[1]!.row.lineA,
    lineB: targets[1]!.row.lineB,
  });
  // End, then Space on the last row.
  targets[1]!.element.dispatchEvent(press('End'));
  assert.equal(document.activeElement, targets.at(-1)!.element);
  targets.at(-1)!.element.dispatchEvent(press(' '));
  assert.equal((await opened()).lineA, targets.at(-1)!.row.lineA);
  // Home, ArrowUp at the top stays.
  targets.at(-1)!.element.dispatchEvent(press('Home'));
  targets[0]!.element.dispatchEvent(press('ArrowUp'));
  assert.equal(document.activeElement, targets[0]!.element);
  await e.updateComplete;
  assert.equal(rows()[0]!.tabIndex, 0);
  e.remove();
});

test('run B, the metric, the filter and "Show more" ask again; an older answer is dropped', async () => {
  const { e, rows, text } = await mount();
  await show(e);
  const requests = (): DiffRequest[] => dom.posted.filter((m): m is DiffRequest => m.type === 'diffRows');

  // A filter that does not parse: said why, nothing asked, the rows stay.
  const where = e.querySelector<HTMLInputElement>('input.diff-where')!;
  const before = requests().length;
  where.value = 'label=';
  where.dispatchEvent(new Event('input', { bubbles: true }));
  where.dispatchEvent(press('Enter'));
  await e.updateComplete;
  assert.equal(requests().length, before);
  assert.match(text('.rows-message')!, /^expected a value \(bare, or quoted with ' or "\) at character 7/);
  assert.equal(rows().length, 6);

  // label = 9 (Enter in the box): the two flipped rows of class 9, counted by hand.
  where.value = 'label=9';
  where.dispatchEvent(new Event('input', { bubbles: true }));
  where.dispatchEvent(press('Enter'));
  const nine = flips(KNN, '9');
  reply(await dom.nextPosted('diffRows'));
  await until(() => /where label = 9/.test(text('.diff-counts') ?? ''), 'the filtered rows');
  assert.equal(text('.rows-message'), '');
  assert.equal(rows().length, nine.lost.length + nine.gained.length);
  assert.deepEqual(
    rows().map((tr) => tr.children[1]!.textContent),
    [...nine.lost, ...nine.gained].map((r) => r.id),
  );
  // 15 test rows of class 9, 4 of them lost: Δ = −4 / 15.
  assert.deepEqual([nine.n, nine.lost.length, nine.gained.length], [15, 4, 0]);
  assert.equal(
    text('.diff-counts'),
    "The split's test rows, as the metrics: 150 of 300; 15 matched rows where label = 9; 4 changed; accuracy Δ (B − A) = −0.2667.",
  );

  // The Apply button with an empty box: every row again.
  where.value = '';
  where.dispatchEvent(new Event('input', { bubbles: true }));
  e.querySelector<HTMLElement>('[data-act="diff-apply"]')!.click();
  reply(await dom.nextPosted('diffRows'));
  await until(() => rows().length === 6, 'every changed row');

  // nll: every row's loss changed; the 50 worst shown, "Show more" asks for 100.
  const metric = e.querySelector<HTMLSelectElement>('select.diff-metric')!;
  metric.value = 'nll';
  metric.dispatchEvent(new Event('change', { bubbles: true }));
  const nll = reply(await dom.nextPosted('diffRows'));
  assert.equal(nll.metric, 'nll');
  assert.ok(nll.changed > 50, `${nll.changed} rows with another loss`);
  await until(() => rows().length === 50, 'the 50 worst by nll');
  assert.equal(text('.page-info'), `the 50 worst for B of ${nll.changed}`);
  assert.equal(rows()[0]!.children[7]!.textContent, nll.rows[0]!.a!.toFixed(4));
  assert.equal(rows()[0]!.children[9]!.textContent, `+${nll.rows[0]!.change!.toFixed(4)}`);
  e.querySelector<HTMLElement>('[data-act="diff-more"]')!.click();
  const more = await dom.nextPosted('diffRows');
  assert.deepEqual(more.query, { run: KNN, metric: 'nll', where: [], limit: 100 });
  // Meanwhile, run B = svc_rbf (the first rows, the metric kept); the answer for 100 comes last and is dropped.
  const run = e.querySelector<HTMLSelectElement>('select.diff-run')!;
  run.value = SVC;
  run.dispatchEvent(new Event('change', { bubbles: true }));
  const svc = await dom.nextPosted('diffRows');
  assert.deepEqual(svc.query, { run: SVC, metric: 'nll', where: [], limit: 50 });
  // Back to accuracy before either answer: the newest request is the one shown.
  metric.value = 'accuracy';
  metric.dispatchEvent(new Event('change', { bubbles: true }));
  const acc = await dom.nextPosted('diffRows');
  assert.deepEqual(acc.query, { run: SVC, metric: 'accuracy', where: [], limit: 50 });
  reply(acc);
  await until(() => rows().length === 17, 'svc_rbf against logreg');
  api.answer({ type: 'diff', seq: svc.seq, diff: nll });
  reply(more);
  await e.updateComplete;
  assert.equal(rows().length, 17, 'the older answers are dropped');
  const hand = flips(SVC);
  assert.deepEqual([hand.lost.length, hand.gained.length], [3, 14]);
  assert.deepEqual(
    ['bothRight', 'lost', 'gained'].map((k) => text(`[data-cell="${k}"]`)),
    [String(hand.bothRight), '3', '14'],
  );
  assert.match(text('.diff-counts')!, /; 17 changed; accuracy Δ \(B − A\) = \+0\.0733\.$/);
  assert.equal(e.lineTargets[0]!.run, SVC, 'a row opens in the run it was computed for');
  assert.equal(e.lineTargets[0]!.row.id, hand.lost[0]!.id);
  e.remove();
});

test('a failed answer says why and draws no rows', async () => {
  const { e, section, rows, text } = await mount();
  const o = observers.find((x) => x.targets.includes(e) && !x.disconnected)!;
  o.show();
  const m = await dom.nextPosted('diffRows');
  api.answer({ type: 'reply', seq: m.seq, ok: false, message: 'knn.csv changed since the comparison.' });
  await until(() => section().getAttribute('aria-busy') === 'false', 'the answer');
  assert.equal(text('.rows-message'), 'knn.csv changed since the comparison.');
  assert.equal(rows().length, 0);
  assert.deepEqual(e.lineTargets, []);
  e.remove();
});

test('numbered rows (Parquet, .npz) have no lines to open: no targets, no Open button', async () => {
  const { e, rows, text } = await mount();
  const opens = () => dom.posted.filter((x) => x.type === 'openLines').length;
  const o = observers.find((x) => x.targets.includes(e) && !x.disconnected)!;
  o.show();
  const m = await dom.nextPosted('diffRows');
  const d = answers.get(key(m.query))!;
  api.answer({ type: 'diff', seq: m.seq, diff: { ...d, rowAddressed: true } });
  await until(() => rows().length === 6, 'the rows');
  assert.deepEqual(e.lineTargets, []);
  assert.equal(e.querySelector('button.open-line'), null);
  assert.equal(rows()[0]!.children[0]!.textContent, `row ${d.rows[0]!.lineA - 1}`);
  assert.equal(rows()[0]!.children[3]!.textContent, String(d.rows[0]!.lineA - 1));
  assert.equal(e.querySelector('table.diff-grid thead th:nth-child(4)')!.textContent, 'row A');
  const before = opens();
  rows()[0]!.dispatchEvent(press('Enter'));
  await e.updateComplete;
  assert.equal(opens(), before, 'nothing opened');
  assert.match(text('.diff-body > p.note:last-child') ?? '', /their rows have numbers, not lines to open\.$/);
  e.remove();
});

test('removed from the document: the visibility observer is disconnected and no listener is left outside it', async () => {
  // Every listener added to the document or the window while the tab lives, by type.
  const counted = [countListeners(document), countListeners(window)];
  try {
    // Removed before it was shown: its observer goes; back in the document, a new one watches it.
    const { e, rows } = await mount();
    const first = observers.find((x) => x.targets.includes(e))!;
    e.remove();
    assert.equal(first.disconnected, true);
    document.body.append(e);
    const second = observers.filter((x) => x.targets.includes(e)).at(-1)!;
    assert.notEqual(second, first);
    assert.equal(second.disconnected, false);
    await show(e);
    assert.equal(rows().length, 6);
    assert.equal(second.disconnected, true, 'asked once: the observer is done');
    e.remove();
    // Shown once: back in the document, it does not ask again.
    const made = observers.length;
    document.body.append(e);
    assert.equal(observers.length, made);
    e.remove();
    for (const { listening } of counted)
      for (const [type, n] of listening) assert.equal(n, 0, `${type} listeners left on the document or window`);
  } finally {
    for (const c of counted) c.restore();
  }
});
