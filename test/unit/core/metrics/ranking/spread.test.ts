// ndcg_std@K, diversity_std@K and alignment_std@K: the population standard deviation (ddof = 0)
// over the users where the per-user value is defined, beside the mean. Hand-computed cases, then
// numpy's np.std through the whole evaluation (scripts/golden/ranking.py writes
// test/golden/ranking_spread.json, and the spread of scikit-learn's per-user ndcg_score into
// test/golden/ranking.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../../src/core/evaluate';
import { stdDefined } from '../../../../../src/core/metrics/ranking/evaluateLists';
import type { EvalConfig } from '../../../../../src/core/config/types';

function close(a: number | null | undefined, b: number, tol = 1e-12, what = ''): void {
  assert.ok(typeof a === 'number' && Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);
}

type User = { user: string; items: string[]; relevant: string[] | Record<string, number> };

/** Evaluates the users as a JSONL run (inline relevance) with `files` (name → JSON) beside it; no bootstrap unless asked. */
async function evaluateRun(users: User[], config: Partial<EvalConfig>, files: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'ranking-spread-'));
  writeFileSync(join(dir, 'run.jsonl'), users.map((u) => JSON.stringify(u)).join('\n') + '\n');
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(content));
  const overrides = { task: 'ranking', bootstrap: { n: 0 }, ...config } as EvalConfig;
  return evaluateFile(join(dir, 'run.jsonl'), { overrides });
}

async function evaluate(
  users: User[],
  itemVectors: Record<string, number[]>,
  userVectors: Record<string, number[]> | null,
  k: number[],
) {
  return evaluateRun(
    users,
    { k, itemEmbeddings: 'items.json', ...(userVectors ? { userEmbeddings: 'users.json' } : {}) },
    { 'items.json': itemVectors, ...(userVectors ? { 'users.json': userVectors } : {}) },
  );
}

test('stdDefined: population SD over the defined values; null when none; 0 for one', () => {
  // values 1, 2, 4 (NaN left out): mean 7/3, SD = sqrt(((−4/3)² + (−1/3)² + (5/3)²) / 3) = sqrt(42/27)
  close(stdDefined(Float64Array.from([1, NaN, 2, 4])), Math.sqrt(42 / 27));
  assert.equal(stdDefined(Float64Array.from([NaN, NaN])), null);
  assert.equal(stdDefined(Float64Array.from([0.3])), 0);
});

test('diversity_std@K and alignment_std@K: hand-computed example', async () => {
  // a = (1, 0), b = (0, 1), c = (1, 1)/√2; s = cos(a, c) = cos(b, c) = 1/√2, cos(a, b) = 0.
  // Lists [a, b], [a, c], [b, c]: diversity@2 = 1, 1 − s, 1 − s; mean = 1 − 2s/3;
  // deviations 2s/3, −s/3, −s/3 → variance (4s²/9 + 2·s²/9) / 3 = 2s²/9 = 1/9 → diversity_std@2 = 1/3.
  // Profiles: u1 = a, u2 = a, u3 = b. alignment@2: u1 (cos(a,a) + cos(a,b))/2 = 1/2,
  // u2 (1 + s)/2, u3 (cos(b,b) + cos(b,c))/2 = (1 + s)/2 → mean = (1/2 + 1 + s)/3 = (3/2 + s)/3;
  // with d = s/2 the values are x, x + d, x + d: deviations −2d/3, d/3, d/3 → variance 2d²/9,
  // alignment_std@2 = d·√2/3 = 1/6.
  const s = Math.SQRT1_2;
  const r = await evaluate(
    [
      { user: 'u1', items: ['a', 'b'], relevant: ['a'] },
      { user: 'u2', items: ['a', 'c'], relevant: ['a'] },
      { user: 'u3', items: ['b', 'c'], relevant: ['b'] },
    ],
    { a: [1, 0], b: [0, 1], c: [s, s] },
    { u1: [1, 0], u2: [1, 0], u3: [0, 1] },
    [2],
  );
  close(r.metrics['diversity@2']!.value, 1 - (2 * s) / 3);
  close(r.metrics['diversity_std@2']!.value, 1 / 3);
  close(r.metrics['alignment@2']!.value, (1.5 + s) / 3);
  close(r.metrics['alignment_std@2']!.value, 1 / 6);
  // A spread, not a mean: no bootstrap interval, and a note naming the convention.
  const withCi = await evaluate(
    [
      { user: 'u1', items: ['a', 'b'], relevant: ['a'] },
      { user: 'u2', items: ['a', 'c'], relevant: ['a'] },
    ],
    { a: [1, 0], b: [0, 1], c: [s, s] },
    null,
    [2],
  );
  assert.match(withCi.metrics['diversity_std@2']!.note!, /population standard deviation \(divide by n\)/);
  assert.equal(withCi.metrics['diversity_std@2']!.ci, undefined);
  assert.ok(!('alignment_std@2' in withCi.metrics), 'no alignment without profiles');
  // Keys in order: each spread right after its mean, at every K.
  const keys = r.families.ranking!.filter((k) => /^(diversity|alignment)/.test(k));
  assert.deepEqual(keys, ['diversity@2', 'diversity_std@2', 'alignment@2', 'alignment_std@2']);
});

test('diversity_std@K and alignment_std@K equal numpy np.std (golden)', async () => {
  const g = JSON.parse(readFileSync(join(__dirname, '../../../../golden/ranking_spread.json'), 'utf8')) as {
    ks: number[];
    users: { user: string; items: string[]; relevant: string[] }[];
    itemVectors: Record<string, number[]>;
    userVectors: Record<string, number[]>;
    metrics: Record<string, number>;
  };
  const r = await evaluate(g.users, g.itemVectors, g.userVectors, g.ks);
  for (const [key, want] of Object.entries(g.metrics)) close(r.metrics[key]?.value, want, 1e-12, key);
  // Every user's one relevant item is first in its list: nDCG@K = 1 for all, so its spread is 0.
  for (const k of g.ks) assert.equal(r.metrics[`ndcg_std@${k}`]!.value, 0, `ndcg_std@${k}`);
  // The baselines have no train here: only the run. Every golden key is there, and no other embedding spread.
  const spreads = Object.keys(r.metrics).filter((k) => /^(diversity|alignment)_std@/.test(k));
  assert.deepEqual(
    spreads.sort(),
    Object.keys(g.metrics)
      .filter((k) => k.includes('_std@'))
      .sort(),
  );
});

test('ndcg_std@K: hand-computed example; no interval; listed right after the ndcg@K keys', async () => {
  // Binary relevance, R_u = {a} for every user, c = 1/log2(3) (the discount of rank 2; IDCG = 1):
  // [a, b] → nDCG@2 = 1, [b, a] → c, [b, c] → 0. Mean μ = (1 + c)/3; population variance
  // (1 + c² + 0)/3 − μ² = 2(1 − c + c²)/9 → ndcg_std@2 = sqrt(2(1 − c + c²))/3 ≈ 0.41289.
  // At K = 1 the values are 1, 0, 0: μ = 1/3, variance 1/3 − 1/9 = 2/9 → ndcg_std@1 = √2/3.
  const c = 1 / Math.log2(3);
  const r = await evaluateRun(
    [
      { user: 'u1', items: ['a', 'b'], relevant: ['a'] },
      { user: 'u2', items: ['b', 'a'], relevant: ['a'] },
      { user: 'u3', items: ['b', 'c'], relevant: ['a'] },
    ],
    { k: [1, 2], bootstrap: { n: 50, confidence: 0.95, seed: 0, stratified: false } },
  );
  close(r.metrics['ndcg@2']!.value, (1 + c) / 3);
  close(r.metrics['ndcg_std@2']!.value, Math.sqrt(2 * (1 - c + c * c)) / 3);
  close(r.metrics['ndcg_std@2']!.value, 0.41288755541384187, 1e-15, 'the decimal in the docs');
  close(r.metrics['ndcg_std@1']!.value, Math.SQRT2 / 3);
  // A spread, not a mean: the mean has its bootstrap interval, the spread none; its note names the convention.
  assert.ok(r.metrics['ndcg@2']!.ci, 'ndcg@2 has an interval');
  assert.equal(r.metrics['ndcg_std@2']!.ci, undefined);
  assert.equal(r.metrics['ndcg_std@1']!.ci, undefined);
  assert.match(r.metrics['ndcg_std@2']!.note!, /population standard deviation \(divide by n\) of the per-user ndcg@2/);
  // The accuracy family's order: each metric at every K, nDCG's spread right after nDCG's block.
  const keys = r.families.ranking!.filter((k) => /^(precision|ndcg|map)/.test(k));
  assert.deepEqual(keys, [
    'precision@1',
    'precision@2',
    'ndcg@1',
    'ndcg@2',
    'ndcg_std@1',
    'ndcg_std@2',
    'map@1',
    'map@2',
  ]);
});

test('ndcg_std@K: one evaluated user → 0; no evaluated user → null (as diversity_std@K)', async () => {
  const vectors = { a: [1, 0], b: [0, 1], c: [1, 1] };
  const one = await evaluateRun(
    [
      { user: 'u1', items: ['b', 'a'], relevant: ['a'] },
      { user: 'u2', items: ['a', 'c'], relevant: [] },
    ],
    { k: [2], itemEmbeddings: 'items.json' },
    { 'items.json': vectors },
  );
  assert.equal(one.metrics.users_evaluated!.value, 1);
  close(one.metrics['ndcg@2']!.value, 1 / Math.log2(3));
  assert.equal(one.metrics['ndcg_std@2']!.value, 0);
  assert.equal(one.metrics['diversity_std@2']!.value, 0);
  const none = await evaluateRun(
    [
      { user: 'u1', items: ['b', 'a'], relevant: [] },
      { user: 'u2', items: ['a', 'c'], relevant: [] },
    ],
    { k: [2], itemEmbeddings: 'items.json' },
    { 'items.json': vectors },
  );
  assert.equal(none.metrics.users_evaluated!.value, 0);
  assert.equal(none.metrics['ndcg@2']!.value, null);
  assert.equal(none.metrics['ndcg_std@2']!.value, null);
  assert.equal(none.metrics['diversity_std@2']!.value, null);
});

test('ndcg_std@K equals numpy np.std of scikit-learn ndcg_score per user (golden: linear, exp, binary)', async () => {
  const g = JSON.parse(readFileSync(join(__dirname, '../../../../golden/ranking.json'), 'utf8')) as {
    ks: number[];
    users: { user: string; items: string[]; relevant: Record<string, number> }[];
    ndcg_std: Record<'linear' | 'exp' | 'binary', Record<string, number>>;
  };
  for (const gain of ['linear', 'exp', 'binary'] as const) {
    const users = g.users.map((u) => ({ ...u, relevant: gain === 'binary' ? Object.keys(u.relevant) : u.relevant }));
    const r = await evaluateRun(users, { k: g.ks, gain: gain === 'exp' ? 'exp' : 'linear' });
    assert.equal(r.metrics.users_evaluated!.value, g.users.length);
    for (const k of g.ks) {
      const want = g.ndcg_std[gain][k]!;
      assert.ok(want > 0.05, `${gain} K = ${k}: a spread worth testing (${want})`);
      close(r.metrics[`ndcg_std@${k}`]?.value, want, 1e-12, `${gain} ndcg_std@${k}`);
    }
  }
});
