/**
 * The ranking accuracy metrics (src/core/metrics/ranking/accuracy.ts) in the tests' two shapes:
 * every list of a run at once, through the accumulator the evaluation feeds list by list, and one
 * user given as plain ids.
 */
import type { RankedLists } from '../../../src/core/data/rankingData';
import {
  AccuracyAccumulator,
  splitEvaluated,
  type AccuracyOptions,
  type AccuracyResult,
  type Gain,
  type MapNormaliser,
  type RelevanceCsr,
} from '../../../src/core/metrics/ranking/accuracy';

/**
 * Evaluates every list in `lists` against `rel` (indexed by the list's user), in list order, as
 * the evaluation does (metrics/ranking/evaluateLists.ts).
 */
export function rankingAccuracy(lists: RankedLists, rel: RelevanceCsr, opts: AccuracyOptions): AccuracyResult {
  const { evaluated, skipped } = splitEvaluated(lists.user, rel.offsets);
  const acc = new AccuracyAccumulator(rel, evaluated.length, opts);
  const { user, offsets, items } = lists;
  for (let e = 0; e < evaluated.length; e++) {
    const j = evaluated[e];
    acc.add(user[j], items, offsets[j], offsets[j + 1] - offsets[j]);
  }
  return acc.result(evaluated, skipped);
}

/**
 * The metrics of one user given as plain ids: `relevant` is a list (grade 1 each) or an id → grade
 * map. Returns null when the user has no relevant item (it would be skipped). Repeated ids in
 * `ranked` count once (first occurrence).
 */
export function userMetrics(
  ranked: string[],
  relevant: string[] | Record<string, number>,
  opts: { ks: number[]; gain?: Gain; mapNormaliser?: MapNormaliser },
): Record<string, number> | null {
  const index = new Map<string, number>();
  const id = (s: string) => {
    let k = index.get(s);
    if (k === undefined) index.set(s, (k = index.size));
    return k;
  };
  const seen = new Set<number>();
  const items = Int32Array.from(
    ranked.map((s) => {
      const k = id(s);
      if (seen.has(k)) return -1;
      seen.add(k);
      return k;
    }),
  );
  const pairs: [number, number][] = Array.isArray(relevant)
    ? relevant.map((s) => [id(s), 1])
    : Object.entries(relevant).map(([s, g]) => [id(s), g]);
  const firstOf = new Set<number>();
  const pos = pairs.filter(([k, g]) => {
    if (firstOf.has(k)) return false;
    firstOf.add(k);
    return g > 0;
  });
  const rel: RelevanceCsr = {
    offsets: Int32Array.from([0, pos.length]),
    items: Int32Array.from(pos.map((p) => p[0])),
    grades: Float64Array.from(pos.map((p) => p[1])),
  };
  const lists: RankedLists = { user: Int32Array.from([0]), offsets: Int32Array.from([0, items.length]), items };
  const r = rankingAccuracy(lists, rel, {
    ks: opts.ks,
    gain: opts.gain,
    mapNormaliser: opts.mapNormaliser,
    nItems: index.size,
  });
  if (r.evaluated.length === 0) return null;
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(r.perUser)) out[k] = v[0];
  return out;
}
