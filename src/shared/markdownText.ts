/**
 * Text from a file made literal in Markdown (GitHub Flavored Markdown, CommonMark). Every ASCII
 * punctuation character may be backslash-escaped in CommonMark ("Backslash escapes", https://spec.commonmark.org/0.31.2/#backslash-escapes), so the
 * characters that start HTML, links, code spans, emphasis or a table cell (`\ ` * _ [ ] < > | &`)
 * are escaped, and line breaks become spaces so that a cell stays one table row.
 */
export function escapeMarkdown(s: string): string {
  return s.replace(/[\\`*_[\]<>|&]/g, (c) => `\\${c}`).replace(/\r\n?|\n/g, ' ');
}
