/// <reference lib="dom" />
// A metric card in a DOM (happy-dom) declares its own drill-down target: on the classification
// report of examples/digits-lt/logreg.csv with the host's drill-down builder, the few-shot accuracy
// card is its own target (focusable, hinted, the filter of the few-shot rows), opened by click and
// Enter under its row of cards; a card of no set of rows (the area under accuracy vs. shift) has none.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DrillSpec, DrillTargets } from '../../../src/shared/drillSpec';
import type { CardModel, ReportModel } from '../../../src/shared/model';
import { formatNumber } from '../../../src/shared/format';
import { logregReport } from './classificationExample';
import { installDom, type TestDom } from './happyDom';

let dom: TestDom;
let model: ReportModel;
let drill: DrillTargets;
let cards: typeof import('../../../webview/cards');

before(async () => {
  ({ model, drill } = await logregReport());
  dom = installDom();
  cards = await import('../../../webview/cards');
});
after(() => dom.close());

const cardModel = (key: string): CardModel =>
  [...model.headline, ...model.tabs.flatMap((t) => t.cards)].find((c) => c.key === key)!;

test('the few-shot accuracy card is its own target: the few-shot rows, opened by click and Enter', () => {
  const c = cardModel('acc_few');
  const spec = drill.cards.acc_few!;
  assert.ok(
    spec.where.some((w) => w.key === 'shot'),
    JSON.stringify(spec),
  );
  const opened: { spec: DrillSpec; anchor: HTMLElement; origin: HTMLElement }[] = [];
  const card = cards.cardEl(c, { spec, open: (s, anchor, origin) => void opened.push({ spec: s, anchor, origin }) });
  const row = document.createElement('section');
  row.className = 'cards';
  row.append(card);
  document.body.append(row);
  assert.equal(card.dataset.metric, 'acc_few');
  assert.equal(Number(card.dataset.value), c.value);
  assert.equal(card.querySelector('.card-value')!.textContent, formatNumber(c.value, 'acc_few'));
  assert.ok(card.classList.contains('drillable'));
  assert.equal(card.tabIndex, 0);
  assert.equal(
    card.getAttribute('aria-description'),
    `${spec.title}. Press Enter (or click) to list the rows behind it.`,
  );
  assert.ok(card.title.endsWith(`\n${spec.title}: click for the rows`));
  assert.deepEqual(card.drillTargets, [{ element: card, spec, anchor: row }]);
  (card.querySelector('.card-value') as HTMLElement).click();
  card.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
  card.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true }));
  assert.deepEqual(opened, [
    { spec, anchor: row, origin: card },
    { spec, anchor: row, origin: card },
  ]);
  row.remove();
});

test('a card without rows behind it is no target', () => {
  // the first card whose number is not that of a set of rows: the area under accuracy vs. shift
  const c = [...model.headline, ...model.tabs.flatMap((t) => t.cards)].find((x) => !drill.cards[x.key])!;
  assert.equal(c.key, 'shift_auc');
  const card = cards.cardEl(c);
  assert.equal(card.drillTargets.length, 0);
  assert.equal(card.classList.contains('drillable'), false);
  assert.equal(card.hasAttribute('aria-description'), false);
  assert.equal(
    card.getAttribute('aria-label'),
    `${c.name} (shift_auc) ${formatNumber(c.value, 'shift_auc')}, higher is better`,
  );
});
