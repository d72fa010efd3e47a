/**
 * `eval-lens rows FILE`: the rows behind the numbers. Loads FILE with the evaluation's config,
 * filters (`--where`), sorts (`--sort KEY[:asc|:desc]`) and pages (`--limit`, `--offset`) its rows,
 * and prints them as a table, JSON or CSV. The filter language is documented in docs/cli.md and
 * src/core/rows/where.ts. A bad expression, an unknown key or a value that does not fit its key
 * is a usage error (exit 2) naming what was expected where.
 */
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { findConfigBeside } from '../core';
import {
  openInspection,
  parseWhere,
  QueryError,
  WhereSyntaxError,
  type RowPage,
  type RowSample,
  type RowSort,
  type RowView,
  type FilterTerm,
} from '../core';
import { escapeControlLine } from '../core';
import { csvLine } from '../core';
import { rowPosition, type RowPosition } from '../shared/rowPosition';
import { addConfigFlags, configFromFlags } from './configFlags';
import { UsageError } from './errors';
import { checkInput } from './files';
import { workspaceRoot } from './files';

export const ROW_FORMATS = ['table', 'json', 'csv'] as const;
type RowFormat = (typeof ROW_FORMATS)[number];

interface RowsFlags {
  config?: string;
  where?: string;
  sort?: string;
  limit: string;
  offset: string;
  format: RowFormat;
  root?: string;
  sample?: string;
  stratify?: string;
  seed?: string;
  [key: string]: unknown;
}

export function count(flag: string, raw: string, min: number): number {
  const v = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(v) || v < min)
    throw new UsageError(`${flag} expects a whole number ≥ ${min}, got "${raw}".`);
  return v;
}

/** The terms of a `--where` expression (none when absent); a syntax error is a usage error. */
export function whereFlag(raw: string | undefined): FilterTerm[] {
  try {
    return parseWhere(raw ?? '');
  } catch (e) {
    if (e instanceof WhereSyntaxError) throw new UsageError(`--where: ${e.message}`);
    throw e;
  }
}

/** `KEY`, `KEY:asc` or `KEY:desc` (default ascending). */
export function parseSort(raw: string): RowSort {
  const m = /^(.+?)(?::(asc|desc))?$/i.exec(raw.trim());
  if (!m || m[1].trim() === '') throw new UsageError(`--sort expects KEY, KEY:asc or KEY:desc, got "${raw}".`);
  return { key: m[1].trim(), dir: (m[2]?.toLowerCase() as 'asc' | 'desc' | undefined) ?? 'asc' };
}

export function registerRows(program: Command): void {
  const cmd = program
    .command('rows')
    .description(
      'List the rows of a prediction file behind the metrics: filter, sort and page them (e.g. the most confident mistakes).',
    )
    .argument('<file>', 'the prediction file')
    .option('-c, --config <file>', 'config file (default: eval-lens.json beside FILE, if any)')
    .option(
      '-w, --where <expr>',
      'filter: key op value terms joined by "and", e.g. "correct=false and confidence>=0.9"; `group` is the file\'s group column, `class_group` the class-frequency group (head/tail) of the true class (see docs/cli.md)',
    )
    .option('-s, --sort <key>', 'sort key with an optional direction, e.g. confidence:desc (default: line order)')
    .option('-n, --limit <n>', 'rows to print', '20')
    .option('--offset <n>', 'matching rows to skip first', '0')
    .addOption(new Option('-f, --format <format>', 'what to print on stdout').choices(ROW_FORMATS).default('table'))
    .option(
      '--sample <n|v=n,…>',
      'print a random sample instead of a page: N rows in all, allocated to the --stratify values in proportion to their rows (largest remainder), or VALUE=N per value, e.g. head=30,tail=20; without replacement, deterministic given --seed',
    )
    .option(
      '--stratify <key>',
      'with --sample: the key whose values are the strata, e.g. class_group (head/tail), label, shot',
    )
    .option('--seed <n>', 'with --sample: seed of the sample (default 0)')
    .option(
      '--root <dir>',
      "workspace root: paths in the config must stay inside it (default: the current folder, or the config's folder when the config lies outside it)",
    );
  const flags = addConfigFlags(cmd);
  cmd.action(async (file: string, opts: RowsFlags) => {
    const cwd = process.cwd();
    const overrides = configFromFlags(opts, flags, cwd);
    const limit = count('--limit', opts.limit, 0);
    const offset = count('--offset', opts.offset, 0);
    const where = whereFlag(opts.where);
    const sort = opts.sort !== undefined ? parseSort(opts.sort) : undefined;
    const input = resolve(cwd, file);
    await checkInput(input, file);
    const configPath = opts.config !== undefined ? resolve(cwd, opts.config) : await findConfigBeside(input);
    const inspection = await openInspection(file, {
      configPath,
      overrides,
      root: workspaceRoot(cwd, opts.root, configPath ?? input),
    });
    let page: RowPage;
    const sampling = opts.sample !== undefined ? sampleFlags(opts.sample, opts.stratify, opts.seed) : null;
    if (!sampling && opts.stratify !== undefined)
      throw new UsageError('--stratify needs --sample N (or --sample VALUE=N,…).');
    try {
      page = sampling
        ? inspection.sample({ where, sort, ...sampling })
        : inspection.query({ where, sort, offset, limit });
    } catch (e) {
      if (e instanceof QueryError)
        throw new UsageError(`${opts.sort !== undefined && !e.term ? '--sort' : '--where'}: ${e.message}`);
      throw e;
    }
    process.stdout.write(renderRows(page, opts.format));
  });
}

/** `--sample N` or `--sample v=n,…` with `--stratify` and `--seed`. */
export function sampleFlags(
  raw: string,
  stratify: string | undefined,
  seedRaw: string | undefined,
): { sizes: number | Record<string, number>; stratify?: string; seed: number } {
  const seed = seedRaw === undefined ? 0 : Number(seedRaw);
  if (seedRaw !== undefined && (!/^-?\d+$/.test(seedRaw.trim()) || !Number.isSafeInteger(seed)))
    throw new UsageError(`--seed expects a whole number, got "${seedRaw}".`);
  const t = raw.trim();
  if (/^\d+$/.test(t)) return { sizes: count('--sample', t, 1), seed, ...(stratify ? { stratify } : {}) };
  const sizes: Record<string, number> = {};
  for (const part of t.split(',')) {
    const m = /^(.+)=(\d+)$/.exec(part.trim());
    if (!m) throw new UsageError(`--sample expects N or VALUE=N,VALUE=N (e.g. head=30,tail=20), got "${raw}".`);
    sizes[m[1]!.trim()] = count('--sample', m[2]!, 0);
  }
  if (!stratify)
    throw new UsageError(`--sample ${raw} names values: add --stratify KEY (e.g. --stratify class_group).`);
  return { sizes, stratify, seed };
}

/** A row as printed in JSON: without the `kind` tag, the documented keys first. */
function plain(r: RowView): Record<string, unknown> {
  const { kind: _kind, ...rest } = r;
  if (r.kind === 'ranking') return rest;
  const { line, id, label, pred, correct, confidence, top, columns, ...more } = rest as Omit<typeof r, 'kind'>;
  return { line, id, label, pred, correct, confidence, top, columns, ...more };
}

export function renderRows(page: RowPage, format: RowFormat): string {
  if (format === 'json') return JSON.stringify({ total: page.total, rows: page.rows.map(plain) }, null, 2) + '\n';
  const { head, cells } = tabulate(page.rows, rowPosition(page));
  if (format === 'csv') return [csvLine(head), ...cells.map(csvLine)].join('\n') + '\n';
  const strata = (page as Partial<RowSample>).strata;
  const footer = strata
    ? `random sample of ${page.rows.length} of ${page.total} matching rows (${page.rowsInFile} in the file): ${strata.map((x) => `${x.value === '' ? 'all' : x.value} ${x.drawn} of ${x.rows}`).join(', ')}`
    : page.rows.length === 0
      ? `no row of ${page.total} matching`
      : `rows ${page.offset + 1}–${page.offset + page.rows.length} of ${page.total} matching (${page.rowsInFile} in the file)`;
  if (page.rows.length === 0) return `${footer}\n`;
  return textTable(head, cells) + `${footer}\n`;
}

const num = (v: number | null | undefined): string => (v === null || v === undefined ? '' : String(v));

/** Column heads and cells of a page (every row of a page has the same kind). */
function tabulate(rows: RowView[], pos: RowPosition): { head: string[]; cells: string[][] } {
  if (rows.length === 0 || rows[0].kind === 'ranking') {
    const metricKeys = [...new Set(rows.flatMap((r) => (r.kind === 'ranking' ? Object.keys(r.metrics) : [])))];
    const head = [pos.title, 'user', 'trainCount', ...metricKeys, 'topK', 'missed'];
    const cells = rows.map((r) => {
      if (r.kind !== 'ranking') return [];
      const top = r.items
        .map(
          (it) =>
            `${it.rank}:${it.hit ? '*' : ''}${it.item}${it.repeatOf !== undefined ? `(=${it.repeatOf})` : ''}${it.cold ? ' (cold)' : ''}`,
        )
        .join(' ');
      return [
        String(pos.value(r.line)),
        r.user,
        num(r.trainCount),
        ...metricKeys.map((k) => num(r.metrics[k])),
        top,
        r.missed.join(' '),
      ];
    });
    return { head, cells };
  }
  const optional = (['weight', 'group', 'classGroup', 'shot', 'split', 'stratum', 'accepted'] as const).filter((k) =>
    rows.some((r) => r.kind === 'classification' && r[k] !== undefined),
  );
  const other = [...new Set(rows.flatMap((r) => (r.kind === 'classification' ? Object.keys(r.columns) : [])))];
  const head = [
    pos.title,
    'id',
    'label',
    'pred',
    'correct',
    'confidence',
    'loss',
    'top_1',
    'top_1_score',
    'top_2',
    'top_2_score',
    'top_3',
    'top_3_score',
    // the class-frequency group under its filter key, apart from the file's `group` column
    ...optional.map((k) => (k === 'classGroup' ? 'class_group' : k)),
    ...other,
  ];
  const cells = rows.map((r) => {
    if (r.kind !== 'classification') return [];
    const top = [0, 1, 2].flatMap((k) => (r.top[k] ? [r.top[k][0], String(r.top[k][1])] : ['', '']));
    return [
      String(pos.value(r.line)),
      r.id ?? '',
      r.label,
      r.pred,
      String(r.correct),
      num(r.confidence),
      num(r.loss),
      ...top,
      ...optional.map((k) => (r[k] === undefined ? '' : String(r[k]))),
      ...other.map((c) => r.columns[c] ?? ''),
    ];
  });
  return { head, cells };
}

/**
 * A plain-text table; column names and cells are shown on one line (line breaks and tabs as \n
 * and \t, other control characters as \u00XX), long cells cut.
 */
export function textTable(columns: string[], rows: string[][]): string {
  const show = (s: string): string => {
    const t = escapeControlLine(s);
    return t.length > 40 ? `${t.slice(0, 39)}…` : t;
  };
  const head = columns.map(escapeControlLine);
  const body = rows.map((r) => r.map(show));
  const width = head.map((h, j) => Math.max(h.length, ...body.map((r) => (r[j] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, j) => c.padEnd(width[j]))
      .join('  ')
      .trimEnd();
  return [line(head), line(width.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n') + '\n';
}
