/**
 * The user inspector of a ranking report: type (or pick from the suggestions) a user id, and see
 * that user's top-K list with its hits, the relevant items it missed, each recommended item's
 * train count (popularity) with cold items marked, the item metadata of the `items` table, and the
 * user's per-user metrics beside the population's. The user's row comes from the host by the row
 * query (`user = <id>`); every text from the files is set as text.
 */
import type { RankingRowView } from '../src/core/inspect/types';
import { rowPosition, type RowPosition } from '../src/shared/rowPosition';
import { formatCount, formatNumber } from '../src/shared/format';
import type { UserInspectorModel } from '../src/shared/userInspector';
import { el } from './dom';
import { ask, vscode } from './vscodeApi';

/** Fired (bubbling) when the inspector shows a user, with the user's row: the item map highlights that user too. */
export const USER_SHOWN_EVENT = 'evallens:user-shown';

export interface UserInspectorHost {
  status(text: string): void;
  recall(key: string): string | undefined;
  remember(key: string, value: string): void;
}

let instances = 0;

export function userInspector(m: UserInspectorModel, host: UserInspectorHost): HTMLElement {
  const id = ++instances;
  const section = el('section', { class: 'explorer user-inspector', 'aria-labelledby': `user-inspector-title-${id}` });
  const { input, datalist } = userIdField(
    `user-suggestions-${id}`,
    'User id (suggestions as you type; Enter to show)',
    m.users,
  );
  const show = el('vscode-button', { class: 'user-show' }, 'Show user');
  const result = el('div', { class: 'user-result', 'aria-live': 'polite' });
  const hint =
    m.users.length === 0 && m.totalUsers > 0
      ? `${formatCount(m.totalUsers)} evaluated users; the results file holds no user ids to suggest (left out above a million users): type a user id in full.`
      : m.users.length < m.totalUsers
        ? `Suggestions list the first ${formatCount(m.users.length)} of ${formatCount(m.totalUsers)} evaluated users; any user id can be typed in full.`
        : `${formatCount(m.totalUsers)} evaluated users; users without a relevant item can be typed too.`;

  const replayRemembered = userLookup(input, show, result, host, 'userInspector.user', (row, position) => {
    result.replaceChildren(renderUser(row, m, position));
    // The item map highlights the same user.
    section.dispatchEvent(new CustomEvent(USER_SHOWN_EVENT, { bubbles: true, detail: row }));
  });
  section.append(
    el('h3', { id: `user-inspector-title-${id}` }, 'User inspector'),
    el('div', { class: 'explorer-controls' }, input, datalist, show),
    el('p', { class: 'note' }, hint),
    result,
  );
  replayRemembered();
  return section;
}

/** A user-id search box with the given users as suggestions (a datalist: the box's `list`). */
export function userIdField(
  listId: string,
  label: string,
  users: readonly string[],
): { input: HTMLInputElement; datalist: HTMLDataListElement } {
  const input = el('input', {
    type: 'search',
    class: 'user-search',
    list: listId,
    placeholder: 'user id',
    'aria-label': label,
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const datalist = el('datalist', { id: listId });
  for (const u of users) datalist.append(el('option', { value: u }));
  return { input, datalist };
}

/**
 * Looks up the user typed in `input` on Enter or a click on `button`: an empty box asks for an id;
 * otherwise the id is remembered under `memoryKey` and the user's row, once the host has sent it,
 * goes to `show`. Returns the replay of the remembered user (call it once the controls are placed).
 */
export function userLookup(
  input: HTMLInputElement,
  button: HTMLElement,
  result: HTMLElement,
  host: UserInspectorHost,
  memoryKey: string,
  show: (row: RankingRowView, position: RowPosition) => void,
): () => void {
  const lookUp = async (): Promise<void> => {
    const user = input.value.trim();
    if (user === '') {
      host.status('Type a user id.');
      return;
    }
    host.remember(memoryKey, user);
    const found = await fetchUserRow(user, result);
    if (found) show(found.row, found.position);
  };
  button.addEventListener('click', () => void lookUp());
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void lookUp();
    }
  });
  return () => {
    const last = host.recall(memoryKey);
    if (last) {
      input.value = last;
      void lookUp();
    }
  };
}

/**
 * One user's row from the host (the row query `user = <id>`), or null with the reason shown in
 * `result` ("Looking up …" while waiting); with where it sits in the run file (a line, or a data row).
 */
export async function fetchUserRow(
  user: string,
  result: HTMLElement,
): Promise<{ row: RankingRowView; position: RowPosition } | null> {
  result.replaceChildren(el('p', { class: 'note' }, `Looking up ${user}…`));
  const a = await ask((seq) => ({
    type: 'queryRows',
    seq,
    query: { where: [{ key: 'user', op: '=', value: user }], offset: 0, limit: 1 },
  }));
  if (a.type === 'reply') {
    result.replaceChildren(el('p', { class: 'error' }, a.message ?? 'The rows cannot be read.'));
    return null;
  }
  if (a.type !== 'rows') return null;
  const row = a.page.rows[0];
  if (!row || row.kind !== 'ranking') {
    result.replaceChildren(el('p', { class: 'note', 'data-none': 'true' }, `No list for user "${user}" in the run.`));
    return null;
  }
  return { row, position: rowPosition(a.page) };
}

function metaColumns(row: RankingRowView): string[] {
  const cols = new Set<string>();
  for (const it of row.items) for (const k of Object.keys(it.meta ?? {})) cols.add(k);
  for (const md of Object.values(row.missedMeta ?? {})) for (const k of Object.keys(md)) cols.add(k);
  return [...cols];
}

function renderUser(row: RankingRowView, m: UserInspectorModel, position: RowPosition): HTMLElement {
  const wrap = el('div', { class: 'user-view', 'data-user': row.user });
  const hits = row.items.filter((i) => i.hit).length;
  // A Parquet run has no lines: its data row is named instead of an Open button.
  let open: HTMLElement;
  if (position.openable) {
    open = el(
      'vscode-button',
      { secondary: true, title: "Reveal the user's line in the run file" },
      `Open at line ${row.line}`,
    );
    open.addEventListener('click', () => vscode.postMessage({ type: 'openLine', line: row.line }));
  } else open = el('span', { class: 'note' }, `data row ${position.value(row.line)}`);
  const facts = [
    `${row.items.length} recommended`,
    `${hits} hit${hits === 1 ? '' : 's'}`,
    `${row.missed.length} relevant missed`,
    ...(row.trainCount !== undefined ? [`${formatCount(row.trainCount)} train interactions`] : []),
  ];
  wrap.append(
    el(
      'div',
      { class: 'user-head' },
      el('strong', {}, row.user),
      el('span', { class: 'note', 'data-hits': String(hits) }, facts.join(' · ')),
      open,
    ),
  );

  const cols = metaColumns(row);
  const graded = row.items.some((i) => i.rel !== undefined);
  const hasTrain = row.items.some((i) => i.trainCount !== undefined);
  const head = ['rank', 'item', 'hit', ...(graded ? ['rel'] : []), ...(hasTrain ? ['train count'] : []), ...cols];
  const table = el('table', {
    class: 'plain user-items',
    'aria-label': `Top ${row.items.length} recommendations of ${row.user}`,
  });
  table.append(el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h)))));
  const body = el('tbody');
  row.items.forEach((it) => {
    const tr = el('tr', { class: it.hit ? 'hit' : '', 'data-item': it.item, 'data-hit': String(it.hit) });
    tr.append(
      el('td', {}, String(it.rank)),
      el(
        'th',
        { scope: 'row' },
        it.item,
        it.repeatOf !== undefined
          ? el(
              'span',
              { class: 'note', title: 'a repeated item keeps its slot and is never a hit' },
              ` repeat of #${it.repeatOf}`,
            )
          : null,
      ),
      el('td', { class: 'hit-cell' }, it.hit ? '✓ hit' : ''),
      ...(graded ? [el('td', {}, it.rel === undefined ? '' : String(it.rel))] : []),
      ...(hasTrain
        ? [
            el(
              'td',
              {},
              it.trainCount === undefined ? '—' : formatCount(it.trainCount),
              it.cold
                ? el(
                    'span',
                    { class: 'cold', title: `cold: fewer than ${m.coldThreshold} train interactions` },
                    ' cold',
                  )
                : null,
            ),
          ]
        : []),
      ...cols.map((c) => el('td', { class: 'meta' }, it.meta?.[c] ?? '')),
    );
    body.append(tr);
  });
  table.append(body);
  wrap.append(el('h4', {}, `Top ${row.items.length}`), el('div', { class: 'scroll-x' }, table));

  wrap.append(el('h4', {}, `Relevant items missed (${row.missed.length})`));
  if (row.missed.length === 0) wrap.append(el('p', { class: 'note' }, 'None: every relevant item is in the list.'));
  else {
    const t = el('table', {
      class: 'plain user-missed',
      'aria-label': `Relevant items of ${row.user} not in the list`,
    });
    t.append(
      el(
        'thead',
        {},
        el('tr', {}, el('th', { scope: 'col' }, 'item'), ...cols.map((c) => el('th', { scope: 'col' }, c))),
      ),
    );
    const tb = el('tbody');
    for (const item of row.missed)
      tb.append(
        el(
          'tr',
          { 'data-item': item },
          el('th', { scope: 'row' }, item),
          ...cols.map((c) => el('td', { class: 'meta' }, row.missedMeta?.[item]?.[c] ?? '')),
        ),
      );
    t.append(tb);
    wrap.append(el('div', { class: 'scroll-x' }, t));
  }

  const mt = el('table', {
    class: 'plain user-metrics',
    'aria-label': `Per-user metrics of ${row.user} and of the population`,
  });
  mt.append(
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { scope: 'col' }, 'metric'),
        el('th', { scope: 'col' }, 'this user'),
        el('th', { scope: 'col' }, 'population (mean over users)'),
      ),
    ),
  );
  const mb = el('tbody');
  for (const { key, value } of m.population) {
    const mine = row.metrics[key];
    mb.append(
      el(
        'tr',
        { 'data-metric': key, 'data-value': mine === undefined ? 'null' : String(mine) },
        el('th', { scope: 'row' }, key),
        el('td', {}, mine === undefined ? '— (not evaluated)' : formatNumber(mine, key)),
        el('td', {}, formatNumber(value, key)),
      ),
    );
  }
  mt.append(mb);
  wrap.append(el('h4', {}, 'Metrics'), mt);
  return wrap;
}
