/**
 * Text for a cell of a Markdown table (GitHub Flavored Markdown): nothing in it can end the cell,
 * start emphasis, a link, code or raw HTML. Backslash-escapes the punctuation that has a meaning
 * inside a line — `\ | * _ ` ~`, and a `]` before `(` or `[` so that no link can form
 * (CommonMark 0.31, "Backslash escapes": https://spec.commonmark.org/0.31.2/#backslash-escapes;
 * `#`, `+` and `!` only act at a line start or before a link),
 * writes a `<` that could open a tag as `&lt;` (no raw HTML), and joins lines with a space (a table row is one line).
 *
 * @example escapeMarkdownCell('a|b *c* <script>') === 'a\\|b \\*c\\* &lt;script>'
 */
export function escapeMarkdownCell(s: string): string {
  return s
    .replace(/[\\`*_|~]/g, (c) => `\\${c}`)
    .replace(/\](?=[([])/g, '\\]')
    .replace(/<(?=[A-Za-z/!?])/g, '&lt;')
    .replace(/\r\n|\r|\n/g, ' ');
}
