/**
 * A metric card: the metric's name, key, value, interval and notes, keyboard-focusable and
 * labelled for screen readers. A card whose number stands for rows of the file (few-shot rows, a
 * group's rows) declares itself as a drill-down target: given its `DrillSpec` and the rows panel's
 * `OpenRows`, it is marked with its hint and opens its rows on click or Enter.
 */
import type { DrillSpec } from '../src/shared/drillSpec';
import type { CardModel } from '../src/shared/model';
import { el } from './dom';
import { activates, ROWS_HINT, type DrillSource, type DrillTarget, type OpenRows } from './drill';

/** The rows behind a card, and how to open them. */
export interface CardDrill {
  spec: DrillSpec;
  open: OpenRows;
}

/** A rendered card; its drill-down targets are itself, or none. */
export type CardElement = HTMLElement & DrillSource;

export function cardEl(c: CardModel, drill?: CardDrill): CardElement {
  const arrow = c.direction === 'higher' ? '↑' : c.direction === 'lower' ? '↓' : '';
  const name = c.name ?? c.key;
  // The name is the title; the key (what the results JSON, the CLI and `explain` use) is on hover and under it.
  const title = [`${name} (${c.key})`, c.explain, c.note].filter((x) => !!x).join('\n\n');
  const card: HTMLElement = el(
    'div',
    {
      class: drill ? 'card drillable' : 'card',
      'data-metric': c.key,
      'data-value': c.value === null ? 'null' : String(c.value),
      tabindex: '0',
      title: drill ? `${title}\n${drill.spec.title}: click for the rows` : title,
      role: 'group',
      'aria-label': `${name} (${c.key}) ${c.text}${c.ci ? `, interval ${c.ci}` : ''}, ${c.direction === 'none' ? 'a count' : `${c.direction} is better`}`,
      'aria-description': drill ? `${drill.spec.title}. ${ROWS_HINT}` : undefined,
    },
    el('div', { class: 'card-name' }, name, el('span', { class: 'dir', 'aria-hidden': 'true' }, ` ${arrow}`)),
    name !== c.key ? el('div', { class: 'card-key' }, c.key) : null,
    el('div', { class: 'card-value' }, c.text),
    c.ci ? el('div', { class: 'card-ci' }, c.ci) : null,
    ...(c.extra ?? []).map((x) => el('div', { class: 'card-extra' }, x)),
    c.caveat ? el('div', { class: 'card-caveat' }, c.caveat) : null,
  );
  // The rows panel opens under the row of cards.
  const target = (): DrillTarget[] =>
    drill ? [{ element: card, spec: drill.spec, anchor: card.closest<HTMLElement>('section.cards') ?? card }] : [];
  if (drill) {
    const open = (): void => {
      const [t] = target();
      drill.open(t!.spec, t!.anchor, card);
    };
    card.addEventListener('click', open);
    card.addEventListener('keydown', (e) => {
      if (e.target === card && activates(e)) open();
    });
  }
  return Object.defineProperty(card, 'drillTargets', { get: target }) as CardElement;
}
