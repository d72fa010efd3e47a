/** The webview side of the VS Code API, typed with the shared protocol. */
import type { HostMessage, WebviewMessage, WebviewState } from '../src/shared/protocol';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: WebviewState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export const vscode: VsCodeApi = acquireVsCodeApi();

/** A host message that answers a request (it echoes the request's `seq`). */
export type Answer = Extract<HostMessage, { seq: number }>;

let seq = 0;
const pending = new Map<number, (m: Answer) => void>();

/** Posts a request and resolves with the host's answer of the same `seq` (an answer or a `reply`). */
export function ask(make: (seq: number) => WebviewMessage): Promise<Answer> {
  const s = ++seq;
  return new Promise((resolve) => {
    pending.set(s, resolve);
    vscode.postMessage(make(s));
  });
}

/** Posts a request that the host answers with a `reply` of the same `seq`. */
export async function request(make: (seq: number) => WebviewMessage): Promise<{ ok: boolean; message?: string }> {
  const m = await ask(make);
  if (m.type !== 'reply') return { ok: true };
  return { ok: m.ok, ...(m.message !== undefined ? { message: m.message } : {}) };
}

/** Hands an answer to the request waiting for it. */
export function answer(m: Answer): void {
  pending.get(m.seq)?.(m);
  pending.delete(m.seq);
}

export function settle(s: number, ok: boolean, message?: string): void {
  answer({ type: 'reply', seq: s, ok, ...(message !== undefined ? { message } : {}) });
}
