// The CI gate's rules: parsing, absolute and relative tolerances, and the violations of each run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkGate, parseGate } from '../../../../src/core/compare/gate';
import type { CompareResults } from '../../../../src/core/compare/types';
import { EvalLensError } from '../../../../src/core/diagnostics';
import { compareResults } from '../../helpers/reportFixtures';

/** The shared fixture with two metrics of opposite directions and a third run. */
function comparison(): CompareResults {
  const c = compareResults();
  c.metrics = ['accuracy', 'aurc'];
  c.directions = { accuracy: 'higher', aurc: 'lower' };
  c.table = {
    'a.csv': { accuracy: 0.8, aurc: 0.1 },
    'b.csv': { accuracy: 0.78, aurc: 0.104 },
    'c.csv': { accuracy: 0.85, aurc: 0.2 },
  };
  c.tests = [];
  return c;
}

test('rules: metric, operator, signed number, optional %; several per string; bad rules named', () => {
  assert.deepEqual(parseGate(['accuracy<-0.01, aurc>+0.005', 'nll >= 2%'], '--fail-if'), [
    { text: 'accuracy<-0.01', metric: 'accuracy', op: '<', tolerance: -0.01, relative: false },
    { text: 'aurc>+0.005', metric: 'aurc', op: '>', tolerance: 0.005, relative: false },
    { text: 'nll >= 2%', metric: 'nll', op: '>=', tolerance: 0.02, relative: true },
  ]);
  assert.throws(
    () => parseGate(['accuracy=0.1'], '--fail-if'),
    /--fail-if: expected gate rules like .* but got "accuracy=0.1"/,
  );
  assert.throws(() => parseGate(['accuracy<'], '--fail-if'), EvalLensError);
});

test('violations: Δ = run − baseline against the tolerance, per run; equal runs pass', () => {
  const c = comparison();
  // b: Δacc = 0.78 − 0.8 = −0.02 < −0.01 (broken); Δaurc = +0.004 ≤ 0.005 (kept).
  // c: Δacc = +0.05 (kept); Δaurc = +0.1 > 0.005 (broken).
  const v = checkGate(c, parseGate(['accuracy<-0.01, aurc>+0.005'], '--fail-if'), '--fail-if');
  assert.deepEqual(
    v.map((x) => [x.rule.metric, x.run, Math.round(x.delta * 1e6) / 1e6]),
    [
      ['accuracy', 'b.csv', -0.02],
      ['aurc', 'c.csv', 0.1],
    ],
  );
  assert.match(v[0]!.message, /^accuracy: b − baseline = −0\.0200 breaks "accuracy<-0\.01" \(tolerance -0\.01\)\.$/);
  // Relative: Δacc/0.8 = −2.5% < −2% for b.
  const rel = checkGate(c, parseGate(['accuracy<-2%'], 'x'), 'x');
  assert.deepEqual(
    rel.map((x) => x.run),
    ['b.csv'],
  );
  // A run equal to the baseline breaks nothing.
  c.table['b.csv'] = { ...c.table['a.csv']! };
  c.table['c.csv'] = { ...c.table['a.csv']! };
  assert.deepEqual(checkGate(c, parseGate(['accuracy<-0.01, aurc>+0.005'], 'x'), 'x'), []);
});

test('a rule on a metric that is not compared is an error: a gate that checks nothing would always pass', () => {
  assert.throws(
    () => checkGate(comparison(), parseGate(['ndcg@10<0'], 'x'), 'x'),
    /names "ndcg@10", which is not compared here/,
  );
});

test('the interval, when the paired bootstrap gave one, is printed beside Δ', () => {
  const c = comparison();
  c.tests.push({
    run: 'b.csv',
    baseline: 'a.csv',
    metric: 'accuracy',
    n: 10,
    mean: 0.78,
    mean_baseline: 0.8,
    improvement: -0.025,
    t: null,
    p_t: null,
    p_t_one_sided: null,
    wilcoxon: null,
    p_wilcoxon: null,
    d_z: null,
    d_pooled: null,
    delta: -0.02,
    ci_diff: [-0.05, 0.01],
  });
  const [v] = checkGate(c, parseGate(['accuracy<-0.01'], 'x'), 'x');
  assert.match(v!.message, /= −0\.0200 \(interval \[−0\.0500, \+0\.0100\]\) breaks/);
});
