/**
 * One CSV cell (RFC 4180) that is also safe to open in a spreadsheet. A cell from a user's file
 * may start with `=`, `+`, `-`, `@`, a tab or a carriage return, which spreadsheet programs read as
 * a formula ("CSV injection", OWASP: https://owasp.org/www-community/attacks/CSV_Injection); such a
 * cell gets a leading single quote unless it is a number (`-0.5` stays a number). Then a cell with
 * a comma, a quote or a line break is quoted, with quotes doubled.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(s: string): string {
  let t = s;
  if (FORMULA_START.test(t) && !isNumberText(t)) t = `'${t}`;
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

/** A plain decimal number as written (`-1`, `+2.5`, `-1e-3`, `-Infinity` is not one). */
function isNumberText(s: string): boolean {
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s);
}

/** A CSV line of cells. */
export function csvLine(cells: readonly string[]): string {
  return cells.map(csvCell).join(',');
}
