/// <reference lib="dom" />
/**
 * A happy-dom window for one webview test file: `installDom()` puts its globals (document,
 * customElements, HTMLElement, the DOM events, …) on globalThis, with a stand-in for VS Code's
 * `acquireVsCodeApi` that records what the webview posts; `close()` takes them away again.
 *
 * Install it before the webview modules are loaded (Lit defines its elements against the globals
 * it finds, and lit-html keeps the first document): import them with `await import(…)` after
 * `installDom()`, in a `before` hook. Each test file runs in its own process, so it gets a fresh
 * window. Build the view models (evaluations, row queries) before installing: the core then runs
 * in plain Node, as in the extension host.
 */
import { Window } from 'happy-dom';
import type { HostMessage, WebviewMessage } from '../../../src/shared/protocol';

/** Node has its own classes of these; the DOM's must be happy-dom's (its dispatch checks them). */
const REPLACED = ['Event', 'CustomEvent', 'MessageEvent'] as const;

export interface TestDom {
  window: Window;
  /** What the webview posted to the host, in order. */
  posted: WebviewMessage[];
  /** The last state the webview saved (`vscode.setState`). */
  state: unknown;
  /** The first message of this type posted and not yet taken by this call (waits for one if none). */
  nextPosted<T extends WebviewMessage['type']>(type: T): Promise<Extract<WebviewMessage, { type: T }>>;
  /** Removes the globals and closes the window. */
  close(): Promise<void>;
}

/** A host answer, as `webview/vscodeApi.ts`'s `answer` takes it. */
export type HostAnswer = Extract<HostMessage, { seq: number }>;

export function installDom(): TestDom {
  const window = new Window({ url: 'https://webview.test/', width: 1024, height: 768 });
  const g = globalThis as Record<string, unknown>;
  const added: string[] = [];
  const saved = new Map<string, unknown>();
  for (const key of Object.getOwnPropertyNames(window)) {
    if (key in globalThis) continue;
    g[key] = (window as unknown as Record<string, unknown>)[key];
    added.push(key);
  }
  for (const key of REPLACED) {
    saved.set(key, g[key]);
    g[key] = (window as unknown as Record<string, unknown>)[key];
  }
  // happy-dom has no ElementInternals: a form-associated component (vscode-textfield) gets a
  // stand-in that belongs to no form and is always valid.
  const proto = (window as unknown as { HTMLElement: { prototype: Record<string, unknown> } }).HTMLElement.prototype;
  if (typeof proto.attachInternals !== 'function')
    proto.attachInternals = () => ({
      form: null,
      validity: { valid: true },
      validationMessage: '',
      willValidate: false,
      setFormValue: () => undefined,
      setValidity: () => undefined,
      checkValidity: () => true,
      reportValidity: () => true,
    });
  const waiting: { type: string; resolve: (m: WebviewMessage) => void }[] = [];
  const taken = new Set<WebviewMessage>();
  const dom: TestDom = {
    window,
    posted: [],
    state: undefined,
    nextPosted: (type) =>
      new Promise((resolve) => {
        const seen = dom.posted.find((m) => m.type === type && !taken.has(m));
        if (seen) {
          taken.add(seen);
          resolve(seen as never);
        } else waiting.push({ type, resolve: resolve as (m: WebviewMessage) => void });
      }),
    close: async () => {
      await window.happyDOM.abort();
      await window.happyDOM.close();
      for (const key of added) delete g[key];
      for (const [key, value] of saved) g[key] = value;
      delete g.acquireVsCodeApi;
    },
  };
  g.acquireVsCodeApi = () => ({
    postMessage: (m: WebviewMessage) => {
      dom.posted.push(m);
      const w = waiting.find((x) => x.type === m.type);
      if (w) {
        waiting.splice(waiting.indexOf(w), 1);
        taken.add(m);
        w.resolve(m);
      }
    },
    getState: () => dom.state,
    setState: (s: unknown) => (dom.state = s),
  });
  return dom;
}

/**
 * Resolves once `ready()` holds, checked after each turn of the event loop (the components update
 * asynchronously: an answer resolves a promise, the state changes, Lit draws in a microtask).
 * Fails after `turns` turns, with `what` in the message.
 */
export async function until(ready: () => boolean, what: string, turns = 5000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (ready()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`Still waiting for ${what} after ${turns} turns of the event loop.`);
}

/** A visibility observer a component made, with its targets and a way to show them. */
export interface VisibilityObserver {
  targets: Element[];
  disconnected: boolean;
  /** Calls the observer back as if its targets came into view (happy-dom lays nothing out: its own never fires). */
  show(): void;
}

/**
 * Puts a stand-in `IntersectionObserver` on globalThis (after `installDom()`); returns the list of
 * the observers made, in order, each with its targets and whether it was disconnected.
 */
export function fakeIntersectionObservers(): VisibilityObserver[] {
  const made: VisibilityObserver[] = [];
  class FakeIntersectionObserver {
    private readonly entry: VisibilityObserver;
    constructor(callback: (entries: { isIntersecting: boolean }[]) => void) {
      this.entry = { targets: [], disconnected: false, show: () => callback([{ isIntersecting: true }]) };
      made.push(this.entry);
    }
    observe(t: Element): void {
      this.entry.targets.push(t);
    }
    disconnect(): void {
      this.entry.disconnected = true;
    }
  }
  (globalThis as Record<string, unknown>).IntersectionObserver = FakeIntersectionObserver;
  return made;
}

/**
 * Counts the listeners added to `target` minus those removed, by event type, from now on;
 * `restore()` puts the target's own methods back.
 */
export function countListeners(target: EventTarget): { listening: Map<string, number>; restore(): void } {
  const listening = new Map<string, number>();
  const add = target.addEventListener.bind(target);
  const remove = target.removeEventListener.bind(target);
  target.addEventListener = (type: string, ...rest: [EventListenerOrEventListenerObject]) => {
    listening.set(type, (listening.get(type) ?? 0) + 1);
    add(type, ...rest);
  };
  target.removeEventListener = (type: string, ...rest: [EventListenerOrEventListenerObject]) => {
    listening.set(type, (listening.get(type) ?? 0) - 1);
    remove(type, ...rest);
  };
  return {
    listening,
    restore: () => {
      delete (target as Partial<EventTarget>).addEventListener;
      delete (target as Partial<EventTarget>).removeEventListener;
    },
  };
}

/** A size observer a component made, with its targets and a way to give them a size. */
export interface SizeObserver {
  targets: Element[];
  disconnected: boolean;
  /** Calls the observer back as if its targets were laid out at this size (happy-dom lays nothing out). */
  resize(width: number, height: number): void;
}

/**
 * Puts a stand-in `ResizeObserver` on globalThis (after `installDom()`); returns the list of the
 * observers made, in order, each with its targets (less those unobserved) and whether it was
 * disconnected.
 */
export function fakeResizeObservers(): SizeObserver[] {
  const made: SizeObserver[] = [];
  class FakeResizeObserver {
    private readonly entry: SizeObserver;
    constructor(callback: (entries: { target: Element; contentRect: { width: number; height: number } }[]) => void) {
      const entry: SizeObserver = {
        targets: [],
        disconnected: false,
        resize: (width, height) =>
          callback(entry.targets.map((target) => ({ target, contentRect: { width, height } }))),
      };
      this.entry = entry;
      made.push(entry);
    }
    observe(t: Element): void {
      this.entry.targets.push(t);
    }
    /** A target no longer watched leaves `targets` (the tables' scrollable areas unobserve their host). */
    unobserve(t: Element): void {
      this.entry.targets = this.entry.targets.filter((x) => x !== t);
    }
    disconnect(): void {
      this.entry.disconnected = true;
    }
  }
  (globalThis as Record<string, unknown>).ResizeObserver = FakeResizeObserver;
  return made;
}
