/**
 * The user inspector of a ranking report (`<eval-user-inspector>`): type (or pick from the
 * suggestions) a user id, and see that user's top-K list with its hits, the relevant items it
 * missed, each recommended item's train count (popularity) with cold items marked, the item
 * metadata of the `items` table, and the user's per-user metrics beside the population's. The
 * user's row comes from the host by the row query (`user = <id>`); every text from the files is
 * set as text (Lit binds text, never HTML).
 *
 * One state object (the box's text and the lookup); a shown user is announced by
 * {@link USER_SHOWN_EVENT} on the element itself, for whoever the panel links to it (the item map).
 * It has no drill-down targets: the user's row is shown here, not in the rows panel.
 */
import { html, type TemplateResult } from 'lit';
import type { RankingRowView } from '../src/core/rows/types';
import type { RowPosition } from '../src/shared/rowPosition';
import { formatCount, formatNumber } from '../src/shared/format';
import type { UserInspectorModel } from '../src/shared/userInspector';
import { lookupNote, UserSearch, type UserSearchHost, type UserSearchState } from './userSearch';
import { vscode } from './vscodeApi';

/**
 * Dispatched on the inspector element (not bubbling) when it shows a user, with the user's row
 * as `detail`: the item map linked to it highlights that user too.
 */
export const USER_SHOWN_EVENT = 'evallens:user-shown';

export type UserInspectorHost = UserSearchHost;

export class UserInspectorElement extends UserSearch<UserSearchState> {
  static override properties = { ...UserSearch.properties, model: { attribute: false } };

  declare model: UserInspectorModel;
  protected readonly memoryKey = 'userInspector.user';

  constructor() {
    super({ query: '', lookup: { phase: 'idle' } });
  }

  protected found(row: RankingRowView, position: RowPosition): void {
    this.state = { ...this.state, lookup: { phase: 'found', row, position } };
    this.dispatchEvent(new CustomEvent<RankingRowView>(USER_SHOWN_EVENT, { detail: row }));
  }

  override render(): TemplateResult {
    const m = this.model;
    const titleId = `user-inspector-title-${this.uid}`;
    const l = this.state.lookup;
    return html`<section class="explorer user-inspector" aria-labelledby=${titleId}>
      <h3 id=${titleId}>User inspector</h3>
      <div class="explorer-controls">
        ${this.searchField('User id (suggestions as you type; Enter to show)')}
        <vscode-button class="user-show" @click=${() => void this.lookUp()}>Show user</vscode-button>
      </div>
      <p class="note">${hint(m)}</p>
      <div class="user-result" aria-live="polite">
        ${l.phase === 'found' ? renderUser(l.row, m, l.position) : lookupNote(l)}
      </div>
    </section>`;
  }
}

customElements.define('eval-user-inspector', UserInspectorElement);

declare global {
  interface HTMLElementTagNameMap {
    'eval-user-inspector': UserInspectorElement;
  }
}

/** The inspector of `m`, with the status line and saved state of `host`. */
export function userInspector(m: UserInspectorModel, host: UserInspectorHost): UserInspectorElement {
  const e = document.createElement('eval-user-inspector');
  e.model = m;
  e.users = m.users;
  e.host = host;
  return e;
}

function hint(m: UserInspectorModel): string {
  return m.users.length === 0 && m.totalUsers > 0
    ? `${formatCount(m.totalUsers)} evaluated users; the results file holds no user ids to suggest (left out above a million users): type a user id in full.`
    : m.users.length < m.totalUsers
      ? `Suggestions list the first ${formatCount(m.users.length)} of ${formatCount(m.totalUsers)} evaluated users; any user id can be typed in full.`
      : `${formatCount(m.totalUsers)} evaluated users; users without a relevant item can be typed too.`;
}

function metaColumns(row: RankingRowView): string[] {
  const cols = new Set<string>();
  for (const it of row.items) for (const k of Object.keys(it.meta ?? {})) cols.add(k);
  for (const md of Object.values(row.missedMeta ?? {})) for (const k of Object.keys(md)) cols.add(k);
  return [...cols];
}

function renderUser(row: RankingRowView, m: UserInspectorModel, position: RowPosition): TemplateResult {
  const hits = row.items.filter((i) => i.hit).length;
  // A Parquet run has no lines: its data row is named instead of an Open button.
  const open = position.openable
    ? html`<vscode-button
        secondary
        title="Reveal the user's line in the run file"
        @click=${() => vscode.postMessage({ type: 'openLine', line: row.line })}
        >Open at line ${row.line}</vscode-button
      >`
    : html`<span class="note">data row ${position.value(row.line)}</span>`;
  const facts = [
    `${row.items.length} recommended`,
    `${hits} hit${hits === 1 ? '' : 's'}`,
    `${row.missed.length} relevant missed`,
    ...(row.trainCount !== undefined ? [`${formatCount(row.trainCount)} train interactions`] : []),
  ];
  const cols = metaColumns(row);
  const graded = row.items.some((i) => i.rel !== undefined);
  const hasTrain = row.items.some((i) => i.trainCount !== undefined);
  const head = ['rank', 'item', 'hit', ...(graded ? ['rel'] : []), ...(hasTrain ? ['train count'] : []), ...cols];
  const item = (it: RankingRowView['items'][number]): TemplateResult =>
    html`<tr class=${it.hit ? 'hit' : ''} data-item=${it.item} data-hit=${String(it.hit)}>
      <td>${it.rank}</td>
      <th scope="row">
        ${it.item}${
          it.repeatOf !== undefined
            ? html`<span class="note" title="a repeated item keeps its slot and is never a hit">
                repeat of #${it.repeatOf}</span
              >`
            : ''
        }
      </th>
      <td class="hit-cell">${it.hit ? '✓ hit' : ''}</td>
      ${graded ? html`<td>${it.rel === undefined ? '' : String(it.rel)}</td>` : ''}
      ${
        hasTrain
          ? html`<td>
              ${it.trainCount === undefined ? '—' : formatCount(it.trainCount)}${
                it.cold
                  ? html`<span class="cold" title=${`cold: fewer than ${m.coldThreshold} train interactions`}>
                      cold</span
                    >`
                  : ''
              }
            </td>`
          : ''
      }
      ${cols.map((c) => html`<td class="meta">${it.meta?.[c] ?? ''}</td>`)}
    </tr>`;
  const missed =
    row.missed.length === 0
      ? html`<p class="note">None: every relevant item is in the list.</p>`
      : html`<div class="scroll-x">
          <table class="plain user-missed" aria-label=${`Relevant items of ${row.user} not in the list`}>
            <thead>
              <tr>
                <th scope="col">item</th>
                ${cols.map((c) => html`<th scope="col">${c}</th>`)}
              </tr>
            </thead>
            <tbody>
              ${row.missed.map(
                (id) =>
                  html`<tr data-item=${id}>
                    <th scope="row">${id}</th>
                    ${cols.map((c) => html`<td class="meta">${row.missedMeta?.[id]?.[c] ?? ''}</td>`)}
                  </tr>`,
              )}
            </tbody>
          </table>
        </div>`;
  return html`<div class="user-view" data-user=${row.user}>
    <div class="user-head">
      <strong>${row.user}</strong>
      <span class="note" data-hits=${String(hits)}>${facts.join(' · ')}</span>
      ${open}
    </div>
    <h4>Top ${row.items.length}</h4>
    <div class="scroll-x">
      <table class="plain user-items" aria-label=${`Top ${row.items.length} recommendations of ${row.user}`}>
        <thead>
          <tr>
            ${head.map((h) => html`<th scope="col">${h}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${row.items.map(item)}
        </tbody>
      </table>
    </div>
    <h4>Relevant items missed (${row.missed.length})</h4>
    ${missed}
    <h4>Metrics</h4>
    <table class="plain user-metrics" aria-label=${`Per-user metrics of ${row.user} and of the population`}>
      <thead>
        <tr>
          <th scope="col">metric</th>
          <th scope="col">this user</th>
          <th scope="col">population (mean over users)</th>
        </tr>
      </thead>
      <tbody>
        ${m.population.map(({ key, value }) => {
          const mine = row.metrics[key];
          return html`<tr data-metric=${key} data-value=${mine === undefined ? 'null' : String(mine)}>
            <th scope="row">${key}</th>
            <td>${mine === undefined ? '— (not evaluated)' : formatNumber(mine, key)}</td>
            <td>${formatNumber(value, key)}</td>
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}
