/**
 * `eval-lens diff A B`: the rows that changed between two runs of the same rows (or users) — the
 * four correct/incorrect cells with McNemar's exact test, and the rows that flipped (or whose loss,
 * or whose user metric, changed) worst for B first, each with its line in both files. The
 * conventions are those of src/core/compare/diffRows.ts (docs/comparisons.md).
 */
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { findConfigBeside } from '../core';
import { diffRuns, type RowDiff } from '../core';
import { formatDelta } from '../core';
import { pStatement } from '../core';
import { QueryError } from '../core';
import { escapeControlLine } from '../core';
import { csvLine } from '../core';
import { UsageError } from './errors';
import { helpTail } from './help';
import { checkInput, workspaceRoot } from './files';
import { count, textTable, whereFlag } from './rows';
import { addFindSlicesOptions, finderOptions, withFoundSlices, type FindSlicesFlags } from './findSlices';
import type { FileSliceFinderResult } from '../core';
import { findSlicesBetween } from '../core';

export const DIFF_FORMATS = ['table', 'json', 'csv'] as const;
type DiffFormat = (typeof DIFF_FORMATS)[number];

interface DiffFlags extends FindSlicesFlags {
  config?: string;
  metric?: string;
  where?: string;
  limit: string;
  format: DiffFormat;
  matchBy?: 'id' | 'position';
  root?: string;
  metricsOn?: 'test' | 'all';
}

export function registerDiff(program: Command): void {
  const cmd = program
    .command('diff')
    .description(
      "The rows that changed from run A to run B: the four correct/incorrect cells with McNemar's exact test, and the rows that flipped (or whose loss or user metric changed), worst for B first, with their lines in both files.",
    )
    .argument('<a>', 'run A, the baseline (a prediction file)')
    .argument('<b>', 'run B (a prediction file of the same rows or users)')
    .option('-c, --config <file>', 'config file (default: eval-lens.json beside A, if any)')
    .option('-m, --metric <key>', 'per-row metric: accuracy (default) or nll; ranking: a per-user key, e.g. ndcg@10')
    .option('-w, --where <expr>', 'filter on A\'s rows, as `rows --where`, e.g. "label=cat and confidence>=0.9"')
    .option('-n, --limit <n>', 'changed rows to print', '20')
    .addOption(new Option('-f, --format <format>', 'what to print on stdout').choices(DIFF_FORMATS).default('table'))
    .addOption(
      new Option('--match-by <how>', 'how rows are paired (default: id when both runs have ids)').choices([
        'id',
        'position',
      ]),
    )
    .option('--root <dir>', 'workspace root: paths in the config must stay inside it')
    .addOption(
      new Option(
        '--metrics-on <rows>',
        'with a split column: compare the test rows (default, as evaluate and compare) or all rows',
      ).choices(['test', 'all']),
    );
  addFindSlicesOptions(
    cmd,
    "also find the slices of A's rows (values and quartile bins of the columns, and pairs of them) where B's accuracy is significantly below A's",
  )
    .addHelpText(
      'after',
      helpTail([
        'eval-lens diff logreg.csv svc_rbf.csv',
        'eval-lens diff logreg.csv knn.csv --metric nll --where "label=3" --format csv',
      ]),
    )
    .action(async (a: string, b: string, opts: DiffFlags) => {
      const cwd = process.cwd();
      const limit = count('--limit', opts.limit, 0);
      const where = whereFlag(opts.where);
      const finder = finderOptions(opts);
      const [pa, pb] = [resolve(cwd, a), resolve(cwd, b)];
      await checkInput(pa, a);
      await checkInput(pb, b);
      const configPath = opts.config !== undefined ? resolve(cwd, opts.config) : await findConfigBeside(pa);
      const overrides = opts.metricsOn ? { overrides: { metricsOn: opts.metricsOn } } : {};
      let d: RowDiff;
      let found: FileSliceFinderResult | null = null;
      try {
        d = await diffRuns(a, b, {
          configPath,
          metric: opts.metric,
          where,
          whereText: opts.where ?? undefined,
          limit,
          matchBy: opts.matchBy,
          root: workspaceRoot(cwd, opts.root, configPath ?? pa),
          ...overrides,
        });
        if (finder)
          found = await findSlicesBetween(a, b, {
            configPath,
            where,
            matchBy: opts.matchBy,
            root: workspaceRoot(cwd, opts.root, configPath ?? pa),
            ...overrides,
            ...finder,
          });
      } catch (e) {
        if (e instanceof QueryError) throw new UsageError(`--where: ${e.message}`);
        throw e;
      }
      // with --find-slices, JSON gains "foundSlices" and CSV is the found slices
      if (found && opts.format === 'json')
        process.stdout.write(JSON.stringify({ ...d, foundSlices: found }, null, 2) + '\n');
      else process.stdout.write(withFoundSlices(found, opts.format, () => renderDiff(d, opts.format)));
    });
}

const num = (v: number | null | undefined): string => (v === null || v === undefined ? '' : String(v));

/** The diff in the chosen format. */
export function renderDiff(d: RowDiff, format: DiffFormat): string {
  if (format === 'json') return JSON.stringify(d, null, 2) + '\n';
  const pos = d.rowAddressed ? 'row' : 'line';
  const at = (line: number): string => String(d.rowAddressed ? line - 1 : line);
  const classification = d.cells !== null;
  const head = [
    classification ? 'id' : 'user',
    ...(classification ? ['label'] : []),
    `${pos} A`,
    `${pos} B`,
    ...(classification ? ['pred A', 'pred B'] : []),
    `${d.metric} A`,
    `${d.metric} B`,
    'change',
  ];
  const cells = d.rows.map((r) => [
    r.id ?? '',
    ...(classification ? [r.label ?? ''] : []),
    at(r.lineA),
    at(r.lineB),
    ...(classification ? [r.predA ?? '', r.predB ?? ''] : []),
    num(r.a),
    num(r.b),
    num(r.change),
  ]);
  if (format === 'csv') return [csvLine(head), ...cells.map(csvLine)].join('\n') + '\n';
  const lines: string[] = [];
  const [A, B] = d.runs.map(escapeControlLine);
  lines.push(
    `${A} → ${B}: ${d.measured ? `the split's test rows: ${d.measured.testRows} of ${d.measured.rowsInFile}; ` : ''}${d.n} matched rows${d.where ? ` where ${escapeControlLine(d.where)}` : ''}; ${d.metric} Δ = ${formatDelta(d.delta)}.`,
  );
  if (d.cells && d.mcnemar) {
    const c = d.cells;
    lines.push(
      `both right ${c.bothRight}, lost (A right, B wrong) ${c.lost}, gained (A wrong, B right) ${c.gained}, both wrong ${c.bothWrong}; McNemar exact ${pStatement(d.mcnemar.p)}.`,
    );
  }
  lines.push(
    `${d.changed} row${d.changed === 1 ? '' : 's'} changed${d.rows.length < d.changed ? `; the ${d.rows.length} worst for B` : ''}${d.rows.length > 0 ? ':' : '.'}`,
  );
  return `${lines.join('\n')}\n${d.rows.length > 0 ? textTable(head, cells) : ''}`;
}
