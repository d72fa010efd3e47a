import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runClassification, prepareRun, CLASSIFICATION_STEPS } from '../../../../src/core/tasks/classification';
import { ResultsBuilder } from '../../../../src/core/results/builder';
import { Warnings } from '../../../../src/core/diagnostics';
import type { TaskContext } from '../../../../src/core/tasks/types';
import type { ResolvedConfig } from '../../../../src/core/config/types';
import { close, config, createRng, randomData, scalarMetricsFor } from '../../helpers/classification';
import type { RowIds } from '../../../../src/core/data/rowIds';

/** Bootstrap intervals off (they are another family's tests). */
function ctxFor(path: string, cfg: ResolvedConfig, baseDir: string): TaskContext {
  return {
    path,
    baseDir,
    config: { ...cfg, bootstrap: { ...cfg.bootstrap, n: 0 } },
    warnings: new Warnings(),
    results: new ResultsBuilder(),
  };
}

test('runClassification end to end: keys, families, tables, shift curve, per-row correctness, warnings', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evallens-task-'));
  // 4 classes; class "3" has no test rows. probabilities per row.
  const csv = [
    'id,label,prob_0,prob_1,prob_2,prob_3',
    'a,0,0.7,0.1,0.1,0.1',
    'b,0,0.2,0.5,0.2,0.1',
    'c,1,0.1,0.6,0.2,0.1',
    'd,1,0.1,0.6,0.2,0.1',
    'e,2,0.3,0.2,0.4,0.1',
    'f,2,0.5,0.2,0.2,0.1',
  ].join('\n');
  writeFileSync(join(dir, 'preds.csv'), csv);
  writeFileSync(join(dir, 'counts.json'), '{"0": 300, "1": 60, "2": 10, "3": 5}');
  const cfg = config({ trainCounts: 'counts.json', groups: [2], topK: [2], configFile: join(dir, 'eval-lens.json') });
  const ctx = ctxFor(join(dir, 'preds.csv'), cfg, dir);
  const src = await runClassification(ctx);
  assert.equal(src.rows, 6);
  assert.equal(src.rowsUsed, 6);
  assert.equal(src.format, 'csv');
  const m = ctx.results.metrics;
  close(m.accuracy.value, 4 / 6);
  close(m.balanced_accuracy.value, (1 / 2 + 1 + 1 / 2) / 3);
  close(m.top2_accuracy.value, 6 / 6);
  // MCC: c = 4, s = 6, t = (2, 2, 2, 0), p = (2, 3, 1, 0): (4·6 − (4 + 6 + 2)) / √((36 − 14)·(36 − 12))
  close(
    m.matthews_corrcoef.value,
    (4 * 6 - (2 * 2 + 3 * 2 + 1 * 2)) / Math.sqrt((36 - (4 + 9 + 1)) * (36 - (4 + 4 + 4))),
  );
  close(m.acc_many.value, 1 / 2);
  close(m.acc_medium.value, 1);
  close(m.acc_few.value, 1 / 2); // class 2 (n=10); class 3 has no rows
  close(m['acc_group.head'].value, (1 / 2 + 1) / 2);
  close(m['acc_group.tail'].value, 1 / 2);
  assert.equal(m.nll.direction, 'lower');
  assert.equal(m.shift_dr, undefined); // evolving not computed: class 3 has no test rows
  assert.deepEqual(ctx.results.families.classification, [
    'accuracy',
    'balanced_accuracy',
    'macro_f1',
    'matthews_corrcoef',
    'top2_accuracy',
    'nll',
    'brier',
  ]);
  assert.deepEqual(ctx.results.families.longtail, [
    'acc_many',
    'acc_medium',
    'acc_few',
    'acc_group.head',
    'acc_group.tail',
    'weighted_accuracy',
    'weighted_error_group.head',
    'weighted_error_group.tail',
  ]);
  const codes = ctx.warnings.list.map((w) => w.code);
  assert.ok(codes.includes('empty-class'));
  assert.ok(codes.includes('evolving-not-computed'));
  assert.match(
    ctx.warnings.list.find((w) => w.code === 'evolving-not-computed')!.message,
    /class "3" has no test rows/,
  );
  const per = ctx.results.tables.perClass!;
  assert.deepEqual(
    per.map((r) => [r.class, r.trainCount, r.rank, r.shot, r.group, r.accuracy]),
    [
      ['0', 300, 1, 'many', 'head', 0.5],
      ['1', 60, 2, 'medium', 'head', 1],
      ['2', 10, 3, 'few', 'tail', 0.5],
      ['3', 5, 4, 'few', 'tail', null],
    ],
  );
  assert.deepEqual(ctx.results.tables.confusion!.matrix[0], [1, 1, 0, 0]);
  assert.deepEqual(ctx.results.perItem!.values.accuracy, [1, 0, 1, 1, 1, 0]);
  assert.deepEqual((ctx.results.perItem!.ids as RowIds).toArray(), ['a', 'b', 'c', 'd', 'e', 'f']);
  assert.deepEqual(ctx.results.perItem!.labels, ['0', '0', '1', '1', '2', '2']);
});

test('runClassification: evolving family and shift curve when every class has rows', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evallens-task-'));
  const lines = ['label,pred'];
  const rows: [number, number][] = [
    [0, 0],
    [0, 0],
    [0, 1],
    [1, 1],
    [1, 0],
    [2, 2],
    [2, 2],
    [2, 2],
    [2, 0],
  ];
  for (const [y, p] of rows) lines.push(`${y},${p}`);
  writeFileSync(join(dir, 'p.csv'), lines.join('\n'));
  const cfg = config({ trainCounts: [100, 10, 1], T: 3, imbalanceRatio: 0.01 });
  const ctx = ctxFor(join(dir, 'p.csv'), cfg, dir);
  await runClassification(ctx);
  const m = ctx.results.metrics;
  assert.deepEqual(ctx.results.families.evolving, [
    'shift_auc',
    'shift_avg',
    'shift_std',
    'shift_max',
    'shift_min',
    'shift_dr',
    'btd',
    'acc_forward',
    'acc_uniform',
    'acc_backward',
  ]);
  close(m.btd.value, (2 / 3 + 1 / 2 + 3 / 4) / 3);
  close(m.acc_forward.value, (100 * (2 / 3) + 10 * (1 / 2) + 1 * (3 / 4)) / 111);
  const curve = ctx.results.curves.shift!;
  assert.equal(curve.xs.length, 3);
  assert.deepEqual(
    [...curve.xs].sort((a, b) => a - b),
    curve.xs,
  ); // sorted by δ
  assert.deepEqual([...(curve.extra!.t as number[])].sort(), [1, 2, 3]);
  assert.ok(curve.extra!.js!.every((x) => x !== null && x >= 0 && x <= Math.log(2)));
  // The note is the chart's caption: it names the table's column, not a field of the results JSON.
  assert.match(curve.note!, /the js column beside it is the true Jensen–Shannon divergence/);
  assert.doesNotMatch(curve.note!, /extra\./);
  close(m.shift_avg.value, curve.ys.reduce((a, b) => a + b, 0) / 3);
  assert.equal(m.top5_accuracy, undefined); // no probabilities
  assert.equal(m.nll, undefined);
});

test('runClassification: a config error names the config file and key', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evallens-task-'));
  writeFileSync(join(dir, 'p.csv'), 'label,pred\n0,0\n1,1\n');
  const ctx = ctxFor(
    join(dir, 'p.csv'),
    config({ trainCounts: [1, 2, 3], configFile: join(dir, 'eval-lens.json') }),
    dir,
  );
  await assert.rejects(runClassification(ctx), /eval-lens\.json: `trainCounts` has 3 entries, but there are 2 classes/);
});

test('scalarMetricsFor(run, null) reproduces the point estimates; counts give a resample', async () => {
  const rng = createRng(8);
  const data = randomData(rng, 400, 6, { weighted: true });
  const cfg = config({ trainCounts: [500, 300, 100, 50, 20, 5], groups: [3], topK: [1, 3] });
  const ctx = ctxFor('mem.csv', cfg, tmpdir());
  const run = await prepareRun(data, ctx);
  for (const { step } of CLASSIFICATION_STEPS) await step(run, ctx);
  const point = scalarMetricsFor(run, null);
  for (const [k, v] of Object.entries(point)) close(ctx.results.metrics[k].value, v, 0, k);
  const mine = ['classification', 'longtail', 'evolving'] as const;
  assert.deepEqual(Object.keys(point).sort(), mine.flatMap((f) => ctx.results.families[f] ?? []).sort());
  const ones = scalarMetricsFor(run, new Float64Array(data.n).fill(1));
  for (const [k, v] of Object.entries(point)) close(ones[k], v, 1e-12, `ones ${k}`);
  const twice = scalarMetricsFor(run, new Float64Array(data.n).fill(2));
  for (const [k, v] of Object.entries(point)) close(twice[k], v, 1e-12, `twice ${k}`);
});

test('runClassification: meaningless long-tail settings are errors naming the key', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evallens-task-'));
  writeFileSync(join(dir, 'p.csv'), 'label,pred\n0,0\n1,1\n');
  const file = join(dir, 'eval-lens.json');
  const cases: [Partial<ResolvedConfig>, RegExp][] = [
    [{ T: 0 }, /`T` must be a positive integer, got 0/],
    [{ imbalanceRatio: -2 }, /`imbalanceRatio` must be a positive number/],
    [{ reweightEpsilon: -1 }, /`reweightEpsilon` must be a number ≥ 0/],
    [{ shiftTestSize: 2.5 }, /`shiftTestSize` must be a whole number ≥ 1/],
  ];
  for (const [extra, re] of cases) {
    const ctx = ctxFor(join(dir, 'p.csv'), config({ trainCounts: [5, 3], configFile: file, ...extra }), dir);
    await assert.rejects(runClassification(ctx), re);
  }
});

test('shiftTestSize: N_max of the sampled protocol, named in the shift notes; a note when the protocol is expected', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evallens-task-'));
  writeFileSync(join(dir, 'p.csv'), 'label,pred\n0,0\n0,0\n0,1\n1,1\n1,0\n2,2\n');
  const run = async (extra: Partial<ResolvedConfig>) => {
    const ctx = ctxFor(join(dir, 'p.csv'), config({ trainCounts: [40, 20, 10], ...extra }), dir);
    await runClassification(ctx);
    return ctx;
  };
  // ρ = 4, C = 3: N^tst = N_max·(1 + 1/2 + 1/4) = 1.75·N_max; 1.75·10 = 17.5, 1.75·3 = 5.25 (3 = class 0's test rows)
  const a = await run({ shiftProtocol: 'sampled', shiftTestSize: 10 });
  assert.match(a.results.metrics.shift_avg.note!, /N_max = 10 from shiftTestSize, N\^tst = 17\.5\b/);
  const b = await run({ shiftProtocol: 'sampled' });
  assert.match(b.results.metrics.shift_avg.note!, /N_max = 3, the largest class's test rows, N\^tst = 5\.25\b/);
  const c = await run({ shiftTestSize: 10 });
  assert.ok(c.warnings.list.some((w) => w.code === 'shift-test-size-unused'));
});

test('an evaluation without per-row values (scores sorted in place, per-row terms let go) has the same results as one with them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evallens-task-'));
  const rng = createRng(41);
  const lines = ['id,label,part,prob_0,prob_1,prob_2'];
  for (let i = 0; i < 300; i++) {
    const w = [rng.next(), rng.next(), rng.next()];
    const s = w[0] + w[1] + w[2];
    // some tied scores: probabilities on a coarse grid for a third of the rows
    const p = w.map((x) => (i % 3 === 0 ? Math.round((x / s) * 10) / 10 : x / s));
    lines.push(`r${i},${rng.int(3)},${i % 4 === 0 ? 'a' : 'b'},${p.join(',')}`);
  }
  writeFileSync(join(dir, 'preds.csv'), lines.join('\n'));
  // without resamples the sorted scores are the data's own array (with them, a shared copy); without
  // resamples and slices the per-row NLL, Brier and rank terms are let go after the point estimates
  for (const slices of [['part'], []])
    for (const n of [0, 30])
      for (const score of ['msp', 'margin', 'entropy'] as const) {
        const outputs = [];
        for (const perItem of [true, false]) {
          const cfg = config({ score, slices, configFile: join(dir, 'eval-lens.json') });
          const ctx = { ...ctxFor(join(dir, 'preds.csv'), cfg, dir), perItem };
          ctx.config = { ...ctx.config, bootstrap: { ...ctx.config.bootstrap, n } };
          await runClassification(ctx);
          const { metrics, curves, tables } = ctx.results;
          outputs.push(JSON.stringify({ metrics, curves, tables }));
        }
        assert.equal(outputs[1], outputs[0], `${score}, ${n} resamples, slices ${slices.join()}`);
      }
});
