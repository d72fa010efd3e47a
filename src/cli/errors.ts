/**
 * Exit codes of `eval-lens` and how each kind of failure is reported (docs/cli.md):
 * 0 success; 1 bad input (an {@link EvalLensError}: its message, no stack) or an unexpected
 * error (message + "this is a bug", the stack only with `--debug`); 2 bad usage (unknown option,
 * missing FILE, a flag value that does not fit); 130 cancelled (Ctrl-C).
 */
import { CommanderError } from 'commander';
import { CancelledError, EvalLensError, escapeControl } from '../core';

/** Exit statuses: 3 is a comparison whose gate (`--fail-if`, `compare.gate`) was broken. */
export const EXIT = { ok: 0, badInput: 1, usage: 2, gate: 3, cancelled: 130 } as const;

/** A mistake in how the command was called (exit 2). The message may quote a file (a column name). */
export class UsageError extends Error {
  constructor(message: string) {
    super(escapeControl(message));
    this.name = 'UsageError';
  }
}

/** Writes what the user needs to know about `err` to `writeErr` and returns the exit code. */
export function reportError(err: unknown, writeErr: (s: string) => void, debug: boolean): number {
  if (err instanceof CommanderError) {
    // Commander has already printed its message (and help where asked).
    return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (err instanceof UsageError) {
    writeErr(`eval-lens: ${err.message}\n(run \`eval-lens help <command>\` for usage)\n`);
    return EXIT.usage;
  }
  if (err instanceof EvalLensError) {
    writeErr(`eval-lens: ${err.message}\n`);
    if (debug && err.stack) writeErr(`${err.stack}\n`);
    return EXIT.badInput;
  }
  if (err instanceof CancelledError) {
    writeErr('eval-lens: cancelled.\n');
    return EXIT.cancelled;
  }
  const message = escapeControl(err instanceof Error ? err.message : String(err));
  writeErr(
    `eval-lens: unexpected error: ${message}\nThis is a bug in Eval Lens; please report it with the command you ran${debug ? '' : ' and the output of the same command with --debug'}.\n`,
  );
  if (debug && err instanceof Error && err.stack) writeErr(`${err.stack}\n`);
  return EXIT.badInput;
}
