// Baseline runs made from a run's input (tasks/baselineRun.ts) and compared through compareFiles:
// hand-computed classification values, and ranking values equal to the run's built-in baselines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareFiles } from '../../../../src/core/compare/files';
import { baselineRunName, parseBaselineKinds, parseBaselineRunName } from '../../../../src/core/compare/baselineNames';
import { runName } from '../../../../src/core/compare/compareRuns';
import { evaluateFile } from '../../../../src/core/evaluate';
import { EvalLensError } from '../../../../src/core/diagnostics';
import { NLL_FLOOR } from '../../../../src/core/metrics/probabilityTerms';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-baseline-runs-'));
const NO_CI = { bootstrap: { n: 0 } };

// 10 rows: 5 of class a, 3 of b, 2 of c; the model is right on 8 of them.
const LABELS = ['a', 'a', 'a', 'a', 'a', 'b', 'b', 'b', 'c', 'c'];
const PREDS = ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'a', 'c', 'c'];
function writeRun(name: string, weights?: number[]): string {
  const lines = [`id,label,pred,prob_a,prob_b,prob_c${weights ? ',weight' : ''}`];
  LABELS.forEach((y, i) => {
    const p = { a: 0.1, b: 0.1, c: 0.1, [PREDS[i]]: 0.8 };
    lines.push(`r${i},${y},${PREDS[i]},${p.a},${p.b},${p.c}${weights ? `,${weights[i]}` : ''}`);
  });
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}
const run = writeRun('model.csv');

test('majority: every row predicts the most frequent class, one-hot; accuracy = its frequency', async () => {
  const r = await evaluateFile(run, { overrides: NO_CI, baselineRun: 'majority' });
  const m = (k: string): number | null | undefined => r.metrics[k]?.value;
  assert.equal(m('accuracy'), 0.5);
  // one-hot: a row of another class has p_y = 0 (floored), Σ_c (p_c − 1[c=y])² = 2
  assert.ok(Math.abs(m('nll')! - 0.5 * -Math.log(NLL_FLOOR)) < 1e-12);
  assert.ok(Math.abs(m('brier')! - 1) < 1e-12);
  // macro-F1: class a has precision 0.5, recall 1 → F1 2/3; b and c 0
  assert.ok(Math.abs(m('macro_f1')! - 2 / 9) < 1e-12);
  assert.ok(Math.abs(m('balanced_accuracy')! - 1 / 3) < 1e-12);
  assert.equal(r.task, 'classification');
});

test('prior: probabilities = the class frequencies; log-loss = their entropy, Brier = 1 − Σ f²', async () => {
  const r = await evaluateFile(run, { overrides: NO_CI, baselineRun: 'prior' });
  const f = [0.5, 0.3, 0.2];
  const entropy = -f.reduce((s, x) => s + x * Math.log(x), 0);
  assert.ok(Math.abs(r.metrics.nll!.value! - entropy) < 1e-12);
  assert.ok(Math.abs(r.metrics.brier!.value! - (1 - f.reduce((s, x) => s + x * x, 0))) < 1e-12);
  assert.equal(r.metrics.accuracy!.value, 0.5);
});

test('prior with a weight column: the weighted class frequencies (DummyClassifier fitted with sample_weight)', async () => {
  // weights: a rows 1, b rows 2, c rows 1 → totals a 5, b 6, c 2 of 13: b is the majority now.
  const w = writeRun('weighted.csv', [1, 1, 1, 1, 1, 2, 2, 2, 1, 1]);
  const prior = await evaluateFile(w, { overrides: NO_CI, baselineRun: 'prior' });
  const f = [5 / 13, 6 / 13, 2 / 13];
  // the weighted mean of −ln f_y = Σ_c f_c (−ln f_c)
  const entropy = -f.reduce((s, x) => s + x * Math.log(x), 0);
  assert.ok(Math.abs(prior.metrics.nll!.value! - entropy) < 1e-12);
  const majority = await evaluateFile(w, { overrides: NO_CI, baselineRun: 'majority' });
  assert.ok(Math.abs(majority.metrics.accuracy!.value! - 6 / 13) < 1e-12);
});

test('compare --against majority: the baseline run comes first, is the baseline, and is paired row by row', async () => {
  const cmp = await compareFiles([run], {
    against: ['majority', 'prior'],
    bootstrap: { n: 200, confidence: 0.95, seed: 0 },
  });
  const maj = baselineRunName('majority', run);
  assert.deepEqual(cmp.runs, [maj, baselineRunName('prior', run), run]);
  assert.equal(cmp.baseline, maj);
  assert.deepEqual(cmp.names, ['baseline:majority (of model)', 'baseline:prior (of model)', 'model']);
  assert.equal(cmp.table[maj]!.accuracy, 0.5);
  assert.equal(cmp.table[run]!.accuracy, 0.8);
  const acc = cmp.tests.find((t) => t.run === run && t.metric === 'accuracy')!;
  assert.ok(Math.abs(acc.delta! - 0.3) < 1e-12);
  // McNemar: the majority (class a) right and the model wrong on row 4 only (b = 1); the model right
  // and the majority wrong on rows 5, 6, 8, 9 (c = 4); exact p = 2·P(Bin(5, ½) ≤ 1) = 12/32
  assert.deepEqual([acc.mcnemar_b, acc.mcnemar_c], [1, 4]);
  assert.ok(Math.abs(acc.p_mcnemar! - 12 / 32) < 1e-12);
  const nll = cmp.tests.find((t) => t.run === run && t.metric === 'nll')!;
  assert.ok(nll.ci_diff && nll.p_boot !== null && nll.p_boot !== undefined);
  assert.ok(nll.better_by! > 0);
});

test('the ranking baselines equal the built-in popularity and random baselines of the run, key by key', async () => {
  const file = join(process.cwd(), 'examples/ranking-debian-deps/cooccurrence.jsonl');
  const overrides = { bootstrap: { n: 0, seed: 7 } };
  const own = await evaluateFile(file, { overrides });
  for (const kind of ['popularity', 'random'] as const) {
    const b = await evaluateFile(file, { overrides, baselineRun: kind });
    const builtIn = own.baselines![kind]!;
    const keys = Object.keys(builtIn);
    assert.ok(keys.length > 20, kind);
    for (const k of keys) assert.equal(b.metrics[k]?.value, builtIn[k]!.value, `${kind} ${k}`);
    assert.equal(b.metrics.users_evaluated?.value, own.metrics.users_evaluated?.value);
  }
});

test('a baseline that does not fit the task is refused with a message naming the ones that do', async () => {
  const file = join(process.cwd(), 'examples/ranking-debian-deps/cooccurrence.jsonl');
  await assert.rejects(
    compareFiles([file], { against: ['majority'], bootstrap: { n: 0, confidence: 0.95, seed: 0 } }),
    (e: unknown) =>
      e instanceof EvalLensError &&
      e.code === 'compare-baseline-task' &&
      /majority baseline does not fit a ranking run; a ranking run has popularity and random/.test(e.message),
  );
  await assert.rejects(
    evaluateFile(run, { overrides: NO_CI, baselineRun: 'random' }),
    (e: unknown) => e instanceof EvalLensError && e.code === 'compare-baseline-task',
  ); // A ranking run without train interactions has no popularity to count
  const noTrain = join(process.cwd(), 'test/fixtures/ranking/same/run.jsonl');
  await assert.rejects(
    evaluateFile(noTrain, { overrides: { ...NO_CI, task: 'ranking' }, baselineRun: 'popularity' }),
    (e: unknown) =>
      e instanceof EvalLensError &&
      e.code === 'compare-baseline-no-train' &&
      /the popularity baseline is made from the train interactions: set `train` in the config/.test(e.message),
  );
});

test('names: parsed back, short names, and the --against list parsed (commas, repeats, case, unknown names)', () => {
  const n = baselineRunName('popularity', 'runs/x (1).jsonl');
  assert.deepEqual(parseBaselineRunName(n), { kind: 'popularity', source: 'runs/x (1).jsonl' });
  assert.equal(parseBaselineRunName('runs/a.csv'), null);
  assert.equal(runName(n), 'baseline:popularity (of x (1))');
  assert.deepEqual(parseBaselineKinds(['majority, Prior', 'majority']), { kinds: ['majority', 'prior'], unknown: [] });
  assert.deepEqual(parseBaselineKinds(['popular']), { kinds: [], unknown: ['popular'] });
});

test("majority and prior equal scikit-learn's DummyClassifier (most_frequent, prior) fitted on the evaluated labels", async () => {
  const golden = JSON.parse(readFileSync(join(process.cwd(), 'test/golden/compare_tests.json'), 'utf8')) as {
    dummy: {
      labels: number[];
      weights: number[] | null;
      majority: Record<string, number>;
      prior: Record<string, number>;
    }[];
  };
  assert.equal(golden.dummy.length, 3);
  for (const [c, g] of golden.dummy.entries()) {
    const C = Math.max(...g.labels) + 1;
    const head = ['id', 'label', 'pred', ...Array.from({ length: C }, (_, k) => `prob_${k}`)];
    if (g.weights) head.push('weight');
    // the run's own predictions do not matter: the baseline replaces them
    const lines = g.labels.map((y, i) =>
      [
        `r${i}`,
        y,
        y,
        ...Array.from({ length: C }, (_, k) => (k === y ? 1 : 0)),
        ...(g.weights ? [g.weights[i]] : []),
      ].join(','),
    );
    const path = join(dir, `golden${c}.csv`);
    writeFileSync(path, [head.join(','), ...lines].join('\n') + '\n');
    for (const kind of ['majority', 'prior'] as const) {
      const r = await evaluateFile(path, { overrides: NO_CI, baselineRun: kind });
      for (const [k, want] of Object.entries(g[kind])) {
        const got = r.metrics[k]?.value;
        assert.ok(
          got !== null && got !== undefined && Math.abs(got - want) <= 1e-10,
          `case ${c} ${kind} ${k}: ${got} vs ${want}`,
        );
      }
    }
  }
});

test('--baseline may still name a run: the baseline run is then tested against it', async () => {
  const cmp = await compareFiles([run], {
    against: ['majority'],
    baseline: run,
    metrics: ['accuracy'],
    bootstrap: { n: 0, confidence: 0.95, seed: 0 },
  });
  assert.equal(cmp.baseline, run);
  const t = cmp.tests.find((x) => x.metric === 'accuracy')!;
  assert.equal(t.run, baselineRunName('majority', run));
  assert.equal(t.mean, 0.5);
  assert.equal(t.mean_baseline, 0.8);
});
