/**
 * Text renderings of a results object: a terminal table (the CLI's default output), Markdown and
 * CSV (also used by the extension's "Export Report"). No vscode, no DOM.
 *
 * Metrics are grouped by family in the order of `results.families` (keys no family lists come
 * last, under "Other"); each row has the value, the bootstrap interval, the direction and the
 * note. In the terminal table the note is the metric's name from the glossary (one line; the
 * definition is one `eval-lens explain KEY` away), and what the notes of a family share — the
 * operating point, the protocol — is stated once under the family's title. Ranking baselines (`results.baselines`) become extra value columns. Values are the
 * fractions stored in the results; percentages only with `percent: true`, and then only for the
 * keys that are rates (not `nll`, `brier`, `novelty@K`, user counts).
 */
import type { MetricFamily, MetricValue, Results } from './types';
import { where } from '../diagnostics';
import { csvCell } from '../text/csvCell';
import { escapeMarkdown } from '../text/markdownText';
import { GLOSSARY, explainKey, metricName } from '../glossary';
import { splitNotes } from './notes';
import { shownDirection } from './directions';
import { rankingConventionNotes } from './rankingConventions';
import { countText } from '../text/countText';

export interface FormatOptions {
  /** Digits after the decimal point (default 4; with `percent`, 2). */
  digits?: number;
  /** Rates as percentages (`81.23%`). Default false: the stored fractions. */
  percent?: boolean;
  /**
   * formatTable only: cut notes (with `…`) so that lines fit this many characters (a terminal's
   * width); at least 20 characters of a note are kept. Default: notes in full.
   */
  maxWidth?: number;
}

const FAMILY_TITLES: Record<MetricFamily, string> = {
  classification: 'Classification',
  longtail: 'Long tail',
  evolving: 'Evolving test distributions',
  selective: 'Selective classification',
  calibration: 'Calibration',
  importance: 'Importance-weighted binary',
  ranking: 'Ranking',
};

interface Row {
  family: string;
  key: string;
  m: MetricValue;
  baselines: (MetricValue | undefined)[];
}

interface Section {
  family: string;
  title: string;
  rows: Row[];
}

/** Family sections in display order; every metric appears exactly once. */
export function metricSections(results: Results): Section[] {
  const seen = new Set<string>();
  const baselineNames = Object.keys(results.baselines ?? {});
  const row = (family: string, key: string): Row => ({
    family,
    key,
    m: results.metrics[key]!,
    baselines: baselineNames.map((b) => results.baselines?.[b]?.[key]),
  });
  const sections: Section[] = [];
  for (const [family, keys] of Object.entries(results.families) as [MetricFamily, string[] | undefined][]) {
    const rows = (keys ?? [])
      .filter((k) => k in results.metrics && !seen.has(k))
      .map((k) => (seen.add(k), row(family, k)));
    if (rows.length > 0) sections.push({ family, title: FAMILY_TITLES[family] ?? family, rows });
  }
  const rest = Object.keys(results.metrics).filter((k) => !seen.has(k));
  if (rest.length > 0) sections.push({ family: 'other', title: 'Other', rows: rest.map((k) => row('other', k)) });
  return sections;
}

/** Keys that are not fractions in [0, 1] and so never become percentages. */
function isRate(key: string): boolean {
  return !/^(nll|brier|users_evaluated|users_skipped)$/.test(key) && !/^novelty@/.test(key);
}

function fmtNumber(v: number, key: string, opts: FormatOptions): string {
  if (opts.percent && isRate(key) && v >= 0 && v <= 1) return `${(v * 100).toFixed(opts.digits ?? 2)}%`;
  if (!isRate(key) && Number.isInteger(v)) return String(v);
  const digits = opts.digits ?? 4;
  if (v !== 0 && Math.abs(v) < 10 ** -(digits - 1)) return v.toExponential(2);
  return v.toFixed(digits);
}

function fmtValue(m: MetricValue | undefined, key: string, opts: FormatOptions): string {
  if (!m) return '';
  return m.value === null ? '—' : fmtNumber(m.value, key, opts);
}

/** The mark after an interval that does not contain its value (any key). */
const EXCLUDES_MARK = '‡';

/** True when the metric has a value and an interval that does not contain it. */
export function ciExcludesPoint(m: Pick<MetricValue, 'value' | 'ci'>): boolean {
  return m.value !== null && m.ci !== undefined && (m.value < m.ci[0] || m.value > m.ci[1]);
}

/** `[lo, hi]`, then `basic` for a basic bootstrap interval and ‡ when it excludes the value. */
function fmtCi(m: MetricValue, key: string, opts: FormatOptions): string {
  if (!m.ci) return '';
  const kind = m.ci_method === 'basic' ? ' basic' : '';
  const mark = ciExcludesPoint(m) ? ` ${EXCLUDES_MARK}` : '';
  return `[${fmtNumber(m.ci[0], key, opts)}, ${fmtNumber(m.ci[1], key, opts)}]${kind}${mark}`;
}

/** What the interval marks of these rows mean (none when no row has one). */
function ciLegend(rows: readonly { m: MetricValue }[]): string[] {
  const out: string[] = [];
  if (rows.some((r) => r.m.ci && r.m.ci_method === 'basic'))
    out.push(
      "basic: a basic bootstrap interval, 2·value minus the resamples' upper and lower quantiles, clipped to [0, 1] (Davison & Hinkley 1997, Bootstrap Methods and their Application, §5.2), for the binned calibration errors, which resampling inflates; the other intervals are percentile intervals.",
    );
  if (rows.some((r) => ciExcludesPoint(r.m)))
    out.push(
      `${EXCLUDES_MARK} the interval excludes the value: the metric's bootstrap distribution is skewed or biased away from it; read the interval as rough.`,
    );
  return out;
}

// '–': a spread or a count, which has no better direction (see shownDirection).
const ARROW = { higher: '↑', lower: '↓', none: '–' } as const;

/** "95% CI" from the config's confidence level. */
function ciTitle(results: Results): string {
  const c = results.config?.bootstrap?.confidence;
  return typeof c === 'number' ? `${Number((c * 100).toPrecision(4))}% CI` : 'CI';
}

/** One line describing the source: path, task, rows, format, SHA-256 prefix. */
export function sourceLine(results: Results): string {
  const s = results.source;
  const rows =
    s.rowsUsed !== s.rows ? `${countText(s.rows)} rows (${countText(s.rowsUsed)} used)` : `${countText(s.rows)} rows`;
  return `${s.path} · task ${results.task} · ${rows} · ${s.format} · sha256 ${s.sha256.slice(0, 12)}`;
}

/**
 * The rows every metric covers when the file is split into validation and test (null without a
 * split), e.g. `test rows (n = 150) of the split column "split"; thresholds chosen on its 150
 * validation rows; whole file: metricsOn "all"`.
 */
export function splitRowsText(results: Pick<Results, 'source'>): string | null {
  const sp = results.source.split;
  if (!sp) return null;
  const of =
    sp.by === 'column'
      ? `the split column "${sp.column ?? 'split'}"`
      : `a random split (validation fraction ${sp.fraction}, seed = ${sp.seed ?? 0}, not stratified)`;
  const thresholds = `thresholds chosen on its ${countText(sp.validationRows)} validation rows`;
  return sp.metricsOn === 'all'
    ? `all rows (n = ${countText(sp.validationRows + sp.testRows)}: ${countText(sp.validationRows)} validation + ${countText(sp.testRows)} test) of ${of}; ${thresholds}; the test rows alone: metricsOn "test"`
    : `test rows (n = ${countText(sp.testRows)}) of ${of}; ${thresholds}; the whole file: metricsOn "all" (--metrics-on all)`;
}

/** The value column's title: `value`, or with a split the rows it covers, e.g. `test rows (n = 150)`. */
export function valueTitle(results: Pick<Results, 'source'>, plain = 'value'): string {
  const sp = results.source.split;
  if (!sp) return plain;
  return sp.metricsOn === 'all'
    ? `all rows (n = ${countText(sp.validationRows + sp.testRows)})`
    : `test rows (n = ${countText(sp.testRows)})`;
}

function configLine(results: Results): string {
  const b = results.config.bootstrap;
  const boot =
    b.n > 0
      ? `bootstrap ${b.n} resamples, ${ciTitle(results)}, seed = ${b.seed}${b.stratified ? ', stratified' : ''}`
      : 'no bootstrap intervals';
  return `${results.config.configFile ? `config ${results.config.configFile}` : 'no config file'} · ${boot}`;
}

function warningLine(w: Results['warnings'][number]): string {
  const parts: string[] = [];
  if (w.file) parts.push(where({ file: w.file, line: w.line, column: w.column }));
  else if (w.line !== undefined) parts.push(`line ${w.line}`);
  if (w.count !== undefined) parts.push(`count ${countText(w.count)}`);
  return `${w.code}: ${w.message}${parts.length > 0 ? ` (${parts.join('; ')})` : ''}`;
}

/** A note's clauses: split at "; " and at ". " before a capital, trailing full stops dropped. */
function clauses(note: string | undefined): string[] {
  return (note ?? '')
    .split(/;\s+|\.\s+(?=[A-Z])/)
    .map((c) => c.trim().replace(/\.$/, ''))
    .filter((c) => c.length > 0);
}

/** Metrics of one kind share a glossary formula (`recall@5` and `recall@10`; the three 101-point grid AURCs). */
function kindOf(key: string): string {
  const pattern = explainKey(key)?.pattern;
  return GLOSSARY.find((e) => e.pattern === pattern)?.formula ?? key;
}

/**
 * The clauses that the notes of at least two different kinds of metric in a section share: the
 * operating point, the protocol, the bins, the rows used. In order of first appearance.
 */
export function sharedClauses(rows: readonly { key: string; m: MetricValue }[]): string[] {
  const kinds = new Map<string, Set<string>>();
  for (const r of rows) {
    const kind = kindOf(r.key);
    for (const c of clauses(r.m.note)) {
      let set = kinds.get(c);
      if (!set) kinds.set(c, (set = new Set()));
      set.add(kind);
    }
  }
  return [...kinds].filter(([, k]) => k.size >= 2).map(([c]) => c);
}

/**
 * The one-line note of a table row: the glossary name; for an undefined value also the note's own
 * clauses (they say why). A key the glossary does not know keeps its note, minus the shared clauses.
 */
function shortNote(key: string, m: MetricValue, shared: readonly string[]): string {
  const own = clauses(m.note).filter((c) => !shared.includes(c));
  const name = explainKey(key)?.name;
  if (!name) return own.join('; ');
  return m.value === null && own.length > 0 ? `${name} — ${own.join('; ')}` : name;
}

/** `text` broken at spaces into lines of at most `width` characters (a longer word stays whole). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let cur = '';
  for (const word of text.split(' ')) {
    if (cur && cur.length + 1 + word.length > width) {
      lines.push(cur);
      cur = word;
    } else cur = cur ? `${cur} ${word}` : word;
  }
  if (cur) lines.push(cur);
  return lines;
}

/** A plain-text table for terminals (monospace), one section per family, then the warnings. */
export function formatTable(results: Results, opts: FormatOptions = {}): string {
  const baselineNames = Object.keys(results.baselines ?? {});
  const sections = metricSections(results);
  const header = ['metric', valueTitle(results), ...baselineNames, ciTitle(results), 'better', 'note'];
  const shared = sections.map((s) => sharedClauses(s.rows));
  const cells = sections.map((s, i) =>
    s.rows.map((r) => [
      r.key,
      fmtValue(r.m, r.key, opts),
      ...r.baselines.map((b) => fmtValue(b, r.key, opts)),
      fmtCi(r.m, r.key, opts),
      ARROW[shownDirection(r.key, r.m.direction)],
      shortNote(r.key, r.m, shared[i]!),
    ]),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...cells.flat().map((c) => c[i]!.length)));
  const numeric = (i: number): boolean => i >= 1 && i <= 1 + baselineNames.length;
  const noteAt = 2 + widths.slice(0, -1).reduce((a, w) => a + w + 2, 0);
  const noteMax = opts.maxWidth !== undefined ? Math.max(20, opts.maxWidth - noteAt) : Infinity;
  const cut = (note: string): string => (note.length > noteMax ? `${note.slice(0, noteMax - 1)}…` : note);
  const line = (c: string[]): string =>
    '  ' +
    c
      .map((x, i) => (i === c.length - 1 ? cut(x) : numeric(i) ? x.padStart(widths[i]!) : x.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const splitRows = splitRowsText(results);
  const out: string[] = [
    `Eval Lens ${results.tool.version} results`,
    `  ${sourceLine(results)}`,
    ...(splitRows
      ? wrap(`Metrics on: ${splitRows}`, Math.max(40, (opts.maxWidth ?? 100) - 2)).map((l) => `  ${l}`)
      : []),
    `  ${configLine(results)}`,
  ];
  if (sections.length === 0) out.push('', '  (no metrics)');
  sections.forEach((s, i) => {
    const common =
      shared[i]!.length > 0
        ? wrap(`Common to these rows: ${shared[i]!.join('; ')}`, Math.max(40, (opts.maxWidth ?? 100) - 2)).map(
            (l) => `  ${l}`,
          )
        : [];
    // The conventions that differ from a common alternative, next to the numbers they change.
    const conventions = (s.family === 'ranking' ? rankingConventionNotes(results) : []).flatMap((c) =>
      wrap(`Convention: ${c}`, Math.max(40, (opts.maxWidth ?? 100) - 2)).map((l) => `  ${l}`),
    );
    out.push('', s.title, ...common, ...conventions, line(header), ...cells[i]!.map(line));
  });
  const legend = ciLegend(sections.flatMap((s) => s.rows));
  if (legend.length > 0)
    out.push('', ...legend.flatMap((l) => wrap(l, Math.max(40, (opts.maxWidth ?? 100) - 2)).map((x) => `  ${x}`)));
  if (sections.length > 0)
    out.push('', "Definitions and references: eval-lens explain KEY. The results JSON keeps each metric's full note.");
  const { notes, warnings } = splitNotes(results.warnings);
  if (notes.length > 0) {
    out.push('', `Notes (${notes.length})`);
    for (const w of notes) out.push(`  i ${warningLine(w)}`);
  }
  if (warnings.length > 0) {
    out.push('', `Warnings (${warnings.length})`);
    for (const w of warnings) out.push(`  ! ${warningLine(w)}`);
  }
  return out.join('\n') + '\n';
}

/** Markdown: a heading, the source line, one table per family, the warnings as a list. */
export function formatMarkdown(results: Results, opts: FormatOptions = {}): string {
  const baselineNames = Object.keys(results.baselines ?? {});
  const out: string[] = [
    `## Eval Lens results: ${escapeMarkdown(results.source.path)}`,
    '',
    `${escapeMarkdown(sourceLine(results))}  `,
    ...(splitRowsText(results) ? [`Metrics on: ${escapeMarkdown(splitRowsText(results)!)}  `] : []),
    `${escapeMarkdown(configLine(results))} · Eval Lens ${results.tool.version} · ${results.createdAt}`,
  ];
  for (const s of metricSections(results)) {
    out.push('', `### ${s.title}`, '');
    out.push(
      `| Metric | Key | ${valueTitle(results, 'Value')} | ${baselineNames.map((b) => `${escapeMarkdown(b)} | `).join('')}${ciTitle(results)} | Better | Note |`,
    );
    out.push(`|---|---|---:|${baselineNames.map(() => '---:|').join('')}---|:-:|---|`);
    for (const r of s.rows) {
      const base = r.baselines.map((b) => `${fmtValue(b, r.key, opts)} | `).join('');
      out.push(
        `| ${escapeMarkdown(metricName(r.key))} | ${escapeMarkdown(r.key)} | ${fmtValue(r.m, r.key, opts)} | ${base}${fmtCi(r.m, r.key, opts)} | ${ARROW[shownDirection(r.key, r.m.direction)]} | ${escapeMarkdown(r.m.note ?? '')} |`,
      );
    }
    const conventions = s.family === 'ranking' ? rankingConventionNotes(results) : [];
    if (conventions.length > 0) out.push('', ...conventions.map((c) => `Convention: ${escapeMarkdown(c)}  `));
  }
  const legend = ciLegend(metricSections(results).flatMap((s) => s.rows));
  if (legend.length > 0) out.push('', ...legend.map((l) => `${escapeMarkdown(l)}  `));
  const { notes, warnings } = splitNotes(results.warnings);
  if (notes.length > 0) {
    out.push('', `### Notes (${notes.length})`, '');
    for (const w of notes) out.push(`- ${escapeMarkdown(warningLine(w))}`);
  }
  if (warnings.length > 0) {
    out.push('', `### Warnings (${warnings.length})`, '');
    for (const w of warnings) out.push(`- ${escapeMarkdown(warningLine(w))}`);
  }
  return out.join('\n') + '\n';
}

function csvNumber(v: number | null | undefined): string {
  return v === null || v === undefined ? '' : String(v);
}

/**
 * CSV (RFC 4180, `\n` line ends), one row per metric: `family,metric,value,ci_lower,ci_upper,
 * direction,note`, then one `baseline_<name>` column per baseline. Values at full precision,
 * fractions (never percentages); an undefined value is an empty cell. Only metrics: the source
 * and warnings are in the other formats.
 */
export function formatCsv(results: Results): string {
  const baselineNames = Object.keys(results.baselines ?? {});
  const rows = [
    [
      'family',
      'metric',
      'value',
      'ci_lower',
      'ci_upper',
      'direction',
      'note',
      ...baselineNames.map((b) => `baseline_${b}`),
    ],
  ];
  for (const s of metricSections(results)) {
    for (const r of s.rows) {
      rows.push([
        s.family,
        r.key,
        csvNumber(r.m.value),
        csvNumber(r.m.ci?.[0]),
        csvNumber(r.m.ci?.[1]),
        r.m.direction,
        r.m.note ?? '',
        ...r.baselines.map((b) => csvNumber(b?.value)),
      ]);
    }
  }
  return rows.map((r) => r.map(csvCell).join(',')).join('\n') + '\n';
}
