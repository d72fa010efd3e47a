/**
 * Where a named column's cell sits in a line of a CSV/TSV or JSON Lines file, as character
 * offsets, so a Problems entry can start at the bad cell rather than at the start of the row.
 */

/** Start and end offsets of each field of a delimited line (quotes respected, `""` inside quotes). */
export function fieldSpans(line: string, delimiter: string): [number, number][] {
  const spans: [number, number][] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i <= line.length; i++) {
    const ch = line[i];
    if (ch === '"') {
      if (quoted && line[i + 1] === '"') i++;
      else quoted = !quoted;
      continue;
    }
    if (i === line.length || (!quoted && ch === delimiter)) {
      spans.push([start, i]);
      start = i + 1;
    }
  }
  return spans;
}

function unquote(s: string): string {
  const t = s.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).replace(/""/g, '"') : t;
}

/**
 * The span of `column`'s cell in `line`: for `.csv`/`.tsv` by its position in `header`; for
 * `.jsonl`/`.json` the span of the `"column": value` member. Undefined when it cannot be found.
 */
export function cellSpan(
  fileName: string,
  header: string | undefined,
  line: string,
  column: string,
): [number, number] | undefined {
  const ext = fileName.toLowerCase().split('.').pop();
  if (ext === 'csv' || ext === 'tsv' || ext === 'txt') {
    if (header === undefined) return undefined;
    const delim = ext === 'tsv' ? '\t' : ',';
    const names = fieldSpans(header, delim).map(([a, b]) => unquote(header.slice(a, b)));
    const j = names.findIndex((n) => n === column);
    const span = j >= 0 ? fieldSpans(line, delim)[j] : undefined;
    return span && span[1] >= span[0] ? span : undefined;
  }
  const key = JSON.stringify(column);
  const at = line.indexOf(`${key}`);
  if (at < 0) return undefined;
  // To the end of the value: the next top-level comma or closing brace after the colon.
  let depth = 0;
  let quoted = false;
  let i = line.indexOf(':', at + key.length) + 1;
  if (i <= 0) return [at, at + key.length];
  for (; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '\\') i++;
      else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === '[' || ch === '{') depth++;
    else if ((ch === ']' || ch === '}') && depth > 0) depth--;
    else if ((ch === ',' || ch === '}') && depth === 0) break;
  }
  return [at, i];
}
