// diversity_std@K and alignment_std@K: the population standard deviation (ddof = 0) over the users
// where the per-user value is defined, beside the mean. A hand-computed case, then numpy's np.std
// through the whole evaluation (scripts/golden/ranking.py writes test/golden/ranking_spread.json).
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

async function evaluate(
  users: { user: string; items: string[]; relevant: string[] }[],
  itemVectors: Record<string, number[]>,
  userVectors: Record<string, number[]> | null,
  k: number[],
) {
  const dir = mkdtempSync(join(tmpdir(), 'ranking-spread-'));
  writeFileSync(join(dir, 'run.jsonl'), users.map((u) => JSON.stringify(u)).join('\n') + '\n');
  writeFileSync(join(dir, 'items.json'), JSON.stringify(itemVectors));
  if (userVectors) writeFileSync(join(dir, 'users.json'), JSON.stringify(userVectors));
  const overrides = {
    task: 'ranking',
    k,
    itemEmbeddings: 'items.json',
    ...(userVectors ? { userEmbeddings: 'users.json' } : {}),
    bootstrap: { n: 0 },
  } as EvalConfig;
  return evaluateFile(join(dir, 'run.jsonl'), { overrides });
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
  // The baselines have no train here: only the run. Every golden key is there, and no other spread.
  const spreads = Object.keys(r.metrics).filter((k) => k.includes('_std@'));
  assert.deepEqual(
    spreads.sort(),
    Object.keys(g.metrics)
      .filter((k) => k.includes('_std@'))
      .sort(),
  );
});
