/**
 * Whether a `.json` file holds prediction rows — a JSON array of row objects, or an object of
 * column arrays (the two shapes the loader reads) — judged from its first bytes, so menus can
 * offer Evaluate on `preds.json` but not on another tool's `metrics.json`, a config or a
 * `train_counts.json`. A guess from the head: the loader still validates the whole file.
 */

/** How many characters of the head are enough to judge. */
export const SNIFF_CHARS = 64 * 1024;

/** True when `head` (the file's first characters) starts like rows: `[{…` or `{"col": [`. */
export function looksLikeRows(head: string): boolean {
  const s = head.replace(/^\uFEFF/, '').trimStart();
  if (s.startsWith('[')) return /^\[\s*\{/.test(s);
  if (!s.startsWith('{')) return false;
  // An object of columns: every value is an array. Scan the top-level values in the head.
  let depth = 0;
  let inString = false;
  let escaped = false;
  let expectValue = false;
  let values = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      if (depth === 1 && expectValue) return false; // a string value: not a column
      inString = true;
      continue;
    }
    if (depth === 1 && expectValue && !/\s/.test(ch)) {
      if (ch !== '[') return false; // a number, object, true/false/null: not a column
      values++;
      expectValue = false;
    }
    if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return values > 0;
    } else if (ch === ':' && depth === 1) expectValue = true;
  }
  return values > 0;
}

/** The context key listing the `.json` files that hold rows (menus: `resourcePath in evalLens.rowsJsonFiles`). */
export const ROWS_JSON_KEY = 'evalLens.rowsJsonFiles';
