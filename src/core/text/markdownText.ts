import { escapeControl } from '../diagnostics';

/**
 * Text from a file made literal in Markdown (GitHub Flavored Markdown, CommonMark). Every ASCII
 * punctuation character may be backslash-escaped in CommonMark ("Backslash escapes", https://spec.commonmark.org/0.31.2/#backslash-escapes), so the
 * characters that start HTML, links, code spans, emphasis, strikethrough or a table cell
 * (`\ ` * _ ~ [ ] < > | &`) are escaped, line breaks become spaces so that a cell stays one table
 * row, and other control characters (ESC, …) become `\u00XX`, as in messages.
 */
export function escapeMarkdown(s: string): string {
  return escapeControl(s.replace(/[\\`*_~[\]<>|&]/g, (c) => `\\${c}`).replace(/\r\n?|\n/g, ' '));
}
