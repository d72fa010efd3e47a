/**
 * One CSV cell, safe to open in a spreadsheet: the one place every CSV writer of the project
 * (CLI, exports, copy buttons) escapes a cell.
 *
 * - Formula injection: a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return and
 *   is not a number gets a leading single quote, so Excel, LibreOffice and Google Sheets show it
 *   as text instead of evaluating it (OWASP, "CSV Injection",
 *   https://owasp.org/www-community/attacks/CSV_Injection). Numbers such as `-0.5` or `-1e-3`
 *   stay as they are, so negative values remain numbers.
 * - RFC 4180 (https://www.rfc-editor.org/rfc/rfc4180): a cell with a comma, a double quote, CR or
 *   LF is enclosed in double quotes, inner quotes doubled.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$|^[+-]?Infinity$/;

/** The text with a leading `'` when a spreadsheet would read it as a formula. */
export function neutraliseFormula(s: string): string {
  return FORMULA_START.test(s) && !NUMBER.test(s) ? `'${s}` : s;
}

/**
 * A CSV cell: formula-neutralised, then quoted when needed.
 *
 * @example csvCell('=HYPERLINK("x")') === `"'=HYPERLINK(""x"")"`; csvCell('-0.5') === '-0.5'
 */
export function csvCell(s: string): string {
  const t = neutraliseFormula(s);
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

/** One CSV line (no line end). */
export function csvLine(cells: readonly string[]): string {
  return cells.map(csvCell).join(',');
}
