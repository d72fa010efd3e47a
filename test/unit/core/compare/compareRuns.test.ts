// compareRuns: pairing by id / position / user, mismatches, the paired tests, Holm, bootstrap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns } from '../../../../src/core/compare/compareRuns';
import { EvalLensError } from '../../../../src/core/diagnostics';
import { cohensDPooled, cohensDz, holmAdjust, pairedTTest, wilcoxonSignedRank } from '../../../../src/core/stats/tests';
import { createRng } from '../../../../src/core/stats/rng';
import { classificationRun, makeResults } from '../../../fixtures/compare/makeResults';

const ids = Array.from({ length: 40 }, (_, i) => `r${i + 1}`);
const labels = ids.map((_, i) => ['cat', 'dog', 'bird'][i % 3]);
const rng = createRng(3);
const baseCorrect: number[] = ids.map(() => (rng.next() < 0.6 ? 1 : 0));
const betterCorrect: number[] = baseCorrect.map((c) => (c === 1 || rng.next() < 0.4 ? 1 : 0));
const otherCorrect: number[] = ids.map(() => (rng.next() < 0.65 ? 1 : 0));

function shuffled<T>(xs: T[], seed: number): number[] {
  const r = createRng(seed);
  const idx = xs.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx;
}

const base = classificationRun('runs/base.csv', ids, labels, baseCorrect);
const better = classificationRun('runs/better.csv', ids, labels, betterCorrect);

test('matching by id: a run with shuffled rows gives exactly the tests of the aligned run', async () => {
  const order = shuffled(ids, 9);
  const shuffledRun = classificationRun(
    'runs/better_shuffled.csv',
    order.map((i) => ids[i]),
    order.map((i) => labels[i]),
    order.map((i) => betterCorrect[i]),
  );
  const aligned = (await compareRuns([base, better])).tests[0];
  const viaIds = (await compareRuns([base, shuffledRun])).tests[0];
  for (const k of [
    'n',
    'mean',
    'mean_baseline',
    'improvement',
    't',
    'p_t',
    'p_t_one_sided',
    'wilcoxon',
    'p_wilcoxon',
    'd_z',
    'd_pooled',
  ] as const) {
    assert.equal(viaIds[k], aligned[k], k);
  }
  // … and those are the statistics of the aligned vectors.
  const t = pairedTTest(betterCorrect, baseCorrect);
  const w = wilcoxonSignedRank(betterCorrect, baseCorrect);
  assert.equal(aligned.t, t.t);
  assert.equal(aligned.p_t, t.p);
  assert.equal(aligned.p_t_one_sided, t.pGreater);
  assert.equal(aligned.wilcoxon, w.statistic);
  assert.equal(aligned.p_wilcoxon, w.p);
  assert.equal(aligned.d_z, cohensDz(betterCorrect, baseCorrect));
  assert.equal(aligned.d_pooled, cohensDPooled(betterCorrect, baseCorrect));
  const mb = baseCorrect.reduce((s, v) => s + v, 0) / 40;
  const ma = betterCorrect.reduce((s, v) => s + v, 0) / 40;
  assert.equal(aligned.mean, ma);
  assert.equal(aligned.mean_baseline, mb);
  assert.equal(aligned.improvement, (ma - mb) / mb);
  assert.equal(viaIds.run, 'runs/better_shuffled.csv');
  assert.equal(viaIds.baseline, 'runs/base.csv');
});

test('hand example: improvement, t and one-sided p of a 4-row comparison', async () => {
  const a = classificationRun('a.csv', ['1', '2', '3', '4'], ['x', 'y', 'x', 'y'], [1, 0, 1, 0]);
  const b = classificationRun('b.csv', ['4', '3', '2', '1'], ['y', 'x', 'y', 'x'], [0, 1, 1, 1]);
  const r = await compareRuns([a, b]);
  const x = r.tests[0];
  // b by id 1..4 = [1, 1, 1, 0]; a = [1, 0, 1, 0]; d = [0, 1, 0, 0]
  assert.equal(x.mean, 0.75);
  assert.equal(x.mean_baseline, 0.5);
  assert.equal(x.improvement, 0.5);
  // mean d = 0.25, sd = 0.5, t = 0.25/(0.5/2) = 1
  assert.ok(Math.abs((x.t as number) - 1) < 1e-12);
  assert.equal(x.wilcoxon, 0); // one non-zero difference, positive: W− = 0
  assert.equal(r.matchBy, 'id');
});

test('ids only in one run: an error naming the ids on each side', async () => {
  const fewer = classificationRun('runs/fewer.csv', ids.slice(2), labels.slice(2), betterCorrect.slice(2));
  await assert.rejects(
    async () => compareRuns([base, fewer]),
    (e: unknown) => {
      assert.ok(e instanceof EvalLensError);
      assert.equal(e.code, 'compare-id-mismatch');
      assert.match(
        e.message,
        /^runs\/fewer\.csv: expected the same ids as the baseline runs\/base\.csv, but found 2 only in runs\/base\.csv \(first: r1, r2\)/,
      );
      return true;
    },
  );
});

test("onMismatch 'intersect': tests on the common ids, and a warning lists the dropped ones", async () => {
  const fewer = classificationRun(
    'runs/fewer.csv',
    [...ids.slice(2), 'extra'],
    [...labels.slice(2), 'cat'],
    [...betterCorrect.slice(2), 1],
  );
  const r = await compareRuns([base, fewer], { onMismatch: 'intersect' });
  assert.equal(r.tests[0].n, 38);
  const w = r.warnings.find((x) => x.code === 'compare-id-mismatch');
  assert.ok(w);
  assert.match(
    w.message,
    /1 ids only in runs\/fewer\.csv \(first: extra\); 2 only in runs\/base\.csv \(first: r1, r2\)/,
  );
  assert.equal(r.settings.onMismatch, 'intersect');
});

test('a different label for the same id is an error, even with intersect', async () => {
  const relabelled = labels.slice();
  relabelled[4] = 'fish';
  const bad = classificationRun('runs/bad.csv', ids, relabelled, betterCorrect);
  for (const onMismatch of ['error', 'intersect'] as const) {
    await assert.rejects(
      async () => compareRuns([base, bad], { onMismatch }),
      /runs\/bad\.csv: expected the same label for each id as in the baseline runs\/base\.csv, but 1 id differs \(first: r5 \(fish vs dog\)\)/,
    );
  }
});

test('duplicate ids are an error when pairing by id', async () => {
  const dup = classificationRun('runs/dup.csv', [...ids.slice(0, 39), 'r1'], labels, betterCorrect);
  await assert.rejects(
    async () => compareRuns([base, dup]),
    /runs\/dup\.csv: expected unique ids .* 1 is repeated \(first: r1\)/,
  );
});

test('by position: only without ids, and only when labels agree row by row', async () => {
  const a = classificationRun('a.csv', null, labels, baseCorrect);
  const b = classificationRun('b.csv', null, labels, betterCorrect);
  const r = await compareRuns([a, b]);
  assert.equal(r.matchBy, 'position');
  assert.equal(r.tests[0].t, pairedTTest(betterCorrect, baseCorrect).t);
  const swapped = labels.slice();
  [swapped[0], swapped[1]] = [swapped[1], swapped[0]];
  const c = classificationRun('c.csv', null, swapped, betterCorrect);
  await assert.rejects(
    async () => compareRuns([a, c]),
    /c\.csv: expected the labels of the baseline a\.csv row by row .* 2 rows differ \(first: row 1 \(dog vs cat\), row 2 \(cat vs dog\)\)/,
  );
  const short = classificationRun('short.csv', null, labels.slice(1), betterCorrect.slice(1));
  await assert.rejects(
    async () => compareRuns([a, short]),
    /short\.csv: expected 40 rows as in the baseline a\.csv to pair rows by position, but got 39/,
  );
});

test('one run with ids and one without cannot be paired', async () => {
  const noIds = classificationRun('noids.csv', null, labels, betterCorrect);
  await assert.rejects(
    async () => compareRuns([base, noIds]),
    /noids\.csv: expected an id column, as runs\/base\.csv has/,
  );
});

test('runs of different tasks, duplicate runs, one run, unknown baseline or metric: errors', async () => {
  const ranking = makeResults(
    'rank.jsonl',
    { 'ndcg@10': 0.3 },
    { kind: 'user', ids: ['u1'], values: { 'ndcg@10': [0.3] } },
  );
  await assert.rejects(
    async () => compareRuns([base, ranking]),
    /rank\.jsonl: expected a classification run as runs\/base\.csv, but this run is ranking/,
  );
  await assert.rejects(async () => compareRuns([base, base]), /compare|given twice/);
  await assert.rejects(async () => compareRuns([base]), /at least two runs/);
  await assert.rejects(
    async () => compareRuns([base, better], { baseline: 'nope.csv' }),
    /expected the baseline to be one of the runs compared/,
  );
  await assert.rejects(
    async () => compareRuns([base, better], { metrics: ['acc'] }),
    /"acc" is in none of them\. Known keys: accuracy/,
  );
});

test('baseline by path, display name or 0-based index', async () => {
  for (const b of ['runs/better.csv', 'better', '1']) {
    const r = await compareRuns([base, better], { baseline: b });
    assert.equal(r.baseline, 'runs/better.csv');
    assert.equal(r.tests[0].run, 'runs/base.csv');
  }
  assert.deepEqual((await compareRuns([base, better])).names, ['base', 'better']);
});

test('Holm: with three runs against the baseline, p_holm = Holm of the three p_t; with one run, absent', async () => {
  const other = classificationRun('runs/other.csv', ids, labels, otherCorrect);
  const same = classificationRun(
    'runs/same.csv',
    ids,
    labels,
    baseCorrect.map((c, i) => (i < 3 ? 1 - c : c)),
  );
  const r = await compareRuns([base, better, other, same]);
  assert.equal(r.tests.length, 3);
  const adj = holmAdjust(r.tests.map((t) => t.p_t));
  r.tests.forEach((t, k) => assert.equal(t.p_holm, adj[k]));
  assert.ok(r.tests.every((t) => (t.p_holm as number) >= (t.p_t as number)));
  assert.equal('p_holm' in (await compareRuns([base, better])).tests[0], false);
});

test('paired bootstrap CI of the difference: seeded, reproducible, contains the observed difference', async () => {
  const opts = { bootstrap: { n: 500, confidence: 0.95, seed: 42 } };
  const r1 = (await compareRuns([base, better], opts)).tests[0];
  const r2 = (await compareRuns([base, better], opts)).tests[0];
  assert.deepEqual(r1.ci_diff, r2.ci_diff);
  const [lo, hi] = r1.ci_diff as [number, number];
  const diff = (r1.mean as number) - (r1.mean_baseline as number);
  assert.ok(lo <= diff && diff <= hi, `${lo} ≤ ${diff} ≤ ${hi}`);
  assert.ok(lo >= 0, 'better only fixes errors: no resample has a negative difference');
  assert.equal((await compareRuns([base, better])).tests[0].ci_diff, undefined);
});

test('ranking: per-user values paired by user', async () => {
  const users = ['u1', 'u2', 'u3', 'u4', 'u5'];
  const a = makeResults(
    'als.jsonl',
    { 'ndcg@10': 0.3, mrr: 0.4 },
    { kind: 'user', ids: users, values: { 'ndcg@10': [0.1, 0.5, 0.2, 0.4, 0.3], mrr: [1, 0.5, 0.2, 0.25, 0.1] } },
  );
  const b = makeResults(
    'bpr.jsonl',
    { 'ndcg@10': 0.36, mrr: 0.5 },
    {
      kind: 'user',
      ids: ['u5', 'u4', 'u3', 'u2', 'u1'],
      values: { 'ndcg@10': [0.3, 0.5, 0.2, 0.6, 0.2], mrr: [0.1, 0.5, 1, 0.5, 1] },
    },
  );
  const r = await compareRuns([a, b], { baseline: 'als.jsonl' });
  assert.equal(r.matchBy, 'user');
  const ndcg = r.tests.find((t) => t.metric === 'ndcg@10')!;
  // bpr by user u1..u5 = [0.2, 0.6, 0.2, 0.5, 0.3]
  const t = pairedTTest([0.2, 0.6, 0.2, 0.5, 0.3], [0.1, 0.5, 0.2, 0.4, 0.3]);
  assert.equal(ndcg.t, t.t);
  assert.equal(ndcg.n, 5);
  assert.deepEqual(r.metrics, ['ndcg@10', 'mrr']);
});

test('identical runs: t, Wilcoxon and d_z are null with warnings saying why', async () => {
  const twin = classificationRun('runs/twin.csv', ids, labels, baseCorrect);
  const r = await compareRuns([base, twin]);
  const x = r.tests[0];
  assert.equal(x.t, null);
  assert.equal(x.p_t, null);
  assert.equal(x.wilcoxon, null);
  assert.equal(x.d_z, null);
  assert.equal(x.improvement, 0);
  const degenerate = r.warnings.filter((w) => w.code === 'compare-degenerate-test');
  assert.equal(degenerate.length, 1, 'one warning for the run, not one per metric');
  assert.equal(degenerate[0].count, r.tests.length);
  assert.equal(degenerate[0].file, 'runs/twin.csv');
  const keys = r.tests.map((t) => t.metric);
  assert.equal(
    degenerate[0].message,
    `runs/twin.csv vs runs/base.csv: every paired difference is zero ${keys.length > 1 ? `on every tested metric (${keys.join(', ')})` : `on metric ${keys[0]}`}, so the t-test, the Wilcoxon test and d_z are undefined there (null).`,
  );
});

test('a run equal to the baseline on one of two metrics: one warning names that metric; the other is tested', async () => {
  const a = makeResults(
    'a.jsonl',
    { 'ndcg@10': 0.3, mrr: 0.5 },
    { kind: 'user', ids: ['1', '2', '3'], values: { 'ndcg@10': [0.1, 0.2, 0.3], mrr: [0.5, 0.6, 0.2] } },
  );
  const b = makeResults(
    'b.jsonl',
    { 'ndcg@10': 0.3, mrr: 0.4 },
    { kind: 'user', ids: ['1', '2', '3'], values: { 'ndcg@10': [0.1, 0.2, 0.3], mrr: [0.4, 0.1, 0.3] } },
  );
  const r = await compareRuns([a, b], { baseline: 'b.jsonl' });
  const degenerate = r.warnings.filter((w) => w.code === 'compare-degenerate-test');
  assert.equal(degenerate.length, 1);
  assert.equal(
    degenerate[0].message,
    'a.jsonl vs b.jsonl: every paired difference is zero on metric ndcg@10, so the t-test, the Wilcoxon test and d_z are undefined there (null).',
  );
  const mrr = r.tests.find((t) => t.metric === 'mrr')!;
  // differences 0.1, 0.5, −0.1: mean 0.5/3, a finite t
  assert.ok(mrr.t !== null && Number.isFinite(mrr.t));
  assert.equal(r.tests.find((t) => t.metric === 'ndcg@10')!.t, null);
});

test('non-finite per-item values are left out of the pairs with a warning', async () => {
  const a = makeResults(
    'a.jsonl',
    { 'ndcg@10': 0.3 },
    { kind: 'user', ids: ['1', '2', '3', '4'], values: { 'ndcg@10': [0.1, NaN, 0.3, 0.5] } },
  );
  const b = makeResults(
    'b.jsonl',
    { 'ndcg@10': 0.3 },
    { kind: 'user', ids: ['1', '2', '3', '4'], values: { 'ndcg@10': [0.2, 0.4, 0.1, 0.2] } },
  );
  const r = await compareRuns([a, b]);
  assert.equal(r.tests[0].n, 3);
  assert.ok(r.warnings.some((w) => w.code === 'compare-undefined-values' && w.count === 1));
});

test('table and marks: values from each run, directions from the results, missing metric null', async () => {
  const mk = (p: string, acc: number, ece: number) => makeResults(p, { accuracy: acc, ece });
  const runs = [
    mk('a.csv', 0.8, 0.05),
    mk('b.csv', 0.9, 0.07),
    mk('c.csv', 0.85, 0.03),
    makeResults('d.csv', { accuracy: 0.7 }),
  ];
  const r = await compareRuns(runs, { metrics: ['accuracy', 'ece'] });
  assert.deepEqual(r.directions, { accuracy: 'higher', ece: 'lower' });
  assert.equal(r.table['d.csv'].ece, null);
  // The last of each column (d in accuracy, b in ece) beats nobody: unmarked.
  assert.deepEqual(r.marks.accuracy, { 'b.csv': 1, 'c.csv': 2, 'a.csv': 3 });
  assert.deepEqual(r.marks.ece, { 'c.csv': 1, 'a.csv': 2 });
  assert.ok(r.warnings.some((w) => w.code === 'compare-missing-metric' && w.file === 'd.csv'));
  // No per-item values: said once, in `untested` (the table note), not as a warning per run.
  assert.ok(!r.warnings.some((w) => w.code === 'compare-no-per-item'));
  assert.deepEqual(r.untested, ['accuracy', 'ece']);
  assert.equal(r.tests.length, 0);
  // Override of a direction (config compare.directions).
  const o = await compareRuns(runs, { metrics: ['ece'], directions: { ece: 'higher' } });
  assert.deepEqual(o.marks.ece, { 'b.csv': 1, 'a.csv': 2 });
});

test('the paired bootstrap reports progress and can be cancelled', async () => {
  const seen: number[] = [];
  await compareRuns([base, better], {
    bootstrap: { n: 100, confidence: 0.9, seed: 1 },
    progress: { report: (_s, done) => seen.push(done) },
  });
  assert.deepEqual(seen, [50, 100]);
  await assert.rejects(
    async () =>
      await compareRuns([base, better], {
        bootstrap: { n: 100, confidence: 0.9, seed: 1 },
        progress: { isCancelled: () => true },
      }),
    /cancelled/,
  );
});
