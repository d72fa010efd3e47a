/**
 * The slow obvious `eval-lens diff`, kept as the reference the fast one (src/core/compare/diffRows.ts)
 * is compared with: every row of both runs built as a row view through the row query, runs paired
 * with a Map keyed by id, every changed row sorted. Same conventions, same messages (except that
 * it pairs runs with repeated ids where the fast one refuses them).
 */
import { fail } from '../../../src/core/diagnostics';
import { openInspection, type InspectionOptions } from '../../../src/core/inspect/open';
import type { ClassificationRowView, FilterTerm, RankingRowView, RowView } from '../../../src/core/rows/types';
import { directionOf } from '../../../src/core/results/directions';
import type { DiffRow, RowDiff } from '../../../src/core/compare/diffTypes';
import { mcnemarExact } from '../../../src/core/stats/tests';

interface DiffOptions extends Pick<InspectionOptions, 'configPath' | 'root' | 'defaults' | 'overrides'> {
  metric?: string;
  where?: FilterTerm[];
  whereText?: string;
  limit?: number;
  matchBy?: 'id' | 'position';
}

function valueOf(row: RowView, metric: string): number | null {
  if (row.kind === 'ranking') {
    const v = row.metrics[metric];
    return v === undefined || !Number.isFinite(v) ? null : v;
  }
  if (metric === 'accuracy') return row.correct ? 1 : 0;
  return row.loss;
}

function keyOf(row: RowView): string | null {
  return row.kind === 'ranking' ? row.user : row.id;
}

/** Every row of an inspection, in file order. */
function allRows(insp: {
  rowsInFile: number;
  query: (q: { where: FilterTerm[]; offset: number; limit: number }) => { rows: RowView[]; rowAddressed?: boolean };
}): {
  rows: RowView[];
  rowAddressed: boolean;
} {
  const page = insp.query({ where: [], offset: 0, limit: Math.max(1, insp.rowsInFile) });
  return { rows: page.rows, rowAddressed: page.rowAddressed === true };
}

/** The rows that changed from run A to run B, the slow obvious way. */
export async function diffRunsReference(pathA: string, pathB: string, opts: DiffOptions = {}): Promise<RowDiff> {
  const open = (p: string) =>
    openInspection(p, {
      configPath: opts.configPath,
      root: opts.root,
      defaults: opts.defaults,
      overrides: opts.overrides,
    });
  const [ia, ib] = [await open(pathA), await open(pathB)];
  if (ia.task !== ib.task)
    fail(
      'compare-task-mismatch',
      { file: pathB },
      `expected ${ia.task} rows as in ${pathA}, but this run is ${ib.task}.`,
    );
  const A = allRows(ia);
  const B = allRows(ib);
  const ranking = ia.task === 'ranking';
  const metric =
    opts.metric ??
    (ranking
      ? (Object.keys((A.rows[0] as RankingRowView | undefined)?.metrics ?? {}).find((k) => k === 'ndcg@10') ??
        Object.keys((A.rows[0] as RankingRowView | undefined)?.metrics ?? {})[0] ??
        'ndcg@10')
      : 'accuracy');
  const supported = ranking
    ? Object.keys((A.rows[0] as RankingRowView | undefined)?.metrics ?? {})
    : ['accuracy', 'nll'];
  if (!supported.includes(metric))
    fail(
      'diff-unknown-metric',
      { file: pathA },
      `expected a per-row metric of this run (${supported.join(', ')}), but got "${metric}".`,
    );
  if (!ranking && metric === 'nll' && A.rows.some((r) => (r as ClassificationRowView).loss === null))
    fail('diff-unknown-metric', { file: pathA }, 'expected class probabilities for nll, but this run has none.');
  // Pairing: by id when both runs have them, else by position (the same number of rows).
  const byId =
    opts.matchBy !== 'position' && A.rows.every((r) => keyOf(r) !== null) && B.rows.every((r) => keyOf(r) !== null);
  const partner = new Int32Array(A.rows.length).fill(-1);
  if (byId) {
    const index = new Map<string, number>();
    B.rows.forEach((r, j) => index.set(keyOf(r)!, j));
    A.rows.forEach((r, i) => (partner[i] = index.get(keyOf(r)!) ?? -1));
    const missing = A.rows.findIndex((_, i) => partner[i] < 0);
    if (missing >= 0 || index.size !== A.rows.length)
      fail(
        'compare-paired-mismatch',
        { file: pathB },
        missing >= 0
          ? `expected every id of ${pathA} here, but "${keyOf(A.rows[missing]!)}" is not.`
          : `expected the same ids as ${pathA}: this run has ${B.rows.length} rows, that one ${A.rows.length}.`,
      );
  } else {
    if (A.rows.length !== B.rows.length)
      fail(
        'compare-paired-mismatch',
        { file: pathB },
        `expected ${A.rows.length} rows as in ${pathA} (pairing by position), but got ${B.rows.length}.`,
      );
    for (let i = 0; i < A.rows.length; i++) partner[i] = i;
  }
  // The rows every metric covers (the test rows with a split, as evaluate and compare), then the filter.
  const measured = ia.measuredRows ?? null;
  const filtered = opts.where && opts.where.length > 0 ? ia.rowsMatching(opts.where) : null;
  const inMeasured = measured ? new Set(measured) : null;
  const candidates = filtered ?? measured;
  const keep = candidates ? new Set(Array.from(candidates).filter((i) => !inMeasured || inMeasured.has(i))) : null;
  const direction = directionOf(metric);
  const sign = direction === 'lower' ? -1 : 1;
  const cells = ranking ? null : { bothRight: 0, lost: 0, gained: 0, bothWrong: 0 };
  let n = 0;
  let sumA = 0;
  let sumB = 0;
  let defined = 0;
  const changed: { i: number; j: number; a: number | null; b: number | null; change: number | null }[] = [];
  for (let i = 0; i < A.rows.length; i++) {
    if (keep && !keep.has(i)) continue;
    const j = partner[i]!;
    const ra = A.rows[i]!;
    const rb = B.rows[j]!;
    if (ra.kind === 'classification' && rb.kind === 'classification' && ra.label !== rb.label)
      fail(
        'compare-paired-mismatch',
        { file: pathB, line: rb.line },
        `expected the true label of ${ra.id !== null ? `id "${ra.id}"` : `row ${i + 1}`} to be "${ra.label}" as in ${pathA}, but got "${rb.label}".`,
      );
    n++;
    const a = valueOf(ra, metric);
    const b = valueOf(rb, metric);
    if (cells && ra.kind === 'classification' && rb.kind === 'classification') {
      if (ra.correct && rb.correct) cells.bothRight++;
      else if (ra.correct) cells.lost++;
      else if (rb.correct) cells.gained++;
      else cells.bothWrong++;
    }
    if (a !== null && b !== null) {
      sumA += a;
      sumB += b;
      defined++;
    }
    if (a !== b) changed.push({ i, j, a, b, change: a !== null && b !== null ? b - a : null });
  }
  // Worst for B first: ascending change in the good direction; undefined changes last; ties in A's order.
  changed.sort((x, y) => {
    const gx = x.change === null ? Infinity : sign * x.change;
    const gy = y.change === null ? Infinity : sign * y.change;
    return gx - gy || x.i - y.i;
  });
  const limit = opts.limit ?? 50;
  const rows: DiffRow[] = changed.slice(0, limit).map(({ i, j, a, b, change }) => {
    const ra = A.rows[i]!;
    const rb = B.rows[j]!;
    const row: DiffRow = {
      id: keyOf(ra),
      lineA: ra.line,
      lineB: rb.line,
      a,
      b,
      change,
      contribution: change === null || n === 0 ? null : change / n,
    };
    if (ra.kind === 'classification' && rb.kind === 'classification') {
      row.label = ra.label;
      row.predA = ra.pred;
      row.predB = rb.pred;
    }
    return row;
  });
  const mc = cells ? mcnemarExact(cells.lost, cells.gained) : null;
  return {
    task: ia.task,
    runs: [pathA, pathB],
    metric,
    metrics: supported,
    direction,
    n,
    changed: changed.length,
    cells,
    mcnemar: mc,
    delta: defined > 0 ? (sumB - sumA) / defined : null,
    rows,
    rowAddressed: A.rowAddressed || B.rowAddressed,
    where: opts.whereText ?? null,
    measured: measured ? { testRows: measured.length, rowsInFile: A.rows.length } : null,
  };
}
