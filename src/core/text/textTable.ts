/**
 * Tables as text: aligned columns for the terminal, and Markdown tables under a heading. The CLI's
 * tables of the results (folds, group analysis, operating points) and its slice listing use these,
 * so that they line up and read the same way.
 */
import { escapeMarkdown } from './markdownText';

/**
 * The rows of a terminal table as lines: each column as wide as its widest cell, columns two spaces
 * apart, the first `leftAligned` columns padded on the right (text) and the others on the left
 * (numbers), trailing spaces trimmed.
 *
 * @example alignColumns([['a', 'n'], ['bb', '10']]) = ['a    n', 'bb  10']
 */
export function alignColumns(rows: readonly (readonly string[])[], leftAligned = 1): string[] {
  const width: number[] = [];
  for (const r of rows) r.forEach((c, j) => (width[j] = Math.max(width[j] ?? 0, c.length)));
  return rows.map((r) =>
    r
      .map((c, j) => (j < leftAligned ? c.padEnd(width[j]!) : c.padStart(width[j]!)))
      .join('  ')
      .trimEnd(),
  );
}

/** A table with a title, as {@link titledTextTable} and {@link titledMarkdownTable} write it. */
export interface TitledTable {
  title: string;
  head: readonly string[];
  body: readonly (readonly string[])[];
  /** How many columns, from the first, are text (left-aligned); the others are numbers. Default 1. */
  leftAligned?: number;
}

/**
 * A results table for the terminal: a blank line, the title, then the heading row and the body
 * rows indented by two spaces ({@link alignColumns}).
 */
export function titledTextTable({ title, head, body, leftAligned = 1 }: TitledTable): string {
  const lines = alignColumns([head, ...body], leftAligned).map((l) => `  ${l}`);
  return `\n${title}\n${lines.join('\n')}\n`;
}

/**
 * A Markdown table under a `###` heading (the title escaped here; the cells as given, escaped by
 * the caller where they hold text from a file), the first `leftAligned` columns left-aligned and
 * the others right-aligned; a blank line before the heading and after it.
 */
export function titledMarkdownTable({ title, head, body, leftAligned = 1 }: TitledTable): string {
  const out = [
    '',
    `### ${escapeMarkdown(title)}`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map((_, j) => (j < leftAligned ? '---|' : '---:|')).join('')}`,
    ...body.map((r) => `| ${r.join(' | ')} |`),
  ];
  return out.join('\n') + '\n';
}
