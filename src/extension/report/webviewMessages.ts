/**
 * What a report panel does with one message from its webview, as a function of the message and a
 * small set of host capabilities. Nothing here imports `vscode`: the panel supplies the
 * capabilities (clipboard, save dialog, commands, the inspection worker), and a unit test supplies
 * a recording fake, so every route is tested without an editor.
 *
 * A message from the webview is untrusted: anything that fails `isWebviewMessage` is logged
 * (shortened) and dropped.
 */
import * as path from 'node:path';
import type { FilterTerm, RowQuery } from '../../core';
import {
  isWebviewMessage,
  pngBytes,
  type DiffQuery,
  type HostCommand,
  type HostMessage,
  type OperatingPointKey,
  type WebviewMessage,
} from '../../shared/protocol';
import { Command, type CommandId } from '../commandIds';

/** The log levels a panel writes at. */
export type PanelLogLevel = 'info' | 'warn' | 'error';

/** What the panel's host can do for a message; each is one effect the handler may ask for. */
export interface PanelCapabilities {
  /** The webview has loaded: send it the report (and any focus asked for before it was ready). */
  showReport(): Promise<void>;
  writeClipboard(text: string): Promise<void>;
  /**
   * Asks where to save a PNG (proposing `fileName` beside the shown file) and writes `png` there;
   * the path written, or undefined when the user cancelled.
   */
  savePng(fileName: string, png: Uint8Array): Promise<string | undefined>;
  /** Runs an extension command on the shown file. */
  runCommand(id: CommandId): Promise<void>;
  log(level: PanelLogLevel, message: string): void;
  /** Writes the chosen operating point into the config and evaluates again. */
  useOperatingPoint(key: OperatingPointKey, value: number): Promise<{ ok: boolean; message: string }>;
  // The row inspection requests: each posts its own answer (a page, candidates, a table or a reply).
  queryRows(seq: number, query: RowQuery): Promise<unknown>;
  openLine(line: number): Promise<unknown>;
  evaluateSubset(seq: number, where: FilterTerm[]): Promise<unknown>;
  sliceCandidates(seq: number): Promise<unknown>;
  computeSlices(seq: number, by: string[]): Promise<unknown>;
  /** The slice finder (one run, or the comparison's baseline against `opts.run`). */
  findSlices(seq: number, opts: FindSlicesRequest): Promise<unknown>;
  /** The Changed rows tab of a comparison: the rows that changed from the baseline to `query.run`. */
  diffRows(seq: number, query: DiffQuery): Promise<unknown>;
  /** The baseline's line `lineA` and `run`'s line `lineB` opened side by side, each selected. */
  openLines(run: string, lineA: number, lineB: number): Promise<unknown>;
}

/** What a `findSlices` message asks for. */
export type FindSlicesRequest = Omit<Extract<WebviewMessage, { type: 'findSlices' }>, 'type' | 'seq'>;

/** The extension command each webview button runs (on the shown file). */
export const WEBVIEW_COMMANDS: Readonly<Record<HostCommand, CommandId>> = {
  export: Command.exportReport,
  revealJson: Command.revealJson,
  reevaluate: Command.reevaluate,
  openSource: Command.revealJson,
};

/** A file name the save dialog may propose: anything but word characters, dots and dashes becomes `_`. */
export function safePngName(fileName: string): string {
  return fileName.replace(/[^\w.-]+/g, '_');
}

/** At most 200 characters of an unexpected message, for the log. */
function preview(m: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(m);
  } catch {
    // A value JSON cannot write (a cycle, a bigint) is still named by its type.
  }
  return (text ?? String(m)).slice(0, 200);
}

/**
 * Routes one message from the webview. Returns the `reply` to post for the messages the handler
 * answers itself (`copy`, `savePng`, `useOperatingPoint`), undefined otherwise (no answer, or the
 * inspection capability posts its own). A capability that throws is logged; a request with a
 * sequence number is then answered `ok: false`, so the webview never waits for ever.
 */
export async function handleWebviewMessage(m: unknown, host: PanelCapabilities): Promise<HostMessage | undefined> {
  if (!isWebviewMessage(m)) {
    host.log('warn', `Report: dropped an unexpected message ${preview(m)}`);
    return undefined;
  }
  try {
    return await route(m, host);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    host.log('error', `Report: ${m.type} failed: ${message}`);
    return 'seq' in m ? { type: 'reply', seq: m.seq, ok: false, message } : undefined;
  }
}

type MessageOf<T extends WebviewMessage['type']> = Extract<WebviewMessage, { type: T }>;

/**
 * The row inspection requests and the capability each calls; the capability posts its own answer
 * (a page, candidates, a table or a reply), so the route returns none.
 */
const INSPECTION_REQUESTS = {
  queryRows: (host, m) => host.queryRows(m.seq, m.query),
  openLine: (host, m) => host.openLine(m.line),
  evaluateSubset: (host, m) => host.evaluateSubset(m.seq, m.where),
  sliceCandidates: (host, m) => host.sliceCandidates(m.seq),
  computeSlices: (host, m) => host.computeSlices(m.seq, m.by),
  diffRows: (host, m) => host.diffRows(m.seq, m.query),
  openLines: (host, m) => host.openLines(m.run, m.lineA, m.lineB),
  findSlices: (host, { type: _type, seq, ...opts }) => host.findSlices(seq, opts),
} satisfies { [T in WebviewMessage['type']]?: (host: PanelCapabilities, m: MessageOf<T>) => Promise<unknown> };

async function route(m: WebviewMessage, host: PanelCapabilities): Promise<HostMessage | undefined> {
  switch (m.type) {
    case 'ready':
      await host.showReport();
      return undefined;
    case 'copy':
      await host.writeClipboard(m.text);
      return { type: 'reply', seq: m.seq, ok: true, message: `Copied ${m.what}.` };
    case 'savePng': {
      const written = await host.savePng(safePngName(m.fileName), pngBytes(m.dataUrl));
      if (written === undefined) return { type: 'reply', seq: m.seq, ok: false, message: 'Not saved.' };
      host.log('info', `Chart saved to ${written}`);
      return { type: 'reply', seq: m.seq, ok: true, message: `Saved ${path.basename(written)}.` };
    }
    case 'command':
      await host.runCommand(WEBVIEW_COMMANDS[m.command]);
      return undefined;
    case 'cspViolation':
      host.log('warn', `Report webview CSP violation: ${m.directive} blocked ${m.blocked}`);
      return undefined;
    case 'log':
      host.log(m.level, `Report webview: ${m.message}`);
      return undefined;
    case 'useOperatingPoint':
      return { type: 'reply', seq: m.seq, ...(await host.useOperatingPoint(m.key, m.value)) };
    default:
      // The entry for m.type takes exactly this message; TypeScript cannot tie the two through the
      // union, hence the cast. A message type neither handled above nor in the table fails to compile.
      await (INSPECTION_REQUESTS[m.type] as (host: PanelCapabilities, m: WebviewMessage) => Promise<unknown>)(host, m);
      return undefined;
  }
}
