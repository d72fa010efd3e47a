/**
 * The item map's user picker (`<eval-item-map>`): type (or pick from the suggestions) a user id
 * and that user's top-K items are drawn large on the map — hits in their own colour — and their
 * relevant items missed (not in the top K) as plus signs, over the other items, faded; lists below
 * say the same in text. The user's list comes from the host by the row query (`user = <id>`), as
 * in the user inspector; every text from the files is set as text.
 *
 * One state object (the box's text, the lookup, the highlight drawn). The user inspector it
 * `follows` (a property the panel sets) is listened to while the picker is in the document: the
 * listener is added on connect and removed on disconnect. No drill-down targets: the map's points
 * stand for items, not for rows of the file.
 */
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { RankingRowView } from '../src/core/rows/types';
import { highlightUser, type Highlight, type HighlightItem } from '../src/shared/itemMapChart';
import type { ChartModel } from '../src/shared/model';
import { USER_SHOWN_EVENT } from './userInspector';
import { lookupNote, UserSearch, type UserSearchHost, type UserSearchState } from './userSearch';

export interface ItemMapHost extends UserSearchHost {
  /** Redraws the figure with this model (undefined: the map as it was built). */
  draw(model: ChartModel | undefined): void;
}

export interface ItemMapState extends UserSearchState {
  /** The user highlighted on the map, with what was drawn; undefined: the map alone. */
  shown?: { user: string; items: HighlightItem[]; missed: readonly string[]; highlight: Highlight };
}

const MEMORY = 'itemMap.user';

export class ItemMapElement extends UserSearch<ItemMapState> {
  static override properties = {
    ...UserSearch.properties,
    chart: { attribute: false },
    follows: { attribute: false },
  };

  /** The item map's chart model (as built from the results). */
  declare chart: ChartModel;
  declare host: ItemMapHost;
  /** The user inspector whose shown user is highlighted here too (it dispatches {@link USER_SHOWN_EVENT}). */
  declare follows: EventTarget | undefined;
  protected readonly memoryKey = MEMORY;
  /** The target the listener is on now (undefined: none). */
  private linked: EventTarget | undefined;
  private readonly onUserShown = (e: Event): void => {
    const row = (e as CustomEvent<RankingRowView>).detail;
    this.host.remember(MEMORY, row.user);
    this.state = { ...this.state, query: row.user };
    this.highlight(row);
  };

  constructor() {
    super({ query: '', lookup: { phase: 'idle' } });
    this.follows = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.link();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unlink();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('follows') && this.isConnected) {
      this.unlink();
      this.link();
    }
  }

  private link(): void {
    if (this.linked === this.follows) return;
    this.unlink();
    this.follows?.addEventListener(USER_SHOWN_EVENT, this.onUserShown);
    this.linked = this.follows;
  }

  private unlink(): void {
    this.linked?.removeEventListener(USER_SHOWN_EVENT, this.onUserShown);
    this.linked = undefined;
  }

  protected found(row: RankingRowView): void {
    this.highlight(row);
  }

  /** Draws `row`'s user on the map (each item once: a repeat keeps no point of its own). */
  private highlight(row: RankingRowView): void {
    const items = row.items.filter((i) => i.repeatOf === undefined);
    const highlight = highlightUser(this.chart, row.user, items, row.missed);
    this.host.draw(highlight.chart);
    this.state = {
      ...this.state,
      lookup: { phase: 'idle' },
      shown: { user: row.user, items, missed: row.missed, highlight },
    };
  }

  /** Back to the map alone. */
  clear(): void {
    this.host.draw(undefined);
    this.host.remember(MEMORY, '');
    this.state = { query: this.state.query, lookup: { phase: 'idle' } };
    this.querySelector<HTMLInputElement>('input.user-search')?.focus();
  }

  override render(): TemplateResult {
    const k = this.chart.itemMap?.k ?? 'K';
    const s = this.state.shown;
    return html`<div
      class="item-map-picker"
      data-highlighted=${s ? String(s.highlight.onMap) : '0'}
      data-hits=${s ? String(s.highlight.hits) : nothing}
      data-missed=${s ? String(s.highlight.missedOnMap) : nothing}
      data-user=${s?.user ?? nothing}
    >
      <div class="explorer-controls">
        ${this.searchField(`User id whose top ${k} items the map highlights (Enter to show)`)}
        <vscode-button class="item-map-show" @click=${() => void this.lookUp()}>Highlight user</vscode-button>
        <vscode-button secondary class="item-map-clear" ?disabled=${!s} @click=${() => this.clear()}
          >Clear</vscode-button
        >
      </div>
      <p class="note">
        Highlights a user's top ${k} recommendations (hits apart) and, with plus signs, their relevant items missed (not
        in the top ${k}); a user shown in the user inspector above is highlighted too.
      </p>
      <div class="item-map-result" aria-live="polite">
        ${this.state.lookup.phase === 'idle' && s ? shownUser(s) : lookupNote(this.state.lookup)}
      </div>
    </div>`;
  }
}

customElements.define('eval-item-map', ItemMapElement);

declare global {
  interface HTMLElementTagNameMap {
    'eval-item-map': ItemMapElement;
  }
}

/** The picker of the item map `chart`, suggesting `users`, following the user inspector `follows`. */
export function itemMapPicker(
  chart: ChartModel,
  users: readonly string[],
  host: ItemMapHost,
  follows?: EventTarget,
): ItemMapElement {
  const e = document.createElement('eval-item-map');
  e.chart = chart;
  e.users = users;
  e.host = host;
  e.follows = follows;
  return e;
}

function shownUser({ user, items, missed, highlight: h }: NonNullable<ItemMapState['shown']>): TemplateResult {
  const summary = `${user}: ${items.length} recommended, ${h.onMap} on the map (${h.hits} hit${h.hits === 1 ? '' : 's'})${h.missing.length > 0 ? `; not on the map: ${h.missing.length}` : ''}. Relevant items missed (not in the top ${items.length}): ${missed.length}, ${h.missedOnMap} on the map (plus signs).`;
  const listed = (item: string, onMap: boolean, hit?: boolean): TemplateResult =>
    html`<li data-item=${item} data-hit=${hit === undefined ? nothing : String(hit)} data-on-map=${String(onMap)}>
      ${item}${hit ? ' \u2014 hit' : ''}${onMap ? '' : ' (not on the map)'}
    </li>`;
  return html`<p class="note" data-summary="true">${summary}</p>
    <details>
      <summary>The highlighted items</summary>
      <ol class="item-map-items" aria-label=${`Top ${items.length} of ${user}`}>
        ${items.map((it) => listed(it.item, !h.missing.includes(it.item), it.hit))}
      </ol>
    </details>
    ${
      missed.length > 0
        ? html`<details>
            <summary>The missed relevant items</summary>
            <ul class="item-map-missed" aria-label=${`Relevant items of ${user} missed`}>
              ${missed.map((id) => listed(id, !h.missedMissing.includes(id)))}
            </ul>
          </details>`
        : nothing
    }`;
}
