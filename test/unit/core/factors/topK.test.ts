// Top-K lists from factor matrices: a hand-computed example, the NumPy reference of
// scripts/golden/factors.py (scores, masking, ties broken by item position), a slow full sort vs the
// heap on random inputs with many ties, block sizes and user ranges, and bad inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkFactors, TopKScorer, topKBuffers, type FactorMatrix } from '../../../../src/core/factors/topK';
import { parallelFactorTopK } from '../../../../src/core/factors/parallelTopK';
import { CancelledError } from '../../../../src/core/diagnostics';
import { factorTopK } from '../../helpers/factors';

const mat = (rows: number[][], label: string): FactorMatrix => ({
  rows: rows.length,
  cols: rows[0]?.length ?? 0,
  data: Float64Array.from(rows.flat()),
  label,
});

test('hand-computed: scores, mask, ties by item position', () => {
  // U = [[1, 0], [1, 1]], V = [[1, 0], [0, 1], [1, 0], [2, -1]]
  // user 0 scores: [1, 0, 1, 2]; user 1 scores: [1, 1, 1, 1] (all tied)
  const U = mat(
    [
      [1, 0],
      [1, 1],
    ],
    'U.npy',
  );
  const V = mat(
    [
      [1, 0],
      [0, 1],
      [1, 0],
      [2, -1],
    ],
    'V.npy',
  );
  const r = factorTopK(U, V, { k: 3, train: [[3], undefined] });
  // user 0: item 3 masked; 1 (item 0) ties 1 (item 2) → item 0 first; then item 1 (score 0).
  assert.deepEqual([...r.items[0]], [0, 2, 1]);
  assert.deepEqual([...r.scores[0]], [1, 1, 0]);
  // user 1: all scores 1 → the first three items in list order.
  assert.deepEqual([...r.items[1]], [0, 1, 2]);
});

test('edge cases: all items in train, k > items, k = 0', () => {
  const U = mat([[1], [2]], 'U.npy');
  const V = mat([[3], [1], [2]], 'V.npy');
  const r = factorTopK(U, V, { k: 10, train: [[0, 1, 2], [1]] });
  assert.deepEqual([...r.items[0]], []);
  assert.deepEqual([...r.items[1]], [0, 2]);
  assert.deepEqual([...r.scores[1]], [6, 4]);
  const z = factorTopK(U, V, { k: 0 });
  assert.deepEqual(
    z.items.map((a) => a.length),
    [0, 0],
  );
});

interface GoldenCase {
  k: number;
  U: number[][];
  V: number[][];
  train: number[][];
  scores: number[][];
  topk: number[][];
  topkScores: number[][];
}
const golden = JSON.parse(readFileSync(join(__dirname, '../../../golden/factors.json'), 'utf8')) as Record<
  string,
  GoldenCase
>;

for (const [name, g] of Object.entries(golden)) {
  for (const blockUsers of [1, 3, 1000]) {
    test(`NumPy reference "${name}", block of ${blockUsers} users`, () => {
      const r = factorTopK(mat(g.U, 'U.npy'), mat(g.V, 'V.npy'), { k: g.k, train: g.train, blockUsers });
      assert.equal(r.blockUsers, blockUsers);
      assert.deepEqual(
        r.items.map((a) => [...a]),
        g.topk,
      );
      r.scores.forEach((s, u) =>
        s.forEach((x, j) =>
          assert.ok(
            Math.abs(x - g.topkScores[u][j]) <= 1e-12 * (1 + Math.abs(x)),
            `user ${u} rank ${j}: ${x} vs ${g.topkScores[u][j]}`,
          ),
        ),
      );
    });
  }
}

test('a range of users equals the same users of the whole run; float32 data', () => {
  const g = golden.random;
  const U = mat(g.U, 'U.npy');
  const V = mat(g.V, 'V.npy');
  const all = factorTopK(U, V, { k: g.k, train: g.train, blockUsers: 7 });
  const part = factorTopK(U, V, { k: g.k, train: g.train, userStart: 11, userEnd: 29, blockUsers: 4 });
  assert.deepEqual(part.items, all.items.slice(11, 29));
  const f32 = factorTopK(
    { ...U, data: Float32Array.from(U.data) },
    { ...V, data: Float32Array.from(V.data) },
    { k: 5 },
  );
  assert.equal(f32.items.length, 40);
});

test('heap equals a full sort on random integer factors (many ties)', () => {
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let trial = 0; trial < 30; trial++) {
    const nU = 1 + Math.floor(rnd() * 8);
    const nI = 1 + Math.floor(rnd() * 30);
    const d = 1 + Math.floor(rnd() * 3);
    const gen = (n: number) =>
      Array.from({ length: n }, () => Array.from({ length: d }, () => Math.floor(rnd() * 4) - 1));
    const Ur = gen(nU);
    const Vr = gen(nI);
    const train = Ur.map(() => Array.from({ length: nI }, (_, i) => i).filter(() => rnd() < 0.2));
    const k = Math.floor(rnd() * (nI + 3));
    const r = factorTopK(mat(Ur, 'U'), mat(Vr, 'V'), { k, train, blockUsers: 1 + Math.floor(rnd() * 4) });
    Ur.forEach((uu, u) => {
      const s = Vr.map((vv) => vv.reduce((a, x, f) => a + x * uu[f], 0));
      const want = Array.from({ length: nI }, (_, i) => i)
        .filter((i) => !train[u].includes(i))
        .sort((a, b) => s[b] - s[a] || a - b)
        .slice(0, k);
      assert.deepEqual([...r.items[u]], want, `trial ${trial} user ${u}`);
    });
  }
});

test('bad inputs: dimension mismatch and NaN name the file', async () => {
  assert.throws(
    () => checkFactors(mat([[1, 2]], 'user.npy'), mat([[1, 2, 3]], 'item.npy')),
    /item\.npy: expected 2 factors per item \(the number of columns of user\.npy\), got 3/,
  );
  await assert.rejects(
    parallelFactorTopK(mat([[1, 2]], 'user.npy'), mat([[1, 2, 3]], 'item.npy'), { k: 1, threads: 1 }),
    /item\.npy/,
  );
  assert.throws(
    () =>
      checkFactors(
        mat(
          [
            [1, 2],
            [3, NaN],
          ],
          'user.npy',
        ),
        mat([[1, 2]], 'item.npy'),
      ),
    /user\.npy: row 2, factor 2: expected a finite number, got NaN/,
  );
});

test('progress and cancellation (the scoring on the calling thread)', async () => {
  const seen: number[] = [];
  const g = golden.random;
  await parallelFactorTopK(mat(g.U, 'U'), mat(g.V, 'V'), {
    k: 3,
    blockUsers: 16,
    threads: 1,
    progress: { report: (_s, done) => seen.push(done) },
  });
  // users scored, reported as each block of 16 ends (the end may be reported again as the last claim finds no block left)
  assert.deepEqual([...new Set(seen)], [16, 32, 40]);
  assert.deepEqual(
    seen,
    [...seen].sort((a, b) => a - b),
  );
  await assert.rejects(
    parallelFactorTopK(mat(g.U, 'U'), mat(g.V, 'V'), { k: 3, threads: 1, progress: { isCancelled: () => true } }),
    CancelledError,
  );
});

test('the WebAssembly SIMD kernel gives the JavaScript loop’s scores bit for bit', () => {
  // Random float64 factors (no ties to hide a difference), shapes that leave partial quads of
  // users and items, several factor counts, and block sizes that split the users unevenly.
  let seed = 987;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (const [nU, nI, d, B] of [
    [1, 1, 1, 1],
    [5, 7, 3, 2],
    [13, 130, 64, 5],
    [9, 257, 17, 9],
    [40, 33, 8, 16],
  ]) {
    const m = (rows: number, label: string): FactorMatrix => ({
      rows,
      cols: d,
      data: Float64Array.from({ length: rows * d }, () => (rnd() - 0.5) * 10),
      label,
    });
    const U = m(nU, 'U');
    const V = m(nI, 'V');
    const k = Math.min(nI, 6);
    const run = (kernel: 'auto' | 'js') => {
      const sc = new TopKScorer(U, V, k, B, kernel);
      const out = topKBuffers(nU, sc.k, 0);
      for (let b0 = 0; b0 < nU; b0 += B) sc.scoreBlock(b0, Math.min(nU, b0 + B), undefined, out);
      return { kernel: sc.kernel, out };
    };
    const simd = run('auto');
    const js = run('js');
    assert.equal(simd.kernel, 'simd', 'Node has WebAssembly SIMD');
    assert.equal(js.kernel, 'js');
    assert.deepEqual([...simd.out.items], [...js.out.items], `${nU}×${nI}×${d}`);
    // Bit for bit: Object.is also tells 0 from -0.
    simd.out.scores.forEach((x, j) => assert.ok(Object.is(x, js.out.scores[j]), `${nU}×${nI}×${d} [${j}]`));
    // And both equal a plain dot product in factor order.
    for (let u = 0; u < nU; u++)
      for (let j = 0; j < js.out.lengths[u]; j++) {
        const i = js.out.items[u * k + j];
        let s = 0;
        for (let f = 0; f < d; f++) s += U.data[u * d + f] * V.data[i * d + f];
        assert.ok(Object.is(s, js.out.scores[u * k + j]));
      }
  }
});
