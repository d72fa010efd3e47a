// The one bootstrap step (src/core/tasks/bootstrapService.ts): a key added to a plan gets its
// interval (a percentile interval of the key's statistic over resamples drawn from (seed, b), here
// recomputed from resamples materialised one by one), its provisional interval (those of a run of
// 200 resamples), its place (a table row when the task's `place` takes it), a note when it has
// none; a caller that resamples the run itself gets the plan and no interval is computed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Warnings } from '../../../../src/core/diagnostics';
import { CONFIG_DEFAULTS, type ResolvedConfig } from '../../../../src/core/config/types';
import { ResultsBuilder } from '../../../../src/core/results/builder';
import type { Results } from '../../../../src/core/results/types';
import { percentileInterval } from '../../../../src/core/stats/bootstrap';
import { planIntervals, strataInPositionOrder } from '../../../../src/core/stats/planIntervals';
import { drawResample, stratumPositions } from '../../../../src/core/stats/resampleDraws';
import type { ResamplingPlan } from '../../../../src/core/stats/resamplingPlan';
import { bootstrapStep } from '../../../../src/core/tasks/bootstrapService';
import type { TaskContext } from '../../../../src/core/tasks/types';

const x = [0.2, 1.5, 3.1, 0.7, 2.2, 5.0, 4.4, 0.9, 1.1];
const n = x.length;

/** Mean of x and of x² over the resample, walking the rows in reversed order (position = n − 1 − i). */
function planOf(keys: string[] = ['mean_x', 'mean_x2']): ResamplingPlan {
  const position = Int32Array.from({ length: n }, (_, i) => n - 1 - i);
  return {
    unit: 'row',
    n,
    ids: null,
    truth: null,
    strata: null,
    keys,
    position,
    draws: 'per-resample',
    worker: null,
    build: () => (counts, out) => {
      let c = 0;
      let s = 0;
      let s2 = 0;
      for (let i = 0; i < n; i++) {
        const m = counts[position[i]];
        c += m;
        s += m * x[i];
        s2 += m * x[i] * x[i];
      }
      out[0] = s / c;
      if (keys.length > 1) out[1] = s2 / c;
      if (keys.length > 2) out[2] = NaN; // never defined
    },
  };
}

/** The key's values over resamples 0..B−1, each resample drawn on its own (positions of the reversed walk). */
function reference(B: number, seed: number, f: (v: number) => number): number[] {
  const out: number[] = [];
  const counts = new Int32Array(n);
  for (let b = 0; b < B; b++) {
    counts.fill(0);
    drawResample(seed, b, counts, null);
    let c = 0;
    let s = 0;
    for (let i = 0; i < n; i++) {
      c += counts[n - 1 - i];
      s += counts[n - 1 - i] * f(x[i]);
    }
    out.push(s / c);
  }
  return out;
}

function context(B: number, seed: number): { ctx: TaskContext; results: ResultsBuilder; warnings: Warnings } {
  const results = new ResultsBuilder();
  const warnings = new Warnings();
  const config = {
    ...CONFIG_DEFAULTS,
    bootstrap: { n: B, confidence: 0.9, seed, stratified: false },
  } as unknown as ResolvedConfig;
  return { ctx: { path: 'rows.csv', baseDir: '.', config, warnings, results }, results, warnings };
}

test('bootstrapStep: each key of the plan gets the percentile interval of its resamples', async () => {
  const { ctx, results, warnings } = context(300, 11);
  const mean = x.reduce((a, b) => a + b, 0) / n;
  results.metric('classification', 'mean_x', mean);
  results.metric('classification', 'mean_x2', x.reduce((a, b) => a + b * b, 0) / n);
  await bootstrapStep({ plan: planOf(), points: {}, source: null }, ctx);
  assert.deepEqual(
    results.metrics.mean_x.ci,
    percentileInterval(
      reference(300, 11, (v) => v),
      0.9,
    ),
  );
  assert.deepEqual(
    results.metrics.mean_x2.ci,
    percentileInterval(
      reference(300, 11, (v) => v * v),
      0.9,
    ),
  );
  assert.ok(results.metrics.mean_x.ci![0] < mean && mean < results.metrics.mean_x.ci![1]);
  assert.ok(results.timings.bootstrap >= 0);
  assert.deepEqual(warnings.list, []);
});

test('bootstrapStep: the point stage first, then provisional intervals of the first 200 resamples in a snapshot only', async () => {
  const { ctx, results } = context(260, 4);
  results.metric('classification', 'mean_x', 2);
  results.metric('classification', 'mean_x2', 7);
  const events: string[] = [];
  const snapshots: Results['metrics'][] = [];
  ctx.stages = {
    point: async (source) => {
      events.push(`point ${source.path}`);
    },
    provisional: (done, total, apply) => {
      events.push(`provisional ${done}/${total}`);
      const snap = { metrics: structuredClone(results.metrics), tables: {} } as Results;
      apply(snap);
      snapshots.push(snap.metrics);
      assert.equal(results.metrics.mean_x.ci, undefined, 'the results being built stay final-only');
    },
  };
  await bootstrapStep(
    { plan: planOf(), points: {}, source: { path: 'rows.csv', format: 'csv', rows: n, rowsUsed: n, columns: {} } },
    ctx,
  );
  assert.deepEqual(events, ['point rows.csv', 'provisional 200/260']);
  assert.deepEqual(
    snapshots[0].mean_x.ci,
    percentileInterval(
      reference(200, 4, (v) => v),
      0.9,
    ),
  );
  // the final intervals are those of one run of 260 resamples
  const once = await planIntervals(planOf(), { n: 260, confidence: 0.9, seed: 4 });
  assert.deepEqual(results.metrics.mean_x.ci, once.mean_x);
});

test('bootstrapStep: a key the task places goes there; a key never defined gets a note, not an interval', async () => {
  const { ctx, results, warnings } = context(50, 2);
  results.metric('classification', 'mean_x', 2);
  results.metric('classification', 'undefined_key', 1);
  const placed: [string, [number, number] | null][] = [];
  await bootstrapStep(
    {
      plan: planOf(['mean_x', 'row.mean_x2', 'undefined_key']),
      points: {},
      place: (_target, key, ci) => {
        if (!key.startsWith('row.')) return false;
        placed.push([key, ci]);
        return true;
      },
      source: null,
    },
    ctx,
  );
  assert.deepEqual(placed, [
    [
      'row.mean_x2',
      percentileInterval(
        reference(50, 2, (v) => v * v),
        0.9,
      ),
    ],
  ]);
  assert.equal(results.metrics['row.mean_x2'], undefined);
  assert.equal(results.metrics.undefined_key.ci, undefined);
  assert.deepEqual(
    warnings.list.map((w) => [w.code, w.message]),
    [
      [
        'ci-undefined',
        'No bootstrap interval for undefined_key: the value is undefined in more than half of the 50 resamples.',
      ],
    ],
  );
});

test('bootstrapStep: a caller that resamples the run itself gets the plan, and nothing is computed', async () => {
  const { ctx, results } = context(100, 1);
  results.metric('classification', 'mean_x', 2);
  const plan = planOf();
  let got: ResamplingPlan | null = null;
  ctx.onResampling = (p) => (got = p);
  ctx.stages = {
    point: async () => assert.fail('no stage: the caller resamples'),
    provisional: () => assert.fail('no stage: the caller resamples'),
  };
  await bootstrapStep(
    { plan, points: {}, source: { path: 'rows.csv', format: 'csv', rows: n, rowsUsed: n, columns: {} } },
    ctx,
  );
  assert.equal(got, plan);
  assert.equal(results.metrics.mean_x.ci, undefined);
  assert.equal(results.timings.bootstrap, undefined);
});

test('strataInPositionOrder: unit i’s stratum at its position; stratified draws keep each stratum’s size', () => {
  const strata = Int32Array.from([0, 0, 1, 1, 1, 2, 0, 2, 1]);
  const position = Int32Array.from({ length: n }, (_, i) => (i * 4) % n); // 4 is prime to 9: a permutation
  const st = strataInPositionOrder({ n, strata, position })!;
  for (let i = 0; i < n; i++) assert.equal(st[position[i]], strata[i]);
  assert.equal(strataInPositionOrder({ n, strata, position: null }), strata);
  assert.equal(strataInPositionOrder({ n, strata: null, position }), null);
  const lists = stratumPositions(n, st)!;
  const counts = new Int32Array(n);
  drawResample(7, 3, counts, lists);
  for (const at of lists) {
    let total = 0;
    for (const p of at) total += counts[p];
    assert.equal(total, at.length);
  }
});
