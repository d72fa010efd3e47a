/**
 * `eval-lens evaluate FILE`: evaluates one prediction file and prints the results; `--out` also
 * writes the results JSON, `--write-run` the top-K lists generated from factor matrices. Without
 * them nothing is written (the results go to stdout only).
 */
import { checkInput, existingOutput, real, workspaceRoot, writeAtomically } from './files';
import { open } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { countText, isInside } from '../core';
import { Option, type Command } from 'commander';
import type { Progress } from '../core';
import { evaluateFile, type EvaluateOptions, type EvaluationStage } from '../core';
import { resolveEvaluation } from '../core';
import { formatRunJsonl, snapshotLists, type RankedListsSnapshot } from '../core';
import { findConfigBeside } from '../core';
import { RESULTS_SCHEMA_ID, type Results } from '../core';
import { resultsJsonChunks } from '../core';
import { formatCsv, formatMarkdown, formatTable } from '../core';
import { formatGroupAnalysisTable, groupAnalysisCsvRows, groupAnalysisMarkdown } from '../core';
import { foldsCsvRows, foldsMarkdown, formatFoldsTable } from '../core';
import { formatOperatingPointsTable, operatingPointsMarkdown } from '../core';
import { addConfigFlags, configFromFlags } from './configFlags';
import { TOOL_VERSION } from '../core';
import { HTML_THEMES, type HtmlTheme } from '../shared/htmlTheme';
import { UsageError } from './errors';
import { helpTail } from './help';
import { formatSliceTable } from './sliceTable';
import { addFindSlicesOptions, finderOptions, withFoundSlices, type FindSlicesFlags } from './findSlices';
import type { FileSliceFinderResult } from '../core';

export const FORMATS = ['table', 'json', 'markdown', 'csv'] as const;
export type OutputFormat = (typeof FORMATS)[number];

interface EvaluateFlags extends FindSlicesFlags {
  config?: string;
  out?: string;
  html?: string;
  writeRun?: string;
  theme?: HtmlTheme;
  format: OutputFormat;
  percent?: boolean;
  root?: string;
  progress?: boolean;
  [key: string]: unknown;
}

/** Registers `evaluate` on the program. */
export function registerEvaluate(program: Command): void {
  const cmd = program
    .command('evaluate')
    .description(
      'Evaluate a prediction file (CSV, TSV, JSONL, JSON, TREC run, Parquet, .npz; a factor model as .npy/.npz user factors) and print its metrics.',
    )
    .argument('<file>', 'the prediction file')
    .addHelpText(
      'after',
      helpTail([
        'eval-lens evaluate preds.csv                                  the metrics on stdout; writes nothing',
        'eval-lens evaluate preds.parquet --out preds.eval.json --html preds.html',
        'eval-lens evaluate preds.csv --target-coverage 0.8 --bootstrap-n 200 --format markdown',
        'eval-lens evaluate run.jsonl --relevant qrels.csv --cutoffs 10,20   a ranking run',
      ]),
    )
    .option('-c, --config <file>', 'config file (default: eval-lens.json beside FILE, if any)')
    .option(
      '-o, --out <file>',
      'also write the results JSON here (e.g. preds.eval.json); without it nothing is written',
    )
    .option(
      '--html <file>',
      'also write the report as one self-contained HTML file (no script, charts as SVG), as "eval-lens report" does',
    )
    .option(
      '--write-run <file>',
      'ranking from factor matrices (userFactors/itemFactors): also write the generated top-K lists here as a JSONL run ({"user", "items"} per line)',
    )
    .addOption(
      new Option('--theme <theme>', "colours of the --html report: auto follows the reader's light/dark setting")
        .choices(HTML_THEMES)
        .default('auto'),
    )
    .addOption(new Option('-f, --format <format>', 'what to print on stdout').choices(FORMATS).default('table'))
    .option('--percent', 'show rates as percentages in table and markdown output')
    .option(
      '--root <dir>',
      "workspace root: paths in the config must stay inside it (default: the current folder, or the config's folder when the config lies outside it)",
    )
    .option('--bootstrap-n <n>', 'bootstrap resamples (0 turns intervals off); same as --bootstrap \'{"n": N}\'')
    .option('--confidence <level>', 'confidence level of the intervals, in (0, 1)')
    .option('--seed <n>', 'seed of the bootstrap generator')
    .option(
      '--slice-by <columns>',
      'slice the headline metrics by these columns (comma-separated) and print the slice table after the metrics; same as --slices',
    )
    .option(
      '--progress',
      'print a line on stderr at each stage: point estimates ready, provisional intervals (after the first 200 resamples), final intervals; the output is unchanged',
    );
  addFindSlicesOptions(
    cmd,
    'also find the slices (values and quartile bins of the columns, and pairs of them) whose accuracy is significantly below the whole file, and print them after the metrics',
  );
  const flags = addConfigFlags(cmd);
  cmd.action(async (file: string, opts: EvaluateFlags) => {
    const cwd = process.cwd();
    const overrides = configFromFlags(opts, flags, cwd);
    if (typeof opts.sliceBy === 'string') {
      const cols = opts.sliceBy
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c !== '');
      if (cols.length === 0)
        throw new UsageError(`--slice-by expects column names separated by commas, got "${opts.sliceBy}".`);
      overrides.slices = cols;
    }
    const finder = finderOptions(opts);
    const input = resolve(cwd, file);
    await checkInput(input, file);
    const configPath = opts.config !== undefined ? resolve(cwd, opts.config) : await findConfigBeside(input);
    const root = workspaceRoot(cwd, opts.root, configPath ?? input);
    const out = opts.out !== undefined ? resolve(cwd, opts.out) : undefined;
    if (out) await checkOut(out, opts.out!, [input, configPath]);
    const html = opts.html !== undefined ? resolve(cwd, opts.html) : undefined;
    if (html) await checkHtmlOut(html, opts.html!, [input, configPath, out]);
    const writeRun = opts.writeRun !== undefined ? resolve(cwd, opts.writeRun) : undefined;
    if (writeRun) await checkWriteRun(writeRun, opts.writeRun!, file, { configPath, overrides, root }, [out, html]);
    let written: RankedListsSnapshot | undefined;
    const onRankedLists: EvaluateOptions['onRankedLists'] = writeRun
      ? (lists, userIds, itemIds) => void (written = snapshotLists(lists, userIds, itemIds))
      : undefined;
    const progress = process.stderr.isTTY ? ttyProgress() : undefined;
    const t0 = performance.now();
    const say = (line: string): void => {
      progress?.done();
      process.stderr.write(`${line} (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
    };
    let results: Results;
    try {
      results = await evaluateFile(file, {
        configPath,
        overrides,
        root,
        progress: progress?.progress,
        onRankedLists,
        // this process does nothing else: a few milliseconds per collection for a lower peak
        collectGarbage: true,
        // the results file never holds per-row values (they are read again from the file when paired)
        perItem: false,
        onStage: opts.progress ? (stage, r, info) => say(stageLine(stage, r, info)) : undefined,
      });
    } finally {
      progress?.done();
    }
    if (out) {
      await writeAtomically(out, resultsJsonChunks(results), 'the results');
      process.stderr.write(`Results written to ${isInside(cwd, out) ? relative(cwd, out) : out}\n`);
    }
    if (writeRun && written) {
      await writeAtomically(writeRun, formatRunJsonl(written), 'the run');
      process.stderr.write(
        `Run written to ${isInside(cwd, writeRun) ? relative(cwd, writeRun) : writeRun} (${countText(written.lists.user.length)} lists)\n`,
      );
    }
    if (html) {
      await writeAtomically(
        html,
        // the report's writers are loaded only for --html
        (await import('../shared/exportReport')).exportReport({ kind: 'results', results }, 'html', {
          generator: `Eval Lens ${TOOL_VERSION}`,
          theme: opts.theme,
        }),
        'the report',
      );
      process.stderr.write(`Report written to ${isInside(cwd, html) ? relative(cwd, html) : html}\n`);
    }
    const found: FileSliceFinderResult | null = finder
      ? await (await import('./sliceFinding')).findSlicesInFile(file, { configPath, overrides, root, ...finder })
      : null;
    const maxWidth = process.stdout.isTTY ? process.stdout.columns : undefined;
    // with --find-slices, JSON is {"results": …, "foundSlices": …} and CSV the found slices
    if (opts.format === 'json') {
      if (found) process.stdout.write('{"results": ');
      for (const chunk of resultsJsonChunks(results)) process.stdout.write(chunk);
      if (found) process.stdout.write(`, "foundSlices": ${JSON.stringify(found, null, 2)}}\n`);
    } else
      process.stdout.write(
        withFoundSlices(found, opts.format, () => {
          const text = render(results, opts.format, { percent: opts.percent === true, maxWidth });
          return opts.format === 'csv' ? text : text + formatSliceTable(results);
        }),
      );
  });
}

function render(results: Results, format: OutputFormat, opts: { percent: boolean; maxWidth?: number }): string {
  switch (format) {
    case 'markdown':
      return (
        formatMarkdown(results, { percent: opts.percent }) +
        operatingPointsMarkdown(results) +
        groupAnalysisMarkdown(results) +
        foldsMarkdown(results)
      );
    case 'csv':
      return formatCsv(results) + groupAnalysisCsvRows(results) + foldsCsvRows(results);
    default:
      return (
        formatTable(results, opts) +
        formatOperatingPointsTable(results) +
        formatGroupAnalysisTable(results) +
        formatFoldsTable(results)
      );
  }
}

/**
 * `--out` must not be an input (the prediction file, the config) and must not replace a file
 * that is not an Eval Lens results file.
 */
async function checkOut(out: string, given: string, inputs: (string | undefined)[]): Promise<void> {
  const target = await real(out);
  for (const i of inputs) {
    if (i && (await real(i)) === target) {
      const suggestion = `${basename(inputs[0]!).replace(/\.[^.]*$/, '')}.eval.json`;
      throw new UsageError(
        `--out ${given} is an input of this evaluation (${basename(i)}); refusing to overwrite it. Choose another file, e.g. ${suggestion}.`,
      );
    }
  }
  const head = await existingOutput(out, '--out', given, 'results.eval.json', (p) => readHead(p, 64 * 1024));
  if (head === null) return; // does not exist yet
  // Results files start with their schema id (the builder writes it first); only the head is read,
  // so pointing --out at a large data file by mistake costs nothing.
  if (!new RegExp(`^\\s*\\{\\s*"schema"\\s*:\\s*"${RESULTS_SCHEMA_ID.replace(/[/.@]/g, '\\$&')}"`).test(head)) {
    throw new UsageError(`--out ${given} exists and is not an Eval Lens results file; refusing to overwrite it.`);
  }
}

/** `--html` must not be an input or the results file, and must not replace a file that is not HTML. */
async function checkHtmlOut(html: string, given: string, others: (string | undefined)[]): Promise<void> {
  const target = await real(html);
  for (const o of others)
    if (o && (await real(o)) === target)
      throw new UsageError(
        `--html ${given} is another file of this evaluation (${basename(o)}); choose another name, e.g. report.html.`,
      );
  const head = await existingOutput(html, '--html', given, 'report.html', (p) => readHead(p, 1024));
  if (head === null) return;
  if (head.trim() !== '' && !/^\s*<!DOCTYPE html>/i.test(head))
    throw new UsageError(`--html ${given} exists and is not an HTML file; refusing to overwrite it.`);
}

/** Config keys naming input files of a ranking evaluation: `--write-run` never replaces one of them. */
const RANKING_INPUT_KEYS = [
  'userFactors',
  'itemFactors',
  'userIds',
  'itemIds',
  'train',
  'relevant',
  'items',
  'itemEmbeddings',
  'userEmbeddings',
] as const;

/**
 * `--write-run` is for ranking from factor matrices only: a run file's lists are already on disk
 * (copy the file). It must not be an input, `--out` or `--html`, and must not replace a file that
 * is not a JSONL run (an empty file or one whose first line starts with `{"user"`).
 */
async function checkWriteRun(
  target: string,
  given: string,
  file: string,
  ev: Pick<EvaluateOptions, 'configPath' | 'overrides' | 'root'>,
  others: (string | undefined)[],
): Promise<void> {
  const { config, task, baseDir, input, configPath } = await resolveEvaluation(file, ev);
  if (task !== 'ranking' || config.userFactors === undefined)
    throw new UsageError(
      `--write-run writes the top-K lists generated from factor matrices (\`userFactors\` and \`itemFactors\` in the config); ${basename(file)} is ${task === 'ranking' ? 'a ranking run, whose lists are already in that file' : `a ${task} input, which has no ranked lists`}.`,
    );
  const t = await real(target);
  const inputs: string[] = [input];
  if (configPath) inputs.push(configPath);
  for (const key of RANKING_INPUT_KEYS) {
    const v = config[key];
    if (typeof v === 'string') inputs.push(resolve(baseDir, v));
  }
  for (const i of inputs)
    if ((await real(i)) === t)
      throw new UsageError(
        `--write-run ${given} is an input of this evaluation (${basename(i)}); refusing to overwrite it. Choose another file, e.g. ${join(dirname(given), 'run.jsonl')}.`,
      );
  for (const o of others)
    if (o && (await real(o)) === t)
      throw new UsageError(
        `--write-run ${given} is another output of this evaluation (${basename(o)}); choose another name, e.g. run.jsonl.`,
      );
  const head = await existingOutput(target, '--write-run', given, 'run.jsonl', (p) => readHead(p, 1024));
  if (head === null) return; // does not exist yet
  if (head.trim() !== '' && !/^\s*\{\s*"user"\s*:/.test(head))
    throw new UsageError(`--write-run ${given} exists and is not a JSONL run; refusing to overwrite it.`);
}

async function readHead(path: string, bytes: number): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}

/** The `--progress` line of a stage (the caller appends the elapsed time). */
export function stageLine(
  stage: EvaluationStage,
  results: Results,
  info: { resamples?: { done: number; total: number } },
): string {
  const n = results.config.bootstrap?.n ?? 0;
  switch (stage) {
    case 'point':
      return 'eval-lens: point estimates ready';
    case 'provisional': {
      const { done, total } = info.resamples ?? { done: 0, total: n };
      return `intervals: provisional, ${countText(done)} of ${countText(total)} resamples`;
    }
    default:
      return n > 0
        ? `intervals: final, ${countText(n)} resamples`
        : 'eval-lens: done, no bootstrap intervals (bootstrap.n is 0)';
  }
}

/** A one-line progress display on stderr (only used when stderr is a terminal). */
function ttyProgress(): { progress: Progress; done: () => void } {
  let last = 0;
  let shown = false;
  return {
    progress: {
      report(stage, done, total) {
        const now = Date.now();
        if (now - last < 100) return;
        last = now;
        const amount = total ? ` ${Math.floor((100 * done) / total)}%` : done > 1 ? ` ${countText(done)}` : '';
        process.stderr.write(`\r\x1b[K${stage}${amount}`);
        shown = true;
      },
    },
    done() {
      if (shown) process.stderr.write('\r\x1b[K');
      shown = false;
    },
  };
}
