/**
 * The rows that changed between two runs (`eval-lens diff A B`): the runs' rows (users) matched by
 * id — else by position — and, for the chosen metric, each row's value in A and in B.
 *
 * Conventions:
 * - Classification (and importance-weighted binary) rows: `accuracy` (default) compares the rows'
 *   correctness — the four cells (both right, A right and B wrong = lost, A wrong and B right =
 *   gained, both wrong) with McNemar's exact test of lost against gained — and lists the rows that
 *   flipped; `nll` compares each row's −ln max(p_true, 10⁻¹⁵) and lists the rows whose loss
 *   changed. Ranking users: any per-user metric (`ndcg@10` by default, else the first the run has),
 *   listing the users whose value changed.
 * - A row's contribution to Δ (B − A of the metric) is its change divided by the number of
 *   matched rows (accuracy and NLL are plain means over rows, ranking metrics means over users).
 *   Rows are listed worst for B first: by their change in the metric's good direction, ascending
 *   (a row B lost, or whose loss grew most, comes first); ties in file order of A.
 * - `where` filters with the row query's language on A's rows (its keys: `label`, `correct`,
 *   `confidence`, the file's columns, …); the counts and the test are over the filtered rows.
 * - With a validation/test split (metrics on the test rows, the default), only A's test rows are
 *   compared, as evaluate and compare measure them; `metricsOn: "all"` compares every row.
 * - Every row carries its line in both files (for Parquet and `.npz`, the data row: no line).
 * - Pairing by id needs unique ids (users) in both runs: a repeated one is an error.
 *
 * Cost grows with the rows, not with objects: each run is held as typed columns (diffSides.ts),
 * pairs are an index array, the cells and Δ are counted in one pass, and only the rows listed
 * (the `limit` worst, chosen with a bounded heap) become objects.
 */
import { fail, lineRef } from '../diagnostics';
import type { InspectionOptions } from '../inspect/open';
import type { FilterTerm } from '../rows/types';
import { IdIndex } from '../data/idIndex';
import { directionOf } from '../results/directions';
import type { DiffRow, RowDiff } from './diffTypes';
import { mcnemarExact } from '../stats/tests';
import { openDiffSide, type DiffSide } from './diffSides';

export type { DiffRow, RowDiff } from './diffTypes';

export interface DiffOptions extends Pick<InspectionOptions, 'configPath' | 'root' | 'defaults' | 'overrides'> {
  metric?: string;
  where?: FilterTerm[];
  whereText?: string;
  limit?: number;
  matchBy?: 'id' | 'position';
}

/** Row `i`'s value of the metric: 1/0 (accuracy), its loss, or its user's value (null when undefined). */
function valueReader(side: DiffSide, metric: string): (i: number) => number | null {
  if (side.metrics) {
    const v = side.metrics[metric];
    if (!v) return () => null;
    return (i) => (Number.isFinite(v[i]) ? v[i] : null);
  }
  if (metric === 'accuracy') {
    const c = side.correct!;
    return (i) => (c[i] === 1 ? 1 : 0);
  }
  const loss = side.loss;
  return loss ? (i) => loss[i] : () => null;
}

/** The per-row metrics of a run: accuracy and nll, or the per-user keys its first user has values for. */
function metricsOf(side: DiffSide): string[] {
  if (!side.metrics) return ['accuracy', 'nll'];
  if (side.n === 0) return [];
  return Object.entries(side.metrics)
    .filter(([, v]) => v[0] === v[0])
    .map(([k]) => k);
}

/**
 * Positions 0..m−1 ordered by (key ascending, position ascending), the first `limit` of them: a
 * bounded max-heap of the `limit` best so far when fewer than all are asked for (m log limit),
 * else one sort. Keys compare as `a − b` does (a NaN difference, such as ∞ − ∞, is a tie).
 */
export function firstByKey(key: Float64Array, m: number, limit: number): Int32Array {
  const cmp = (p: number, q: number): number => key[p] - key[q] || p - q;
  const L = Math.min(m, limit > 0 ? Math.floor(limit) : 0);
  if (L === m) return Int32Array.from({ length: m }, (_, p) => p).sort(cmp);
  const heap = new Int32Array(L); // heap[0] is the worst kept
  let size = 0;
  const down = (at: number): void => {
    const x = heap[at];
    for (;;) {
      let c = 2 * at + 1;
      if (c >= size) break;
      if (c + 1 < size && cmp(heap[c + 1], heap[c]) > 0) c++;
      if (cmp(heap[c], x) <= 0) break;
      heap[at] = heap[c];
      at = c;
    }
    heap[at] = x;
  };
  for (let p = 0; p < m && L > 0; p++) {
    if (size < L) {
      let at = size++;
      while (at > 0) {
        const up = (at - 1) >> 1;
        if (cmp(heap[up], p) >= 0) break;
        heap[at] = heap[up];
        at = up;
      }
      heap[at] = p;
    } else if (cmp(p, heap[0]) < 0) {
      heap[0] = p;
      down(0);
    }
  }
  return heap.sort(cmp);
}

/** Where each row of A is in B: by id (each id once in both runs), else by position (null: row i is row i). */
function pairRows(A: DiffSide, B: DiffSide, byId: boolean, pathA: string, pathB: string): Int32Array | null {
  if (!byId) {
    if (A.n !== B.n)
      fail(
        'compare-paired-mismatch',
        { file: pathB },
        `expected ${A.n} rows as in ${pathA} (pairing by position), but got ${B.n}.`,
      );
    return null;
  }
  const idsA = A.ids!;
  const idsB = B.ids!;
  const index = new IdIndex(idsB);
  const partner = new Int32Array(A.n);
  const taken = new Uint8Array(B.n);
  let repeatedInA = -1;
  for (let i = 0; i < A.n; i++) {
    const j = index.indexOfIdIn(idsA, i);
    if (j < 0)
      fail(
        'compare-paired-mismatch',
        { file: pathB },
        `expected every id of ${pathA} here, but "${idsA.at(i)}" is not.`,
      );
    partner[i] = j;
    // B's first row of an id is found for every row of A with that id: one taken twice is an id A repeats.
    if (taken[j] === 1 && repeatedInA < 0) repeatedInA = i;
    taken[j] = 1;
  }
  const what = A.metrics ? 'users' : 'ids';
  if (repeatedInA >= 0) {
    const first = partner.indexOf(partner[repeatedInA]);
    fail(
      'compare-duplicate-id',
      { file: pathA, line: A.lines[repeatedInA] },
      `expected unique ${what} to pair the runs by id, but "${idsA.at(repeatedInA)}" is at ${lineRef(pathA, A.lines[first])} and ${lineRef(pathA, A.lines[repeatedInA])}.`,
    );
  }
  if (index.size !== A.n)
    fail(
      'compare-paired-mismatch',
      { file: pathB },
      `expected the same ids as ${pathA}: this run has ${B.n} rows, that one ${A.n}.`,
    );
  if (index.repeats.length > 0) {
    const j = index.repeats[0];
    const first = index.indexOfIdIn(idsB, j);
    fail(
      'compare-duplicate-id',
      { file: pathB, line: B.lines[j] },
      `expected unique ${what} to pair the runs by id, but "${idsB.at(j)}" is at ${lineRef(pathB, B.lines[first])} and ${lineRef(pathB, B.lines[j])}.`,
    );
  }
  return partner;
}

/** The rows that changed from run A to run B (see the module's doc). */
export async function diffRuns(pathA: string, pathB: string, opts: DiffOptions = {}): Promise<RowDiff> {
  const open = (p: string, where: FilterTerm[] | null) =>
    openDiffSide(
      p,
      { configPath: opts.configPath, root: opts.root, defaults: opts.defaults, overrides: opts.overrides },
      where,
    );
  const A = await open(pathA, opts.where ?? null);
  const B = await open(pathB, null);
  if (A.task !== B.task)
    fail(
      'compare-task-mismatch',
      { file: pathB },
      `expected ${A.task} rows as in ${pathA}, but this run is ${B.task}.`,
    );
  const ranking = A.task === 'ranking';
  const supported = metricsOf(A);
  const metric =
    opts.metric ?? (ranking ? (supported.find((k) => k === 'ndcg@10') ?? supported[0] ?? 'ndcg@10') : 'accuracy');
  if (!supported.includes(metric))
    fail(
      'diff-unknown-metric',
      { file: pathA },
      `expected a per-row metric of this run (${supported.join(', ')}), but got "${metric}".`,
    );
  if (!ranking && metric === 'nll' && A.loss === null && A.n > 0)
    fail('diff-unknown-metric', { file: pathA }, 'expected class probabilities for nll, but this run has none.');
  // Pairing: by id when both runs have them, else by position (the same number of rows).
  const partner = pairRows(A, B, opts.matchBy !== 'position' && A.ids !== null && B.ids !== null, pathA, pathB);
  // The rows every metric covers (the test rows with a split, as evaluate and compare), then the filter.
  const filtered = A.filtered ? A.filtered() : null;
  let keep: Uint8Array | null = null;
  if (A.measured || filtered) {
    keep = new Uint8Array(A.n);
    for (const i of A.measured ?? filtered!) keep[i] = 1;
    if (A.measured && filtered) {
      const both = new Uint8Array(A.n);
      for (const i of filtered) both[i] = keep[i];
      keep = both;
    }
  }
  // B's class code of each of A's class names (−1: B has no such class), to compare labels by name.
  let classInB: Int32Array | null = null;
  if (A.classes && B.classes) {
    const where = new Map(B.classes.map((c, k) => [c, k]));
    classInB = Int32Array.from(A.classes, (c) => where.get(c) ?? -1);
  }
  const direction = directionOf(metric);
  const sign = direction === 'lower' ? -1 : 1;
  const cells = ranking ? null : { bothRight: 0, lost: 0, gained: 0, bothWrong: 0 };
  const valueA = valueReader(A, metric);
  const valueB = valueReader(B, metric);
  const { correct: correctA, labels: labelsA } = A;
  const { correct: correctB, labels: labelsB } = B;
  let n = 0;
  let sumA = 0;
  let sumB = 0;
  let defined = 0;
  // The changed rows (A's order) and their sort key: the change in the good direction, ∞ when undefined.
  let changedRows = new Int32Array(1024);
  let changedKey = new Float64Array(1024);
  let changed = 0;
  for (let i = 0; i < A.n; i++) {
    if (keep && keep[i] === 0) continue;
    const j = partner ? partner[i] : i;
    if (classInB && classInB[labelsA![i]] !== labelsB![j]) {
      const id = A.ids ? A.ids.at(i) : null;
      fail(
        'compare-paired-mismatch',
        { file: pathB, line: B.lines[j] },
        `expected the true label of ${id !== null ? `id "${id}"` : `row ${i + 1}`} to be "${A.classes![labelsA![i]]}" as in ${pathA}, but got "${B.classes![labelsB![j]]}".`,
      );
    }
    n++;
    const a = valueA(i);
    const b = valueB(j);
    if (cells) {
      const ra = correctA![i] === 1;
      const rb = correctB![j] === 1;
      if (ra && rb) cells.bothRight++;
      else if (ra) cells.lost++;
      else if (rb) cells.gained++;
      else cells.bothWrong++;
    }
    if (a !== null && b !== null) {
      sumA += a;
      sumB += b;
      defined++;
    }
    if (a !== b) {
      if (changed === changedRows.length) {
        const rows = new Int32Array(2 * changed);
        rows.set(changedRows);
        changedRows = rows;
        const key = new Float64Array(2 * changed);
        key.set(changedKey);
        changedKey = key;
      }
      changedRows[changed] = i;
      changedKey[changed] = a !== null && b !== null ? sign * (b - a) : Infinity;
      changed++;
    }
  }
  // Worst for B first: ascending change in the good direction; undefined changes last; ties in A's order.
  const listed = firstByKey(changedKey, changed, opts.limit ?? 50);
  const rows: DiffRow[] = Array.from(listed, (p) => {
    const i = changedRows[p];
    const j = partner ? partner[i] : i;
    const a = valueA(i);
    const b = valueB(j);
    const change = a !== null && b !== null ? b - a : null;
    const row: DiffRow = {
      id: A.ids ? A.ids.at(i) : null,
      lineA: A.lines[i],
      lineB: B.lines[j],
      a,
      b,
      change,
      contribution: change === null || n === 0 ? null : change / n,
    };
    if (A.classes && B.classes) {
      row.label = A.classes[labelsA![i]];
      row.predA = A.classes[A.preds![i]];
      row.predB = B.classes[B.preds![j]];
    }
    return row;
  });
  const mc = cells ? mcnemarExact(cells.lost, cells.gained) : null;
  return {
    task: A.task,
    runs: [pathA, pathB],
    metric,
    metrics: supported,
    direction,
    n,
    changed,
    cells,
    mcnemar: mc,
    delta: defined > 0 ? (sumB - sumA) / defined : null,
    rows,
    rowAddressed: A.rowAddressed || B.rowAddressed,
    where: opts.whereText ?? null,
    measured: A.measured ? { testRows: A.measured.length, rowsInFile: A.n } : null,
  };
}
