import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Gain, MapNormaliser } from '../../../../../src/core/metrics/ranking/accuracy';
import type { RankedLists } from '../../../../../src/core/data/rankingData';
import { createRng } from '../../../../../src/core/stats/rng';
import { closeAbs as close } from '../../../helpers/numericClose';
import { rankingAccuracy, userMetrics } from '../../../helpers/rankingAccuracy';

const log2 = Math.log2;

test('hand-computed: L = [a, b, c, d], R = {b, d}', () => {
  const m = userMetrics(['a', 'b', 'c', 'd'], ['b', 'd'], { ks: [1, 2, 4] })!;
  close(m['recall@1'], 0);
  close(m['recall@2'], 1 / 2);
  close(m['recall@4'], 2 / 2);
  close(m['precision@2'], 1 / 2);
  close(m['precision@4'], 2 / 4);
  close(m['hit_rate@1'], 0);
  close(m['hit_rate@2'], 1);
  close(m['ndcg@2'], 1 / log2(3) / (1 + 1 / log2(3)));
  close(m['ndcg@4'], (1 / log2(3) + 1 / log2(5)) / (1 + 1 / log2(3)));
  // AP@4 (min) = (P@2·1 + P@4·1) / min(2, 4) = (1/2 + 2/4) / 2
  close(m['map@4'], (1 / 2 + 2 / 4) / 2);
  close(m['map@2'], 1 / 2 / 2);
  close(m.mrr, 1 / 2);
});

test('the TSDoc example of accuracy.ts holds', () => {
  close(userMetrics(['a', 'b', 'c', 'd'], ['b', 'd'], { ks: [2] })!['ndcg@2'], 0.38685280723454163, 1e-12);
});

test('the three MAP normalisers differ on one example', () => {
  // L = [x, r1, y, r2, z], R = {r1, r2, r3, r4, r5}, K = 3: one hit at rank 2 (P@2 = 1/2)
  const L = ['x', 'r1', 'y', 'r2', 'z'];
  const R = ['r1', 'r2', 'r3', 'r4', 'r5'];
  const min = userMetrics(L, R, { ks: [3], mapNormaliser: 'min' })!;
  const all = userMetrics(L, R, { ks: [3], mapNormaliser: 'all' })!;
  const hits = userMetrics(L, R, { ks: [3], mapNormaliser: 'hits' })!;
  close(min['map@3'], 1 / 2 / Math.min(5, 3));
  close(all['map@3'], 1 / 2 / 5);
  close(hits['map@3'], 1 / 2 / 1);
  // At K = 5: hits at 2 and 4 → Σ P@k·rel_k = 1/2 + 2/4
  close(userMetrics(L, R, { ks: [5], mapNormaliser: 'min' })!['map@5'], (1 / 2 + 2 / 4) / 5);
  close(userMetrics(L, R, { ks: [5], mapNormaliser: 'hits' })!['map@5'], (1 / 2 + 2 / 4) / 2);
  // no hit in the top K: `hits` has D = 0 → AP = 0
  close(userMetrics(['x', 'y'], ['r'], { ks: [2], mapNormaliser: 'hits' })!['map@2'], 0);
});

test('graded relevance, linear and exp gain', () => {
  // L = [a, b, c], grades a:3, c:1, d:2 (d not in the list)
  const R = { a: 3, c: 1, d: 2 };
  const lin = userMetrics(['a', 'b', 'c'], R, { ks: [3], gain: 'linear' })!;
  const dcgLin = 3 / log2(2) + 1 / log2(4);
  const idcgLin = 3 / log2(2) + 2 / log2(3) + 1 / log2(4);
  close(lin['ndcg@3'], dcgLin / idcgLin);
  const exp = userMetrics(['a', 'b', 'c'], R, { ks: [3], gain: 'exp' })!;
  const g = (r: number) => 2 ** r - 1;
  close(exp['ndcg@3'], (g(3) / log2(2) + g(1) / log2(4)) / (g(3) / log2(2) + g(2) / log2(3) + g(1) / log2(4)));
  // grades do not change recall / precision / AP / MRR
  close(lin['recall@3'], 2 / 3);
  close(lin['precision@3'], 2 / 3);
  close(lin['map@3'], (1 / 1 + 2 / 3) / 3);
  close(lin.mrr, 1);
  // a grade of 0 is not relevant
  const z = userMetrics(['a', 'b'], { a: 0, b: 2 }, { ks: [2] })!;
  close(z['recall@2'], 1);
  close(z.mrr, 1 / 2);
});

test('precision divides by K even when the list is shorter; MRR uses the whole list', () => {
  const m = userMetrics(['a', 'b'], ['b'], { ks: [5] })!;
  close(m['precision@5'], 1 / 5);
  close(m['recall@5'], 1);
  const long = ['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'r'];
  const m2 = userMetrics(long, ['r'], { ks: [3] })!;
  close(m2['hit_rate@3'], 0);
  close(m2.mrr, 1 / 7);
});

test('a user with no relevant item is skipped', () => {
  assert.equal(userMetrics(['a', 'b'], [], { ks: [2] }), null);
  assert.equal(userMetrics(['a', 'b'], { a: 0 }, { ks: [2] }), null);
  const lists: RankedLists = {
    user: Int32Array.from([0, 1]),
    offsets: Int32Array.from([0, 2, 4]),
    items: Int32Array.from([0, 1, 0, 1]),
  };
  const r = rankingAccuracy(
    lists,
    { offsets: Int32Array.from([0, 1, 1]), items: Int32Array.from([1]), grades: Float64Array.from([1]) },
    { ks: [2], nItems: 2 },
  );
  assert.deepEqual(Array.from(r.evaluated), [0]);
  assert.deepEqual(Array.from(r.skipped), [1]);
  close(r.perUser['recall@2'][0], 1);
});

test('a repeated item counts once (first occurrence), later items keep their ranks', () => {
  // L = [a, a, b], R = {a, b}: the repeat is a void slot at rank 2, b stays at rank 3
  const m = userMetrics(['a', 'a', 'b'], ['a', 'b'], { ks: [3] })!;
  close(m['recall@3'], 1);
  close(m['precision@3'], 2 / 3);
  close(m['ndcg@3'], (1 + 1 / log2(4)) / (1 + 1 / log2(3)));
  // repeated relevant ids in R count once
  close(userMetrics(['a'], ['a', 'a'], { ks: [1] })!['recall@1'], 1);
});

test('NDCG equals scikit-learn ndcg_score on the golden cases (linear, exp, binary)', () => {
  const g = JSON.parse(readFileSync(join(__dirname, '../../../../golden/ranking.json'), 'utf8')) as {
    ks: number[];
    users: { user: string; items: string[]; relevant: Record<string, number> }[];
    ndcg_linear: Record<string, number[]>;
    ndcg_exp: Record<string, number[]>;
    ndcg_binary: Record<string, number[]>;
  };
  let n = 0;
  g.users.forEach((u, i) => {
    const lin = userMetrics(u.items, u.relevant, { ks: g.ks, gain: 'linear' })!;
    const exp = userMetrics(u.items, u.relevant, { ks: g.ks, gain: 'exp' })!;
    const bin = userMetrics(u.items, Object.keys(u.relevant), { ks: g.ks })!;
    for (const k of g.ks) {
      close(lin[`ndcg@${k}`], g.ndcg_linear[k][i], 1e-12);
      close(exp[`ndcg@${k}`], g.ndcg_exp[k][i], 1e-12);
      close(bin[`ndcg@${k}`], g.ndcg_binary[k][i], 1e-12);
      n += 3;
    }
  });
  assert.equal(n, g.users.length * g.ks.length * 3);
});

/** The obvious implementation, straight from the definitions in docs/metrics/ranking.md, for one user. */
function reference(list: number[], rel: Map<number, number>, k: number, gain: Gain, norm: MapNormaliser) {
  const seen = new Set<number>();
  const dedup = list.map((x) => (seen.has(x) ? -1 : (seen.add(x), x)));
  const top = dedup.slice(0, k);
  const R = [...rel.entries()].filter(([, g]) => g > 0);
  const isRel = (x: number) => x >= 0 && (rel.get(x) ?? 0) > 0;
  const hits = top.filter(isRel).length;
  const gf = (r: number) => (gain === 'exp' ? 2 ** r - 1 : r);
  let dcg = 0;
  top.forEach((x, i) => {
    if (isRel(x)) dcg += gf(rel.get(x)!) / Math.log2(i + 2);
  });
  const ideal = R.map(([, g]) => g)
    .sort((a, b) => b - a)
    .slice(0, k);
  const idcg = ideal.reduce((s, g, i) => s + gf(g) / Math.log2(i + 2), 0);
  let ap = 0;
  for (let i = 0; i < k; i++) {
    if (i < top.length && isRel(top[i])) ap += top.slice(0, i + 1).filter(isRel).length / (i + 1);
  }
  const D = norm === 'min' ? Math.min(R.length, k) : norm === 'all' ? R.length : hits;
  const first = dedup.findIndex(isRel);
  return {
    recall: hits / R.length,
    precision: hits / k,
    ndcg: dcg / idcg,
    map: D > 0 ? ap / D : 0,
    hit_rate: hits > 0 ? 1 : 0,
    mrr: first < 0 ? 0 : 1 / (first + 1),
  };
}

test('fast one-pass code equals the obvious reference on random inputs', () => {
  const rng = createRng(7);
  for (const gain of ['linear', 'exp'] as Gain[])
    for (const norm of ['min', 'all', 'hits'] as MapNormaliser[]) {
      const nUsers = 60;
      const nItems = 40;
      const ks = [1, 2, 5, 10, 25];
      const offsets = [0];
      const items: number[] = [];
      const relOff = [0];
      const relItems: number[] = [];
      const relGrades: number[] = [];
      const truth: { list: number[]; rel: Map<number, number> }[] = [];
      for (let u = 0; u < nUsers; u++) {
        const len = rng.int(30);
        const list = Array.from({ length: len }, () => rng.int(nItems)); // repeats on purpose
        items.push(...list);
        offsets.push(items.length);
        const rel = new Map<number, number>();
        const nr = rng.int(6);
        for (let q = 0; q < nr; q++) {
          const it = rng.int(nItems);
          if (!rel.has(it)) rel.set(it, rng.int(4));
        }
        for (const [it, g] of rel)
          if (g > 0) {
            relItems.push(it);
            relGrades.push(g);
          }
        relOff.push(relItems.length);
        truth.push({ list, rel });
      }
      // The reader turns repeats into void slots; do the same here.
      const voided = items.slice();
      for (let u = 0; u < nUsers; u++) {
        const s = new Set<number>();
        for (let p = offsets[u]; p < offsets[u + 1]; p++) {
          if (s.has(voided[p])) voided[p] = -1;
          else s.add(voided[p]);
        }
      }
      const lists: RankedLists = {
        user: Int32Array.from({ length: nUsers }, (_, i) => i),
        offsets: Int32Array.from(offsets),
        items: Int32Array.from(voided),
      };
      const r = rankingAccuracy(
        lists,
        { offsets: Int32Array.from(relOff), items: Int32Array.from(relItems), grades: Float64Array.from(relGrades) },
        { ks, gain, mapNormaliser: norm, nItems },
      );
      let e = 0;
      for (let u = 0; u < nUsers; u++) {
        const t = truth[u];
        if (![...t.rel.values()].some((g) => g > 0)) {
          assert.ok(Array.from(r.skipped).includes(u));
          continue;
        }
        assert.equal(r.evaluated[e], u);
        for (const k of ks) {
          const ref = reference(t.list, t.rel, k, gain, norm);
          for (const m of ['recall', 'precision', 'ndcg', 'map', 'hit_rate'] as const)
            close(r.perUser[`${m}@${k}`][e], ref[m], 1e-12);
        }
        close(r.perUser.mrr[e], reference(t.list, t.rel, 1, gain, norm).mrr);
        e++;
      }
      // curves at every K (computed from the hits by difference arrays) equal the means of the
      // per-user values computed with every K as a cutoff
      const every = Array.from({ length: 25 }, (_, i) => i + 1);
      const all = rankingAccuracy(
        lists,
        { offsets: Int32Array.from(relOff), items: Int32Array.from(relItems), grades: Float64Array.from(relGrades) },
        { ks: every, gain, mapNormaliser: norm, nItems },
      );
      for (const m of ['recall', 'precision', 'ndcg', 'map', 'hit_rate'] as const)
        for (const k of every) {
          const v = all.perUser[`${m}@${k}`];
          close(r.curves[m][k - 1], v.reduce((s, x) => s + x, 0) / v.length, 1e-12);
        }
    }
});

test('cutoffs are validated', () => {
  assert.throws(() => userMetrics(['a'], ['a'], { ks: [0] }), /positive integers/);
  assert.throws(() => userMetrics(['a'], ['a'], { ks: [] }), /non-empty/);
});
