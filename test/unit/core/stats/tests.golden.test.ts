// Paired t-test, Wilcoxon signed-rank and Cohen's d against scipy 1.10 / numpy
// (scripts/golden/stats.py → test/golden/stats.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cohensDPooled, cohensDz, pairedTTest, wilcoxonSignedRank } from '../../../../src/core/stats/tests';
import { closeRel } from '../../helpers/numericClose';

interface GoldenCase {
  name: string;
  a: number[];
  b: number[];
  n: number;
  n_zero: number;
  t: number | string;
  p_t: number | string;
  p_t_one_sided: number | string;
  wilcoxon: number | null;
  p_wilcoxon: number | null;
  wilcoxon_auto_mode?: 'approx' | 'exact';
  wilcoxon_auto?: number;
  p_wilcoxon_auto?: number;
  d_z: number | string;
  d_pooled: number | string;
}

const golden = JSON.parse(readFileSync('test/golden/stats.json', 'utf8')) as { scipy: string; cases: GoldenCase[] };

function num(v: number | string): number {
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  return v as number;
}

/** Relative closeness to a golden value (written as a number or as "nan"/"inf" text). */
function close(actual: number, expected: number | string, what: string, rel = 1e-10): void {
  closeRel(actual, num(expected), rel, what);
}

test('golden file was made by scipy and holds cases with ties, zeros and n > 50', () => {
  assert.match(golden.scipy, /^1\./);
  assert.ok(golden.cases.some((c) => c.n > 50 && c.n_zero > 0));
  assert.ok(golden.cases.length >= 10);
});

for (const c of golden.cases) {
  test(`paired t-test matches scipy ttest_rel: ${c.name}`, () => {
    const r = pairedTTest(c.a, c.b);
    assert.equal(r.n, c.n);
    close(r.t, c.t, 't');
    // p-values: absolute 1e-12 is far below any reporting precision; relative for the tiny ones.
    close(r.p, c.p_t, 'p_t', 1e-9);
    close(r.pGreater, c.p_t_one_sided, 'p_t_one_sided', 1e-9);
  });

  test(`Wilcoxon signed-rank matches scipy wilcoxon (approx): ${c.name}`, () => {
    const r = wilcoxonSignedRank(c.a, c.b);
    assert.equal(r.nZero, c.n_zero);
    if (c.wilcoxon === null) {
      assert.ok(Number.isNaN(r.statistic) && Number.isNaN(r.p));
      return;
    }
    close(r.statistic, c.wilcoxon, 'statistic');
    close(r.p, c.p_wilcoxon as number, 'p', 1e-9);
    if (c.wilcoxon_auto_mode === 'approx') {
      // scipy's defaults (method='auto') chose the same normal approximation here.
      close(r.p, c.p_wilcoxon_auto as number, 'p (scipy defaults)', 1e-9);
    }
  });

  test(`Cohen's d_z and pooled d match numpy: ${c.name}`, () => {
    close(cohensDz(c.a, c.b), c.d_z, 'd_z');
    close(cohensDPooled(c.a, c.b), c.d_pooled, 'd_pooled');
  });
}
