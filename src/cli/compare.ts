/**
 * `eval-lens compare RUN...`: compares runs (prediction files, evaluated first, or `*.eval.json`)
 * against a baseline — the run × metric table with best / second / third per column and the
 * paired tests — or, given one CSV/TSV table of runs × metrics, marks best / second / third in
 * it (inspection mode). `--out` writes the `*.compare.json`; nothing else is written.
 * Exit codes as `evaluate`: 0 ok, 1 bad input, 2 usage; 3 when a gate rule (`--fail-if`,
 * `compare.gate`) is broken.
 */
import { checkInput, existingOutput, real, workspaceRoot, writeAtomically } from './files';
import { readFile } from 'node:fs/promises';
import { dirname, extname, relative, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { CompareConfig } from '../core';
import { findConfigBeside, loadConfigFile } from '../core';
import { compareFiles, isResultsPath } from '../core';
import { BASELINE_KINDS, parseBaselineKinds } from '../core';
import { readRunsTable, type MarkedRunsTable } from '../core';
import { renderCsvTable, renderLatexTable, renderMarkdownTable, renderTextTable } from '../core';
import { renderLongCsv, renderLongMarkdown, renderLongText } from '../core';
import { checkGate, parseGate, type GateRule, type GateViolation } from '../core';
import { exportReport } from '../shared/exportReport';
import { COMPARE_SCHEMA_ID, type CompareResults } from '../core';
import { EXIT, UsageError } from './errors';
import { helpTail } from './help';
import { escapeMarkdown } from '../core';

export const COMPARE_FORMATS = ['table', 'json', 'markdown', 'md', 'latex', 'csv'] as const;
export type CompareFormat = (typeof COMPARE_FORMATS)[number];

interface CompareFlags {
  baseline?: string;
  config?: string;
  metrics?: string;
  out?: string;
  format: CompareFormat;
  matchBy?: 'id' | 'position' | 'user';
  onMismatch: 'error' | 'intersect';
  table?: boolean;
  bootstrapN?: string;
  confidence?: string;
  seed?: string;
  root?: string;
  ci?: boolean;
  failIf?: string;
  adjust?: 'holm' | 'bh';
  against?: string[];
}

const TABLE_EXTENSIONS = new Set(['.csv', '.tsv', '.txt']);

/** Registers `compare` on the program. */
export function registerCompare(program: Command): void {
  program
    .command('compare')
    .description(
      "Compare runs against a baseline (table with best/second/third, paired t-test, Wilcoxon, Cohen's d, Holm, bootstrap CI of the difference); with one CSV table of runs x metrics, mark its best/second/third.",
    )
    .argument(
      '[runs...]',
      'prediction files or *.eval.json results (default: compare.runs of the config); or one CSV/TSV table of runs x metrics',
    )
    .option(
      '-b, --baseline <run>',
      'the run the others are tested against: one of RUN as given, its file name, or a 0-based index (default: the first run, or the first --against baseline)',
    )
    .option(
      '-c, --config <file>',
      'config file: its `compare` section and, for prediction files, the evaluation settings (default: eval-lens.json beside each file)',
    )
    .option(
      '-m, --metrics <keys>',
      'metric keys to compare, comma-separated (e.g. accuracy,ndcg@10); default: every key all runs have (the LaTeX table: the headline metrics)',
    )
    .option('-o, --out <file>', 'also write the comparison JSON here (e.g. runs.compare.json)')
    .addOption(new Option('-f, --format <format>', 'what to print on stdout').choices(COMPARE_FORMATS).default('table'))
    .addOption(
      new Option(
        '--match-by <how>',
        'how rows are paired (default: id/user when the runs have them, else position)',
      ).choices(['id', 'position', 'user']),
    )
    .addOption(
      new Option('--on-mismatch <what>', 'when the runs do not hold the same ids: stop, or test on the common ids')
        .choices(['error', 'intersect'])
        .default('error'),
    )
    .option('--table', 'treat the single RUN as a table of runs x metrics (inspection), whatever its extension')
    .option(
      '--bootstrap-n <n>',
      "resamples of the paired bootstrap of the difference (0: no interval; default: the baseline's bootstrap.n)",
    )
    .option('--confidence <level>', 'confidence level of the interval, in (0, 1)')
    .option('--seed <n>', 'seed of the bootstrap generator')
    .option('--ci', "LaTeX: follow each value by ± half the width of the run's bootstrap interval")
    .option(
      '--fail-if <rules>',
      'a gate for CI: exit with status 3 when a run breaks a rule on Δ = run − baseline, e.g. "accuracy<-0.01, aurc>+0.005" (a trailing % is relative to the baseline); adds to compare.gate of the config',
    )
    .addOption(
      new Option(
        '--adjust <method>',
        'adjustment of the p-values over every test: Holm (default) or Benjamini–Hochberg',
      ).choices(['holm', 'bh']),
    )
    .option(
      '--against <baseline>',
      "also compare against a baseline run made from the first run's input, and test the runs against it: majority or prior (classification: the most frequent true class; the class frequencies as probabilities), popularity or random (ranking: the run's own popularity and random baselines); repeat the flag or separate names with commas; the runs are tested against the first baseline unless --baseline names another run",
      (v: string, prev: string[] | undefined) => [...(prev ?? []), v],
    )
    .option(
      '--root <dir>',
      "workspace root: paths in the config must stay inside it (default: the current folder, or the config's folder when the config lies outside it)",
    )
    .addHelpText(
      'after',
      helpTail([
        'eval-lens compare logreg.csv knn.csv svc_rbf.csv --fail-if "accuracy<-0.01"',
        'eval-lens compare logreg.csv --against majority,prior',
        'eval-lens compare cooccurrence.jsonl --against popularity --against random --format md',
      ]),
    )
    .action(async (runs: string[], opts: CompareFlags) => {
      const cwd = process.cwd();
      const configPath = opts.config !== undefined ? resolve(cwd, opts.config) : undefined;
      const config = configPath ? ((await loadConfigFile(configPath)).compare ?? {}) : undefined;
      const given = runs.length > 0 ? runs : configRuns(config, configPath, cwd);
      const metrics = opts.metrics
        ?.split(',')
        .map((m) => m.trim())
        .filter((m) => m !== '');
      const against = parseBaselineKinds(opts.against ?? []);
      if (against.unknown.length > 0)
        throw new UsageError(
          `invalid value for --against: expected ${BASELINE_KINDS.join(', ')} (comma-separated or the flag repeated), got ${against.unknown.map((u) => JSON.stringify(u)).join(', ')}.`,
        );
      const out = opts.out !== undefined ? resolve(cwd, opts.out) : undefined;
      for (const r of given) await checkInput(resolve(cwd, r), r);
      if (out) await checkOut(out, opts.out!, [...given.map((r) => resolve(cwd, r)), configPath]);

      let text: string;
      let json: MarkedRunsTable | CompareResults;
      let violations: GateViolation[] = [];
      if (
        given.length === 1 &&
        against.kinds.length === 0 &&
        (opts.table || (TABLE_EXTENSIONS.has(extname(given[0]).toLowerCase()) && !isResultsPath(given[0])))
      ) {
        const cfg = config ?? (await configBeside(resolve(cwd, given[0])));
        const r = await readRunsTable(given[0], { directions: cfg.directions, metrics: metrics ?? cfg.metrics });
        if (Object.keys(r.directions).length === 0) {
          throw new UsageError(
            `compare needs at least two runs (prediction files or *.eval.json), or one table of runs x metrics; ${given[0]} has no metric column (no known metric name, no ↑/↓ in the header): is it a prediction file? Name a second run, or set compare.directions for its columns.`,
          );
        }
        json = r;
        text = renderMarkedTable(r, opts.format);
      } else {
        if (given.length < 2 - Math.min(1, against.kinds.length)) {
          throw new UsageError(
            `compare needs at least two runs (prediction files or *.eval.json), or one run and --against a baseline, or one CSV/TSV table of runs x metrics; got ${given.length === 0 ? 'none' : `only ${given[0]}`}.`,
          );
        }
        const r = await compareFiles(given, {
          configPath,
          baseline: opts.baseline,
          against: against.kinds,
          metrics,
          matchBy: opts.matchBy,
          onMismatch: opts.onMismatch,
          bootstrap: bootstrapFlags(opts),
          adjust: opts.adjust,
          // as `evaluate`: this process does nothing else
          collectGarbage: true,
          root: workspaceRoot(
            cwd,
            opts.root,
            configPath ?? (await findConfigBeside(resolve(cwd, given[0]!))) ?? resolve(cwd, given[0]!),
          ),
        });
        json = r;
        text = renderComparison(r, opts.format, { metrics, ci: opts.ci === true });
        const rules = [
          ...((config ?? (await configBeside(resolve(cwd, given[0]!)))).gate ?? []),
          ...(opts.failIf !== undefined ? [opts.failIf] : []),
        ];
        if (rules.length > 0) {
          const gate = parseGate(rules, opts.failIf !== undefined ? '--fail-if' : (configPath ?? 'compare.gate'));
          violations = checkGate(r, gate, '--fail-if');
          if (opts.format === 'markdown' || opts.format === 'md') text += `\n\n${gateMarkdown(gate, violations)}`;
        }
      }
      for (const w of json.warnings) process.stderr.write(`warning: ${w.message}\n`);
      if (out) {
        await writeAtomically(out, JSON.stringify(json, null, 2) + '\n', 'the comparison');
        process.stderr.write(`Comparison written to ${relative(cwd, out) || out}\n`);
      }
      process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      if (violations.length > 0) {
        for (const v of violations) process.stderr.write(`gate: ${v.message}\n`);
        process.stderr.write(`gate: failed (${violations.length} rule${violations.length === 1 ? '' : 's'} broken).\n`);
        process.exitCode = EXIT.gate;
      }
    });
}

function configRuns(config: CompareConfig | undefined, configPath: string | undefined, cwd: string): string[] {
  if (!config?.runs || !configPath) return [];
  const base = dirname(configPath);
  return config.runs.map((r) => relative(cwd, resolve(base, r)) || r);
}

async function configBeside(file: string): Promise<CompareConfig> {
  const p = await findConfigBeside(file);
  return p ? ((await loadConfigFile(p)).compare ?? {}) : {};
}

function bootstrapFlags(opts: CompareFlags): { n: number; confidence: number; seed: number } | undefined {
  if (opts.bootstrapN === undefined && opts.confidence === undefined && opts.seed === undefined) return undefined;
  const n = opts.bootstrapN === undefined ? 1000 : Number(opts.bootstrapN);
  const confidence = opts.confidence === undefined ? 0.95 : Number(opts.confidence);
  const seed = opts.seed === undefined ? 0 : Number(opts.seed);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`invalid value for --bootstrap-n: expected a non-negative integer, got ${opts.bootstrapN}.`);
  if (!(confidence > 0 && confidence < 1))
    throw new UsageError(`invalid value for --confidence: expected a number in (0, 1), got ${opts.confidence}.`);
  if (!Number.isInteger(seed)) throw new UsageError(`invalid value for --seed: expected an integer, got ${opts.seed}.`);
  return { n, confidence, seed };
}

/** The comparison in the chosen format. */
export function renderComparison(
  r: CompareResults,
  format: CompareFormat,
  opts: { metrics?: string[]; ci?: boolean } = {},
): string {
  switch (format) {
    case 'json':
      return JSON.stringify(r, null, 2);
    case 'markdown':
    case 'md':
      return renderLongMarkdown(r, { metrics: opts.metrics });
    case 'latex':
      // The paper table: the metrics asked for, else the headline ones.
      return exportReport({ kind: 'compare', compare: r }, 'latex', { metrics: opts.metrics, ci: opts.ci });
    case 'csv':
      return renderLongCsv(r, { metrics: opts.metrics });
    default:
      return renderLongText(r, { metrics: opts.metrics });
  }
}

/** An inspected table in the chosen format. */
export function renderMarkedTable(r: MarkedRunsTable, format: CompareFormat): string {
  const note = r.unmarked.length > 0 ? `Not marked (no known direction): ${r.unmarked.join(', ')}.` : '';
  switch (format) {
    case 'json':
      return JSON.stringify(r, null, 2);
    case 'markdown':
      return renderMarkdownTable(r) + (note ? `\n\n${note}` : '');
    case 'latex':
      return renderLatexTable(r, { caption: `Runs of ${r.source}.` });
    case 'csv':
      return renderCsvTable(r);
    default:
      return renderTextTable(r) + (note ? `\n${note}` : '');
  }
}

/** `--out` must not be an input and must not replace a file that is not a comparison file. */
async function checkOut(out: string, given: string, inputs: (string | undefined)[]): Promise<void> {
  const target = await real(out);
  for (const i of inputs) {
    if (i && (await real(i)) === target)
      throw new UsageError(
        `--out ${given} is an input of this comparison; refusing to overwrite it. Choose another file, e.g. runs.compare.json.`,
      );
  }
  const existing = await existingOutput(out, '--out', given, 'runs.compare.json', (p) => readFile(p, 'utf8'));
  if (existing === null) return;
  let schema: unknown;
  try {
    schema = (JSON.parse(existing) as { schema?: unknown }).schema;
  } catch {
    schema = undefined;
  }
  if (schema !== COMPARE_SCHEMA_ID)
    throw new UsageError(`--out ${given} exists and is not an Eval Lens comparison file; refusing to overwrite it.`);
}

/** The gate's outcome as Markdown, for a CI job summary. */
function gateMarkdown(rules: readonly GateRule[], violations: readonly GateViolation[]): string {
  const list = rules.map((r) => `\`${r.text}\``).join(', ');
  if (violations.length === 0) return `**Gate: passed** (${list}).`;
  return [`**Gate: failed** (${list}):`, '', ...violations.map((v) => `- ${escapeMarkdown(v.message)}`)].join('\n');
}
