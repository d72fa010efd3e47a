/// <reference lib="dom" />
// The item map's picker component in a DOM (happy-dom), on the ranking example's item map: a user
// typed and Entered is highlighted with the counts a direct reading of the run file and the map's
// items gives, the map is redrawn with the highlight and back without it on Clear, a user shown by
// the user inspector it follows is highlighted too — only while the picker is in the document (its
// listener is removed on disconnect and added again on connect). No drill-down targets.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChartModel } from '../../../src/shared/model';
import { countListeners, installDom, until, type TestDom } from './happyDom';
import { rankingExample, type RankingExample } from './rankingExample';

let dom: TestDom;
let ex: RankingExample;
let mapIds: Set<string>;
let k: number;
let ui: typeof import('../../../webview/userInspector');
let map: typeof import('../../../webview/itemMap');
let api: typeof import('../../../webview/vscodeApi');

before(async () => {
  ex = await rankingExample();
  mapIds = new Set(ex.results.tables.itemMap!.ids);
  k = ex.results.tables.itemMap!.k;
  dom = installDom();
  ui = await import('../../../webview/userInspector');
  map = await import('../../../webview/itemMap');
  api = await import('../../../webview/vscodeApi');
});
after(() => dom.close());

interface Recorder {
  drawn: (ChartModel | undefined)[];
  memory: Record<string, string>;
}

async function mount(follows?: EventTarget) {
  const r: Recorder = { drawn: [], memory: {} };
  const e = map.itemMapPicker(
    ex.itemMap,
    ex.tab.userInspector!.users,
    {
      draw: (m) => void r.drawn.push(m),
      status: () => undefined,
      recall: (key) => r.memory[key],
      remember: (key, v) => void (r.memory[key] = v),
    },
    follows,
  );
  document.body.append(e);
  await e.updateComplete;
  return { e, r, box: () => e.querySelector<HTMLElement>('.item-map-picker')! };
}

async function answerQuery(): Promise<void> {
  const q = await dom.nextPosted('queryRows');
  api.answer({ type: 'rows', seq: q.seq, page: ex.query(q.query) });
}

/** What the run file says of `user`'s top K on this map. */
function expected(user: string) {
  const line = ex.lines.find((l) => l.user === user)!;
  const top = line.items.slice(0, k);
  const missed = line.relevant.filter((i) => !top.includes(i));
  return {
    top,
    onMap: top.filter((i) => mapIds.has(i)).length,
    hits: top.filter((i) => mapIds.has(i) && line.relevant.includes(i)).length,
    missedOnMap: missed.filter((i) => mapIds.has(i)).length,
    missed,
  };
}

/** A user whose top K has two hits on the map and a missed relevant item on it. */
function pickUser(): string {
  return ex.lines.find((l) => {
    const x = expected(l.user);
    return x.hits >= 2 && x.missedOnMap >= 1 && new Set(x.top).size === x.top.length;
  })!.user;
}

test('renders the picker of the map: no user highlighted, Clear disabled, the suggestions', async () => {
  const { e, box } = await mount();
  assert.equal(k, 20);
  assert.equal(box().dataset.highlighted, '0');
  assert.equal(box().dataset.user, undefined);
  assert.ok(e.querySelector('.item-map-clear')!.hasAttribute('disabled'));
  assert.equal(
    e.querySelector<HTMLInputElement>('input.user-search')!.getAttribute('aria-label'),
    'User id whose top 20 items the map highlights (Enter to show)',
  );
  assert.equal(e.querySelectorAll('datalist option').length, 1202);
  assert.equal(e.querySelectorAll('.drillable, [data-drill-row], [data-drill-cell]').length, 0);
  e.remove();
});

test('a user Entered is highlighted with the counts of the run file; Clear draws the map alone', async () => {
  const { e, r, box } = await mount();
  const user = pickUser();
  const want = expected(user);
  const input = e.querySelector<HTMLInputElement>('input.user-search')!;
  input.value = user;
  input.dispatchEvent(new InputEvent('input', { bubbles: true }));
  e.querySelector<HTMLElement>('.item-map-show')!.click();
  await answerQuery();
  await until(() => box().dataset.user === user, 'the highlighted user');
  assert.equal(Number(box().dataset.highlighted), want.onMap);
  assert.equal(Number(box().dataset.hits), want.hits);
  assert.equal(Number(box().dataset.missed), want.missedOnMap);
  assert.deepEqual(
    [...e.querySelectorAll<HTMLElement>('.item-map-items li')].map((l) => l.dataset.item),
    want.top,
  );
  assert.deepEqual(
    [...e.querySelectorAll<HTMLElement>('.item-map-missed li')].map((l) => [l.dataset.item, l.dataset.onMap]).sort(),
    want.missed.map((i) => [i, String(mapIds.has(i))]).sort(),
  );
  // the map was redrawn with the user's items on top: one series of hits, one of the missed items
  const drawn = r.drawn.at(-1)!;
  assert.equal(drawn.series.find((s) => s.label === `hits of ${user}`)!.points.length, want.hits);
  assert.equal(drawn.series.find((s) => s.marker === 'cross')!.points.length, want.missedOnMap);
  assert.equal(r.memory['itemMap.user'], user);
  const clear = e.querySelector<HTMLElement>('.item-map-clear')!;
  assert.equal(clear.hasAttribute('disabled'), false);
  clear.click();
  await e.updateComplete;
  assert.equal(box().dataset.highlighted, '0');
  assert.equal(box().dataset.user, undefined);
  assert.equal(r.drawn.at(-1), undefined);
  assert.equal(r.memory['itemMap.user'], '');
  assert.equal(e.querySelector('.item-map-items'), null);
  e.remove();
});

test('follows the user inspector it is linked to, and stops listening once disconnected', async () => {
  const inspector = ui.userInspector(ex.tab.userInspector!, {
    status: () => undefined,
    recall: () => undefined,
    remember: () => undefined,
  });
  document.body.append(inspector);
  // the listeners on the inspector, by type
  const { listening } = countListeners(inspector);
  const { e, r, box } = await mount(inspector);
  assert.equal(listening.get(ui.USER_SHOWN_EVENT), 1);
  const show = async (user: string): Promise<void> => {
    const input = inspector.querySelector<HTMLInputElement>('input.user-search')!;
    input.value = user;
    input.dispatchEvent(new InputEvent('input', { bubbles: true }));
    inspector.querySelector<HTMLElement>('.user-show')!.click();
    await answerQuery();
    await until(() => inspector.querySelector(`.user-view[data-user="${user}"]`) !== null, 'the inspector');
  };
  const first = pickUser();
  await show(first);
  await until(() => box().dataset.user === first, 'the followed user');
  assert.equal(Number(box().dataset.highlighted), expected(first).onMap);
  assert.equal(e.querySelector<HTMLInputElement>('input.user-search')!.value, first);
  assert.equal(r.memory['itemMap.user'], first);

  // Disconnected: the inspector's users no longer reach it.
  e.remove();
  assert.equal(listening.get(ui.USER_SHOWN_EVENT), 0);
  const drawnBefore = r.drawn.length;
  const second = ex.lines.find((l) => l.user !== first)!.user;
  await show(second);
  await e.updateComplete;
  assert.equal(box().dataset.user, first);
  assert.equal(r.drawn.length, drawnBefore);

  // Connected again: it follows again.
  document.body.append(e);
  assert.equal(listening.get(ui.USER_SHOWN_EVENT), 1);
  const third = ex.lines.find((l) => l.user !== first && l.user !== second)!.user;
  await show(third);
  await until(() => box().dataset.user === third, 'the followed user after reconnecting');
  assert.equal(r.drawn.length, drawnBefore + 1);
  e.remove();
  inspector.remove();
});
