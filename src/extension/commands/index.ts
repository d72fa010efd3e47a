/** Registers every command handler against its id from {@link Command}. */
import * as vscode from 'vscode';
import { Command, type CommandId } from '../commandIds';
import type { EvalLensContext } from '../context';
import { compareCommand, compareWithCommand } from './compare';
import { createConfigCommand } from './createConfig';
import { evaluateCommand, reevaluateCommand } from './evaluate';
import {
  copyValueCommand,
  exportReportCommand,
  openAsTableCommand,
  openReportAtCommand,
  openReportCommand,
  revealJsonCommand,
} from './report';

type Handler = (ctx: EvalLensContext, ...args: unknown[]) => Promise<unknown>;

/** `refreshResults` is registered with the tree (it owns the view). */
const HANDLERS: Record<Exclude<CommandId, typeof Command.refreshResults>, Handler> = {
  [Command.evaluate]: evaluateCommand,
  [Command.compare]: compareCommand,
  [Command.openReport]: openReportCommand,
  [Command.reevaluate]: reevaluateCommand,
  [Command.exportReport]: (ctx, a0, format, target) =>
    exportReportCommand(ctx, a0, format as 'html' | 'md' | 'csv' | undefined, target as vscode.Uri | undefined),
  [Command.createConfig]: createConfigCommand,
  [Command.compareWith]: compareWithCommand,
  [Command.revealJson]: revealJsonCommand,
  [Command.copyValue]: copyValueCommand,
  [Command.openReportAt]: openReportAtCommand,
  [Command.openAsTable]: openAsTableCommand,
  [Command.showLog]: async (ctx) => ctx.log.show(),
};

export function registerCommands(ctx: EvalLensContext): vscode.Disposable[] {
  return Object.entries(HANDLERS).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(ctx, ...args);
      } catch (err) {
        ctx.log.error(`${id} failed: ${(err as Error).stack ?? String(err)}`);
        const choice = await vscode.window.showErrorMessage(`Eval Lens: ${(err as Error).message}`, 'Show Log');
        if (choice) ctx.log.show();
        return undefined;
      }
    }),
  );
}
