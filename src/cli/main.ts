/**
 * The `eval-lens` command (bundled to dist/cli.mjs and its parts, which dist/cli.js loads;
 * bin/eval-lens.js loads that). One module per subcommand registers itself: one line here.
 * Exit codes: src/cli/errors.ts, docs/cli.md.
 */
import { Command } from 'commander';
import { TOOL_VERSION } from '../core';
import { EXIT, reportError } from './errors';

/**
 * The subcommands, in the order of `eval-lens help`: each one's module (its options, and the code
 * it runs) is loaded when it is needed. The bundle is split at these imports (scripts/build.mjs),
 * so `eval-lens evaluate` neither reads nor compiles the code of `compare`, `rows`, `report` and
 * the others, nor builds what their modules make at load: about 10 MB less memory in every run
 * (docs/benchmarks.md, "Scaling").
 */
const COMMANDS: Readonly<Record<string, () => Promise<(program: Command) => void>>> = {
  evaluate: async () => (await import('./evaluate')).registerEvaluate,
  compare: async () => (await import('./compare')).registerCompare,
  rows: async () => (await import('./rows')).registerRows,
  diff: async () => (await import('./diff')).registerDiff,
  report: async () => (await import('./report')).registerReport,
  explain: async () => (await import('./explain')).registerExplain,
  partial: async () => (await import('./partial')).registerPartial,
  merge: async () => (await import('./merge')).registerMerge,
};

/**
 * The program for the command line `argv`. When it names a subcommand, only that one is
 * registered: what commander does then (its options, help, errors) does not depend on the others.
 * Without one (`--help`, `help …`, a mistyped name, nothing) every subcommand is, for the list and
 * the suggestions; `--version` first needs none. The program's own options take no value, so the
 * first word that is not an option is the subcommand's name.
 */
export async function createProgram(argv: readonly string[]): Promise<Command> {
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
  const named = argv.slice(2).find((a) => !a.startsWith('-'));
  const names =
    named !== undefined && Object.hasOwn(COMMANDS, named)
      ? [named]
      : argv[2] === '-V' || argv[2] === '--version'
        ? []
        : Object.keys(COMMANDS);
  for (const register of await Promise.all(names.map((n) => COMMANDS[n]!()))) register(program);
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
    const program = await createProgram(argv);
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
