// The selective + calibration + bootstrap steps inside the classification task.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLASSIFICATION_STEPS, prepareRun, runClassification } from '../../../../src/core/tasks/classification';
import {
  calibrationFamily,
  selectiveFamily,
  selectivePartsFor,
  selectiveScalars,
} from '../../../../src/core/tasks/classificationSelective';
import { familyStep } from '../../../../src/core/tasks/classificationFamilies';
import type { TaskContext } from '../../../../src/core/tasks/types';
import type { ResolvedConfig } from '../../../../src/core/config/types';
import type { ClassificationData } from '../../../../src/core/data/classificationData';
import {
  CI_FAMILIES,
  config,
  makeData,
  randomData,
  runClassificationSteps,
  taskContext,
} from '../../helpers/classification';
import { createRng } from '../../helpers/selective';

import { closeRel as close } from '../../helpers/numericClose';

async function runSteps(data: ClassificationData, cfg: ResolvedConfig, withCi = false) {
  // with intervals: every step of the task in order (classification, long-tail and evolving
  // families, selective, calibration, bootstrap); else the selective and calibration families only
  // (each its point step, then its tables step)
  const steps = [familyStep(selectiveFamily), familyStep(calibrationFamily)];
  const { ctx, run } = await runClassificationSteps(data, cfg, withCi ? undefined : steps);
  return { ctx, run, m: ctx.results.metrics, codes: ctx.warnings.list.map((w) => w.code) };
}

const noCi = (extra: Partial<ResolvedConfig> = {}) =>
  config({ bootstrap: { n: 0, confidence: 0.95, seed: 0, stratified: false }, ...extra });

test('targetCoverage with a split column: threshold chosen on val rows, metrics on test rows', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evallens-sel-'));
  // val rows: scores .9 .8 .7 .6 → targetCoverage 0.5 → t = 0.8
  // test rows: scores .95 (ok) .85 (wrong) .75 (ok) .65 (ok) → accepted .95, .85: coverage 1/2, risk 1/2
  const csv = [
    'label,pred,confidence,split',
    '0,0,0.9,val',
    '0,1,0.8,val',
    '1,1,0.7,val',
    '1,1,0.6,val',
    '0,0,0.95,test',
    '1,0,0.85,test',
    '1,1,0.75,test',
    '0,0,0.65,test',
  ].join('\n');
  writeFileSync(join(dir, 'p.csv'), csv);
  const ctx: TaskContext = {
    ...taskContext(noCi({ targetCoverage: 0.5, configFile: join(dir, 'eval-lens.json') })),
    path: join(dir, 'p.csv'),
    baseDir: dir,
  };
  await runClassification(ctx);
  const m = ctx.results.metrics;
  close(m.coverage.value, 2 / 4);
  close(m.selective_risk.value, 1 / 2);
  assert.match(
    m.coverage.note!,
    /t = 0\.8 chosen for targetCoverage 0\.5 on the 4 validation rows \(ties at t accepted\); the 4 test rows/,
  );
  // AURC on the test rows only: order .95 ok, .85 wrong, .75 ok, .65 ok
  close(m.aurc.value, (0 + 1 / 2 + 1 / 3 + 1 / 4) / 4);
  // calibration on the same 4 test rows, as every other family
  assert.match(m.ece.note!, /the 4 test rows/);
  close(m.accuracy.value, 3 / 4);
});

test('targetCoverage without split: ties at the threshold are accepted (coverage may exceed c)', async () => {
  const data = makeData({ classes: ['a', 'b'], labels: [0, 0, 1, 1, 0], preds: [0, 1, 1, 0, 0] });
  data.scoreColumn = Float64Array.from([0.9, 0.8, 0.8, 0.8, 0.1]);
  data.scoreColumnName = 'confidence';
  const { m, ctx } = await runSteps(data, noCi({ targetCoverage: 0.5 }));
  close(m.coverage.value, 4 / 5);
  close(m.selective_risk.value, 2 / 4);
  assert.match(m.coverage.note!, /t = 0\.8/);
  assert.ok(ctx.warnings.list.some((w) => w.code === 'grid-too-few-rows'));
  assert.equal(m.aurc_grid101.value, null);
});

test('reweight: the long-tail reweighting worked example through the config (classWeights, groups [69])', async () => {
  const C = 100;
  const classes = Array.from({ length: C }, (_, c) => String(c));
  const seedW: Record<number, number> = {
    5: 0.046,
    10: 0.044,
    20: 0.042,
    30: 0.04,
    40: 0.038,
    50: 0.037,
    70: 0.0011,
    75: 0.0008,
    80: 0.0006,
    99: 0.0005,
  };
  // Non-increasing train frequencies (each class takes the value of the next seed class), so the
  // train rank is the class order and the boundary [69] puts classes 0–68 in head, as in that worked example.
  const seedClasses = Object.keys(seedW).map(Number);
  const w = Array.from({ length: C }, (_, c) => seedW[seedClasses.find((k) => k >= c)!]);
  const labels = [5, 10, 20, 30, 40, 50, 70, 75, 80, 99, 1, 90];
  const preds = [5, 10, 22, 30, 42, 51, 71, 75, 82, 99, 2, 91];
  const data = makeData({ classes, labels, preds });
  data.scoreColumn = Float64Array.from([...new Array(10).fill(0.9), 0.1, 0.1]);
  data.scoreColumnName = 'confidence';
  const { m } = await runSteps(data, noCi({ classWeights: w, groups: [69], reweight: true, acceptThreshold: 0.5 }));
  close(m['error_group.head'].value, 0.117 / 0.247, 1e-9);
  close(m['error_group.tail'].value, 0.0017 / 0.003, 1e-9);
  assert.equal(m['error_group.head'].value!.toFixed(4), '0.4737');
  assert.equal(m['error_group.tail'].value!.toFixed(4), '0.5667');
  close(m.coverage.value, 10 / 12);
  assert.match(m['error_group.head'].note!, /e_g\(w\^trn\)/);
  // without reweight: 3/6 and 2/4
  const plain = await runSteps(data, noCi({ classWeights: w, groups: [69], acceptThreshold: 0.5 }));
  close(plain.m['error_group.head'].value, 0.5);
  close(plain.m['error_group.tail'].value, 0.5);
});

test('an empty group at the operating point: 1.0 with a warning; group table; curves', async () => {
  const rng = createRng(41);
  const data = randomData(rng, 300, 6);
  const { m, ctx } = await runSteps(
    data,
    noCi({ trainCounts: [500, 300, 200, 50, 20, 5], groups: [3], acceptThreshold: 0.999999 }),
  );
  // nothing above 0.999999 in practice → both groups empty
  assert.equal(m.coverage.value, 0);
  assert.equal(m.selective_risk.value, null);
  assert.equal(m['error_group.head'].value, 1);
  assert.equal(m.worst_error.value, 1);
  assert.ok(ctx.warnings.list.some((w) => w.code === 'empty-group' && /error_group\.tail/.test(w.message)));
  assert.ok(ctx.warnings.list.some((w) => w.code === 'nothing-accepted'));
  const t = ctx.results.tables.groupAnalysis!;
  assert.deepEqual(
    t.map((r) => r.group),
    ['head', 'tail'],
  );
  assert.equal(t[0].coverage, 0);
  const rc = ctx.results.curves.riskCoverage!;
  assert.equal(rc.xs[rc.xs.length - 1], 1);
  assert.equal(rc.extra!.risk_balanced!.length, rc.xs.length);
  assert.equal(ctx.results.curves.costSweep!.xs.length, 81);
  assert.equal(ctx.results.tables.reliability!.length, 15);
  assert.ok(ctx.results.curves.reliability!.xs.length > 0);
  for (const k of [
    'aurc',
    'eaurc',
    'aurc_balanced',
    'aurc_worst',
    'aurc_grid101',
    'aurc_grid101_0.2_1',
    'aurc_balanced_grid101',
    'aurc_worst_grid101_0.2_1',
    'ece',
    'mce',
    'ece_adaptive',
  ]) {
    assert.ok(m[k] && m[k].value !== null, k);
  }
  assert.equal(m.aurc.direction, 'lower');
  assert.equal(m.coverage.direction, 'higher');
});

test('selectiveScalars with all-ones counts equals the point values (weighted form = unweighted)', async () => {
  const rng = createRng(42);
  for (const extra of [{ targetCoverage: 0.7 }, { acceptThreshold: 0.5 }, {}] as Partial<ResolvedConfig>[]) {
    const data = randomData(rng, 250, 5, { ties: true, weighted: true });
    const { run } = await runSteps(data, noCi({ trainCounts: [100, 50, 20, 10, 5], groups: [2], ...extra }));
    const s = run.selective!;
    const a = selectiveScalars(s, null);
    const b = selectiveScalars(s, new Float64Array(data.n).fill(1));
    for (const k of Object.keys(a)) {
      if (Number.isNaN(a[k])) assert.ok(Number.isNaN(b[k]), k);
      else close(b[k], a[k], 1e-12);
    }
  }
});

test('selectiveScalars of the parts some keys come from: each key as the whole pass gives it, no key of another part', async () => {
  const rng = createRng(44);
  const variants: Partial<ResolvedConfig>[] = [
    { targetCoverage: [0.6, 0.8], reweight: true },
    { acceptThreshold: 0.5, score: 'margin' },
    { targetCoverage: 0.7, score: 'entropy' },
  ];
  for (const extra of variants) {
    const data = randomData(rng, 250, 5, { ties: true, weighted: true });
    const { run } = await runSteps(data, noCi({ trainCounts: [100, 50, 20, 10, 5], groups: [2], ...extra }));
    const s = run.selective!;
    const counts = Float64Array.from({ length: data.n }, () => rng.int(3));
    for (const mult of [null, counts]) {
      const all = selectiveScalars(s, mult);
      const keys = Object.keys(all);
      assert.ok(keys.includes('operatingPoints.1.coverage') || !Array.isArray(extra.targetCoverage));
      for (const key of keys) {
        const some = selectiveScalars(s, mult, undefined, selectivePartsFor([key]));
        assert.ok(key in some, `${key} alone`);
        assert.ok(Object.keys(some).length < keys.length, `${key}: not every part`);
        if (Number.isNaN(all[key])) assert.ok(Number.isNaN(some[key]), key);
        else assert.equal(some[key], all[key], key);
      }
      // the keys of a slice table: the exact AURC and calibration only
      assert.deepEqual(Object.keys(selectiveScalars(s, mult, undefined, selectivePartsFor(['aurc', 'ece']))).sort(), [
        'aurc',
        'aurc_balanced',
        'aurc_worst',
        'eaurc',
        'ece',
        'ece_adaptive',
        'mce',
      ]);
      // a key the pass does not give (a value derived from the pass's) asks for every part
      assert.deepEqual(Object.keys(selectiveScalars(s, mult, undefined, selectivePartsFor(['aurc', 'derived']))), keys);
    }
  }
});

test('bootstrap step: every scalar of sections 1 and 2 gets an interval; same seed → same intervals', async () => {
  const rng = createRng(43);
  const data = randomData(rng, 400, 5);
  // top-k needs k below the 5 classes (k ≥ classes is not reported: every row would be a hit).
  const cfg = config({
    trainCounts: [300, 100, 40, 15, 5],
    groups: [2],
    targetCoverage: 0.7,
    topK: [3],
    bootstrap: { n: 200, confidence: 0.9, seed: 5, stratified: false },
  });
  const a = await runSteps(data, cfg, true);
  const withValue = Object.entries(a.m).filter(([, v]) => v.value !== null);
  const inFamilies = new Set(CI_FAMILIES.flatMap((f) => a.ctx.results.families[f] ?? []));
  assert.ok(withValue.length > 30);
  for (const [k, v] of withValue) {
    assert.ok(inFamilies.has(k), `${k} is in a CI family`);
    assert.ok(v.ci, `no ci for ${k}`);
    assert.ok(v.ci![0] <= v.ci![1], k);
  }
  assert.ok(a.m.shift_auc?.ci && a.m['weighted_error_group.head']?.ci && a.m.top3_accuracy?.ci);
  for (const k of [
    'accuracy',
    'coverage',
    'selective_risk',
    'aurc',
    'eaurc',
    'aurc_grid101',
    'ece',
    'ece_adaptive',
    'mce',
    'worst_error',
    'error_group.tail',
  ])
    assert.ok(a.m[k]?.ci, k);
  const b = await runSteps(data, cfg, true);
  for (const [k, v] of Object.entries(a.m)) assert.deepEqual(b.m[k].ci, v.ci, k);
  const c = await runSteps(data, { ...cfg, bootstrap: { ...cfg.bootstrap, seed: 6 } }, true);
  assert.notDeepEqual(c.m.aurc.ci, a.m.aurc.ci);
  // stratified by the true label also runs and keeps intervals ordered
  const d = await runSteps(data, { ...cfg, bootstrap: { ...cfg.bootstrap, stratified: true } }, true);
  assert.ok(d.m.aurc.ci![0] <= d.m.aurc.ci![1]);
  assert.match(a.m.worst_error.note!, /may not contain the point estimate/);
});

test('rowsSpent: the selective family lets go of the labels, predictions, lines and correctness before it sorts; every value the same', async () => {
  for (const [seed, cfg] of [
    [1, config({ bootstrap: { ...config().bootstrap, n: 0 } })],
    [
      2,
      config({
        bootstrap: { ...config().bootstrap, n: 0 },
        groups: { '0': 'head', '1': 'head', '2': 'tail', '3': 'tail' },
        targetCoverage: 0.7,
      }),
    ],
    [3, config({ bootstrap: { ...config().bootstrap, n: 0 }, acceptThreshold: 0.5 })],
  ] as const) {
    const results = [];
    for (const spent of [false, true]) {
      const data = randomData(createRng(seed), 400, 4, { ties: true, weighted: seed === 3 });
      const ctx = taskContext(cfg);
      const run = await prepareRun(data, ctx);
      run.rowsSpent = spent;
      for (const { step } of CLASSIFICATION_STEPS) await step(run, ctx);
      const left = [run.data.labels, run.data.preds, run.data.lines, run.prepared.labels, run.prepared.correct];
      assert.deepEqual(
        left.map((a) => a.length),
        spent ? [0, 0, 0, 0, 0] : [400, 400, 400, 400, 400],
      );
      results.push(
        ctx.results.build({
          source: { path: 'test.csv', format: 'csv', rows: 400, rowsUsed: 400, columns: {}, size: 0, sha256: '' },
          task: 'classification',
          config: cfg,
          warnings: ctx.warnings.list,
        }),
      );
    }
    const [kept, spentResults] = results.map((r) => JSON.stringify({ ...r, createdAt: null, timings: null }));
    assert.ok(spentResults === kept, `seed ${seed}: the results differ when the rows are let go`);
  }
});
