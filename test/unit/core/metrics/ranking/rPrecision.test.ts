// R-precision (`r_precision`): precision at depth R = the user's number of relevant items.
// Hand-computed cases, golden values written by scripts/golden/r_precision.py (numpy, by the
// definition, trec_eval's Rprec convention), and the run's mean through rankingAccuracy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RelevanceCsr } from '../../../../../src/core/metrics/ranking/accuracy';
import type { RankedLists } from '../../../../../src/core/data/rankingData';
import { closeAbs as close } from '../../../helpers/numericClose';
import { rankingAccuracy, userMetrics } from '../../../helpers/rankingAccuracy';

const rp = (ranked: string[], relevant: string[] | Record<string, number>): number | undefined =>
  userMetrics(ranked, relevant, { ks: [1] })?.r_precision;

test('hand-computed: R-precision = hits in the top R / R', () => {
  // R = 2: the top 2 are [a, b], one hit
  assert.equal(rp(['a', 'b', 'c', 'd'], ['b', 'd']), 1 / 2);
  // a perfect top R: 1, whatever follows
  assert.equal(rp(['d', 'b', 'x'], ['b', 'd']), 1);
  // R = 3 and a list of one item: the missing slots are misses, 1/3
  assert.equal(rp(['b'], ['b', 'd', 'e']), 1 / 3);
  // a repeated item keeps its slot and never counts again: top 2 = [b, b], 1/2
  assert.equal(rp(['b', 'b', 'c'], ['b', 'c']), 1 / 2);
  // a grade-0 item is not relevant: R = 1, top 1 = [a], 0
  assert.equal(rp(['a', 'b'], { b: 1, d: 0 }), 0);
  // graded items count once each, whatever their grade: R = 2, top 2 = [c, b], 1
  assert.equal(rp(['c', 'b', 'a'], { b: 3, c: 1 }), 1);
  // no relevant item: the user is skipped
  assert.equal(userMetrics(['a'], { b: 0 }, { ks: [1] }), null);
});

interface GoldenUser {
  ranked: string[];
  relevant: Record<string, number>;
  r_precision: number | null;
}
const golden = JSON.parse(readFileSync(join(__dirname, '../../../../golden/r_precision.json'), 'utf8')) as {
  users: GoldenUser[];
  mean: number;
  evaluated: number;
};

test('golden (numpy, by the definition): every user, repeats, grade 0, short lists', () => {
  for (const [u, g] of golden.users.entries()) {
    const got = rp(g.ranked, g.relevant);
    if (g.r_precision === null) assert.equal(got, undefined, `user ${u}`);
    else close(got!, g.r_precision, 1e-12);
  }
});

test('R-precision does not depend on the cutoffs (R within the top K, beyond it, or at it)', () => {
  for (const [u, g] of golden.users.entries()) {
    const want = g.r_precision;
    for (const ks of [[1], [2], [1, 3], [5, 10], [50]]) {
      const got = userMetrics(g.ranked, g.relevant, { ks })?.r_precision;
      if (want === null) assert.equal(got, undefined, `user ${u}`);
      else close(got!, want, 1e-12);
    }
  }
  // R = 3 inside K = 5, one hit past R: 1/3; the same with K = 2 (R beyond K)
  for (const ks of [[5], [2]])
    assert.equal(userMetrics(['x', 'b', 'y', 'd', 'e'], ['b', 'd', 'e'], { ks })?.r_precision, 1 / 3);
});

test('golden: the mean over the evaluated users, from one pass over all lists', () => {
  const index = new Map<string, number>();
  const id = (s: string): number => {
    let k = index.get(s);
    if (k === undefined) index.set(s, (k = index.size));
    return k;
  };
  const items: number[] = [];
  const offsets = [0];
  const relOffsets = [0];
  const relItems: number[] = [];
  const grades: number[] = [];
  for (const g of golden.users) {
    const seen = new Set<number>();
    for (const s of g.ranked) {
      const k = id(s);
      items.push(seen.has(k) ? -1 : k); // a repeat is a void slot, as the reader makes it
      seen.add(k);
    }
    offsets.push(items.length);
    for (const [s, grade] of Object.entries(g.relevant))
      if (grade > 0) {
        relItems.push(id(s));
        grades.push(grade);
      }
    relOffsets.push(relItems.length);
  }
  const lists: RankedLists = {
    user: Int32Array.from(golden.users, (_, u) => u),
    offsets: Int32Array.from(offsets),
    items: Int32Array.from(items),
  };
  const rel: RelevanceCsr = {
    offsets: Int32Array.from(relOffsets),
    items: Int32Array.from(relItems),
    grades: Float64Array.from(grades),
  };
  const r = rankingAccuracy(lists, rel, { ks: [1, 5], nItems: index.size });
  assert.equal(r.evaluated.length, golden.evaluated);
  close(r.means.r_precision, golden.mean, 1e-12);
  const perUser = golden.users.filter((g) => g.r_precision !== null).map((g) => g.r_precision!);
  assert.deepEqual(
    Array.from(r.perUser.r_precision, (v, i) => Math.abs(v - perUser[i]) < 1e-12),
    perUser.map(() => true),
  );
});
