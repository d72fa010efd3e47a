/**
 * The item map's user picker: type (or pick from the suggestions) a user id and that user's top-K
 * items are drawn large on the map — hits in their own colour — and their relevant items missed
 * (not in the top K) as plus signs, over the other items, faded; lists below say the same in text. A user shown by the user inspector is highlighted too. The user's
 * list comes from the host by the row query (`user = <id>`), as in the user inspector; every text
 * from the files is set as text.
 */
import type { RankingRowView } from '../src/core/inspect/types';
import { highlightUser, type HighlightItem } from '../src/shared/itemMapChart';
import type { ChartModel } from '../src/shared/model';
import { el } from './dom';
import { USER_SHOWN_EVENT, userIdField, userLookup } from './userInspector';

export interface ItemMapHost {
  /** Redraws the figure with this model (undefined: the map as it was built). */
  draw(model: ChartModel | undefined): void;
  status(text: string): void;
  recall(key: string): string | undefined;
  remember(key: string, value: string): void;
}

let instances = 0;

export function itemMapPicker(chart: ChartModel, users: readonly string[], host: ItemMapHost): HTMLElement {
  const id = ++instances;
  const box = el('div', { class: 'item-map-picker', 'data-highlighted': '0' });
  const { input, datalist } = userIdField(
    `item-map-users-${id}`,
    `User id whose top ${chart.itemMap?.k ?? 'K'} items the map highlights (Enter to show)`,
    users,
  );
  const show = el('vscode-button', { class: 'item-map-show' }, 'Highlight user');
  const clear = el('vscode-button', { secondary: true, class: 'item-map-clear', disabled: true }, 'Clear');
  const result = el('div', { class: 'item-map-result', 'aria-live': 'polite' });

  const apply = (user: string, items: HighlightItem[], missed: readonly string[]): void => {
    const h = highlightUser(chart, user, items, missed);
    host.draw(h.chart);
    box.dataset.highlighted = String(h.onMap);
    box.dataset.hits = String(h.hits);
    box.dataset.missed = String(h.missedOnMap);
    box.dataset.user = user;
    clear.removeAttribute('disabled');
    const summary = `${user}: ${items.length} recommended, ${h.onMap} on the map (${h.hits} hit${h.hits === 1 ? '' : 's'})${h.missing.length > 0 ? `; not on the map: ${h.missing.length}` : ''}. Relevant items missed (not in the top ${items.length}): ${missed.length}, ${h.missedOnMap} on the map (plus signs).`;
    const list = el('ol', { class: 'item-map-items', 'aria-label': `Top ${items.length} of ${user}` });
    for (const it of items) {
      const onMap = !h.missing.includes(it.item);
      list.append(
        el(
          'li',
          { 'data-item': it.item, 'data-hit': String(it.hit), 'data-on-map': String(onMap) },
          it.item,
          it.hit ? ' \u2014 hit' : '',
          onMap ? '' : ' (not on the map)',
        ),
      );
    }
    const missedList = el('ul', { class: 'item-map-missed', 'aria-label': `Relevant items of ${user} missed` });
    for (const id of missed) {
      const onMap = !h.missedMissing.includes(id);
      missedList.append(
        el('li', { 'data-item': id, 'data-on-map': String(onMap) }, id, onMap ? '' : ' (not on the map)'),
      );
    }
    result.replaceChildren(
      el('p', { class: 'note', 'data-summary': 'true' }, summary),
      el('details', {}, el('summary', {}, 'The highlighted items'), list),
      ...(missed.length > 0 ? [el('details', {}, el('summary', {}, 'The missed relevant items'), missedList)] : []),
    );
  };

  const replayRemembered = userLookup(input, show, result, host, 'itemMap.user', (row) =>
    apply(row.user, firstOccurrences(row.items), row.missed),
  );
  clear.addEventListener('click', () => {
    host.draw(undefined);
    host.remember('itemMap.user', '');
    box.dataset.highlighted = '0';
    delete box.dataset.user;
    delete box.dataset.missed;
    clear.setAttribute('disabled', '');
    result.replaceChildren();
    input.focus();
  });
  // The user inspector's choice, as it is shown there.
  document.addEventListener(USER_SHOWN_EVENT, (e) => {
    if (!box.isConnected) return;
    const row = (e as CustomEvent<RankingRowView>).detail;
    input.value = row.user;
    host.remember('itemMap.user', row.user);
    apply(row.user, firstOccurrences(row.items), row.missed);
  });

  box.append(
    el('div', { class: 'explorer-controls' }, input, datalist, show, clear),
    el(
      'p',
      { class: 'note' },
      `Highlights a user's top ${chart.itemMap?.k ?? 'K'} recommendations (hits apart) and, with plus signs, their relevant items missed (not in the top ${chart.itemMap?.k ?? 'K'}); a user shown in the user inspector above is highlighted too.`,
    ),
    result,
  );
  replayRemembered();
  return box;
}

/** A user's items without the repeats of an item (the map marks each item once). */
function firstOccurrences(items: RankingRowView['items']): RankingRowView['items'] {
  return items.filter((i) => i.repeatOf === undefined);
}
