/**
 * The glossary as Markdown, for the docs pages: one table of keys, names, directions and short
 * citations per page, then the full references. `scripts/glossary-docs.mjs` writes it between
 * the `glossary:start` / `glossary:end` markers of each page; a unit test fails when a page's
 * section differs from what the glossary gives (so the docs cannot drift from it).
 */
import { GLOSSARY } from './entries';
import { REFERENCES, citeShort, formatReference, type ReferenceId } from './references';
import type { GlossaryFamily } from './types';

/** Which docs page lists which families (paths relative to the project root). */
export const GLOSSARY_PAGES: Readonly<Record<string, readonly GlossaryFamily[]>> = {
  'docs/metrics/classification.md': ['classification', 'longtail', 'evolving'],
  'docs/metrics/selective.md': ['selective', 'calibration'],
  'docs/metrics/importance.md': ['importance'],
  'docs/metrics/ranking.md': ['ranking'],
  'docs/comparisons.md': ['comparison'],
};

export const GLOSSARY_START =
  '<!-- glossary:start — generated from src/core/glossary by `node --import tsx scripts/glossary-docs.mjs`; edit the glossary, not this section -->';
export const GLOSSARY_END = '<!-- glossary:end -->';

const ARROW = { higher: '↑', lower: '↓', none: '–' } as const;

/** A table cell: pipes escaped, and `<g>`-style placeholders kept visible (not read as HTML tags). */
function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The generated section (markers included) for the given families. */
export function glossaryMarkdown(families: readonly GlossaryFamily[]): string {
  const entries = GLOSSARY.filter((e) => families.includes(e.family));
  const refs: ReferenceId[] = [];
  for (const e of entries) for (const r of e.refs) if (!refs.includes(r)) refs.push(r);
  // the fields of a paired test are never columns of a run table: no heading column for them
  const columns = entries.some((e) => e.column !== undefined);
  const out = [
    GLOSSARY_START,
    '## Names and references',
    '',
    `The name each key has in the report, ${columns ? 'the short heading of its column in the LaTeX tables, ' : ''}which way is better (↑ higher, ↓ lower, – neither), and where the definition was published. \`eval-lens explain KEY\` prints the full entry: meaning, formula, convention and the alternatives it is not.`,
    '',
    columns ? '| Key | Name | Column | Better | References |' : '| Key | Name | Better | References |',
    columns ? '|---|---|---|:-:|---|' : '|---|---|:-:|---|',
    ...entries.map(
      (e) =>
        `| \`${e.pattern}\` | ${cell(e.name)} | ${columns ? `${cell(e.column ?? e.name)} | ` : ''}${ARROW[e.direction]} | ${cell(e.refs.map((r) => citeShort(REFERENCES[r])).join('; '))} |`,
    ),
    '',
    '### References',
    '',
    ...refs.map((r) => `- ${formatReference(REFERENCES[r])}`),
    GLOSSARY_END,
  ];
  return out.join('\n');
}

/** `page` with its generated section replaced (or appended when the page has none yet). */
export function withGlossarySection(page: string, families: readonly GlossaryFamily[]): string {
  const section = glossaryMarkdown(families);
  const start = page.indexOf('<!-- glossary:start');
  const end = page.indexOf(GLOSSARY_END);
  if (start >= 0 && end > start) return page.slice(0, start) + section + page.slice(end + GLOSSARY_END.length);
  return `${page.replace(/\s*$/, '')}\n\n${section}\n`;
}
