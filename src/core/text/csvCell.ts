/**
 * One CSV cell, safe to open in a spreadsheet. Every CSV the project writes goes through here.
 *
 * Text that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is run as a formula by
 * Excel, LibreOffice and Google Sheets; such a cell gets a leading single quote, which spreadsheets
 * show as text (OWASP, "CSV Injection", https://owasp.org/www-community/attacks/CSV_Injection).
 * A cell that is a number (`-0.5`, `1e-7`, `-Infinity`) is left as it is, so numeric columns stay
 * numeric. Then RFC 4180 quoting (Shafranovich, "Common Format and MIME Type for Comma-Separated
 * Values (CSV) Files", 2005, https://www.rfc-editor.org/rfc/rfc4180).
 */

const NUMBER = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|Infinity|NaN)$/;
const FORMULA_START = /^[=+\-@\t\r]/;

/** The text with a leading `'` when a spreadsheet would read it as a formula; numbers unchanged. */
export function neutraliseFormula(s: string): string {
  return FORMULA_START.test(s) && !NUMBER.test(s) ? `'${s}` : s;
}

/** A neutralised cell, quoted when it holds a comma, a double quote or a line break. */
export function csvCell(s: string): string {
  const t = neutraliseFormula(s);
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

/** One CSV line (no line end). */
export function csvLine(cells: readonly string[]): string {
  return cells.map(csvCell).join(',');
}
