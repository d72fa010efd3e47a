/**
 * The item metadata table of the `items` config key: one row per item, `item,<any columns>`
 * (name, category, brand…), as CSV/TSV with a header, as JSONL (`{"item": …, "name": …}`) or as
 * Parquet (the same column rules as the CSV header; rows are located by data row). The columns are
 * shown beside each item id when a user's recommendations are inspected; they never enter a metric.
 * Every value is kept as text, exactly as written (a Parquet number as its shortest decimal text).
 */
import { extname } from 'node:path';
import { fail, type Location, type Warnings } from '../../diagnostics';
import { parquetColumnNames, readParquet, readParquetMetadata } from '../parquet';
import type { Cell } from '../table';
import { ITEM_ALIASES } from './idTable';
import { isParquetPath } from './idTableParquet';
import { delimiterOf, forEachLine, splitDelimited } from './lines';

export interface ItemMetadata {
  /** The file as named in the config (used in messages). */
  file: string;
  /** Metadata columns, in file order (without the item column). */
  columns: string[];
  /** Item id → column → value (absent columns are left out). */
  byItem: Map<string, Record<string, string>>;
}

/** Reads an item metadata table; an error names the file, the line and what was expected. */
export async function loadItemMetadata(path: string, label: string): Promise<ItemMetadata> {
  const ext = extname(path).toLowerCase();
  if (ext === '.jsonl' || ext === '.ndjson') return readJsonl(path, label);
  if (ext === '.csv' || ext === '.tsv' || ext === '.txt')
    return readDelimited(path, label, ext === '.tsv' ? '\t' : null);
  if (isParquetPath(path)) return readParquetItems(path, label);
  return fail(
    'items-format',
    { file: label },
    `expected an item metadata table as .csv, .tsv, .jsonl or .parquet, got "${ext || 'no extension'}".`,
  );
}

function addItem(
  out: ItemMetadata,
  firstLine: Map<string, number>,
  id: string,
  meta: Record<string, string>,
  line: number,
): void {
  const seen = firstLine.get(id);
  // A Parquet row is at `line` = data row + 1 (see readParquet); its message names the data row.
  const first = isParquetPath(out.file) ? `row ${seen === undefined ? 0 : seen - 1}` : `line ${seen}`;
  if (seen !== undefined)
    fail(
      'items-duplicate',
      { file: out.file, line },
      `expected each item once, got item "${id}" again (first at ${first}).`,
    );
  firstLine.set(id, line);
  out.byItem.set(id, meta);
}

/**
 * The header rules of every item table: one item id column (by alias, case-insensitive); the other
 * columns named and distinct. Returns the index of the item column.
 */
function itemHeader(header: string[], loc: Location): number {
  const lower = header.map((h) => h.toLowerCase());
  const itemCol = lower.findIndex((h) => ITEM_ALIASES.includes(h));
  if (itemCol < 0)
    fail(
      'items-header',
      loc,
      `expected an item id column (${ITEM_ALIASES.join(', ')}), got the columns ${header.map((h) => JSON.stringify(h)).join(', ')}.`,
    );
  const names = new Set<string>();
  header.forEach((h, j) => {
    if (j === itemCol) return;
    if (h === '') fail('items-header', loc, `expected a name for column ${j + 1}, got an empty header cell.`);
    if (names.has(h)) fail('items-header', loc, `expected distinct column names, got "${h}" twice.`);
    names.add(h);
  });
  return itemCol;
}

async function readDelimited(path: string, label: string, delim: string | null): Promise<ItemMetadata> {
  let header: string[] | null = null;
  let itemCol = -1;
  let d = delim ?? ',';
  const out: ItemMetadata = { file: label, columns: [], byItem: new Map() };
  const firstLine = new Map<string, number>();
  await forEachLine(path, (line, lineNo) => {
    if (header === null) {
      if (line.trim() === '')
        fail(
          'items-header',
          { file: label, line: lineNo },
          'expected a header line (item,<columns>…), got an empty line.',
        );
      d = delim ?? delimiterOf(line);
      header = splitDelimited(line, d, label, lineNo);
      itemCol = itemHeader(header, { file: label, line: lineNo });
      out.columns = header.filter((_, j) => j !== itemCol);
      return;
    }
    if (line.trim() === '') return;
    const cells = splitDelimited(line, d, label, lineNo);
    const h = header;
    if (cells.length !== h.length)
      fail(
        'items-row',
        { file: label, line: lineNo },
        `expected ${h.length} cells (${h.join(d === '\t' ? ', ' : d)}), got ${cells.length}.`,
      );
    const id = cells[itemCol]!;
    if (id === '')
      fail(
        'items-row',
        { file: label, line: lineNo },
        `expected an item id in column "${h[itemCol]}", got an empty cell.`,
      );
    const meta: Record<string, string> = {};
    cells.forEach((c, j) => {
      if (j !== itemCol && c !== '') meta[h[j]!] = c;
    });
    addItem(out, firstLine, id, meta, lineNo);
  });
  if (header === null)
    fail('items-header', { file: label, line: 1 }, 'expected a header line (item,<columns>…), got an empty file.');
  return out;
}

/** A Parquet cell as metadata text: null and '' are absent (as an empty CSV cell); lists and structs are refused. */
function parquetText(cell: Cell, column: string, loc: Location): string | null {
  if (cell === null || cell === '') return null;
  if (typeof cell === 'object')
    fail(
      'items-row',
      { ...loc, column },
      `expected text, a number or a boolean, got ${Array.isArray(cell) ? 'a list' : 'a struct'}.`,
    );
  return String(cell);
}

async function readParquetItems(path: string, label: string): Promise<ItemMetadata> {
  const out: ItemMetadata = { file: label, columns: [], byItem: new Map() };
  const firstLine = new Map<string, number>();
  let header: string[] = [];
  let itemCol = -1;
  const setHeader = (names: string[]): void => {
    header = names;
    itemCol = itemHeader(names, { file: label });
    out.columns = names.filter((_, j) => j !== itemCol);
  };
  // A table with columns and no rows is an empty item table, as a CSV header without rows is
  // (the shared Parquet reader refuses it, as a prediction file without rows is refused).
  const metadata = await readParquetMetadata(path);
  if (Number(metadata.num_rows) === 0) {
    setHeader(parquetColumnNames(metadata));
    return out;
  }
  await readParquet(path, {
    columns: setHeader,
    row(cells: Cell[], line: number): void {
      const loc = { file: label, line };
      const id = parquetText(cells[itemCol]!, header[itemCol]!, loc);
      if (id === null) fail('items-row', loc, `expected an item id in column "${header[itemCol]}", got an empty cell.`);
      const meta: Record<string, string> = {};
      cells.forEach((c, j) => {
        if (j === itemCol) return;
        const v = parquetText(c, header[j]!, loc);
        if (v !== null) meta[header[j]!] = v;
      });
      addItem(out, firstLine, id, meta, line);
    },
  });
  return out;
}

async function readJsonl(path: string, label: string): Promise<ItemMetadata> {
  const out: ItemMetadata = { file: label, columns: [], byItem: new Map() };
  const firstLine = new Map<string, number>();
  const columns = new Set<string>();
  await forEachLine(path, (line, lineNo) => {
    if (line.trim() === '') return;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch (err) {
      fail(
        'items-row',
        { file: label, line: lineNo },
        `expected one JSON object per line, got invalid JSON (${(err as Error).message}).`,
      );
    }
    if (row === null || typeof row !== 'object' || Array.isArray(row))
      fail(
        'items-row',
        { file: label, line: lineNo },
        `expected a JSON object, got ${Array.isArray(row) ? 'an array' : JSON.stringify(row)}.`,
      );
    const obj = row as Record<string, unknown>;
    const key = Object.keys(obj).find((k) => ITEM_ALIASES.includes(k.toLowerCase()));
    if (key === undefined)
      fail(
        'items-row',
        { file: label, line: lineNo },
        `expected an item id key (${ITEM_ALIASES.join(', ')}), got the keys ${
          Object.keys(obj)
            .map((k) => JSON.stringify(k))
            .join(', ') || 'none'
        }.`,
      );
    const idv = obj[key];
    if (!((typeof idv === 'string' && idv !== '') || (typeof idv === 'number' && Number.isFinite(idv))))
      fail(
        'items-row',
        { file: label, line: lineNo },
        `expected "${key}" to be a non-empty string or a number, got ${JSON.stringify(idv)}.`,
      );
    const meta: Record<string, string> = {};
    for (const [k, v] of Object.entries(obj)) {
      if (k === key || v === null) continue;
      if (typeof v === 'object')
        fail(
          'items-row',
          { file: label, line: lineNo },
          `expected "${k}" to be text, a number or a boolean, got ${Array.isArray(v) ? 'an array' : 'an object'}.`,
        );
      meta[k] = String(v);
      columns.add(k);
    }
    addItem(out, firstLine, String(idv), meta, lineNo);
  });
  out.columns = [...columns];
  return out;
}

/**
 * A warning when items of the run or the ground truth have no row in the metadata table (they are
 * shown without metadata): the count and the first few ids.
 */
export function warnItemsWithoutMetadata(meta: ItemMetadata, itemIds: readonly string[], warnings: Warnings): number {
  const missing: string[] = [];
  let count = 0;
  for (const id of itemIds) {
    if (meta.byItem.has(id)) continue;
    count++;
    if (missing.length < 5) missing.push(id);
  }
  if (count > 0) {
    warnings.note(
      'items-without-metadata',
      `${meta.file}: ${count} of the ${itemIds.length} items in the run and ground truth have no row in the item table (first: ${missing.map((m) => JSON.stringify(m)).join(', ')}); they are shown without metadata.`,
      { file: meta.file, count },
    );
  }
  return count;
}
