// A metric added through the family contract reaches every output without code of its own: R-
// precision is computed by the ranking accuracy module and described by its glossary entry; the
// single-run report gives it a bootstrap interval over users, `compare` a paired interval, a
// paired t-test on the per-user values and a direction, and `explain` its definition.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateFile } from '../../../src/core/evaluate';
import { compareFiles } from '../../../src/core/compare/files';
import { explainKey, formatExplanation } from '../../../src/core/glossary';

const DIR = 'examples/ranking-debian-deps';

test('r_precision: a value in [0, 1] with its interval over users, and the popularity baseline’s value', async () => {
  const r = await evaluateFile(`${DIR}/cooccurrence.jsonl`, { overrides: { bootstrap: { n: 200, seed: 0 } } });
  const m = r.metrics.r_precision;
  assert.ok(m && m.value !== null && m.value > 0 && m.value < 1, JSON.stringify(m));
  assert.equal(m.direction, 'higher');
  assert.ok(m.ci && m.ci[0] <= m.value && m.value <= m.ci[1], JSON.stringify(m.ci));
  assert.ok(r.families.ranking?.includes('r_precision'));
  // a per-user value for each evaluated user, as mrr
  assert.equal(r.perItem?.values.r_precision.length, r.perItem?.values.mrr.length);
  assert.equal(typeof r.baselines?.popularity?.r_precision?.value, 'number');
});

test('r_precision in a comparison: Δ, its paired interval and p, and the paired t-test on per-user values', async () => {
  const c = await compareFiles([`${DIR}/popularity.jsonl`, `${DIR}/cooccurrence.jsonl`], {
    bootstrap: { n: 200, confidence: 0.95, seed: 0 },
  });
  assert.ok(c.metrics.includes('r_precision'));
  const t = c.tests.find((x) => x.metric === 'r_precision');
  assert.ok(t, 'a test of r_precision');
  assert.ok(t.ci_diff && t.ci_diff[0] <= t.ci_diff[1]);
  assert.equal(typeof t.p_boot, 'number');
  assert.equal(typeof t.p_t, 'number');
  assert.ok(Math.abs(t.delta! - (t.mean! - t.mean_baseline!)) < 1e-12);
});

test('explain r_precision: its definition, convention and references', () => {
  const text = formatExplanation(explainKey('r_precision')!);
  assert.match(text, /R-precision/);
  assert.match(text, /Rprec/);
  assert.match(text, /Manning/);
});
