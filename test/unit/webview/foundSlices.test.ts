/// <reference lib="dom" />
// The slice finder's component in a DOM (happy-dom), on the finder's real answer for
// examples/digits-lt/logreg.csv: the request it posts, the table of found slices (the flagged
// slice's row count and accuracy counted from the CSV by hand), its drill-down targets
// (one per found slice, each with that slice's filter, opened by click and by Enter), an input it
// refuses, a failure, and the comparison's run picker.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { findSlicesInFile } from '../../../src/core/inspect/sliceFinderFiles';
import type { FileSliceFinderResult } from '../../../src/core/inspect/sliceFinderTypes';
import type { DrillSpec } from '../../../src/shared/drillSpec';
import { installDom, until, type TestDom } from './happyDom';

const CSV = 'examples/digits-lt/logreg.csv';

let dom: TestDom;
let found: FileSliceFinderResult;
let fs: typeof import('../../../webview/foundSlices');
let api: typeof import('../../../webview/vscodeApi');

before(async () => {
  found = await findSlicesInFile(CSV, { root: process.cwd() });
  dom = installDom();
  fs = await import('../../../webview/foundSlices');
  api = await import('../../../webview/vscodeApi');
});
after(() => dom.close());

/**
 * The test rows (the rows the metrics cover) whose confidence (the largest class probability) is in
 * [lo, hi), and how many of them the model got right, counted from the CSV by hand.
 */
function confidenceSlice(lo: number, hi: number): { n: number; right: number } {
  let n = 0;
  let right = 0;
  for (const line of readFileSync(CSV, 'utf8').trimEnd().split('\n').slice(1)) {
    const c = line.split(',');
    const confidence = Math.max(...c.slice(4).map(Number));
    if (c[3] !== 'test' || confidence < lo || confidence >= hi) continue;
    n++;
    if (c[1] === c[2]) right++;
  }
  return { n, right };
}

function mount(opts: Partial<import('../../../webview/foundSlices').FoundSlicesOptions> = {}) {
  const status: string[] = [];
  const opened: { spec: DrillSpec; anchor: HTMLElement; origin: HTMLElement }[] = [];
  const e = fs.foundSlicesSection({
    status: (t) => void status.push(t),
    openRows: (spec, anchor, origin) => void opened.push({ spec, anchor, origin }),
    ...opts,
  });
  document.body.append(e);
  return { e, status, opened, section: () => e.querySelector<HTMLElement>('section.found-slices')! };
}

test('Find weak slices: the request, the table (the flagged slice counted by hand), one drill-down target per slice', async () => {
  const { e, status, opened, section } = mount();
  await e.updateComplete;
  assert.equal(section().dataset.state, 'idle');
  assert.equal(e.drillTargets.length, 0);
  assert.equal(e.querySelector<HTMLInputElement>('input.found-limit')!.value, '20');
  e.querySelector<HTMLElement>('vscode-button[data-act="find-slices"]')!.click();
  const q = await dom.nextPosted('findSlices');
  assert.deepEqual(q, { type: 'findSlices', seq: q.seq, limit: 20 });
  await e.updateComplete;
  assert.equal(section().dataset.state, 'running');
  assert.ok(e.querySelector('vscode-button[data-act="find-slices"]')!.hasAttribute('disabled'));
  api.answer({ type: 'foundSlices', seq: q.seq, result: found });
  await until(() => section().dataset.state === 'done', 'the found slices');
  assert.deepEqual(status, ['Finding slices…', '']);

  const rows = [...e.querySelectorAll<HTMLElement>('.found-slices-table tbody tr')];
  assert.equal(section().dataset.found, String(found.slices.length));
  assert.equal(rows.length, found.slices.length);
  // The finder flags one slice of the 150 test rows: the least confident ones.
  const top = found.slices[0]!;
  assert.equal(rows[0]!.dataset.slice, top.slice);
  assert.match(top.slice, /^confidence in \[/);
  const bound = (op: string): number => Number(top.where.find((w) => w.key === 'confidence' && w.op === op)!.value);
  const byHand = confidenceSlice(bound('>='), bound('<'));
  const cells = [...rows[0]!.querySelectorAll('td')].map((td) => td.textContent);
  assert.equal(cells[0], String(byHand.n));
  assert.ok(cells[1]!.startsWith((byHand.right / byHand.n).toFixed(4)), cells[1]);
  assert.equal(cells.at(-1), 'significant at q ≤ 0.05');

  // The drill-down targets: the rows themselves, focusable, each with its slice's filter.
  const targets = e.drillTargets;
  assert.equal(targets.length, found.slices.length);
  targets.forEach((t, i) => {
    assert.equal(t.element, rows[i]);
    assert.equal(t.element.tabIndex, 0);
    assert.ok(t.element.classList.contains('drillable'));
    assert.equal(t.anchor, e);
    assert.deepEqual(t.spec, { title: `Slice ${found.slices[i]!.slice}`, where: found.slices[i]!.where });
  });
  assert.deepEqual(targets[0]!.spec.where[0], { key: 'split_role', op: '=', value: 'test' });
  // Click and Enter open the target's rows, after the component, focus back on the row; other keys do not.
  rows[0]!.click();
  rows[0]!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
  rows[0]!.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true, cancelable: true }));
  assert.deepEqual(
    opened.map((o) => [o.spec, o.anchor, o.origin]),
    [
      [targets[0]!.spec, e, rows[0]],
      [targets[0]!.spec, e, rows[0]],
    ],
  );
  e.remove();
});

test('without a rows panel (a comparison), the rows are no targets; the run picker names B', async () => {
  const { e, section } = mount({
    openRows: undefined,
    compare: {
      baseline: 'logreg',
      runs: [
        { id: 'r1', name: 'knn' },
        { id: 'r2', name: 'svc' },
      ],
    },
  });
  await e.updateComplete;
  assert.equal(e.querySelector('h3')!.textContent, 'Where B loses');
  e.querySelector<HTMLSelectElement>('select.found-run')!.value = 'r2';
  e.querySelector<HTMLInputElement>('input.found-min-support')!.value = '40';
  e.querySelector<HTMLElement>('vscode-button[data-act="find-slices"]')!.click();
  const q = await dom.nextPosted('findSlices');
  assert.deepEqual(q, { type: 'findSlices', seq: q.seq, minSupport: 40, limit: 20, run: 'r2' });
  api.answer({ type: 'foundSlices', seq: q.seq, result: found });
  await until(() => section().dataset.state === 'done', 'the found slices');
  assert.equal(e.drillTargets.length, 0);
  const row = e.querySelector<HTMLElement>('.found-slices-table tbody tr')!;
  assert.equal(row.hasAttribute('tabindex'), false);
  assert.equal(row.classList.contains('drillable'), false);
  e.remove();
});

test('an input it refuses and a failed finder say so', async () => {
  const { e, status, section } = mount();
  await e.updateComplete;
  const go = e.querySelector<HTMLElement>('vscode-button[data-act="find-slices"]')!;
  /** The error shown after Find with these inputs. */
  const refused = async (minSupport: string, limit: string): Promise<string | null> => {
    e.querySelector<HTMLInputElement>('input.found-min-support')!.value = minSupport;
    e.querySelector<HTMLInputElement>('input.found-limit')!.value = limit;
    go.click();
    await e.updateComplete;
    return e.querySelector('.found-slices-out p.error')!.textContent;
  };
  assert.equal(await refused('0', '20'), 'Min support expects a whole number ≥ 1 (or empty for the default).');
  assert.equal(await refused('2.5', '20'), 'Min support expects a whole number ≥ 1 (or empty for the default).');
  assert.equal(await refused('', '1001'), 'Max slices expects a whole number from 0 to 1000.');
  assert.equal(section().dataset.state, 'idle');
  assert.deepEqual(status, []);
  assert.equal(
    dom.posted.filter((m) => m.type === 'findSlices').length,
    2,
    'the two earlier tests asked; this one not yet',
  );
  e.querySelector<HTMLInputElement>('input.found-limit')!.value = '5';
  go.click();
  const q = await dom.nextPosted('findSlices');
  api.answer({ type: 'reply', seq: q.seq, ok: false, message: 'logreg.csv changed on disk.' });
  await until(() => section().dataset.state === 'error', 'the failure');
  assert.equal(e.querySelector('.found-slices-out p.error[role="alert"]')!.textContent, 'logreg.csv changed on disk.');
  e.remove();
});
