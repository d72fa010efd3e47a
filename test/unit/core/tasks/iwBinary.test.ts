// The iw-binary task end to end: file → weights from the strata and sizes → metrics, unweighted
// values, curves, stratified bootstrap intervals; checked against scikit-learn (golden files made
// by scripts/golden/importance.py, which computes the weights from their definition independently).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { IW_KEYS } from '../../../../src/core/metrics/importance';
import { runIw, tempFile } from '../../helpers/iwBinary';
import { closeAbs } from '../../helpers/numericClose';
import type { RowIds } from '../../../../src/core/data/rowIds';

interface E2ECase {
  file: string;
  populationSize: number;
  biasedSize: number;
  wB: number;
  wBc: number;
  weighted: Record<string, number | null>;
  unweighted: Record<string, number | null>;
  pr: { recall: number[]; precision: number[] };
  roc: { fpr: number[]; tpr: number[] };
}
const e2e = JSON.parse(readFileSync('test/golden/importance_e2e.json', 'utf8')) as { cases: E2ECase[] };

const near = (a: number | null | undefined, b: number | null, what = ''): void => closeAbs(a, b, 1e-12, what);

for (const c of e2e.cases) {
  test(`end to end = scikit-learn with independently computed weights — ${c.file}`, async () => {
    const { results, source } = await runIw(c.file, {
      populationSize: c.populationSize,
      biasedSize: c.biasedSize,
      bootstrapN: 200,
    });
    assert.equal(source.format, 'csv');
    assert.equal(source.rows, source.rowsUsed);
    assert.deepEqual(source.columns, { label: 'label', score: 'score', stratum: 'stratum', id: 'id' });
    assert.deepEqual(results.families.importance, [...IW_KEYS]);
    for (const k of IW_KEYS) {
      near(results.metrics[k].value, c.weighted[k], k);
      near(results.baselines!.unweighted[k].value, c.unweighted[k], `unweighted ${k}`);
      assert.equal(results.metrics[k].direction, k === 'error_rate' ? 'lower' : 'higher');
      assert.match(results.metrics[k].note!, /unweighted: /);
      const ci = results.metrics[k].ci;
      assert.ok(ci && ci[0] <= ci[1], `${k} has an interval`);
      assert.ok(results.baselines!.unweighted[k].ci, `unweighted ${k} has an interval`);
    }
    const weights = results.tables.importanceWeights!;
    assert.ok(Array.isArray(weights), 'one row per stratum');
    near(weights[0].weight, c.wB, 'w_B');
    near(weights[1].weight, c.wBc, 'w_Bc');
    const pr = results.curves.pr!;
    assert.equal(pr.x, 'recall');
    pr.xs.forEach((x, i) => near(x, c.pr.recall[i], `recall[${i}]`));
    pr.ys.forEach((y, i) => near(y, c.pr.precision[i], `precision[${i}]`));
    assert.equal(pr.xs.length, c.pr.recall.length);
    results.curves.roc!.xs.forEach((x, i) => near(x, c.roc.fpr[i], `fpr[${i}]`));
    assert.ok(results.curves.pr_unweighted && results.curves.roc_unweighted);
    assert.equal(results.perItem!.values.accuracy.length, source.rowsUsed);
    // the file's row ids stay a RowIds (texts here: `r0`, `r1`, …)
    assert.equal((results.perItem!.ids as RowIds).at(0), 'r0');
  });
}

test('stratified bootstrap: same seed → same intervals; another seed → other intervals; weights fixed', async () => {
  const c = e2e.cases[0];
  const cfg = { populationSize: c.populationSize, biasedSize: c.biasedSize, bootstrapN: 100 };
  const a = await runIw(c.file, { ...cfg, seed: 7 });
  const b = await runIw(c.file, { ...cfg, seed: 7 });
  const d = await runIw(c.file, { ...cfg, seed: 8 });
  for (const k of IW_KEYS) assert.deepEqual(a.results.metrics[k].ci, b.results.metrics[k].ci);
  assert.notDeepEqual(a.results.metrics.average_precision.ci, d.results.metrics.average_precision.ci);
  assert.ok(a.results.timings!.bootstrap >= 0);
});

const SMALL = 'label,score,stratum\n1,0.9,B\n1,0.8,B\n0,0.7,B\n0,0.2,B\n1,0.6,Bc\n0,0.8,Bc\n0,0.4,Bc\n0,0.1,Bc\n';

test('the worked example through the runner: w_B = 1/20, w_Bc = 1/5', async () => {
  const { results } = await runIw(tempFile(SMALL), { populationSize: 20 });
  near(results.metrics.precision.value, 6 / 11);
  near(results.metrics.recall.value, 1);
  near(results.metrics.f1.value, 12 / 17);
  near(results.metrics.average_precision.value, 58 / 99);
  near(results.metrics.roc_auc.value, 31 / 42);
  near(results.baselines!.unweighted.precision.value, 3 / 5);
  const tc = results.tables.thresholdCounts!;
  near(tc.weighted.tp, 0.3);
  near(tc.weighted.fp, 0.25);
  assert.deepEqual(tc.unweighted, { tp: 3, fp: 2, fn: 0, tn: 3 });
  assert.deepEqual(results.perItem!.values.accuracy, [1, 1, 0, 1, 1, 0, 1, 1]);
  assert.equal(results.perItem!.ids, null);
});

test('error_rate: the weighted share of wrong rows at the threshold, 1 − weighted accuracy', async () => {
  // t = 0.75: the B rows are all right; Bc (1, 0.6) is a false negative and Bc (0, 0.8) a false
  // positive. w_B = 1/20, w_Bc = 1/5 (Σ w = 4/20 + 4/5 = 1): error = 1/5 + 1/5 = 2/5; unweighted 2/8.
  const { results } = await runIw(tempFile(SMALL), { populationSize: 20, threshold: 0.75, bootstrapN: 200 });
  near(results.metrics.error_rate.value, 2 / 5);
  near(results.baselines!.unweighted.error_rate.value, 2 / 8);
  assert.equal(results.metrics.error_rate.direction, 'lower');
  assert.match(results.metrics.error_rate.note!, /1 − weighted accuracy/);
  const ci = results.metrics.error_rate.ci;
  assert.ok(ci && ci[0] <= 2 / 5 && 2 / 5 <= ci[1], 'the stratified bootstrap interval holds the point');
  // |B| = 8: w_B = 1/10, w_Bc = 3/20: error = 3/20 + 3/20 = 3/10.
  const b8 = await runIw(tempFile(SMALL), { populationSize: 20, biasedSize: 8, threshold: 0.75 });
  near(b8.results.metrics.error_rate.value, 3 / 10);
});

test('stratum spellings: biased / random, any case; JSONL input', async () => {
  const jsonl = SMALL.trim()
    .split('\n')
    .slice(1)
    .map((l, i) => {
      const [label, score, st] = l.split(',');
      const name = st === 'B' ? (i % 2 ? 'BIASED' : 'b') : i % 2 ? 'Random' : 'bc';
      return JSON.stringify({ label: Number(label), score: Number(score), stratum: name });
    })
    .join('\n');
  const { results, source } = await runIw(tempFile(jsonl, 'jsonl'), { populationSize: 20 });
  assert.equal(source.format, 'jsonl');
  near(results.metrics.average_precision.value, 58 / 99);
});

test('biasedSize larger than the B rows: each B row stands for |B|/b items', async () => {
  // |B| = 8 with 4 B rows: w_B = (8/4)/20 = 1/10, w_Bc = (12/4)/20 = 3/20
  const { results } = await runIw(tempFile(SMALL), { populationSize: 20, biasedSize: 8 });
  const TP = 2 * (1 / 10) + 3 / 20;
  const FP = 1 / 10 + 3 / 20;
  near(results.metrics.precision.value, TP / (TP + FP));
});

test('a weight column overrides the stratum weights, and says so', async () => {
  const csv =
    'label,score,stratum,weight\n1,0.9,B,1\n1,0.8,B,1\n0,0.7,B,1\n0,0.2,B,1\n1,0.6,Bc,4\n0,0.8,Bc,4\n0,0.4,Bc,4\n0,0.1,Bc,4\n';
  const { results, warnings } = await runIw(tempFile(csv), { populationSize: 999 });
  // weights ∝ (1/20, 1/5): the same ratios as the worked example
  near(results.metrics.average_precision.value, 58 / 99);
  assert.match(results.metrics.precision.note!, /weights from column "weight"/);
  assert.ok(warnings.some((w) => w.code === 'weights-from-column'));
  // without a stratum column a weight column is enough; the bootstrap is then not stratified
  const noStrata = 'label,score,weight\n1,0.9,1\n1,0.8,1\n0,0.7,1\n0,0.2,1\n1,0.6,4\n0,0.8,4\n0,0.4,4\n0,0.1,4\n';
  const r2 = await runIw(tempFile(noStrata), { bootstrapN: 20 });
  near(r2.results.metrics.average_precision.value, 58 / 99);
  assert.ok(r2.warnings.some((w) => w.code === 'bootstrap-unstratified'));
});

test('positiveLabel: the value equal to it is positive, one other value negative, a third is an error', async () => {
  const csv = SMALL.replace(/^1,/gm, 'yes,').replace(/^0,/gm, 'no,');
  const { results } = await runIw(tempFile(csv), { populationSize: 20, positiveLabel: 'yes' });
  near(results.metrics.average_precision.value, 58 / 99);
  assert.deepEqual(results.perItem!.labels!.slice(0, 3), ['yes', 'yes', 'no']);
  await assert.rejects(
    runIw(tempFile(csv + 'maybe,0.5,B\n'), { populationSize: 20, positiveLabel: 'yes' }),
    (e: Error) => {
      assert.match(
        e.message,
        /:10, column "label": expected one of the two label values "yes" \(positive\) and "no" \(negative\), got "maybe"/,
      );
      return true;
    },
  );
});

test('threshold with no positive prediction: precision null + warning', async () => {
  const { results, warnings } = await runIw(tempFile(SMALL), { populationSize: 20, threshold: 0.95, bootstrapN: 50 });
  assert.equal(results.metrics.precision.value, null);
  assert.equal(results.metrics.precision.ci, undefined);
  assert.equal(results.metrics.recall.value, 0);
  assert.equal(results.metrics.f1.value, 0);
  assert.equal(results.baselines!.unweighted.precision.value, null);
  assert.ok(warnings.some((w) => w.code === 'no-positive-prediction'));
});

test('scores outside [0, 1] with a threshold in [0, 1]: a warning with lines; none for a threshold on the score scale', async () => {
  const csv = 'label,score,stratum\n1,2.5,B\n0,-1,Bc\n1,0.3,Bc\n';
  const a = await runIw(tempFile(csv), { populationSize: 10 });
  const w = a.warnings.find((x) => x.code === 'scores-out-of-range');
  assert.ok(w);
  assert.equal(w.count, 2);
  assert.deepEqual(w.lines, [2, 3]);
  assert.equal(w.column, 'score');
  const b = await runIw(tempFile(csv), { populationSize: 10, threshold: 0 - 0.5 });
  assert.ok(!b.warnings.some((x) => x.code === 'scores-out-of-range'));
});

test('invalidRows "skip" drops bad rows and lists their lines', async () => {
  const csv = SMALL + '2,0.5,B\n1,NaN,Bc\n1,0.5,X\n1,0.5,\n';
  const { results, warnings, source } = await runIw(tempFile(csv), { populationSize: 20, invalidRows: 'skip' });
  assert.equal(source.rows, 12);
  assert.equal(source.rowsUsed, 8);
  near(results.metrics.average_precision.value, 58 / 99);
  const w = warnings.find((x) => x.code === 'rows-skipped')!;
  assert.equal(w.count, 4);
  assert.deepEqual(w.lines, [10, 11, 12, 13]);
});

async function rejectsWith(csv: string, cfg: Parameters<typeof runIw>[1], re: RegExp, ext = 'csv'): Promise<void> {
  await assert.rejects(runIw(tempFile(csv, ext), cfg), (e: Error) => {
    assert.equal(e.name, 'EvalLensError');
    assert.match(e.message, re);
    return true;
  });
}

test('errors name file, line, column and what was expected', async () => {
  await rejectsWith(
    SMALL + '2,0.5,B\n',
    { populationSize: 20 },
    /in\d+\.csv:10, column "label": expected 0 or 1 \(set `positiveLabel` for other label values\), got "2"/,
  );
  await rejectsWith(
    SMALL + '1,inf,B\n',
    { populationSize: 20 },
    /:10, column "score": expected a finite number, got "inf"/,
  );
  await rejectsWith(
    SMALL + '1,NaN,B\n',
    { populationSize: 20 },
    /:10, column "score": expected a finite number, got "NaN"/,
  );
  await rejectsWith(
    SMALL + '1,0.5,C\n',
    { populationSize: 20 },
    /:10, column "stratum": expected a stratum B or Bc \(also biased \/ random\), got "C"/,
  );
  await rejectsWith(
    SMALL + '1,0.5,\n',
    { populationSize: 20 },
    /:10, column "stratum": expected a stratum \(B or Bc\), got an empty cell/,
  );
  await rejectsWith(
    'label,score\n1,0.5\n',
    { populationSize: 20 },
    /no stratum column\. Found: label, score\. Accepted: stratum, strata\. .*or give a `weight` column/,
  );
  await rejectsWith(
    'label,prob_x\n1,0.5\n',
    { populationSize: 20 },
    /no score column\. Found: label, prob_x\. Accepted: confidence, score/,
  );
  await rejectsWith(
    'label,score,stratum,weight\n1,0.5,B,-1\n',
    {},
    /:2, column "weight": expected a finite weight ≥ 0, got "-1"/,
  );
});

test('errors about the sizes name the key to set', async () => {
  await rejectsWith(SMALL, {}, /set `populationSize`.*or give a `weight` column/);
  await rejectsWith(
    'label,score,stratum\n1,0.9,B\n0,0.2,B\n',
    { populationSize: 20 },
    /expected rows of stratum Bc.*got none \(2 B rows\)/,
  );
  await rejectsWith(SMALL, { populationSize: 20, biasedSize: 3 }, /`biasedSize` is 3 but .* has 4 B rows/);
  await rejectsWith(SMALL, { populationSize: 6, biasedSize: 4 }, /`populationSize` is 6 but .* has 8 rows/);
  await rejectsWith(
    SMALL,
    { populationSize: 10, biasedSize: 12 },
    /`populationSize` \(10\) is smaller than `biasedSize` \(12\)/,
  );
  await rejectsWith(
    SMALL,
    { populationSize: 10, biasedSize: 8 },
    /has 4 Bc rows but the complement of B holds only populationSize − biasedSize = 2 items/,
  );
  await rejectsWith(SMALL, { populationSize: 20.5 }, /expected `populationSize` to be a positive integer, got 20.5/);
  await rejectsWith(
    'label,score,stratum\n1,0.9,Bc\n0,0.2,Bc\n',
    { populationSize: 20, biasedSize: 5 },
    /`biasedSize` is 5 but .* has no B rows/,
  );
});

test('no B rows and biasedSize 0: a uniform sample, weights all equal (= unweighted)', async () => {
  const csv = 'label,score,stratum\n1,0.9,Bc\n0,0.8,Bc\n1,0.7,Bc\n0,0.1,Bc\n';
  const { results } = await runIw(tempFile(csv), { populationSize: 100 });
  for (const k of IW_KEYS) near(results.metrics[k].value, results.baselines!.unweighted[k].value, k);
  near(results.metrics.average_precision.value, 5 / 6);
});

test('duplicate ids: a warning with lines', async () => {
  const csv = 'id,label,score,stratum\na,1,0.9,B\nb,0,0.2,Bc\na,1,0.4,Bc\n';
  const { warnings } = await runIw(tempFile(csv), { populationSize: 20 });
  const w = warnings.find((x) => x.code === 'duplicate-ids')!;
  assert.deepEqual(w.lines, [4]);
});

test('ragged CSV rows: an error, or skipped and listed with invalidRows "skip"', async () => {
  await assert.rejects(runIw(tempFile(SMALL + '1,0.5\n'), { populationSize: 20 }), /:10/);
  const { warnings, source } = await runIw(tempFile(SMALL + '1,0.5\n'), { populationSize: 20, invalidRows: 'skip' });
  assert.equal(source.rowsUsed, 8);
  assert.deepEqual(warnings.find((w) => w.code === 'rows-skipped')!.lines, [10]);
});

test('JSON array input with boolean labels and explicit column names', async () => {
  const rows = SMALL.trim()
    .split('\n')
    .slice(1)
    .map((l) => {
      const [label, score, st] = l.split(',');
      return { truth: label === '1', p: Number(score), src: st };
    });
  const { results, source } = await runIw(tempFile(JSON.stringify(rows, null, 1), 'json'), {
    populationSize: 20,
    columns: { label: 'truth', score: 'p', stratum: 'src' },
  });
  assert.equal(source.format, 'json');
  assert.deepEqual(source.columns, { label: 'truth', score: 'p', stratum: 'src' });
  near(results.metrics.average_precision.value, 58 / 99);
  await rejectsWith(
    JSON.stringify(rows),
    { populationSize: 20, columns: { stratum: 'nope' } },
    /the stratum column "nope" set in `columns.stratum` is not in the file/,
    'json',
  );
});
