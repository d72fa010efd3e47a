/**
 * What the user inspector and the item map's picker share: a user-id box with the evaluated users
 * as suggestions, a button that does what Enter does, and the lookup of the user's row by the row
 * query (`user = <id>`) with its state (looking up, not in the run, an error, found). The id last
 * looked up is remembered (the panel's saved state) and looked up again when the element is first
 * drawn. Both are Lit elements drawn in the light DOM, so the report's stylesheets style them.
 */
import { html, LitElement, nothing, type TemplateResult } from 'lit';
import type { RankingRowView } from '../src/core/rows/types';
import { rowPosition, type RowPosition } from '../src/shared/rowPosition';
import { ask } from './vscodeApi';

/** What the element may touch outside itself: the status line and the panel's saved state. */
export interface UserSearchHost {
  status(text: string): void;
  recall(key: string): string | undefined;
  remember(key: string, value: string): void;
}

/** Where a user lookup stands. */
export type Lookup =
  | { phase: 'idle' }
  | { phase: 'looking'; user: string }
  | { phase: 'none'; user: string }
  | { phase: 'error'; message: string }
  | { phase: 'found'; row: RankingRowView; position: RowPosition };

export interface UserSearchState {
  /** The text in the user-id box. */
  query: string;
  lookup: Lookup;
}

/**
 * One user's row from the host (the row query `user = <id>`), with where it sits in the run file (a
 * line, or a data row); or why there is none.
 */
export async function lookUpUser(user: string): Promise<Lookup> {
  const a = await ask((seq) => ({
    type: 'queryRows',
    seq,
    query: { where: [{ key: 'user', op: '=', value: user }], offset: 0, limit: 1 },
  }));
  if (a.type === 'reply') return { phase: 'error', message: a.message ?? 'The rows cannot be read.' };
  if (a.type !== 'rows') return { phase: 'error', message: 'The rows cannot be read.' };
  const row = a.page.rows[0];
  if (!row || row.kind !== 'ranking') return { phase: 'none', user };
  return { phase: 'found', row, position: rowPosition(a.page) };
}

/** The lookup's note while there is no user to show (nothing once one is found). */
export function lookupNote(l: Lookup): TemplateResult | typeof nothing {
  switch (l.phase) {
    case 'looking':
      return html`<p class="note">Looking up ${l.user}…</p>`;
    case 'none':
      return html`<p class="note" data-none="true">No list for user "${l.user}" in the run.</p>`;
    case 'error':
      return html`<p class="error">${l.message}</p>`;
    default:
      return nothing;
  }
}

let ids = 0;

/**
 * The common element. A subclass names its `memoryKey`, draws itself with {@link searchField} and
 * says what a found user does ({@link found}); its one state object extends {@link UserSearchState}.
 */
export abstract class UserSearch<S extends UserSearchState> extends LitElement {
  static override properties = {
    host: { attribute: false },
    users: { attribute: false },
    state: { state: true },
  };

  /** The status line and the saved state. */
  declare host: UserSearchHost;
  /** The user ids offered as suggestions. */
  declare users: readonly string[];
  declare state: S;

  /** Under which key of the saved state the last user is kept. */
  protected abstract readonly memoryKey: string;
  /** A unique id for the datalist (and other ids of this element). */
  protected readonly uid = ++ids;
  /** Answers of lookups started before the latest are dropped. */
  private lookups = 0;

  constructor(initial: S) {
    super();
    this.users = [];
    this.state = initial;
  }

  /** Light DOM: the report's stylesheets (media/*.css, by the panel's CSP) apply inside. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  /** A found user: the subclass puts it in its state (and tells whom it concerns). */
  protected abstract found(row: RankingRowView, position: RowPosition): void;

  protected override firstUpdated(): void {
    const last = this.host.recall(this.memoryKey);
    if (last) {
      this.state = { ...this.state, query: last };
      void this.lookUp();
    }
  }

  /** Looks up the user in the box: an empty box asks for an id; the id is remembered. */
  async lookUp(): Promise<void> {
    const user = this.state.query.trim();
    if (user === '') {
      this.host.status('Type a user id.');
      return;
    }
    this.host.remember(this.memoryKey, user);
    const mine = ++this.lookups;
    this.state = { ...this.state, lookup: { phase: 'looking', user } };
    const l = await lookUpUser(user);
    if (mine !== this.lookups) return;
    if (l.phase === 'found') this.found(l.row, l.position);
    else this.state = { ...this.state, lookup: l };
  }

  /** The user-id box with its suggestions (Enter looks the user up). */
  protected searchField(label: string): TemplateResult {
    const listId = `${this.localName}-users-${this.uid}`;
    return html`<input
        type="search"
        class="user-search"
        list=${listId}
        placeholder="user id"
        aria-label=${label}
        autocomplete="off"
        spellcheck="false"
        .value=${this.state.query}
        @input=${(e: Event) => {
          this.state = { ...this.state, query: (e.target as HTMLInputElement).value };
        }}
        @keydown=${(e: KeyboardEvent) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          this.state = { ...this.state, query: (e.target as HTMLInputElement).value };
          void this.lookUp();
        }}
      /><datalist id=${listId}>${this.users.map((u) => html`<option value=${u}></option>`)}</datalist>`;
  }
}
