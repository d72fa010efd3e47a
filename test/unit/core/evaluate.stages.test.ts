// Progressive results: the point stage has no interval, the provisional intervals after the first
// 200 resamples are those of a 200-resample run with the same seed, and the final results are the
// same as without stages (resample b depends only on (seed, b)).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateFile, type EvaluationStage } from '../../../src/core/evaluate';
import type { Results } from '../../../src/core/results/types';
import {
  bootstrapDistribution,
  ciForStatistics,
  fastBootstrapDistribution,
  provisionalIntervals,
  parallelResamples,
} from '../helpers/bootstrapReference';

const FILES = {
  classification: 'examples/digits-lt/logreg.csv',
  'iw-binary': 'examples/iw-breast-cancer/logreg.csv',
  ranking: 'examples/ranking-debian-deps/cooccurrence.jsonl',
};

interface Stage {
  stage: EvaluationStage;
  results: Results;
  resamples?: { done: number; total: number };
}

async function staged(path: string, n: number, seed: number): Promise<{ stages: Stage[]; returned: Results }> {
  const stages: Stage[] = [];
  const returned = await evaluateFile(path, {
    overrides: { bootstrap: { n, seed } },
    onStage: (stage, results, info) => stages.push({ stage, results, resamples: info.resamples }),
  });
  return { stages, returned };
}

/** Every interval of a results object: metrics, per-class rows, baselines (key → interval). */
function intervals(r: Results): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  for (const [k, m] of Object.entries(r.metrics)) if (m.ci) out[k] = m.ci;
  const perClass = (r.tables.perClass ?? []) as { ci?: [number, number] }[];
  perClass.forEach((row, c) => {
    if (row.ci) out[`perClass.${c}`] = row.ci;
  });
  for (const [name, b] of Object.entries(r.baselines ?? {}))
    for (const [k, m] of Object.entries(b)) if (m.ci) out[`${name}.${k}`] = m.ci;
  return out;
}

/** The results without what differs between two runs of the same input (creation time, timings). */
function comparable(r: Results): unknown {
  return { ...r, createdAt: undefined, timings: undefined };
}

for (const [task, path] of Object.entries(FILES)) {
  test(`${task}: point, provisional (= a 200-resample run), final (= a run without stages)`, async () => {
    const seed = 11;
    const { stages, returned } = await staged(path, 450, seed);
    assert.deepEqual(
      stages.map((s) => s.stage),
      ['point', 'provisional', 'final'],
    );
    const [point, provisional, final] = stages;
    assert.deepEqual(intervals(point.results), {}, 'no interval before the resamples');
    assert.ok(Object.keys(point.results.metrics).length > 0);
    assert.deepEqual(provisional.resamples, { done: 200, total: 450 });
    assert.equal(final.results, returned);

    const run200 = await evaluateFile(path, { overrides: { bootstrap: { n: 200, seed } } });
    const expected = intervals(run200);
    assert.ok(Object.keys(expected).length > 0, 'the 200-resample run has intervals');
    assert.deepEqual(intervals(provisional.results), expected);

    const plain = await evaluateFile(path, { overrides: { bootstrap: { n: 450, seed } } });
    assert.deepEqual(comparable(returned), comparable(plain));
    assert.notDeepEqual(intervals(returned), expected, 'the final intervals use all 450 resamples');
    // Point values are the same in every stage.
    for (const [k, m] of Object.entries(returned.metrics)) assert.equal(point.results.metrics[k]?.value, m.value, k);
  });
}

test('no provisional stage with at most 200 resamples; without bootstrap the point stage is the final results', async () => {
  const { stages } = await staged(FILES.classification, 200, 3);
  assert.deepEqual(
    stages.map((s) => s.stage),
    ['point', 'final'],
  );
  assert.deepEqual(intervals(stages[0].results), {});
  const none = await staged(FILES.classification, 0, 3);
  assert.deepEqual(
    none.stages.map((s) => s.stage),
    ['point', 'final'],
  );
  assert.deepEqual(comparable(none.stages[0].results), comparable(none.returned));
  assert.notEqual(none.stages[0].results, none.returned, 'the point stage is a copy');
});

test('bootstrap engines: the provisional hook sees the first 200 resamples of the same run, and does not change the rest', () => {
  const n = 57;
  const x = Float64Array.from({ length: n }, (_, i) => Math.sin(i * 1.7) + i / n);
  const mean = (c: ArrayLike<number>): number => {
    let s = 0;
    let w = 0;
    for (let i = 0; i < n; i++) {
      s += c[i] * x[i];
      w += c[i];
    }
    return s / w;
  };
  const opts = { confidence: 0.9, seed: 5 };
  // The generator-stream engine (one generator for all resamples).
  let seen: Float64Array[] = [];
  const full = bootstrapDistribution(n, mean, {
    ...opts,
    n: 500,
    provisional: { at: 200, onDistribution: (d) => (seen = d.map((a) => a.slice())) },
  });
  assert.deepEqual(seen, bootstrapDistribution(n, mean, { ...opts, n: 200 }));
  assert.deepEqual(full, bootstrapDistribution(n, mean, { ...opts, n: 500 }));
  let cis: Record<string, [number, number] | null> = {};
  ciForStatistics(n, (c) => [mean(c)], ['mean'], {
    ...opts,
    n: 500,
    provisional: provisionalIntervals(['mean'], 0.9, (c) => (cis = c)),
  });
  assert.deepEqual(
    cis,
    ciForStatistics(n, (c) => [mean(c)], ['mean'], { ...opts, n: 200 }),
  );
  // The per-resample-seeded engine.
  const stat = (c: Int32Array, out: Float64Array): void => {
    out[0] = mean(c);
  };
  seen = [];
  const fast = fastBootstrapDistribution(n, 1, stat, {
    ...opts,
    n: 500,
    provisional: { at: 200, onDistribution: (d) => (seen = d) },
  });
  assert.deepEqual(seen, fastBootstrapDistribution(n, 1, stat, { ...opts, n: 200 }));
  assert.deepEqual(fast, fastBootstrapDistribution(n, 1, stat, { ...opts, n: 500 }));
  // No hook call when the run is not longer than the provisional block.
  let calls = 0;
  bootstrapDistribution(n, mean, { ...opts, n: 200, provisional: { at: 200, onDistribution: () => calls++ } });
  fastBootstrapDistribution(n, 1, stat, { ...opts, n: 200, provisional: { at: 200, onDistribution: () => calls++ } });
  assert.equal(calls, 0);
});

test('parallelResamples from a first index: the two blocks joined are the values of one run', async () => {
  const nRows = 31;
  const stat = (c: Int32Array, out: Float64Array): void => {
    let s = 0;
    for (let i = 0; i < nRows; i++) s += c[i] * (i % 7);
    out[0] = s;
    out[1] = c[0];
  };
  const base = { nRows, K: 2, seed: 9, strata: null, stat, job: null, workerFile: null };
  const whole = await parallelResamples({ ...base, nResamples: 450 });
  const head = await parallelResamples({ ...base, nResamples: 200 });
  const tail = await parallelResamples({ ...base, nResamples: 250, first: 200 });
  assert.deepEqual(Float64Array.from([...head, ...tail]), whole);
  assert.notDeepEqual(tail.subarray(0, 200 * 2), head, 'the second block continues, it does not repeat');
});
