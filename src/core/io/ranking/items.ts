/**
 * The item metadata table of the `items` config key: one row per item, `item,<any columns>`
 * (name, category, brand…), as CSV/TSV with a header, as JSONL (`{"item": …, "name": …}`) or as
 * Parquet (the same column rules as the CSV header; rows are located by data row). The columns are
 * shown beside each item id when a user's recommendations are inspected; they enter no metric,
 * except the one numeric column that `itemPopularity` names: then that column is read as each
 * item's popularity (a finite number ≥ 0; an empty cell is no value), checked row by row.
 * Every value is kept as text, exactly as written (a Parquet number as its shortest decimal text).
 */
import { extname } from 'node:path';
import { fail, type Location, type Warnings } from '../../diagnostics';
import { parquetColumnNames, readParquet, readParquetMetadata } from '../parquet';
import type { ItemPopularity } from '../../data/rankingData';
import type { Cell } from '../../data/textColumn';
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
  /** The column read as numbers (`itemPopularity`), when one was asked for. */
  numericColumn?: string;
  /** Item id → the value of {@link numericColumn}, in file order (items with an empty cell left out). */
  numeric?: Map<string, number>;
}

/** A decimal number as written in a table cell (no hex, no Infinity, no NaN). */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Reads an item metadata table; an error names the file, the line and what was expected. With
 * `numericColumn` (the `itemPopularity` key), that column must exist and each non-empty cell of it
 * must be a finite decimal number ≥ 0; the values are returned in `numeric`.
 */
export async function loadItemMetadata(path: string, label: string, numericColumn?: string): Promise<ItemMetadata> {
  const out = await readItems(path, label, numericColumn);
  if (numericColumn !== undefined && !out.columns.includes(numericColumn))
    fail(
      'items-popularity-column',
      { file: label, ...(isDelimited(path) ? { line: 1 } : {}) },
      `expected a column "${numericColumn}" (named by \`itemPopularity\`), got ${
        out.columns.length > 0
          ? `the columns ${out.columns.map((c) => JSON.stringify(c)).join(', ')}`
          : 'no column besides the item id'
      }.`,
    );
  return out;
}

function isDelimited(path: string): boolean {
  return ['.csv', '.tsv', '.txt'].includes(extname(path).toLowerCase());
}

function readItems(path: string, label: string, numericColumn: string | undefined): Promise<ItemMetadata> {
  const ext = extname(path).toLowerCase();
  const start = (): ItemMetadata => ({
    file: label,
    columns: [],
    byItem: new Map(),
    ...(numericColumn !== undefined ? { numericColumn, numeric: new Map<string, number>() } : {}),
  });
  if (ext === '.jsonl' || ext === '.ndjson') return readJsonl(path, start());
  if (isDelimited(path)) return readDelimited(path, start(), ext === '.tsv' ? '\t' : null);
  if (isParquetPath(path)) return readParquetItems(path, start());
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
  const col = out.numericColumn;
  const text = col === undefined ? undefined : meta[col];
  if (col !== undefined && text !== undefined)
    out.numeric!.set(id, popularityValue(text, col, { file: out.file, line }));
}

/** A cell of the `itemPopularity` column as a number: a finite decimal ≥ 0, else an error naming the cell. */
export function popularityValue(text: string, column: string, loc: Location): number {
  const t = text.trim();
  const v = DECIMAL.test(t) ? Number(t) : NaN;
  if (!Number.isFinite(v))
    fail(
      'items-popularity-value',
      { ...loc, column },
      `expected a number ≥ 0 (the item's popularity, \`itemPopularity\`), got ${JSON.stringify(text)}.`,
    );
  if (v < 0)
    fail(
      'items-popularity-value',
      { ...loc, column },
      `expected a popularity ≥ 0 (\`itemPopularity\`), got a negative number ${text}.`,
    );
  return v;
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

async function readDelimited(path: string, out: ItemMetadata, delim: string | null): Promise<ItemMetadata> {
  const label = out.file;
  let header: string[] | null = null;
  let itemCol = -1;
  let d = delim ?? ',';
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

async function readParquetItems(path: string, out: ItemMetadata): Promise<ItemMetadata> {
  const label = out.file;
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

async function readJsonl(path: string, out: ItemMetadata): Promise<ItemMetadata> {
  const label = out.file;
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
 * The `itemPopularity` column by item index of the evaluation (0 where an item has no value), and
 * its total over every row of the table, summed in file order.
 */
export function popularityOfItems(meta: ItemMetadata, itemIds: readonly string[]): ItemPopularity {
  const numeric = meta.numeric ?? new Map<string, number>();
  const values = new Float64Array(itemIds.length);
  for (let i = 0; i < itemIds.length; i++) values[i] = numeric.get(itemIds[i]!) ?? 0;
  let total = 0;
  for (const v of numeric.values()) total += v;
  return { file: meta.file, column: meta.numericColumn ?? '', values, total };
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
