/**
 * ASCII byte values the readers compare raw buffer bytes against, named once so a scanner reads as
 * `c === QUOTE` rather than `c === 34`. Plain constants: esbuild and V8 inline them.
 */

/** Line feed, `\n`. */
export const LF = 10;
/** Carriage return, `\r` (the first byte of a CRLF line end). */
export const CR = 13;
/** Horizontal tab, `\t` (the TSV delimiter; whitespace around a CSV number). */
export const TAB = 9;
/** Space. */
export const SPACE = 32;
/** Double quote, `"` (RFC 4180 field quoting; JSON strings). */
export const QUOTE = 34;
/** Comma, `,` (the CSV delimiter; the JSON member separator). */
export const COMMA = 44;
