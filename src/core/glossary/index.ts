/**
 * The glossary: a human name, a one-sentence meaning, the formula, the convention, the
 * alternatives it is not, the direction and the published sources of every metric key the core
 * can emit and of every field of a paired comparison test. Pure TypeScript (no vscode, no DOM):
 * the CLI (`eval-lens explain`), the extension, the webview's model builders and the docs all
 * read it.
 *
 * Keys with parameters (`top5_accuracy`, `recall@10`, `error_group.tail`) resolve through their
 * pattern (`top<k>_accuracy`, `recall@<K>`, `error_group.<g>`); an exact key wins over a pattern.
 */
import { GLOSSARY } from './entries';
import { REFERENCES, citeShort, formatReference, type Reference } from './references';
import type { ExplainedKey, GlossaryEntry, GlossaryFamily } from './types';

export type { ExplainedKey, GlossaryDirection, GlossaryEntry, GlossaryFamily, GlossaryKind } from './types';
export { REFERENCES, citeShort, formatReference, referenceLink, type Reference, type ReferenceId } from './references';
export { GLOSSARY };

/** Title and one line per family, in report order. */
export const GLOSSARY_FAMILIES: Readonly<Record<GlossaryFamily, { title: string; summary: string }>> = {
  classification: { title: 'Classification', summary: 'Accuracy-type metrics and proper scores over every row.' },
  longtail: {
    title: 'Long tail',
    summary:
      'Accuracy by train-frequency group (many/medium/few shots, head/tail) and errors reweighted to the train distribution.',
  },
  evolving: {
    title: 'Evolving test distributions',
    summary:
      'Accuracy over a series of test distributions moving from the train distribution to its reverse (Fang et al. 2023).',
  },
  selective: {
    title: 'Selective classification',
    summary:
      'Risk when the model may abstain: at one operating point, and over every coverage (risk–coverage curve, AURC).',
  },
  calibration: { title: 'Calibration', summary: 'Whether the top-label confidence matches the observed accuracy.' },
  importance: {
    title: 'Importance-weighted binary',
    summary:
      'Precision, recall and curves of a binary classifier corrected for a biased selection of the labelled rows.',
  },
  ranking: {
    title: 'Ranking',
    summary:
      'Top-K recommendation or retrieval quality per user, averaged over users, and beyond-accuracy list properties.',
  },
  comparison: {
    title: 'Comparison tests',
    summary: 'Fields of a paired test of a run against the baseline on one metric.',
  },
};

const PLACEHOLDER: Readonly<Record<string, string>> = { k: '(\\d+)', K: '(\\d+)', g: '(.+)' };

interface Compiled {
  entry: GlossaryEntry;
  re: RegExp;
  params: string[];
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The regular expression (source, anchored) of the keys a pattern such as `recall@<K>` stands for;
 * undefined for an exact key. Also the results JSON Schema's `patternProperties`.
 */
export function keyPatternSource(pattern: string): string | undefined {
  const params = [...pattern.matchAll(/<([kKg])>/g)].map((m) => m[1]!);
  if (params.length === 0) return undefined;
  const source = pattern
    .split(/<[kKg]>/)
    .map(escapeRe)
    .reduce((acc, part, i) => acc + (i > 0 ? PLACEHOLDER[params[i - 1]!]! : '') + part, '');
  return `^${source}$`;
}

const exact = new Map<string, GlossaryEntry>();
const patterns: Compiled[] = [];
for (const entry of GLOSSARY) {
  const source = keyPatternSource(entry.pattern);
  if (source === undefined) {
    exact.set(entry.pattern, entry);
    continue;
  }
  const params = [...entry.pattern.matchAll(/<([kKg])>/g)].map((m) => m[1]!);
  patterns.push({ entry, re: new RegExp(source), params });
}

function fill(text: string, params: Readonly<Record<string, string>>): string {
  return text.replace(/<([kKg])>/g, (whole, p: string) => params[p] ?? whole);
}

/**
 * The entry of a metric key (or comparison-test field), placeholders filled in; undefined for a
 * key the glossary does not know (a column of someone else's table, say).
 * `family` narrows the lookup where the same word exists in two families (a comparison field).
 */
export function explainKey(key: string, family?: GlossaryFamily): ExplainedKey | undefined {
  const hit = exact.get(key);
  if (hit && (!family || hit.family === family)) return { ...hit, key, params: {} };
  for (const c of patterns) {
    if (family && c.entry.family !== family) continue;
    const m = c.re.exec(key);
    if (!m) continue;
    const params: Record<string, string> = {};
    c.params.forEach((p, i) => (params[p] = m[i + 1]!));
    const e = c.entry;
    return {
      ...e,
      key,
      params,
      name: fill(e.name, params),
      column: e.column === undefined ? undefined : fill(e.column, params),
      meaning: fill(e.meaning, params),
      formula: fill(e.formula, params),
      convention: fill(e.convention, params),
      notThis: fill(e.notThis, params),
    };
  }
  return undefined;
}

/** The human name of a key, or the key itself when the glossary does not know it. */
export function metricName(key: string): string {
  return explainKey(key)?.name ?? key;
}

/** The short column heading of a key ("Bal. acc."), else its name, else the key itself. */
export function metricColumn(key: string): string {
  const e = explainKey(key);
  return e?.column ?? e?.name ?? key;
}

/** The references of an entry, in its order. */
export function referencesOf(entry: GlossaryEntry): Reference[] {
  return entry.refs.map((id) => REFERENCES[id]);
}

/** "Geifman & El-Yaniv 2017; Geifman et al. 2019" */
export function citationsOf(entry: GlossaryEntry): string {
  return referencesOf(entry).map(citeShort).join('; ');
}

/** Hover text of a metric (a card, a chart): its meaning, formula and short citation; undefined when unknown. */
export function metricHover(key: string): string | undefined {
  const e = explainKey(key);
  return e ? `${e.meaning}\n${e.formula}\n${citationsOf(e)}` : undefined;
}

const DIRECTION_TEXT = {
  higher: 'higher is better',
  lower: 'lower is better',
  none: 'neither (a count, a spread or a test statistic)',
} as const;

/** The full entry as plain text, for `eval-lens explain KEY` and exported reports. */
export function formatExplanation(e: ExplainedKey): string {
  const lines = [
    `${e.name}  (${e.key})`,
    '',
    e.meaning,
    '',
    `Formula:      ${e.formula}`,
    `Convention:   ${e.convention}`,
    `Alternatives: ${e.notThis}`,
    `Better:       ${DIRECTION_TEXT[e.direction]}`,
    `Family:       ${GLOSSARY_FAMILIES[e.family].title}${e.pattern !== e.key ? ` (key pattern ${e.pattern})` : ''}`,
    '',
    'References:',
    ...referencesOf(e).map((r) => `  - ${formatReference(r)}`),
  ];
  return lines.join('\n') + '\n';
}

/** Every family with its key patterns and names, for `eval-lens explain` without a key. */
export function formatGlossaryIndex(): string {
  const out: string[] = [];
  for (const [family, info] of Object.entries(GLOSSARY_FAMILIES) as [
    GlossaryFamily,
    { title: string; summary: string },
  ][]) {
    const entries = GLOSSARY.filter((e) => e.family === family);
    out.push(`${info.title} — ${info.summary}`);
    const width = Math.max(...entries.map((e) => e.pattern.length));
    for (const e of entries) out.push(`  ${e.pattern.padEnd(width)}  ${e.name}`);
    out.push('');
  }
  out.push('<k> is a top-k, <K> a ranking cutoff, <g> a group name. `eval-lens explain KEY` prints one entry.');
  return out.join('\n') + '\n';
}
