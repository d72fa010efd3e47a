/// <reference lib="dom" />
// The rows panel (<eval-rows>) in a DOM (happy-dom), on examples/digits-lt/logreg.csv: its
// requests answered with the core's own row query (openInspection, as the host's inspection worker
// answers them), the drill-downs those of the report the host builds (the most confident mistakes
// among the test rows, a confusion cell). Checked against the CSV read here: the rows listed (each
// wrong, of the test split, most confident first, with its line, label and prediction), the chips,
// the count; the grid's one tab stop and its keys; the rows as drill-down targets (Enter on a row
// or its Open button opens its line); sorting by a header, a chip removed, the next page; an older
// answer dropped; a file changed since its results (Re-evaluate); numbered rows (Parquet, .npz)
// without targets; Escape closing it with focus back where it was opened from, and no listener left
// on the document or the window.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openInspection, type Inspection } from '../../../src/core/inspect';
import type { RowPage } from '../../../src/core/rows/types';
import type { DrillTargets } from '../../../src/shared/drillSpec';
import { confusionCell } from '../../../src/shared/drillTargets';
import type { WebviewMessage } from '../../../src/shared/protocol';
import { logregReport } from './classificationExample';
import { countListeners, installDom, until, type TestDom } from './happyDom';

const FILE = 'examples/digits-lt/logreg.csv';

let dom: TestDom;
let drill: DrillTargets;
let inspection: Inspection;
let rw: typeof import('../../../webview/rows');
let api: typeof import('../../../webview/vscodeApi');

before(async () => {
  ({ drill } = await logregReport());
  inspection = await openInspection(FILE, { overrides: { bootstrap: { n: 0 } }, root: process.cwd() });
  dom = installDom();
  rw = await import('../../../webview/rows');
  api = await import('../../../webview/vscodeApi');
});
after(() => dom.close());

/** The data lines of the CSV (id,label,pred,split,prob_0…prob_9) by their 1-based line. */
const LINES = new Map(
  readFileSync(FILE, 'utf8')
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((text, i) => {
      const [id, label, pred, split, ...probs] = text.split(',');
      return [i + 2, { id: id!, label: label!, pred: pred!, split: split!, top: Math.max(...probs.map(Number)) }];
    }),
);
const TEST_ROWS = [...LINES.values()].filter((r) => r.split === 'test');
const WRONG_TEST_ROWS = TEST_ROWS.filter((r) => r.label !== r.pred);

type RowsRequest = Extract<WebviewMessage, { type: 'queryRows' }>;

/** Answers a request as the host does (the core's row query on the file). */
function reply(m: RowsRequest, patch: Partial<RowPage> = {}): RowPage {
  const page = { ...inspection.query(m.query), ...patch };
  api.answer({ type: 'rows', seq: m.seq, page });
  return page;
}

function mount() {
  const anchor = document.createElement('div');
  const origin = document.createElement('button');
  document.body.append(origin, anchor);
  const stale: number[] = [];
  const panel = rw.rowsPanel({ reevaluate: () => void stale.push(1) });
  const section = () => panel.querySelector<HTMLElement>('section.rows-panel')!;
  const rows = () => [...panel.querySelectorAll<HTMLElement>('.rows-grid tbody tr')];
  const cells = (tr: HTMLElement) => [...tr.children].map((td) => td.textContent);
  const text = (sel: string) => panel.querySelector(sel)?.textContent ?? null;
  const done = () => until(() => panel.querySelector('section[aria-busy="false"]') !== null, 'the rows drawn');
  const remove = () => {
    anchor.remove();
    origin.remove();
  };
  return { anchor, origin, panel, stale, section, rows, cells, text, done, remove };
}

const press = (k: string) => new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true });
const opened = () => dom.posted.filter((m) => m.type === 'openLine').map((m) => (m as { line: number }).line);

test('the most confident mistakes: the query asked, the rows of the file, the chips, the count, focus on the first row', async () => {
  const p = mount();
  const spec = drill.mistakes!;
  p.panel.open(spec, p.anchor, p.origin);
  assert.equal(p.anchor.nextElementSibling, p.panel, 'opened under its anchor');
  const m = await dom.nextPosted('queryRows');
  assert.deepEqual(m.query, {
    where: [
      { key: 'split_role', op: '=', value: 'test' },
      { key: 'correct', op: '=', value: 'false' },
    ],
    sort: { key: 'confidence', dir: 'desc' },
    offset: 0,
    limit: 50,
  });
  await p.panel.updateComplete;
  assert.equal(p.section().getAttribute('aria-busy'), 'true');
  assert.equal(p.text('.rows-message'), 'Loading rows…');
  assert.equal(p.section().getAttribute('aria-label'), 'Rows: Most confident mistakes');
  reply(m);
  await p.done();

  // By hand: the test rows (150 of 300) whose prediction is not their label.
  assert.equal(WRONG_TEST_ROWS.length, 39);
  assert.equal(p.text('.rows-title'), 'Most confident mistakes');
  assert.deepEqual(
    [...p.panel.querySelectorAll('.chip-text')].map((c) => c.textContent),
    ['split_role = test', 'correct = false'],
  );
  assert.equal(p.panel.querySelector<HTMLElement>('.page-info')!.dataset.total, '39');
  assert.equal(p.text('.page-info'), 'rows 1–39 of 39 matching (300 in the file)');
  assert.equal(p.text('.rows-message'), '');
  assert.equal(p.rows().length, 39);
  const confidences: number[] = [];
  for (const tr of p.rows()) {
    const line = Number(tr.dataset.line);
    const r = LINES.get(line)!;
    const c = p.cells(tr);
    assert.equal(r.split, 'test');
    assert.notEqual(r.label, r.pred);
    assert.deepEqual(c.slice(0, 6), ['Open', String(line), r.id, r.label, r.pred, '✗ no']);
    assert.equal(tr.className, 'wrong');
    // The confidence: the highest class probability of the line, to 4 digits.
    assert.ok(Math.abs(Number(c[6]) - r.top) < 5e-5, `line ${line}: ${c[6]} against ${r.top}`);
    confidences.push(r.top);
  }
  assert.deepEqual(
    confidences,
    [...confidences].sort((a, b) => b - a),
    'most confident first',
  );
  assert.deepEqual(
    [...p.panel.querySelectorAll('.rows-grid thead th')].map((th) => th.textContent),
    [
      'open',
      'line ↕',
      'id ↕',
      'label',
      'pred',
      'correct',
      'confidence ▼',
      'loss ↕',
      'top 3',
      // The rows' own fields of this run: the class's train-frequency group, its shot, the split, and
      // whether the selective step accepted the row.
      'class group (train frequency)',
      'shot',
      'split',
      'accepted',
    ],
  );
  // The keyboard's one tab stop: the first row's Open button, focused.
  const first = p.rows()[0]!.querySelector<HTMLElement>('button.open-line')!;
  assert.equal(document.activeElement, first);
  assert.deepEqual([...p.panel.querySelectorAll('[tabindex="0"]')], [first]);
  // Its targets: each row opens its line.
  assert.deepEqual(
    p.panel.lineTargets.map((t) => [t.element, t.line]),
    p.rows().map((tr) => [tr, Number(tr.dataset.line)]),
  );
  p.panel.close();
  p.remove();
});

test('keyboard and clicks: a row opens its line (Enter, Space, Open); a header sorts', async () => {
  const p = mount();
  p.panel.open(drill.mistakes!, p.anchor, p.origin);
  reply(await dom.nextPosted('queryRows'));
  await p.done();
  const lines = p.rows().map((tr) => Number(tr.dataset.line));
  const before = opened().length;
  // ArrowDown moves the tab stop to the second row; Enter opens its line.
  document.activeElement!.dispatchEvent(press('ArrowDown'));
  await p.panel.updateComplete;
  const second = p.rows()[1]!.querySelector<HTMLElement>('button.open-line')!;
  assert.equal(document.activeElement, second);
  assert.deepEqual([...p.panel.querySelectorAll('[tabindex="0"]')], [second]);
  second.dispatchEvent(press('Enter'));
  // ArrowRight: the line cell of the same row; Space opens the row's line too.
  second.dispatchEvent(press('ArrowRight'));
  await p.panel.updateComplete;
  assert.equal(document.activeElement, p.rows()[1]!.children[1]);
  document.activeElement!.dispatchEvent(press(' '));
  p.rows()[2]!.querySelector<HTMLElement>('button.open-line')!.click();
  assert.deepEqual(opened().slice(before), [lines[1], lines[1], lines[2]]);

  // Sorted by line (ascending at first): asked again from the first row.
  p.panel.querySelector<HTMLElement>('th[data-sort="line"]')!.click();
  const m = await dom.nextPosted('queryRows');
  assert.deepEqual(m.query.sort, { key: 'line', dir: 'asc' });
  assert.equal(m.query.offset, 0);
  reply(m);
  await until(() => p.panel.querySelector('th[data-sort="line"]')?.getAttribute('aria-sort') === 'ascending', 'sorted');
  await p.done();
  assert.deepEqual(
    p.rows().map((tr) => Number(tr.dataset.line)),
    [...lines].sort((a, b) => a - b),
  );
  assert.equal(p.panel.querySelector('th[data-sort="confidence"]')!.getAttribute('aria-sort'), 'none');
  // Focus on the sorted header (Enter on it sorts again, descending).
  const th = p.panel.querySelector<HTMLElement>('th[data-sort="line"]')!;
  assert.equal(document.activeElement, th);
  th.dispatchEvent(press('Enter'));
  assert.deepEqual((await dom.nextPosted('queryRows')).query.sort, { key: 'line', dir: 'desc' });
  p.panel.close();
  p.remove();
});

test('a chip removed asks again without it, the next page, and Escape closes with focus back where it was opened', async () => {
  const p = mount();
  p.panel.open(drill.mistakes!, p.anchor, p.origin);
  reply(await dom.nextPosted('queryRows'));
  await p.done();
  p.panel.querySelectorAll<HTMLElement>('.chip-remove')[1]!.click();
  const m = await dom.nextPosted('queryRows');
  assert.deepEqual(m.query.where, [{ key: 'split_role', op: '=', value: 'test' }]);
  assert.equal(m.query.offset, 0);
  reply(m);
  await p.done();
  assert.equal(p.text('.rows-title'), 'Most confident mistakes (filter changed)');
  assert.deepEqual(
    [...p.panel.querySelectorAll('.chip-text')].map((c) => c.textContent),
    ['split_role = test'],
  );
  assert.equal(p.text('.page-info'), `rows 1–50 of ${TEST_ROWS.length} matching (300 in the file)`);
  assert.equal(document.activeElement, p.panel.querySelector('.chip-remove'), 'focus on the chip left');
  assert.equal(p.panel.querySelector('vscode-button[data-act="prev-page"]')!.hasAttribute('disabled'), true);

  p.panel.querySelector<HTMLElement>('vscode-button[data-act="next-page"]')!.click();
  const next = await dom.nextPosted('queryRows');
  assert.equal(next.query.offset, 50);
  reply(next);
  await until(() => p.text('.page-info')?.startsWith('rows 51') === true, 'the next page');
  assert.equal(p.text('.page-info'), `rows 51–100 of ${TEST_ROWS.length} matching (300 in the file)`);
  assert.equal(p.rows()[0]!.getAttribute('aria-rowindex'), '52');
  for (const tr of p.rows()) assert.equal(LINES.get(Number(tr.dataset.line))!.split, 'test');

  p.section().dispatchEvent(press('Escape'));
  assert.equal(p.panel.isConnected, false);
  assert.equal(p.panel.isOpen, false);
  assert.equal(document.activeElement, p.origin);
  p.remove();
});

test('an older answer is dropped; a file changed since its results offers Re-evaluate', async () => {
  const p = mount();
  p.panel.open(drill.mistakes!, p.anchor, p.origin);
  const older = await dom.nextPosted('queryRows');
  // Opened again (another number clicked) before the first answer came.
  p.panel.open(confusionCell('9', '3'), p.anchor, p.origin);
  const newer = await dom.nextPosted('queryRows');
  reply(older);
  await new Promise((r) => setImmediate(r));
  assert.equal(p.section().getAttribute('aria-busy'), 'true', 'the older answer is dropped');
  const page = reply(newer);
  await p.done();
  // By hand: 13 rows of the file (both splits: the cell's filter as built here has no split) are 9s predicted 3.
  const hand = [...LINES.values()].filter((r) => r.label === '9' && r.pred === '3').length;
  assert.equal(hand, 13);
  assert.equal(page.total, hand);
  assert.equal(p.rows().length, hand);
  for (const tr of p.rows()) assert.deepEqual(p.cells(tr).slice(3, 5), ['9', '3']);

  p.panel.open(drill.mistakes!, p.anchor, p.origin);
  const m = await dom.nextPosted('queryRows');
  api.answer({
    type: 'reply',
    seq: m.seq,
    ok: false,
    stale: true,
    message: 'logreg.csv changed since its evaluation.',
  });
  await p.done();
  assert.equal(p.text('.rows-message'), 'logreg.csv changed since its evaluation. Re-evaluate');
  assert.equal(p.rows().length, 0);
  assert.equal(p.panel.querySelector('.pager')!.childElementCount, 0);
  assert.deepEqual(p.panel.lineTargets, []);
  p.panel.querySelector<HTMLElement>('vscode-button[data-act="reevaluate-stale"]')!.click();
  assert.deepEqual(p.stale, [1]);
  p.panel.close();
  p.remove();
});

test('numbered rows (Parquet, .npz) have no lines to open: no targets, no Open button', async () => {
  const p = mount();
  p.panel.open(drill.mistakes!, p.anchor, p.origin);
  const page = reply(await dom.nextPosted('queryRows'), { rowAddressed: true });
  await p.done();
  assert.equal(p.panel.querySelector('button.open-line'), null);
  assert.deepEqual(p.panel.lineTargets, []);
  assert.equal(p.panel.querySelector('.rows-grid thead th:nth-child(2)')!.textContent, 'row ↕');
  assert.equal(p.cells(p.rows()[0]!)[1], String(page.rows[0]!.line - 1));
  const before = opened().length;
  const cell = p.rows()[0]!.children[0] as HTMLElement;
  assert.equal(cell.getAttribute('tabindex'), '0');
  cell.dispatchEvent(press('Enter'));
  assert.equal(opened().length, before, 'nothing opened');
  p.panel.close();
  p.remove();
});

test('no listener is left on the document or the window', async () => {
  const counted = [countListeners(document), countListeners(window)];
  try {
    const p = mount();
    p.panel.open(drill.mistakes!, p.anchor, p.origin);
    reply(await dom.nextPosted('queryRows'));
    await p.done();
    p.panel.close();
    p.remove();
    for (const { listening } of counted)
      for (const [type, n] of listening) assert.equal(n, 0, `${type} listeners left on the document or window`);
  } finally {
    for (const c of counted) c.restore();
  }
});
