/** The webview side of the VS Code API, typed with the shared protocol. */
import type { WebviewMessage, WebviewState } from '../src/shared/protocol';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: WebviewState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export const vscode: VsCodeApi = acquireVsCodeApi();

let seq = 0;
const pending = new Map<number, (ok: boolean, message?: string) => void>();

/** Posts a request that the host answers with a `reply` of the same `seq`. */
export function request(make: (seq: number) => WebviewMessage): Promise<{ ok: boolean; message?: string }> {
  const s = ++seq;
  return new Promise((resolve) => {
    pending.set(s, (ok, message) => resolve({ ok, ...(message !== undefined ? { message } : {}) }));
    vscode.postMessage(make(s));
  });
}

export function settle(s: number, ok: boolean, message?: string): void {
  pending.get(s)?.(ok, message);
  pending.delete(s);
}
