import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyMetric,
  itemMap,
  nameColumn,
  scoreMetric,
  type ItemMapInput,
} from '../../../../../src/core/metrics/ranking/itemMap';
import { pca2, project } from '../../../../../src/core/stats/pca';
import { VOID_ITEM } from '../../../../../src/core/data/rankingData';
import { evaluateFile } from '../../../../../src/core/evaluate';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFactorModel } from '../../../helpers/factors';

const SAME = join(__dirname, '../../../../fixtures/ranking/same');

const close = (a: number, b: number, tol: number, what: string): void =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

// Items a..e by index; vectors for a, b, c, e (d has none).
const vectors: (number[] | null)[] = [[0, 0], [2, 1], [4, 0], null, [1, 3]];
const base = (): ItemMapInput => ({
  source: 'itemEmbeddings',
  file: 'emb.json',
  dim: 2,
  itemIds: ['a', 'b', 'c', 'd', 'e'],
  has: (i) => vectors[i] !== null,
  vector: (i, out) => out.set(vectors[i]!),
  // u0: [b, c, a], u1: [c, (repeat), e], u2 (not evaluated): [a, a, a]; K = 2.
  lists: {
    user: Int32Array.from([0, 1, 2]),
    offsets: Int32Array.from([0, 3, 6, 9]),
    items: Int32Array.from([1, 2, 0, 2, VOID_ITEM, 4, 0, 0, 0]),
  },
  evaluated: Int32Array.from([0, 1]),
  k: 2,
  trainCounts: Int32Array.from([5, 1, 7, 2, 1]),
  category: { column: 'section', of: (id) => ({ a: 'x', b: '', c: 'y|z' })[id] },
  name: { column: 'name', of: (id) => ({ a: 'Alpha', e: 'Echo' })[id] },
});

test('every item with a vector, projected by the PCA of all of them; counts and metadata aligned', () => {
  const out = itemMap(base());
  assert.ok(out.ok);
  const t = out.table;
  assert.deepEqual(t.ids, ['a', 'b', 'c', 'e']);
  assert.equal(t.itemsWithVectors, 4);
  // Top-2 of u0 = {b, c}, of u1 = {c} (the repeat earns nothing); u2 is not evaluated.
  assert.deepEqual(t.recommended, [0, 1, 2, 0]);
  assert.deepEqual(t.popularity, [5, 1, 7, 1]);
  assert.deepEqual(t.categories, ['x', null, 'y|z', null]);
  assert.deepEqual(t.names, ['Alpha', null, null, 'Echo']);
  assert.equal(t.categoryColumn, 'section');
  assert.equal(t.nameColumn, 'name');
  // The same as the PCA of the four vectors.
  const rows = [vectors[0]!, vectors[1]!, vectors[2]!, vectors[4]!];
  const p = pca2(4, 2, (i, o) => o.set(rows[i]));
  assert.ok(p.ok);
  rows.forEach((r, i) => assert.deepEqual([t.x[i], t.y[i]], project(p.pca, r)));
  assert.deepEqual(t.explainedVarianceRatio, p.pca.explainedVarianceRatio);
});

test('the limit keeps the most recommended items, then the most popular, then the first', () => {
  // recommended: a 0, b 1, c 2, e 0; popularity a 5, e 1: a before e.
  let out = itemMap({ ...base(), limit: 3 });
  assert.ok(out.ok);
  assert.deepEqual(out.table.ids, ['a', 'b', 'c']);
  assert.equal(out.table.itemsWithVectors, 4);
  out = itemMap({ ...base(), limit: 1 });
  assert.ok(out.ok);
  assert.deepEqual(out.table.ids, ['c']);
  // Without train counts, ties fall back to the item order.
  out = itemMap({ ...base(), trainCounts: undefined, limit: 3 });
  assert.ok(out.ok);
  assert.deepEqual(out.table.ids, ['a', 'b', 'c']);
  assert.equal(out.table.popularity, undefined);
});

test('fewer than three vectors: a reason, no map', () => {
  const out = itemMap({ ...base(), has: (i) => i < 2 });
  assert.equal(out.ok, false);
  assert.match(!out.ok ? out.reason : '', /2 items have a vector; a 2-D map needs at least 3/);
});

test('nameColumn: name or title, case-insensitive', () => {
  assert.equal(nameColumn(['section', 'Title']), 'Title');
  assert.equal(nameColumn(['name', 'title']), 'name');
  assert.equal(nameColumn(['description']), null);
});

test('score metric: ‖(v_i − v_j) M‖² is the mean squared score difference over users', () => {
  // Hand example: UᵀU / m = diag(4, 1) for U = [[2, 1], [2, −1]] → M = diag(2, 1).
  const m = scoreMetric({ rows: 2, cols: 2, data: [2, 1, 2, -1] });
  [2, 0, 0, 1].forEach((v, i) => close(m[i], v, 1e-15, `M[${i}]`));
  // Random factors: the distance in the metric equals the RMS score difference computed directly.
  let seed = 3;
  const r = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  const d = 4;
  const U = { rows: 50, cols: d, data: Array.from({ length: 50 * d }, r) };
  const M = scoreMetric(U);
  for (let t = 0; t < 10; t++) {
    const vi = Array.from({ length: d }, r);
    const vj = Array.from({ length: d }, r);
    const diff = vi.map((v, k) => v - vj[k]);
    const out = new Float64Array(d);
    applyMetric(diff, M, d, out);
    const inMetric = out.reduce((s, v) => s + v * v, 0);
    let direct = 0;
    for (let u = 0; u < 50; u++) {
      let s = 0;
      for (let k = 0; k < d; k++) s += U.data[u * d + k] * diff[k];
      direct += s * s;
    }
    close(inMetric, direct / 50, 1e-12, `pair ${t}`);
  }
});

test('score metric: the map does not depend on how the scores are split between U and V', () => {
  // U' = U A, V' = V A^{-T} give the same scores; their maps agree up to the sign of each axis.
  let seed = 9;
  const r = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  const d = 3;
  const m = 30;
  const n = 12;
  const U = Array.from({ length: m * d }, r);
  const V = Array.from({ length: n * d }, r);
  const A = [2, 0.5, 0, 0, 1, 0.3, 0.2, 0, 0.7];
  // A^{-T} by the adjugate.
  const [a, b, c, e, f, g, h, i, j] = A;
  const det = a * (f * j - g * i) - b * (e * j - g * h) + c * (e * i - f * h);
  const inv = [
    f * j - g * i,
    c * i - b * j,
    b * g - c * f,
    g * h - e * j,
    a * j - c * h,
    c * e - a * g,
    e * i - f * h,
    b * h - a * i,
    a * f - b * e,
  ].map((x) => x / det);
  const invT = [inv[0], inv[3], inv[6], inv[1], inv[4], inv[7], inv[2], inv[5], inv[8]];
  const mul = (X: number[], rows: number, B: number[]): number[] => {
    const out: number[] = [];
    for (let p = 0; p < rows; p++)
      for (let q = 0; q < d; q++) {
        let s = 0;
        for (let k = 0; k < d; k++) s += X[p * d + k] * B[k * d + q];
        out.push(s);
      }
    return out;
  };
  const mapOf = (UU: number[], VV: number[]) => {
    const M = scoreMetric({ rows: m, cols: d, data: UU });
    const out = itemMap({
      ...base(),
      source: 'itemFactors',
      dim: d,
      itemIds: Array.from({ length: n }, (_, k) => `i${k}`),
      has: () => true,
      vector: (k, o) => applyMetric(VV.slice(k * d, (k + 1) * d), M, d, o),
      trainCounts: undefined,
      category: undefined,
      name: undefined,
    });
    assert.ok(out.ok);
    return out.table;
  };
  const one = mapOf(U, V);
  const two = mapOf(mul(U, m, A), mul(V, n, invT));
  for (let c2 = 0; c2 < 2; c2++) close(one.explainedVariance[c2], two.explainedVariance[c2], 1e-12, `λ${c2 + 1}`);
  for (let k = 0; k < n; k++) {
    close(Math.abs(one.x[k]), Math.abs(two.x[k]), 1e-10, `|x| of i${k}`);
    close(Math.abs(one.y[k]), Math.abs(two.y[k]), 1e-10, `|y| of i${k}`);
  }
});

test('evaluation: the map of the embeddings as written (not normalised); a note when there is none', async () => {
  const r = await evaluateFile(join(SAME, 'run.jsonl'), {
    overrides: { task: 'ranking', k: [1, 3], train: 'train.csv', itemEmbeddings: 'items.json', bootstrap: { n: 0 } },
  });
  const m = r.tables.itemMap!;
  assert.equal(m.source, 'itemEmbeddings');
  // i10 is all zeros: no direction, left out (as for diversity); i9 has no vector.
  const raw: Record<string, number[]> = {
    i1: [1, 0, 0],
    i2: [0, 1, 0],
    i3: [0, 0, 1],
    i4: [1, 1, 0],
    i5: [1, 0, 1],
    i6: [0, 1, 1],
    i7: [1, 1, 1],
    i8: [2, 0, 1],
  };
  assert.deepEqual([...m.ids].sort(), Object.keys(raw).sort());
  assert.equal(m.itemsWithVectors, 8);
  const rows = m.ids.map((id) => raw[id]!);
  const p = pca2(rows.length, 3, (i, o) => o.set(rows[i]!));
  assert.ok(p.ok);
  m.ids.forEach((id, i) => {
    const [x, y] = project(p.pca, raw[id]!);
    close(m.x[i]!, x, 1e-12, `x of ${id}`);
    close(m.y[i]!, y, 1e-12, `y of ${id}`);
  });
  assert.equal(m.k, 3);
  assert.equal(m.popularity!.length, m.ids.length);

  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-map-'));
  copyFileSync(join(SAME, 'run.jsonl'), join(dir, 'run.jsonl'));
  writeFileSync(join(dir, 'emb.json'), JSON.stringify({ i1: [1, 2], i2: [3, 1] }));
  const none = await evaluateFile(join(dir, 'run.jsonl'), {
    overrides: { task: 'ranking', k: [2], itemEmbeddings: 'emb.json', bootstrap: { n: 0 } },
  });
  assert.equal(none.tables.itemMap, undefined);
  const note = none.warnings.find((w) => w.code === 'item-map-skipped');
  assert.match(note?.message ?? '', /emb\.json: no item map: 2 items have a vector; a 2-D map needs at least 3\./);
});

test('evaluation: embeddings of 300 dimensions get a map (the Krylov method), equal to the whole covariance’s', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-map-'));
  copyFileSync(join(SAME, 'run.jsonl'), join(dir, 'run.jsonl'));
  // Items i1…i10 of the run, 300 dimensions: two directions of spread plus a small pattern per item.
  const d = 300;
  const raw: Record<string, number[]> = {};
  for (let k = 1; k <= 10; k++)
    raw[`i${k}`] = Array.from(
      { length: d },
      (_, j) => Math.cos(k) * Math.sin(j + 1) * 3 + Math.sin(2 * k) * Math.cos(0.5 * j) + 0.1 * Math.sin(k * j + 0.3),
    );
  writeFileSync(join(dir, 'emb.json'), JSON.stringify(raw));
  const stages: string[] = [];
  const r = await evaluateFile(join(dir, 'run.jsonl'), {
    overrides: { task: 'ranking', k: [3], itemEmbeddings: 'emb.json', bootstrap: { n: 0 } },
    progress: { report: (stage) => stages.push(stage) },
  });
  // The progress names the map's stage (seconds for large embeddings), after the metrics.
  assert.ok(stages.indexOf('item map') > stages.indexOf('ranking metrics'), stages.join(' → '));
  const m = r.tables.itemMap!;
  assert.ok(m, `no map: ${r.warnings.map((w) => w.message).join(' | ')}`);
  assert.equal(m.dim, d);
  const rows = m.ids.map((id) => raw[id]!);
  const ref = pca2(rows.length, d, (i, o) => o.set(rows[i]!), { method: 'jacobi' });
  assert.ok(ref.ok);
  for (let c = 0; c < 2; c++)
    close(m.explainedVariance[c]!, ref.pca.explainedVariance[c]!, 1e-10 * ref.pca.explainedVariance[0], `λ${c + 1}`);
  m.ids.forEach((id, i) => {
    const [x, y] = project(ref.pca, raw[id]!);
    close(m.x[i]!, x, 1e-8, `x of ${id}`);
    close(m.y[i]!, y, 1e-8, `y of ${id}`);
  });

  // Above 4,096 dimensions: no map, and the note names the limit.
  const wide: Record<string, number[]> = {};
  for (let k = 1; k <= 3; k++) wide[`i${k}`] = Array.from({ length: 4097 }, (_, j) => ((k * j) % 5) - 2);
  writeFileSync(join(dir, 'wide.json'), JSON.stringify(wide));
  const none = await evaluateFile(join(dir, 'run.jsonl'), {
    overrides: { task: 'ranking', k: [3], itemEmbeddings: 'wide.json', bootstrap: { n: 0 } },
  });
  assert.equal(none.tables.itemMap, undefined);
  assert.match(
    none.warnings.find((w) => w.code === 'item-map-skipped')?.message ?? '',
    /wide\.json: no item map: the embeddings have 4097 dimensions, more than the 4096 the map's principal components are computed for\./,
  );
});

test('evaluation: item factors above 256 dimensions get no map, and a note that says why', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-map-'));
  const d = 257;
  const factor = (seed: number, n: number): number[][] =>
    Array.from({ length: n }, (_, i) => Array.from({ length: d }, (_, j) => Math.sin(seed + i * 1.7 + j * 0.31)));
  const model = writeFactorModel(
    dir,
    factor(1, 4),
    factor(2, 6),
    ['u0', 'u1', 'u2', 'u3'],
    ['a', 'b', 'c', 'd', 'e', 'f'],
  );
  writeFileSync(join(dir, 'relevant.csv'), 'user,item\nu0,a\nu1,b\nu2,c\nu3,d\n');
  writeFileSync(
    join(dir, 'eval-lens.json'),
    JSON.stringify({ ...model, relevant: 'relevant.csv', k: [2], bootstrap: { n: 0 } }),
  );
  const r = await evaluateFile(join(dir, 'U.npy'), { configPath: join(dir, 'eval-lens.json') });
  assert.equal(r.tables.itemMap, undefined);
  const note = r.warnings.find((w) => w.code === 'item-map-skipped');
  assert.match(
    note?.message ?? '',
    /V\.npy: no item map: the factors have 257 dimensions, more than the 256 for which the map weighs them by the users' factors/,
  );
});

test('evaluation: embeddings on a line give a map whose results file passes its own schema', async () => {
  const { validateResults } = await import('../../../../../src/core/results/validate');
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-map-'));
  copyFileSync(join(SAME, 'run.jsonl'), join(dir, 'run.jsonl'));
  // Every vector is s·(0.3, −0.7) + (0, 0.37): the first component holds all the variance. These
  // values once gave an explained-variance ratio of 1.0000000000000002, which the schema refuses.
  const emb: Record<string, number[]> = {};
  for (let k = 1; k <= 10; k++) {
    const s = Math.sin(k * 1.3) * 4;
    emb[`i${k}`] = [0.3 * s, -0.7 * s + 0.37];
  }
  writeFileSync(join(dir, 'emb.json'), JSON.stringify(emb));
  const r = await evaluateFile(join(dir, 'run.jsonl'), {
    overrides: { task: 'ranking', k: [3], itemEmbeddings: 'emb.json', bootstrap: { n: 0 } },
  });
  assert.equal(r.tables.itemMap?.explainedVarianceRatio[0], 1);
  assert.deepEqual(validateResults(JSON.parse(JSON.stringify(r))), []);
});

test('evaluation: random embeddings of every shape give results that pass their own schema', async () => {
  const { validateResults } = await import('../../../../../src/core/results/validate');
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-map-'));
  copyFileSync(join(SAME, 'run.jsonl'), join(dir, 'run.jsonl'));
  let state = 17;
  const next = (): number => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const shapes = ['line', 'plane', 'duplicates', 'spread', 'tiny', 'huge'] as const;
  let maps = 0;
  for (let t = 0; t < 24; t++) {
    const d = [1, 2, 3, 17, 300][t % 5]!;
    const shape = shapes[t % shapes.length]!;
    const a = Array.from({ length: d }, () => next() - 0.5);
    const b = Array.from({ length: d }, () => next() - 0.5);
    const emb: Record<string, number[]> = {};
    for (let k = 1; k <= 10; k++) {
      const s = next() * 8 - 4;
      const u = next() * 8 - 4;
      emb[`i${k}`] = a.map((x, j) => {
        if (shape === 'line') return s * x + 0.25;
        if (shape === 'plane') return s * x + u * b[j]!;
        if (shape === 'duplicates') return k % 2 === 0 ? x : b[j]!;
        if (shape === 'tiny') return (s * x + u * b[j]!) * 1e-9;
        if (shape === 'huge') return (s * x + u * b[j]!) * 1e9;
        return next() - 0.5;
      });
    }
    writeFileSync(join(dir, 'emb.json'), JSON.stringify(emb));
    const r = await evaluateFile(join(dir, 'run.jsonl'), {
      overrides: { task: 'ranking', k: [3], itemEmbeddings: 'emb.json', bootstrap: { n: 0 } },
    });
    const what = `case ${t}: ${shape}, ${d} dimensions`;
    assert.deepEqual(validateResults(JSON.parse(JSON.stringify(r))), [], what);
    const m = r.tables.itemMap;
    const note = r.warnings.find((w) => w.code === 'item-map-skipped');
    assert.ok(m !== undefined || note !== undefined, `${what}: a map or a note`);
    if (m) {
      maps++;
      const [r1, r2] = m.explainedVarianceRatio;
      assert.ok(r1 >= r2 && r2 >= 0 && r1 <= 1 && r1 + r2 <= 1 + 1e-12, `${what}: ratios ${r1}, ${r2}`);
    }
  }
  assert.ok(maps >= 20, `${maps} maps of 24`);
});

test('itemPopularity: the column replaces the train counts in the table and in the limit order', () => {
  // units sold a 0.5, b 1, c 2.5, d 4, e 3: with limit 3, recommended b 1, c 2 come first, then e (3) before a (0.5)
  const itemPopularity = { column: 'units', values: Float64Array.from([0.5, 1, 2.5, 4, 3]) };
  const out = itemMap({ ...base(), itemPopularity, limit: 3 });
  assert.ok(out.ok);
  assert.deepEqual(out.table.ids, ['b', 'c', 'e']);
  assert.deepEqual(out.table.popularity, [1, 2.5, 3]);
  assert.equal(out.table.popularityColumn, 'units');
  // with the train counts (a 5, e 1): a instead of e, and no column named
  const counts = itemMap({ ...base(), limit: 3 });
  assert.ok(counts.ok);
  assert.deepEqual(counts.table.ids, ['a', 'b', 'c']);
  assert.equal(counts.table.popularityColumn, undefined);
});
