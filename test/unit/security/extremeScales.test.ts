// Factor models and vectors of extreme size: each gives a clear error naming the file, or the
// result of the same values at an ordinary scale, never "unexpected error … This is a bug".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvalLensError } from '../../../src/core/diagnostics';
import { evaluateFile } from '../../../src/core/evaluate';
import { pca2 } from '../../../src/core/stats/pca';
import { scoreMetric } from '../../../src/core/metrics/ranking/itemMap';
import { npyFloat64, writeFactorModel } from '../helpers/factors';

const U = [
  [1, 0.5],
  [0.2, 1],
  [-0.3, 0.4],
];
const V = [
  [0.9, 0.1],
  [0.1, 0.8],
  [0.5, 0.5],
  [-0.2, 0.3],
];
const users = ['u0', 'u1', 'u2'];
const items = ['a', 'b', 'c', 'd'];
const metric = (r: { metrics: Record<string, unknown> }, key: string): number =>
  (r.metrics[key] as { value: number }).value;
const scaled = (m: number[][], s: number) => m.map((r) => r.map((x) => x * s));

function model(u: number[][], v: number[][], extra: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-scales-'));
  const cfg = writeFactorModel(dir, u, v, users, items);
  writeFileSync(join(dir, 'relevant.csv'), 'user,item\nu0,a\nu1,b\nu2,c\n');
  writeFileSync(
    join(dir, 'eval-lens.json'),
    JSON.stringify({ ...cfg, relevant: 'relevant.csv', k: [2], bootstrap: { n: 0 }, ...extra }),
  );
  return dir;
}

async function refusal(dir: string, code: string): Promise<EvalLensError> {
  try {
    await evaluateFile(join(dir, 'U.npy'), { configPath: join(dir, 'eval-lens.json') });
  } catch (e) {
    assert.ok(e instanceof EvalLensError, String(e));
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected ${code}`);
}

test('factors around 1e200 whose scores overflow, or 1e-170 whose scores underflow: an error naming U', async () => {
  const big = await refusal(model(scaled(U, 1e200), scaled(V, 1e200)), 'factors-too-large');
  assert.match(
    big.message,
    /U\.npy: the scores U\[u\]·V\[i\] can reach about 1e400 .* divide the factors by a constant/,
  );
  const tiny = await refusal(model(scaled(U, 1e-170), scaled(V, 1e-170)), 'factors-too-small');
  assert.match(
    tiny.message,
    /U\.npy: the scores U\[u\]·V\[i\] are at most about 1e-340 .* multiply the factors by a constant/,
  );
});

test('U around 1e200 and V around 1e-200 (ordinary scores): the lists and item map of the model at scale 1', async () => {
  const plain = model(U, V);
  const one = await evaluateFile(join(plain, 'U.npy'), { configPath: join(plain, 'eval-lens.json') });
  const dir = model(scaled(U, 2 ** 664), scaled(V, 2 ** -664));
  const big = await evaluateFile(join(dir, 'U.npy'), { configPath: join(dir, 'eval-lens.json') });
  assert.deepEqual(big.metrics, one.metrics);
  const map = (r: typeof one) => r.tables.itemMap!;
  // 2^664 · 2^-664: the same scores, the same metric (UᵀU/m)^½·V, the same map
  assert.deepEqual(map(big).x, map(one).x);
  assert.deepEqual(map(big).explainedVariance, map(one).explainedVariance);
  // scoreMetric of U·2^600: 2^600 times that of U (UᵀU would overflow)
  const m1 = scoreMetric({ rows: 3, cols: 2, data: U.flat() });
  const mBig = scoreMetric({ rows: 3, cols: 2, data: scaled(U, 2 ** 600).flat() });
  assert.deepEqual(
    Array.from(mBig),
    Array.from(m1, (x) => x * 2 ** 600),
  );
});

test('factors of shape (n, 0): an error naming the file', async () => {
  const dir = model(U, V);
  writeFileSync(join(dir, 'U.npy'), npyFloat64([], [3, 0]));
  writeFileSync(join(dir, 'V.npy'), npyFloat64([], [4, 0]));
  const e = await refusal(dir, 'bad-factors');
  assert.match(e.message, /U\.npy: expected at least one factor per row, got shape \(3, 0\)/);
});

test('10^5 users with K = 10^5: refused before any list is allocated', async () => {
  const n = 100_000;
  const dir = model(U, V);
  writeFileSync(join(dir, 'U.npy'), npyFloat64(new Array<number>(n).fill(1), [n, 1]));
  writeFileSync(join(dir, 'V.npy'), npyFloat64(new Array<number>(n).fill(1), [n, 1]));
  const ids = (p: string) => Array.from({ length: n }, (_, i) => `${p}${i}`).join('\n') + '\n';
  writeFileSync(join(dir, 'users.txt'), ids('u'));
  writeFileSync(join(dir, 'items.txt'), ids('i'));
  writeFileSync(
    join(dir, 'eval-lens.json'),
    JSON.stringify({
      ...JSON.parse('{}'),
      task: 'ranking',
      userFactors: 'U.npy',
      itemFactors: 'V.npy',
      userIds: 'users.txt',
      itemIds: 'items.txt',
      relevant: 'relevant.csv',
      k: [100000],
      bootstrap: { n: 0 },
    }),
  );
  const e = await refusal(dir, 'factor-lists-too-large');
  assert.match(e.message, /U\.npy: 100000 users × K = 100000 are 10000000000 list slots, more than the 100000000/);
});

test('PCA of vectors around 1e200 or 1e-170: the components of the same vectors at scale 1', () => {
  const rows = [
    [1, 2, 0.5],
    [0.3, -1, 2],
    [2, 0.1, -0.7],
    [-1, 0.4, 0.2],
  ];
  const fit = (s: number) => {
    const out = pca2(rows.length, 3, (i, r) => r.set(rows[i]!.map((x) => x * s)));
    assert.ok(out.ok);
    return out.pca;
  };
  const one = fit(1);
  for (const s of [2 ** 450, 2 ** -565]) {
    const p = fit(s);
    assert.deepEqual(Array.from(p.components), Array.from(one.components));
    assert.deepEqual(p.explainedVarianceRatio, one.explainedVarianceRatio);
    assert.deepEqual(
      Array.from(p.mean),
      Array.from(one.mean, (x) => x * s),
    );
  }
  // 1e200: variances of 1e400 cannot be a double, so no map, with the reason
  const huge = pca2(rows.length, 3, (i, r) => r.set(rows[i]!.map((x) => x * 1e200)));
  assert.equal(huge.ok, false);
  assert.match(!huge.ok ? huge.reason : '', /too large to map .* beyond the range of a double/);
});

function embeddingRun(vectors: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-emb-'));
  writeFileSync(
    join(dir, 'run.jsonl'),
    '{"user":"u0","items":["a","b","c"],"relevant":["a"]}\n{"user":"u1","items":["c","d","a"],"relevant":["d"]}\n',
  );
  writeFileSync(join(dir, 'emb.json'), vectors);
  writeFileSync(
    join(dir, 'eval-lens.json'),
    JSON.stringify({ task: 'ranking', itemEmbeddings: 'emb.json', k: [3], bootstrap: { n: 0 } }),
  );
  return dir;
}

test('embeddings scaled by 1e200 or 1e-170 keep their directions: the diversity of the same vectors at scale 1', async () => {
  const vec = { a: [1, 0, 0.5], b: [0.2, 1, 0], c: [0.3, 0.3, 1], d: [-1, 0.5, 0.2] };
  const run = async (s: number) => {
    const scaledVec = Object.fromEntries(Object.entries(vec).map(([k, v]) => [k, v.map((x) => x * s)]));
    const dir = embeddingRun(JSON.stringify(scaledVec));
    return evaluateFile(join(dir, 'run.jsonl'), { configPath: join(dir, 'eval-lens.json') });
  };
  const one = await run(1);
  const key = Object.keys(one.metrics).find((k) => k.startsWith('diversity@'))!;
  assert.ok(key, Object.keys(one.metrics).join(', '));
  for (const s of [1e200, 1e-170]) {
    const r = await run(s);
    assert.ok(
      !r.warnings.some((w) => w.code === 'embedding-zero-vector'),
      JSON.stringify(r.warnings.map((w) => w.message)),
    );
    const [a, b] = [metric(r, key), metric(one, key)];
    assert.ok(Math.abs(a - b) < 1e-12, `${s}: ${a} vs ${b}`);
  }
});

test('embeddings in a JSON nested 200,000 levels deep: json-too-deep naming the file, before parsing', async () => {
  const dir = embeddingRun('{"a":' + '['.repeat(200_000) + ']'.repeat(200_000) + '}');
  await assert.rejects(
    evaluateFile(join(dir, 'run.jsonl'), { configPath: join(dir, 'eval-lens.json') }),
    (e: unknown) => {
      assert.ok(e instanceof EvalLensError, String(e));
      assert.equal(e.code, 'json-too-deep');
      assert.match(e.message, /emb\.json:1: expected JSON nested at most 1000 levels deep/);
      return true;
    },
  );
});
