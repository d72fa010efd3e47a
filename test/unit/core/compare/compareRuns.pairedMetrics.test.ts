/**
 * Paired tests on every per-item metric of a classification comparison, against scipy
 * (test/golden/stats.json, `comparison`: per-row values computed in Python from the prediction
 * files by scripts/golden/stats.py), and the Δ interval against a slow reference bootstrap.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareFiles } from '../../../../src/core/compare/files';
import { compareRuns } from '../../../../src/core/compare/compareRuns';
import { drawResample } from '../../../../src/core/stats/resampleDraws';
import { classificationRun } from '../../../fixtures/compare/makeResults';
import { closeRel } from '../../helpers/numericClose';

interface GoldenTest {
  run: string;
  metric: string;
  n: number;
  mean: number;
  mean_baseline: number;
  t: number;
  p_t: number;
  p_t_one_sided: number;
  wilcoxon: number;
  p_wilcoxon: number;
  d_z: number;
  d_pooled: number;
  p_holm: number;
}
const golden = JSON.parse(readFileSync('test/golden/stats.json', 'utf8')).comparison as {
  folder: string;
  runs: string[];
  tests: GoldenTest[];
};

/** Relative closeness to scipy's value. */
function close(actual: number | null | undefined, expected: number, what: string, rel = 1e-9): void {
  closeRel(actual, expected, rel, `${what} (vs scipy)`);
}

test("digits-lt: t, Wilcoxon, Holm, Cohen's d of accuracy, top-k accuracy, nll and brier agree with scipy", async () => {
  const paths = golden.runs.map((r) => join(golden.folder, r));
  // scipy's reference pairs every row of the split files
  const c = await compareFiles(paths, { overrides: { bootstrap: { n: 0 }, metricsOn: 'all' } });
  const metrics = [...new Set(golden.tests.map((t) => t.metric))];
  assert.deepEqual(metrics, ['accuracy', 'top2_accuracy', 'top3_accuracy', 'nll', 'brier']);
  assert.equal(c.tests.length, golden.tests.length);
  for (const g of golden.tests) {
    const t = c.tests.find((x) => x.run.endsWith(g.run) && x.metric === g.metric);
    assert.ok(t, `${g.run} ${g.metric}`);
    const what = `${g.run} ${g.metric}`;
    assert.equal(t.n, g.n, what);
    close(t.mean, g.mean, `${what} mean`, 1e-12);
    close(t.mean_baseline, g.mean_baseline, `${what} mean_baseline`, 1e-12);
    close(t.t, g.t, `${what} t`);
    close(t.p_t, g.p_t, `${what} p_t`, 1e-7);
    close(t.p_t_one_sided, g.p_t_one_sided, `${what} p_t_one_sided`, 1e-7);
    close(t.wilcoxon, g.wilcoxon, `${what} W`);
    close(t.p_wilcoxon, g.p_wilcoxon, `${what} p_W`, 1e-7);
    close(t.d_z, g.d_z, `${what} d_z`);
    close(t.d_pooled, g.d_pooled, `${what} d_pooled`);
    close(t.p_holm, g.p_holm, `${what} p_holm`, 1e-7);
  }
  // Not a mean over rows: listed once as untested, no warning per run.
  assert.ok(c.untested!.includes('balanced_accuracy') && c.untested!.includes('aurc'));
  assert.ok(!c.untested!.includes('nll'));
  assert.ok(!c.warnings.some((w) => w.code === 'compare-no-per-item'));
});

/** numpy's default (linear) percentile of an unsorted list. */
function percentile(values: number[], q: number): number {
  const s = [...values].sort((x, y) => x - y);
  const h = (s.length - 1) * q;
  const lo = Math.floor(h);
  return s[lo]! + (h - lo) * (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!);
}

test('Δ and its interval = a slow paired bootstrap: resample pairs as whole, mean(run) − mean(baseline), percentiles', async () => {
  const n = 41;
  const ids = Array.from({ length: n }, (_, i) => `r${i}`);
  const labels = ids.map((_, i) => ['a', 'b', 'c'][i % 3]!);
  // Deterministic 0/1 correctness with some structure.
  const base = classificationRun(
    'base.csv',
    ids,
    labels,
    ids.map((_, i) => (i % 4 === 0 ? 0 : 1)),
  );
  const run = classificationRun(
    'run.csv',
    ids,
    labels,
    ids.map((_, i) => (i % 7 === 0 ? 0 : 1)),
  );
  const bootstrap = { n: 300, confidence: 0.9, seed: 17 };
  const c = await compareRuns([base, run], { bootstrap });
  const t = c.tests[0]!;
  const a = run.perItem!.values.accuracy!;
  const b = base.perItem!.values.accuracy!;
  const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  assert.ok(Math.abs(t.mean! - t.mean_baseline! - (mean(a) - mean(b))) < 1e-15);
  // The slow reference: expand each resample's multiplicities into a list of drawn pairs.
  const counts = new Int32Array(n);
  const diffs: number[] = [];
  for (let r = 0; r < bootstrap.n; r++) {
    drawResample(bootstrap.seed, r, counts, null);
    const drawn: number[] = [];
    counts.forEach((k, i) => {
      for (let j = 0; j < k; j++) drawn.push(i);
    });
    assert.equal(drawn.length, n);
    diffs.push(mean(drawn.map((i) => a[i]!)) - mean(drawn.map((i) => b[i]!)));
  }
  const alpha = (1 - bootstrap.confidence) / 2;
  assert.ok(t.ci_diff);
  assert.ok(
    Math.abs(t.ci_diff[0] - percentile(diffs, alpha)) < 1e-12,
    `${t.ci_diff[0]} vs ${percentile(diffs, alpha)}`,
  );
  assert.ok(Math.abs(t.ci_diff[1] - percentile(diffs, 1 - alpha)) < 1e-12);
  assert.ok(t.ci_diff[0] <= t.mean! - t.mean_baseline! && t.mean! - t.mean_baseline! <= t.ci_diff[1]);
});
