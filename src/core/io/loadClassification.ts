/**
 * Reads a classification prediction file into {@link ClassificationData}, applying the input
 * rules of docs/inputs.md:
 *
 * - **Class set**: config `classes` in that order; else the suffixes of the wide class-score columns
 *   in column order; else the sorted union of labels and predictions (numeric order when every value
 *   is an integer — `1` and `1.0` are then the same class, named `1` — else code-unit string order).
 *   With an array column (`probs`/`logits`/`scores`) and no `classes`, entry c of the array is class
 *   `c` when the labels and predictions are integers in 0…L−1; else the sorted union when it has
 *   exactly L values; else an error asking for `classes`.
 *   With config `classes` and wide columns, the columns are matched to classes by suffix; when the
 *   suffixes are not class names but there are as many columns as classes, by position (warning).
 * - **Labels/predictions** are compared as text (trimmed; JSON numbers as written by `String`); a
 *   value not found that reads as a number is looked up again by its canonical form (`1.0` → `1`).
 * - **Prediction**: a `pred` column wins; else the arg-max of the class scores, first maximum on ties.
 * - **Scores**: logits become probabilities by a stable softmax; probabilities are used as written;
 *   rows whose sum is off by more than 1e-3 give one warning (count and first lines).
 * - **Invalid values** (non-numeric, NaN, ±Inf class scores/score/weight; a negative weight; an
 *   accept value other than 0/1 (1.0/0.0) or true/false; a label or prediction outside the class set; a missing
 *   label; a ragged row): an error naming file, line and column, unless `invalidRows: "skip"`, which
 *   drops the rows and lists them in one warning (`rows-skipped`, count + first lines).
 * - **Duplicate ids**: one warning (`duplicate-ids`, count + first lines).
 *
 * Speed: numbers go straight into typed arrays sized from the file size; CSV/TSV lines without
 * quotes are parsed from the bytes (no per-cell strings for numeric cells); quoted lines and
 * JSON/JSONL go through the generic {@link readTable} rows. Both paths share the cell rules.
 *
 * The parts, each in its own module: the column plan (classificationColumns.ts), the class set
 * (classSet.ts), the byte scanner (quoteFreeRows.ts), the cell rules and the checks after reading
 * (classificationChecks.ts), the invalid-row bookkeeping (rowProblems.ts); this module stores the
 * rows (classificationCollector.ts).
 */
import { open, stat } from 'node:fs/promises';
import type { Progress, Warnings } from '../diagnostics';
import type { ResolvedConfig } from '../config/types';
import type { ClassificationData } from '../data/classificationData';
import type { TextColumn } from '../data/textColumn';
import { LF } from './bytes';
import { ClassificationCollector } from './classificationCollector';
import type { LoadClassificationOptions } from './classificationColumns';
import { detectFormat, type TableFormat } from './format';
import { readClassificationInParallel, type ParallelReadOptions } from './parallelClassification';
import { cannotOpen, readTable } from './table';

export type { LoadClassificationOptions } from './classificationColumns';
export { MAX_CLASSES } from './classSet';
export { PROB_RANGE_TOLERANCE, PROB_SUM_TOLERANCE } from './classificationChecks';

export interface LoadedClassification {
  data: ClassificationData;
  /** Role → column name(s) used. */
  columns: Record<string, string | string[]>;
  format: TableFormat;
  /** Data rows read (before skipping). */
  rows: number;
  /** Every column name of the file, in header order. */
  header: string[];
  /** The columns asked for by {@link LoadClassificationOptions}, as written, by name. */
  text: Record<string, TextColumn>;
  /** Bytes of row storage the reading let go at its end (see `keepIds`), for a garbage collection. */
  released: number;
}

export async function loadClassification(
  path: string,
  config: ResolvedConfig,
  warnings: Warnings,
  progress?: Progress,
  opts: LoadClassificationOptions = {},
  parallel: ParallelReadOptions = {},
): Promise<LoadedClassification> {
  const format = detectFormat(path);
  const { size, capacity } = await estimateRows(path, format);
  const split = await readClassificationInParallel(
    path,
    config,
    format,
    size,
    capacity,
    // parts read apart could not add the terms in row order
    { ...opts, keepTerms: true },
    warnings,
    progress,
    parallel,
  );
  let col: ClassificationCollector;
  let rows: number;
  if (split) ({ col, rows } = split);
  else {
    // With resamples to come the rows go to shared memory, which the bootstrap's threads read
    // without a copy (as they read the rows of a file read on several threads).
    const shared = (config.bootstrap?.n ?? 0) > 0;
    const one = new ClassificationCollector(path, config, format, shared ? 16 : capacity, opts);
    if (shared) one.readIntoSharedMemory(capacity);
    col = one;
    ({ rows } = await readTable(path, one, {
      format,
      progress,
      // A ragged row is not begun on this path: the row state of the one before must not count
      // for it (as on the byte path), or a ragged row right after an invalid one is not listed.
      onRagged: (line, got, expected) => one.endRaggedRow(line, got, expected),
      byteRows: () => (format === 'csv' || format === 'tsv' ? one : undefined),
    }));
  }
  const data = col.finish(warnings);
  return {
    data,
    columns: col.used,
    format,
    rows,
    header: col.header,
    text: col.textColumns(data.n),
    released: col.released,
  };
}

/** Initial row capacity: file size over the mean length of the first lines (+2%). */
async function estimateRows(path: string, format: TableFormat): Promise<{ size: number; capacity: number }> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (e) {
    throw cannotOpen(path, e);
  }
  if (size === 0 || format === 'json' || format === 'parquet' || format === 'npz') return { size, capacity: 1024 };
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(Math.min(size, 1 << 18));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    let lines = 0;
    for (let i = buf.indexOf(LF); i !== -1 && i < bytesRead; i = buf.indexOf(LF, i + 1)) lines++;
    if (lines < 2 || bytesRead === size) return { size, capacity: Math.max(lines + 2, 16) };
    return { size, capacity: Math.ceil((size / bytesRead) * lines * 1.02) + 64 };
  } finally {
    await fh.close();
  }
}
