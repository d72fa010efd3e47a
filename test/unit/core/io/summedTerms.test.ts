// The NLL and Brier terms and the true-class ranks added up while a file is read in one pass
// (`keepTerms: false`): the same point estimates, bit for bit, as the per-row terms give, and the
// per-row terms kept wherever a later step or another order of reading needs them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Warnings } from '../../../../src/core/diagnostics';
import { CONFIG_DEFAULTS, type EvalConfig } from '../../../../src/core/config/types';
import type { ClassificationData } from '../../../../src/core/data/classificationData';
import { cutClassificationData } from '../../../../src/core/data/cutRows';
import { evaluateFile } from '../../../../src/core/evaluate';
import { loadClassification, type LoadClassificationOptions } from '../../../../src/core/io/loadClassification';
import type { ParallelReadOptions } from '../../../../src/core/io/parallelClassification';
import {
  aggregateClassification,
  aggregateUnitBatch,
  prepareClassification,
} from '../../../../src/core/metrics/classification';
import { createRng } from '../../../../src/core/stats/rng';
import { configOf } from '../../helpers/ioConfig';
import { tmpFile } from '../../helpers/io';
import { bundledWorker } from '../../helpers/bundledWorker';

const workerFile = bundledWorker('src/core/io/classificationReadWorker.ts');
const ONE_PASS: ParallelReadOptions = { workerFile: null };

async function load(
  path: string,
  cfg: EvalConfig,
  keep: LoadClassificationOptions,
  parallel: ParallelReadOptions = ONE_PASS,
  resamples = 0,
): Promise<ClassificationData> {
  // with resamples to come the one pass reads into shared memory, for the bootstrap's threads
  const config = { ...configOf(cfg), bootstrap: { ...CONFIG_DEFAULTS.bootstrap, n: resamples } };
  return (await loadClassification(path, config, new Warnings(), undefined, keep, parallel)).data;
}

/**
 * A file of `n` rows and `C` classes with random scores (6 decimals, so that ranks tie, some true
 * classes at probability 0 or 1 so that the NLL floor and −ln 1 = −0 are met), `extra` columns
 * after the scores, and in skip mode some invalid rows that are dropped.
 */
function randomFile(
  seed: number,
  n: number,
  C: number,
  opts: { logits?: boolean; extra?: string[]; bad?: boolean } = {},
): string {
  const r0 = createRng(seed);
  const rng = (): number => r0.next();
  const names = Array.from({ length: C }, (_, c) => `c${c}`);
  const scoreCols = names.map((c) => `${opts.logits ? 'logit' : 'prob'}_${c}`);
  const rows = [['id', 'label', 'pred', ...scoreCols, ...(opts.extra ?? [])].join(',')];
  for (let r = 0; r < n; r++) {
    const y = Math.floor(rng() * C);
    let p = Array.from({ length: C }, () => Math.floor(rng() * 4) / 4 + rng() * 0.01);
    if (r % 17 === 0) p = p.map((_, c) => (c === y ? 1 : 0)); // p_y = 1: −ln 1 = −0
    if (r % 19 === 0) p = p.map((_, c) => (c === y ? 0 : 1 / (C - 1))); // p_y = 0: the floor
    const s = p.reduce((a, b) => a + b, 0);
    const cells = p.map((v) => (opts.logits ? (v * 6 - 3).toFixed(6) : (v / s).toFixed(6)));
    const label = opts.bad && r % 41 === 5 ? 'nope' : names[y];
    const extra = (opts.extra ?? []).map((name) =>
      name === 'weight' ? (0.5 + rng()).toFixed(3) : name === 'split' ? (r % 4 ? 'test' : 'val') : `f${r % 3}`,
    );
    rows.push([String(r), label, names[Math.floor(rng() * C)], ...cells, ...extra].join(','));
  }
  return tmpFile(`terms-${seed}.csv`, rows.join('\n') + '\n');
}

test('keepTerms false, one pass: the sums are the per-row terms added in row order, and every point estimate is the same bit for bit', async () => {
  const cases: { C: number; logits?: boolean; bad?: boolean; score?: EvalConfig['score'] }[] = [
    { C: 2 },
    { C: 10 },
    { C: 10, logits: true },
    { C: 37, bad: true },
    { C: 5, score: 'margin' },
  ];
  let seed = 11;
  for (const c of cases) {
    const path = randomFile(seed++, 2500, c.C, { logits: c.logits, bad: c.bad });
    const cfg: EvalConfig = { ...(c.bad ? { invalidRows: 'skip' } : {}), ...(c.score ? { score: c.score } : {}) };
    const kept = await load(path, cfg, {});
    const summed = await load(path, cfg, { keepTerms: false });
    const name = JSON.stringify(c);
    const k = kept.probTerms!;
    const s = summed.probTerms!;
    assert.equal(k.sums, undefined, name);
    assert.ok(s.sums, name);
    assert.deepEqual([s.nllTerm.length, s.brierTerm.length, s.trueRank.length], [0, 0, 0], name);
    assert.deepEqual(Array.from(s.score), Array.from(k.score), name);
    assert.deepEqual({ ...summed, probTerms: null }, { ...kept, probTerms: null }, name);
    let nll = 0;
    let brier = 0;
    const hist = new Float64Array(c.C + 1);
    for (let i = 0; i < kept.n; i++) {
      nll += k.nllTerm[i];
      brier += k.brierTerm[i];
      hist[k.trueRank[i]]++;
    }
    assert.ok(Object.is(s.sums.nll, nll) && Object.is(s.sums.brier, brier), name);
    assert.deepEqual(Array.from(s.sums.rankHist), Array.from(hist), name);
    const topK = [1, 2, 3, 5];
    const a = aggregateClassification(prepareClassification(kept, { topK }));
    const b = aggregateClassification(prepareClassification(summed, { topK }));
    assert.deepEqual(b, a, name);
    assert.ok(Number.isFinite(a.values.nll) && Number.isFinite(a.values.brier), name);
  }
});

test('keepTerms false keeps the per-row terms with a weight, split or fold column, when the file is read in parts, and in shared memory', async () => {
  for (const extra of [['weight'], ['split'], ['fold']]) {
    const path = randomFile(40, 600, 4, { extra });
    const d = await load(path, {}, { keepTerms: false });
    assert.equal(d.probTerms!.sums, undefined, extra[0]);
    assert.equal(d.probTerms!.nllTerm.length, d.n, extra[0]);
  }
  const path = randomFile(41, 3000, 6);
  const one = await load(path, {}, {});
  const parts = await load(path, {}, { keepTerms: false }, { minBytes: 0, threads: 3, pieces: 4, workerFile });
  // one pass into shared memory (resamples to come)
  const shared = await load(path, {}, { keepTerms: false }, ONE_PASS, 200);
  for (const d of [parts, shared]) {
    assert.equal(d.probTerms!.sums, undefined);
    assert.deepEqual(Array.from(d.probTerms!.nllTerm), Array.from(one.probTerms!.nllTerm));
  }
});

test('summed terms cannot be resampled, weighted or cut: the steps that would need the rows say so instead of reading empty arrays', async () => {
  const d = await load(randomFile(42, 300, 3), {}, { keepTerms: false });
  const prep = prepareClassification(d);
  assert.throws(() => aggregateClassification(prep, new Float64Array(d.n).fill(1)), /summed while reading/);
  assert.throws(() => aggregateUnitBatch(prep, [new Int32Array(d.n).fill(1)], 1), /summed while reading/);
  assert.throws(() => cutClassificationData(d, Int32Array.from([0, 1])), /summed while reading/);
  assert.throws(() => prepareClassification({ ...d, weights: new Float64Array(d.n).fill(1) }), /summed while reading/);
});

test('an evaluation without per-row values or resamples (terms summed) has the metrics of one that keeps the rows', async () => {
  const path = randomFile(43, 2000, 8);
  const metricsOf = async (perItem: boolean, overrides: EvalConfig = {}): Promise<unknown> => {
    const r = await evaluateFile(path, { perItem, overrides: { bootstrap: { n: 0 }, topK: [2, 3], ...overrides } });
    return { metrics: r.metrics, tables: r.tables, curves: r.curves, warnings: r.warnings };
  };
  const summed = await metricsOf(false);
  assert.deepEqual(summed, await metricsOf(true));
  // a random split cuts the rows: the terms are kept, and the metrics are those of the kept rows
  const split = { randomSplit: { validation: 0.3, seed: 4 } };
  assert.deepEqual(await metricsOf(false, split), await metricsOf(true, split));
});
