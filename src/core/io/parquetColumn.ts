/**
 * One column chunk of a Parquet row group, page by page, with every size a page declares checked
 * before anything of that size is allocated (the decoding itself is hyparquet's):
 * - a page's compressed bytes lie inside its column chunk;
 * - its decompressed size, its number of values and its dictionary's number of values are taken
 *   from the file's budgets ({@link ParquetBudget}: so many per byte of the file);
 * - the run lengths of its RLE/bit-packed streams (repetition and definition levels, dictionary
 *   indices, booleans) add up to no more than the page's values (hyparquet would write a run of
 *   2³¹ values, whatever the page declares), and a DELTA_BINARY_PACKED header has the block shape
 *   the format requires (Apache Parquet format, Encodings.md: "Delta Encoding");
 * - a column of one value a row holds exactly the row group's number of rows (not fewer, not more).
 */
import type { DataPageHeader, DecodedArray, PageHeader, SchemaTree } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { readDataPage, readDataPageV2 } from 'hyparquet/src/datapage.js';
import { convert, convertWithDictionary } from 'hyparquet/src/convert.js';
import { assembleLists } from 'hyparquet/src/assemble.js';
import { readPlain } from 'hyparquet/src/plain.js';
import { getMaxDefinitionLevel, getMaxRepetitionLevel, isFlatColumn } from 'hyparquet/src/schema.js';
import { decompressPageBytes } from './parquetCodecs';

/** What hyparquet's decoders take about a column (its types module is not exported by name). */
export type ColumnDecoder = Parameters<typeof readDataPage>[2];
type DataPageHeaderV2 = NonNullable<PageHeader['data_page_header_v2']>;

/** A problem in the data of a column chunk, as text for the reader's message. */
export class ParquetDataError extends Error {}

/** What the pages of a file may still use: values decoded and bytes decompressed. */
export interface ParquetBudget {
  values: number;
  bytes: number;
  /** The bounds as text, for messages ("1,024 per byte of the file"). */
  readonly valuesLimit: string;
  readonly bytesLimit: string;
}

const bitWidth = (n: number): number => 32 - Math.clz32(n);

function varint(view: DataView, at: { p: number }, end: number): number {
  let result = 0;
  let shift = 0;
  for (;;) {
    if (at.p >= end) throw new ParquetDataError('an RLE run header runs past the end of its data');
    const b = view.getUint8(at.p++);
    result += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return result;
    shift += 7;
    if (shift > 35) throw new ParquetDataError('an RLE run header is too long');
  }
}

/**
 * Checks an RLE/bit-packed hybrid stream of `count` values of `width` bits in [p, end) without
 * decoding it: no RLE run longer than the values left.
 */
function scanHybrid(view: DataView, p: number, end: number, width: number, count: number, what: string): void {
  const at = { p };
  const valueBytes = (width + 7) >> 3;
  let seen = 0;
  while (seen < count) {
    const header = varint(view, at, end);
    if (header % 2 === 1) {
      const groups = Math.floor(header / 2);
      at.p += groups * width;
      seen += groups * 8;
    } else {
      const run = header / 2;
      if (run > count - seen)
        throw new ParquetDataError(`an RLE run of ${run} ${what} where ${count - seen} remain in the page`);
      at.p += valueBytes;
      seen += run;
    }
    if (at.p > end) throw new ParquetDataError(`the ${what} run past the end of the page`);
  }
}

/** A hybrid stream preceded by its length (4 bytes): returns the offset after it. */
function scanPrefixed(view: DataView, p: number, width: number, count: number, what: string): number {
  if (p + 4 > view.byteLength) throw new ParquetDataError(`the page ends before its ${what}`);
  const length = view.getUint32(p, true);
  const end = p + 4 + length;
  if (end > view.byteLength) throw new ParquetDataError(`the ${what} run past the end of the page`);
  if (count > 0) scanHybrid(view, p + 4, end, width, count, what);
  return end;
}

/** Checks the header of a DELTA_BINARY_PACKED stream at p (the block shape the format requires). */
function checkDeltaHeader(view: DataView, p: number): void {
  const at = { p };
  const blockSize = varint(view, at, view.byteLength);
  const miniblocks = varint(view, at, view.byteLength);
  if (blockSize === 0 || blockSize % 128 !== 0 || miniblocks === 0 || (blockSize / miniblocks) % 32 !== 0)
    throw new ParquetDataError(
      `a DELTA_BINARY_PACKED block of ${blockSize} values in ${miniblocks} miniblocks (expected a multiple of 128 values, in miniblocks of a multiple of 32)`,
    );
}

/** Checks the values part of a data page (from `p`): dictionary indices, booleans, delta headers. */
function scanValues(view: DataView, p: number, encoding: string, type: string, count: number, prefixed: boolean): void {
  if (count === 0) return;
  if (encoding === 'RLE' && type === 'BOOLEAN') {
    if (prefixed) scanPrefixed(view, p, 1, count, 'boolean values');
    else scanHybrid(view, p, view.byteLength, 1, count, 'boolean values');
  } else if (encoding === 'PLAIN_DICTIONARY' || encoding === 'RLE_DICTIONARY' || encoding === 'RLE') {
    if (p >= view.byteLength) throw new ParquetDataError('the page ends before its dictionary indices');
    const width = view.getUint8(p);
    if (width > 32) throw new ParquetDataError(`dictionary indices of ${width} bits (expected at most 32)`);
    if (width > 0) scanHybrid(view, p + 1, view.byteLength, width, count, 'dictionary indices');
  } else if (encoding.startsWith('DELTA_')) checkDeltaHeader(view, p);
}

function take(budget: ParquetBudget, values: number, bytes: number): void {
  budget.values -= values;
  budget.bytes -= bytes;
  if (budget.values < 0)
    throw new ParquetDataError(`its pages declare more values than the file's size allows (${budget.valuesLimit})`);
  if (budget.bytes < 0)
    throw new ParquetDataError(
      `its pages declare more decompressed bytes than the file's size allows (${budget.bytesLimit})`,
    );
}

const count = (n: unknown, what: string): number => {
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
    throw new ParquetDataError(`a page declares ${String(n)} as its ${what} (expected a count)`);
  return n;
};

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Plain values as cells: hyparquet's conversions, except a DECIMAL of scale 0 (an integer of up to
 * 38 digits), which hyparquet turns into a double — two labels beyond 2^53 would then merge —
 * and which is kept here as an exact bigint (becoming a number or its decimal text as an INT64
 * does, in the caller). A DECIMAL with a scale is a number, as hyparquet gives it.
 */
function decodedValues(data: DecodedArray, decoder: ColumnDecoder): DecodedArray {
  const e = decoder.element;
  const decimal = e.converted_type === 'DECIMAL' || e.logical_type?.type === 'DECIMAL';
  const scale = e.scale ?? (e.logical_type?.type === 'DECIMAL' ? e.logical_type.scale : 0) ?? 0;
  if (!decimal || scale !== 0) return convert(data, decoder);
  return Array.from(data as ArrayLike<unknown>, (v) =>
    v instanceof Uint8Array ? twosComplement(v) : BigInt(v as number | bigint),
  );
}

/** A big-endian two's-complement integer of any length. */
function twosComplement(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  const bits = BigInt(bytes.length * 8);
  return bytes.length > 0 && bytes[0]! >= 0x80 ? v - (1n << bits) : v;
}

/** A decoded page's values as rows (appended to the previous page's when a list continues). */
function rows(
  page: ReturnType<typeof readDataPage>,
  encoding: DataPageHeader['encoding'],
  decoder: ColumnDecoder,
  dictionary: DecodedArray | undefined,
  previous: DecodedArray | undefined,
): DecodedArray {
  const values =
    dictionary && encoding.endsWith('_DICTIONARY')
      ? convertWithDictionary(page.dataPage, dictionary, encoding, decoder)
      : decodedValues(page.dataPage, decoder);
  return assembleLists(
    Array.isArray(previous) ? previous : [],
    page.definitionLevels,
    page.repetitionLevels as number[],
    values,
    decoder.schemaPath,
  );
}

/** The `size` bytes of a page once decompressed, or an error when the codec gives another size. */
function decompressed(codec: ColumnDecoder['codec'], input: Uint8Array, size: number): Uint8Array {
  const page = decompressPageBytes(codec, input, size);
  if (page.length !== size)
    throw new ParquetDataError(`a page of ${page.length} bytes once decompressed declares ${size}`);
  return page;
}

/** A data page (v1): checked, then decoded. */
function dataPageV1(
  compressed: Uint8Array,
  header: PageHeader,
  daph: DataPageHeader,
  decoder: ColumnDecoder,
  dictionary: DecodedArray | undefined,
  previous: DecodedArray | undefined,
): DecodedArray {
  const n = daph.num_values;
  const page = decompressed(decoder.codec, compressed, header.uncompressed_page_size);
  const view = viewOf(page);
  let p = 0;
  const maxRep = getMaxRepetitionLevel(decoder.schemaPath);
  const maxDef = getMaxDefinitionLevel(decoder.schemaPath);
  if (decoder.schemaPath.length > 1 && maxRep > 0) p = scanPrefixed(view, p, bitWidth(maxRep), n, 'repetition levels');
  if (maxDef > 0) p = scanPrefixed(view, p, bitWidth(maxDef), n, 'definition levels');
  scanValues(view, p, daph.encoding, decoder.type, n, true);
  return rows(readDataPage(page, daph, decoder), daph.encoding, decoder, dictionary, previous);
}

/** A data page (v2): levels and values checked; the values decompressed here, then decoded. */
function dataPageV2(
  compressed: Uint8Array,
  header: PageHeader,
  d2: DataPageHeaderV2,
  decoder: ColumnDecoder,
  dictionary: DecodedArray | undefined,
  previous: DecodedArray | undefined,
): DecodedArray {
  const n = d2.num_values;
  const repBytes = count(d2.repetition_levels_byte_length, 'repetition level bytes');
  const defBytes = count(d2.definition_levels_byte_length, 'definition level bytes');
  const nulls = count(d2.num_nulls, 'number of nulls');
  if (repBytes + defBytes > compressed.length || nulls > n)
    throw new ParquetDataError('a page (v2) declares more level bytes or nulls than it has');
  const view = viewOf(compressed);
  const maxRep = getMaxRepetitionLevel(decoder.schemaPath);
  const maxDef = getMaxDefinitionLevel(decoder.schemaPath);
  if (maxRep > 0) scanHybrid(view, 0, repBytes, bitWidth(maxRep), n, 'repetition levels');
  if (maxDef > 0) scanHybrid(view, repBytes, repBytes + defBytes, bitWidth(maxDef), n, 'definition levels');
  const levels = repBytes + defBytes;
  let bytes = compressed;
  if (d2.is_compressed !== false) {
    const size = header.uncompressed_page_size - levels;
    if (size < 0) throw new ParquetDataError('a page (v2) declares fewer bytes than its levels');
    const values = decompressed(decoder.codec, compressed.subarray(levels), size);
    bytes = new Uint8Array(levels + size);
    bytes.set(compressed.subarray(0, levels));
    bytes.set(values, levels);
  }
  scanValues(viewOf(bytes), levels, d2.encoding, decoder.type, n - nulls, false);
  const plain: PageHeader = { ...header, data_page_header_v2: { ...d2, is_compressed: false } };
  return rows(readDataPageV2(bytes, plain, decoder), d2.encoding, decoder, dictionary, previous);
}

/**
 * Decodes the pages of one column chunk (`bytes`: the chunk, from its first page). Returns the
 * column's values, one a row (a list or struct cell for a nested column), in chunks.
 */
export function readColumnChunk(
  bytes: Uint8Array,
  decoder: ColumnDecoder,
  groupRows: number,
  budget: ParquetBudget,
): DecodedArray[] {
  const flat = isFlatColumn(decoder.schemaPath as SchemaTree[]);
  const view = viewOf(bytes);
  const reader = { view, offset: 0 };
  const chunks: DecodedArray[] = [];
  let dictionary: DecodedArray | undefined;
  let last: DecodedArray | undefined;
  let flatValues = 0;
  while (reader.offset < view.byteLength - 1) {
    const header = parquetHeader(reader);
    const size = count(header.compressed_page_size, 'compressed size');
    const unpacked = count(header.uncompressed_page_size, 'decompressed size');
    if (size > view.byteLength - reader.offset)
      throw new ParquetDataError(
        `a page of ${size} bytes at byte ${reader.offset} of its column chunk runs past the chunk's end (${view.byteLength} bytes)`,
      );
    const compressed = new Uint8Array(bytes.buffer, bytes.byteOffset + reader.offset, size);
    reader.offset += size;
    if (header.type === 'DICTIONARY_PAGE') {
      const n = count(header.dictionary_page_header?.num_values, 'dictionary size');
      if (n > unpacked * 8 + 8)
        throw new ParquetDataError(`a dictionary page of ${unpacked} bytes declares ${n} values`);
      take(budget, n, unpacked);
      const page = decompressed(decoder.codec, compressed, unpacked);
      const plain = readPlain({ view: viewOf(page), offset: 0 }, decoder.type, n, decoder.element.type_length);
      dictionary = decodedValues(plain, decoder);
      continue;
    }
    let result: DecodedArray;
    const before = last?.length ?? 0;
    if (header.type === 'DATA_PAGE' && header.data_page_header) {
      const n = count(header.data_page_header.num_values, 'number of values');
      take(budget, n, unpacked);
      if (flat && n > groupRows - flatValues)
        throw new ParquetDataError(`its pages hold more values than the row group's ${groupRows} rows`);
      result = dataPageV1(compressed, header, header.data_page_header, decoder, dictionary, last);
    } else if (header.type === 'DATA_PAGE_V2' && header.data_page_header_v2) {
      const n = count(header.data_page_header_v2.num_values, 'number of values');
      take(budget, n, unpacked);
      if (flat && n > groupRows - flatValues)
        throw new ParquetDataError(`its pages hold more values than the row group's ${groupRows} rows`);
      result = dataPageV2(compressed, header, header.data_page_header_v2, decoder, dictionary, last);
    } else throw new ParquetDataError(`a page of type ${String(header.type)} (expected data or dictionary pages)`);
    if (result === last) flatValues += result.length - before;
    else if (result.length > 0) {
      chunks.push(result);
      flatValues += result.length;
      last = result;
    }
  }
  return chunks;
}
