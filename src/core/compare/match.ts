/**
 * Pairing the items (rows or users) of a run with those of the baseline (docs/comparisons.md).
 *
 * Rules:
 * - `id` / `user`: items are paired by id. Both runs must have ids. A duplicate id in either run
 *   is an error. When the id sets differ, `onMismatch: 'error'` (default) stops with the number
 *   and the first ids found on one side only; `'intersect'` pairs the common ids and adds a
 *   warning listing the dropped ids per run. When both runs carry labels, a label that differs
 *   for the same id is always an error: the runs were not made on the same data.
 * - `position`: only when neither run has ids (asking for it explicitly also works when they
 *   have). Both runs must have the same number of items, and their labels must agree row by row;
 *   when a run has no labels the agreement cannot be checked, which is an error unless
 *   `position` was asked for explicitly (then a warning).
 * - A run with ids and a run without cannot be paired: error.
 */
import { fail, type EvalWarning } from '../diagnostics';
import type { PerItemValues } from '../results/types';
import { IdIndex } from '../data/idIndex';
import { RowIds } from '../data/rowIds';

export type MatchBy = 'id' | 'position' | 'user';

export interface MatchedPairs {
  /** Index into the run's per-item values, per pair. */
  run: Int32Array;
  /** Index into the baseline's per-item values, per pair. */
  base: Int32Array;
  matchBy: MatchBy;
  warnings: EvalWarning[];
}

export interface Side {
  /** Run identifier shown in messages (its path). */
  path: string;
  items: PerItemValues;
}

const SHOW = 5;

function firstFew(xs: readonly string[]): string {
  return xs.slice(0, SHOW).join(', ') + (xs.length > SHOW ? ', …' : '');
}

/** Default pairing: `user` for per-user values, `id` when both runs have ids, else `position`. */
export function defaultMatchBy(a: PerItemValues, b: PerItemValues): MatchBy {
  if (a.kind === 'user' || b.kind === 'user') return 'user';
  return a.ids || b.ids ? 'id' : 'position';
}

/** The ids of a side as a {@link RowIds} (texts that are all canonical integers become numbers). */
function rowIdsOf(ids: readonly string[] | RowIds): RowIds {
  return ids instanceof RowIds ? ids : RowIds.ofTexts(ids);
}

/** The ids of `side` by position, for lists of any length (a Map would stop at 2^24 ids: data/idIndex.ts). */
function indexIds(side: Side, ids: RowIds): IdIndex {
  const map = new IdIndex(ids);
  const dups = map.repeats.map((i) => ids.at(i));
  if (dups.length > 0) {
    fail(
      'compare-duplicate-id',
      { file: side.path },
      `expected unique ${side.items.kind === 'user' ? 'users' : 'ids'} to pair runs by id, but ${dups.length} ${dups.length === 1 ? 'is' : 'are'} repeated (first: ${firstFew(dups)}).`,
    );
  }
  return map;
}

/** The ids of `ids` that `other` does not hold, as written. */
function idsNotIn(ids: RowIds, other: IdIndex): string[] {
  const out: string[] = [];
  for (let i = 0; i < ids.length; i++) if (other.indexOfIdIn(ids, i) < 0) out.push(ids.at(i));
  return out;
}

/**
 * Pairs `run` with `baseline`. `explicit` is the matchBy the user asked for, if any.
 * Throws EvalLensError on the mismatches listed in the module comment.
 */
export function matchItems(
  run: Side,
  baseline: Side,
  opts: { matchBy?: MatchBy; onMismatch?: 'error' | 'intersect' } = {},
): MatchedPairs {
  const a = run.items;
  const b = baseline.items;
  if (a.kind !== b.kind) {
    fail(
      'compare-kind-mismatch',
      { file: run.path },
      `expected per-${b.kind} values as in the baseline ${baseline.path}, but this run has per-${a.kind} values: runs of different tasks cannot be compared.`,
    );
  }
  const matchBy = opts.matchBy ?? defaultMatchBy(a, b);
  const warnings: EvalWarning[] = [];
  if (matchBy === 'position') return matchByPosition(run, baseline, opts.matchBy === 'position', warnings);

  if (!a.ids || !b.ids) {
    const without = !a.ids ? run.path : baseline.path;
    const withIds = !a.ids ? baseline.path : run.path;
    const both = !a.ids && !b.ids;
    fail(
      'compare-missing-ids',
      { file: without },
      both
        ? `expected ids to pair the runs by ${matchBy}, but neither run has an id column; compare by position instead (matchBy "position").`
        : `expected an id column, as ${withIds} has, to pair the rows by ${matchBy}; a run with ids and a run without cannot be paired.`,
    );
  }
  const idsA = rowIdsOf(a.ids);
  const idsB = rowIdsOf(b.ids);
  const mapA = indexIds(run, idsA);
  const mapB = indexIds(baseline, idsB);
  // ids are distinct here (indexIds refused repeats)
  const onlyA = idsNotIn(idsA, mapB);
  const onlyB = idsNotIn(idsB, mapA);
  if (onlyA.length > 0 || onlyB.length > 0) {
    const what = a.kind === 'user' ? 'users' : 'ids';
    const parts: string[] = [];
    if (onlyA.length > 0) parts.push(`${onlyA.length} ${what} only in ${run.path} (first: ${firstFew(onlyA)})`);
    if (onlyB.length > 0) parts.push(`${onlyB.length} only in ${baseline.path} (first: ${firstFew(onlyB)})`);
    if ((opts.onMismatch ?? 'error') === 'error') {
      fail(
        'compare-id-mismatch',
        { file: run.path },
        `expected the same ${what} as the baseline ${baseline.path}, but found ${parts.join('; ')}. Compare runs on the same rows, or pair only the common ${what} (onMismatch "intersect", CLI --on-mismatch intersect).`,
      );
    }
    warnings.push({
      code: 'compare-id-mismatch',
      message: `${run.path} vs ${baseline.path}: tests use the ${mapA.size - onlyA.length} common ${what}; left out ${parts.join('; ')}. The table still shows each run's metrics over all its own rows.`,
      file: run.path,
      count: onlyA.length + onlyB.length,
    });
  }
  const nb = idsB.length;
  const ra = new Int32Array(nb);
  const rb = new Int32Array(nb);
  let pairs = 0;
  const badLabels: string[] = [];
  // Pairs in the baseline's order, so that a run's own row order cannot change any sum.
  for (let j = 0; j < nb; j++) {
    const i = mapA.indexOfIdIn(idsB, j);
    if (i < 0) continue;
    if (a.labels && b.labels && a.labels[i] !== b.labels[j])
      badLabels.push(`${idsB.at(j)} (${a.labels[i]} vs ${b.labels[j]})`);
    ra[pairs] = i;
    rb[pairs++] = j;
  }
  if (badLabels.length > 0) {
    fail(
      'compare-label-mismatch',
      { file: run.path },
      `expected the same label for each id as in the baseline ${baseline.path}, but ${badLabels.length} ${badLabels.length === 1 ? 'id differs' : 'ids differ'} (first: ${firstFew(badLabels)}): the runs were not made on the same data.`,
    );
  }
  return { run: ra.slice(0, pairs), base: rb.slice(0, pairs), matchBy, warnings };
}

function itemCount(items: PerItemValues): number {
  if (items.ids) return items.ids.length;
  if (items.labels) return items.labels.length;
  const first = Object.values(items.values)[0];
  return first ? first.length : 0;
}

function matchByPosition(run: Side, baseline: Side, explicit: boolean, warnings: EvalWarning[]): MatchedPairs {
  const a = run.items;
  const b = baseline.items;
  const na = itemCount(a);
  const nb = itemCount(b);
  if (na !== nb) {
    fail(
      'compare-length-mismatch',
      { file: run.path },
      `expected ${nb} rows as in the baseline ${baseline.path} to pair rows by position, but got ${na}.`,
    );
  }
  if (!a.labels || !b.labels) {
    const msg = `cannot check that the rows of ${run.path} and ${baseline.path} are the same rows: ${!a.labels ? run.path : baseline.path} has no labels`;
    if (!explicit) {
      fail(
        'compare-position-unchecked',
        { file: run.path },
        `${msg}. Add an id column to both runs, or ask for matchBy "position" explicitly.`,
      );
    }
    warnings.push({
      code: 'compare-position-unchecked',
      message: `${msg}; paired by position as asked.`,
      file: run.path,
    });
  } else {
    const bad: number[] = [];
    for (let i = 0; i < na; i++) if (a.labels[i] !== b.labels[i]) bad.push(i);
    if (bad.length > 0) {
      // Row i of the per-item vectors is data line i + 2 when no row was skipped.
      const first = bad.slice(0, SHOW).map((i) => `row ${i + 1} (${a.labels![i]} vs ${b.labels![i]})`);
      fail(
        'compare-label-mismatch',
        { file: run.path },
        `expected the labels of the baseline ${baseline.path} row by row to pair rows by position, but ${bad.length} ${bad.length === 1 ? 'row differs' : 'rows differ'} (first: ${first.join(', ')}${bad.length > SHOW ? ', …' : ''}). Add an id column to both runs to pair them by id.`,
      );
    }
  }
  const idx = Int32Array.from({ length: na }, (_, i) => i);
  return { run: idx, base: idx.slice(), matchBy: 'position', warnings };
}
