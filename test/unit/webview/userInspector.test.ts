/// <reference lib="dom" />
// The user inspector component in a DOM (happy-dom), on the ranking example's report model: its
// hint and suggestions from the model, a user looked up through the row query (the host's own
// answer), drawn with the hits, missed items and per-user metrics a direct reading of the run file
// gives, the event that tells the item map, the remembered user, and the notes of a user not in
// the run and of a failed query. The user inspector opens no rows panel: it declares no drill-down
// targets, and none of its elements carries the drill-down marks.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RankingRowView } from '../../../src/core/rows/types';
import type { UserInspectorModel } from '../../../src/shared/userInspector';
import { installDom, until, type TestDom } from './happyDom';
import { rankingExample, type RankingExample } from './rankingExample';

let dom: TestDom;
let ex: RankingExample;
let m: UserInspectorModel;
let ui: typeof import('../../../webview/userInspector');
let api: typeof import('../../../webview/vscodeApi');

before(async () => {
  ex = await rankingExample();
  m = ex.tab.userInspector!;
  dom = installDom();
  ui = await import('../../../webview/userInspector');
  api = await import('../../../webview/vscodeApi');
});
after(() => dom.close());

/** A host that records what the component asks of it. */
function host(memory: Record<string, string> = {}): {
  status: string[];
  memory: Record<string, string>;
  recall(k: string): string | undefined;
  remember(k: string, v: string): void;
  statusOf(t: string): void;
} {
  const h = {
    status: [] as string[],
    memory,
    recall: (k: string) => memory[k],
    remember: (k: string, v: string) => void (memory[k] = v),
    statusOf: (t: string) => void h.status.push(t),
  };
  return h;
}

async function mount(memory: Record<string, string> = {}) {
  const h = host(memory);
  const e = ui.userInspector(m, { status: h.statusOf, recall: h.recall, remember: h.remember });
  document.body.append(e);
  await e.updateComplete;
  return { e, h };
}

/** Answers the next row query the webview posts, as the host does; returns the query. */
async function answerQuery(rows = ex.query.bind(ex)) {
  const q = await dom.nextPosted('queryRows');
  api.answer({ type: 'rows', seq: q.seq, page: rows(q.query) });
  return q;
}

function typeAndEnter(input: HTMLInputElement, text: string): void {
  input.value = text;
  input.dispatchEvent(new InputEvent('input', { bubbles: true }));
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
}

test('renders the hint and the suggestions of the model', async () => {
  const { e } = await mount();
  assert.equal(m.totalUsers, 1202);
  assert.equal(m.users.length, m.totalUsers);
  const section = e.querySelector('section.explorer.user-inspector')!;
  assert.equal(section.querySelector('h3')!.textContent, 'User inspector');
  assert.equal(
    section.querySelector('p.note')!.textContent,
    '1,202 evaluated users; users without a relevant item can be typed too.',
  );
  const input = e.querySelector<HTMLInputElement>('input.user-search')!;
  const list = document.getElementById(input.getAttribute('list')!)!;
  assert.deepEqual(
    [...list.querySelectorAll('option')].map((o) => o.getAttribute('value')),
    ex.lines.map((l) => l.user),
  );
  assert.equal(e.querySelector('.user-result')!.textContent!.trim(), '');
  // No drill-down targets: the user's row is shown here, not in the rows panel.
  assert.equal(e.querySelectorAll('.drillable, [data-drill-row], [data-drill-cell]').length, 0);
  e.remove();
});

test("a user typed and Entered: the row query's row, drawn as the run file says, and announced", async () => {
  const { e, h } = await mount();
  // a user with at least two hits in the top 20, found in the file itself
  const pick = ex.lines.find((u) => u.items.slice(0, 20).filter((i) => u.relevant.includes(i)).length >= 2)!;
  const top = pick.items.slice(0, 20);
  const hits = top.filter((i) => pick.relevant.includes(i));
  const missed = pick.relevant.filter((i) => !top.includes(i));
  let announced: RankingRowView | undefined;
  e.addEventListener(ui.USER_SHOWN_EVENT, (ev) => (announced = (ev as CustomEvent<RankingRowView>).detail));
  typeAndEnter(e.querySelector<HTMLInputElement>('input.user-search')!, pick.user);
  await e.updateComplete;
  assert.equal(e.querySelector('.user-result p.note')!.textContent, `Looking up ${pick.user}…`);
  const q = await answerQuery();
  assert.deepEqual(q.query.where, [{ key: 'user', op: '=', value: pick.user }]);
  assert.equal(h.memory['userInspector.user'], pick.user);
  await until(() => e.querySelector('.user-view') !== null, 'the user view');
  const view = e.querySelector<HTMLElement>('.user-view')!;
  assert.equal(view.dataset.user, pick.user);
  const items = [...view.querySelectorAll<HTMLElement>('.user-items tbody tr')];
  assert.deepEqual(
    items.map((t) => t.dataset.item),
    top,
  );
  assert.deepEqual(
    items.filter((t) => t.dataset.hit === 'true').map((t) => t.dataset.item),
    hits,
  );
  assert.deepEqual(
    [...view.querySelectorAll<HTMLElement>('.user-missed tbody tr')].map((t) => t.dataset.item).sort(),
    [...missed].sort(),
  );
  assert.equal(view.querySelector('h4')!.textContent, 'Top 20');
  assert.equal(view.querySelector<HTMLElement>('[data-hits]')!.dataset.hits, String(hits.length));
  // recall@20 of this user = hits / relevant items; the population's value is the results' mean
  const recall = view.querySelector<HTMLElement>('.user-metrics tr[data-metric="recall@20"]')!;
  assert.equal(Number(recall.dataset.value), hits.length / pick.relevant.length);
  assert.equal(
    recall.querySelectorAll('td')[1]!.textContent,
    m.population.find((p) => p.key === 'recall@20')!.value!.toFixed(4),
  );
  assert.equal(announced?.user, pick.user);
  // "Open at line N" posts the user's line of the run file (1-based).
  const open = [...view.querySelectorAll<HTMLElement>('vscode-button')].find((b) =>
    b.textContent!.startsWith('Open at line'),
  )!;
  open.click();
  assert.deepEqual(await dom.nextPosted('openLine'), {
    type: 'openLine',
    line: ex.lines.findIndex((l) => l.user === pick.user) + 1,
  });
  e.remove();
});

test('the remembered user is looked up when the inspector is first drawn', async () => {
  const user = ex.lines[3]!.user;
  const { e } = await mount({ 'userInspector.user': user });
  assert.equal(e.querySelector<HTMLInputElement>('input.user-search')!.value, user);
  await answerQuery();
  await until(() => e.querySelector('.user-view') !== null, 'the user view');
  assert.equal(e.querySelector<HTMLElement>('.user-view')!.dataset.user, user);
  e.remove();
});

test('a user not in the run, a failed query and an empty box each say so', async () => {
  const { e, h } = await mount();
  const input = e.querySelector<HTMLInputElement>('input.user-search')!;
  typeAndEnter(input, 'no-such-user');
  await answerQuery();
  await until(() => e.querySelector('.user-result [data-none]') !== null, 'the note of a user not in the run');
  const none = e.querySelector<HTMLElement>('.user-result [data-none]')!;
  assert.equal(none.textContent, 'No list for user "no-such-user" in the run.');
  typeAndEnter(input, ex.lines[0]!.user);
  const q = await dom.nextPosted('queryRows');
  api.answer({ type: 'reply', seq: q.seq, ok: false, message: 'The run file changed on disk.' });
  await until(() => e.querySelector('.user-result p.error') !== null, 'the error');
  assert.equal(e.querySelector('.user-result p.error')!.textContent, 'The run file changed on disk.');
  typeAndEnter(input, '  ');
  assert.deepEqual(h.status, ['Type a user id.']);
  e.remove();
});

test('text from the files is set as text, never parsed as HTML', async () => {
  const { e } = await mount();
  typeAndEnter(e.querySelector<HTMLInputElement>('input.user-search')!, '<img src=x onerror=alert(1)>');
  await answerQuery();
  await until(() => e.querySelector('.user-result [data-none]') !== null, 'the note of a user not in the run');
  assert.equal(e.querySelector('img'), null);
  assert.match(e.querySelector('.user-result')!.textContent!, /<img src=x onerror=alert\(1\)>/);
  e.remove();
});
