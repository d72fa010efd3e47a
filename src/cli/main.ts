/**
 * The `eval-lens` command (bundled to dist/cli.js; bin/eval-lens.js loads it). One module per
 * subcommand registers itself here with one line. Exit codes: src/cli/errors.ts, docs/cli.md.
 */
import { Command } from 'commander';
import { TOOL_VERSION } from '../core';
import { EXIT, reportError } from './errors';
import { registerEvaluate } from './evaluate';
import { registerCompare } from './compare';
import { registerRows } from './rows';
import { registerDiff } from './diff';
import { registerReport } from './report';
import { registerExplain } from './explain';
import { registerPartial } from './partial';
import { registerMerge } from './merge';

export function createProgram(): Command {
  const program = new Command('eval-lens')
    .description(
      'Evaluate ML prediction files: metrics with confidence intervals, long-tail breakdowns, selective and calibration curves, importance-weighted PR, ranking metrics.',
    )
    .version(TOOL_VERSION, '-V, --version', 'print the version')
    .option('--debug', 'print stack traces of unexpected errors')
    .exitOverride()
    // One prefix for every error: commander's own ("error: unknown option …") as ours, `eval-lens: …`.
    .configureOutput({ outputError: (str, write) => write(str.replace(/^error: /, 'eval-lens: ')) })
    .showHelpAfterError('(run `eval-lens help <command>` for usage)')
    .showSuggestionAfterError(true);
  // Subcommands: one line each.
  registerEvaluate(program);
  registerCompare(program);
  registerRows(program);
  registerDiff(program);
  registerReport(program);
  registerExplain(program);
  registerPartial(program);
  registerMerge(program);
  return program;
}

async function main(argv: string[]): Promise<number> {
  const debug = argv.includes('--debug');
  // Ctrl-C: no SIGINT handler on purpose. The metric core runs synchronous stretches (a bootstrap)
  // during which a handler could not run; the default action stops at once, and the shell reports
  // 130 (128 + SIGINT). --out is written atomically, so no half-written results are left; only
  // while an output is written does writeAtomically (files.ts) hold a handler that removes its
  // temporary file (after a pending open of it has settled).
  // A CancelledError from the core (the Progress hook) also exits 130 (errors.ts).
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(EXIT.ok); // e.g. `eval-lens evaluate f | head`
    throw err;
  });
  try {
    const program = createProgram();
    if (argv.length <= 2) {
      program.outputHelp({ error: true });
      return EXIT.usage;
    }
    await program.parseAsync(argv);
    // A command may end with a status of its own (a comparison's broken gate: 3).
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (err) {
    return reportError(err, (s) => process.stderr.write(s), debug);
  }
}

void main(process.argv).then((code) => {
  process.exitCode = code;
});
