/**
 * `eval-lens report FILE`: writes the report of a results file (`*.eval.json`) or a comparison
 * (`*.compare.json`) — the same self-contained file the extension's "Export Report…" writes — as
 * HTML, Markdown, CSV or LaTeX, to `--out` or stdout. The input is checked against its JSON Schema
 * first. Exit codes as `evaluate`: 0 ok, 1 bad input, 2 usage.
 */
import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { EvalLensError } from '../core';
import { jsonSyntaxError } from '../core';
import { TOOL_VERSION } from '../core';
import { HTML_THEMES, type HtmlTheme } from '../shared/htmlTheme';
import {
  exportReport,
  REPORT_FORMATS,
  REPORT_TABLES,
  reportInputFromJson,
  reportTableCsv,
  type ReportFormat,
  type ReportTable,
} from '../shared/exportReport';
import { UsageError } from './errors';
import { checkInput, checkOutputTarget, real, writeAtomically } from './files';

interface ReportFlags {
  format?: ReportFormat;
  out?: string;
  theme: HtmlTheme;
  metrics?: string;
  ci?: boolean;
  table?: ReportTable;
}

const EXTENSIONS: Record<ReportFormat, string> = { html: '.html', md: '.md', csv: '.csv', latex: '.tex' };

/** The format named by `--format`, else by the extension of `--out`, else HTML. */
export function reportFormat(format: ReportFormat | undefined, out: string | undefined): ReportFormat {
  if (format) return format;
  const ext = out?.toLowerCase().match(/\.[^./\\]+$/)?.[0];
  const byExt = (Object.entries(EXTENSIONS) as [ReportFormat, string][]).find(
    ([, e]) => e === ext || (ext === '.htm' && e === '.html') || (ext === '.markdown' && e === '.md'),
  );
  return byExt?.[0] ?? 'html';
}

/** Reads, validates and renders `file`; the text of the report. */
export async function renderReportFile(
  file: string,
  given: string,
  format: ReportFormat,
  opts: { theme?: HtmlTheme; metrics?: string[]; ci?: boolean; table?: ReportTable } = {},
): Promise<string> {
  await checkInput(file, given);
  const text = await readFile(file, 'utf8');
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (err) {
    const at = jsonSyntaxError(given, text, err); // names the line and column
    throw new EvalLensError(
      'report-invalid-input',
      `${at.message.replace(/\.$/, '')}. Expected an Eval Lens results (*.eval.json) or comparison (*.compare.json) file.`,
      at.location,
    );
  }
  const input = reportInputFromJson(obj, given);
  if (opts.table) return reportTableCsv(input, opts.table, given);
  return exportReport(input, format, { generator: `Eval Lens ${TOOL_VERSION}`, ...opts });
}

/** `--out` must not be the input, and must be a regular file or nothing yet (not a FIFO, a device, …). */
export async function checkReportOut(out: string, given: string, input: string): Promise<void> {
  if ((await real(out)) === (await real(input)))
    throw new UsageError(
      `--out ${given} is the input of this report; refusing to overwrite it. Choose another file, e.g. report.html.`,
    );
  await checkOutputTarget(out, '--out', given, 'report.html');
}

/** Registers `report` on the program. */
export function registerReport(program: Command): void {
  program
    .command('report')
    .description(
      'Write the report of a results file (*.eval.json) or a comparison (*.compare.json): self-contained HTML (no script, charts as SVG), Markdown, CSV or LaTeX.',
    )
    .argument('<file>', 'a results file (*.eval.json) or a comparison file (*.compare.json)')
    .addOption(
      new Option(
        '-f, --format <format>',
        'html, md, csv or latex (default: from the extension of --out, else html)',
      ).choices(REPORT_FORMATS),
    )
    .option('-o, --out <file>', 'write the report here (default: stdout)')
    .addOption(
      new Option('--theme <theme>', "HTML colours: auto follows the reader's light/dark setting")
        .choices(HTML_THEMES)
        .default('auto'),
    )
    .option('-m, --metrics <keys>', 'LaTeX: the metric columns, comma-separated (default: the headline metrics)')
    .option('--ci', 'LaTeX: follow each value by ± half the width of its bootstrap interval')
    .addOption(
      new Option(
        '-t, --table <name>',
        'CSV: write one table of a results file instead of the metrics: rc_grid (the 101 points behind the *_grid101 keys: coverage, risk, accepted, risk_balanced, risk_worst), rc_exact (the exact risk–coverage curve as stored: one point per distinct score, at most 2,001 points evenly spaced by index plus the operating point when there are more — the AURC keys use every point), cost_sweep (the rejection-cost sweep), groups (the group analysis at the operating point), folds (the metrics per fold of a fold column and their mean, std (n − 1), min and max), operating_points (one row per targetCoverage of a list: threshold, coverage, selective risk, group errors, each with its bootstrap interval _lo/_hi)',
      ).choices(Object.keys(REPORT_TABLES)),
    )
    .action(async (file: string, opts: ReportFlags) => {
      const cwd = process.cwd();
      const input = resolve(cwd, file);
      const out = opts.out !== undefined ? resolve(cwd, opts.out) : undefined;
      if (out) await checkReportOut(out, opts.out!, input);
      const format = reportFormat(opts.format, opts.out);
      if (opts.table && format !== 'csv')
        throw new UsageError(`--table ${opts.table} writes CSV; add --format csv (or an --out file ending in .csv).`);
      const metrics = opts.metrics
        ?.split(',')
        .map((m) => m.trim())
        .filter((m) => m !== '');
      const text = await renderReportFile(input, file, format, {
        theme: opts.theme,
        metrics,
        ci: opts.ci === true,
        table: opts.table,
      });
      if (out) {
        await writeAtomically(out, text, 'the report');
        process.stderr.write(`Report written to ${relative(cwd, out) || out}\n`);
      } else process.stdout.write(text);
    });
}
