// The threshold explorer's model: aligned columns read from the results' exact curves, the
// evaluated point found among them, the point a typed threshold selects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateFile } from '../../../src/core/evaluate';
import {
  explorerMissingNote,
  nearestPoint,
  operatingPointModel,
  pointAtThreshold,
} from '../../../src/shared/operatingPoint';
import { isWebviewMessage } from '../../../src/shared/protocol';
import { buildReportModel } from '../../../src/shared/report';

test('pointAtThreshold: accept score ≥ t selects the smallest stored threshold ≥ t', () => {
  const th = [0.9, 0.8, 0.5, 0.2];
  assert.equal(pointAtThreshold(th, 0.8), 1);
  assert.equal(pointAtThreshold(th, 0.75), 1);
  assert.equal(pointAtThreshold(th, 0.2), 3);
  assert.equal(pointAtThreshold(th, 0.1), 3);
  assert.equal(pointAtThreshold(th, 0.95), -1, 'nothing accepted');
  assert.equal(nearestPoint([0.1, 0.4, 0.9], 0.3), 1);
});

test("selective explorer (cifar100-lt-like, targetCoverage 0.7): columns are the curve's, the evaluated point is found", async () => {
  const r = await evaluateFile('examples/cifar100-lt-like/logreg.csv', { overrides: { bootstrap: { n: 0 } } });
  const m = operatingPointModel(r)!;
  const c = r.curves.riskCoverage!;
  assert.equal(m.family, 'selective');
  assert.deepEqual(m.threshold, c.extra!.threshold);
  assert.deepEqual(m.coverage, c.xs);
  const col = (k: string) => m.columns.find((x) => x.key === k)!.values;
  assert.deepEqual(col('selective_risk'), c.ys);
  assert.deepEqual(col('accepted'), c.extra!.accepted);
  assert.deepEqual(col('error_group.head'), c.extra!['error_group.head']);
  assert.deepEqual(col('ece_accepted'), c.extra!.ece_accepted);
  assert.ok(m.current >= 0);
  for (const k of [
    'coverage',
    'selective_risk',
    'balanced_error',
    'worst_error',
    'error_group.head',
    'error_group.tail',
  ] as const) {
    assert.equal(col(k)[m.current], r.metrics[k]!.value, `${k} at the evaluated point`);
  }
  assert.deepEqual(m.keys, { threshold: 'acceptThreshold', coverage: 'targetCoverage' });
  assert.equal(m.locked, undefined);
  assert.deepEqual(
    m.markers.map((x) => x.chart),
    ['riskCoverage', 'reliability'],
  );
  // on the Selective tab of the report model
  const tab = buildReportModel(r).tabs.find((t) => t.id === 'selective')!;
  assert.equal(tab.explorer?.stored, c.xs.length);
});

test('importance-weighted explorer (iw-breast-cancer): precision, recall, F1 of the PR curve, start point left out', async () => {
  const r = await evaluateFile('examples/iw-breast-cancer/logreg.csv', { overrides: { bootstrap: { n: 0 } } });
  const m = operatingPointModel(r)!;
  const c = r.curves.pr!;
  assert.equal(m.family, 'importance');
  assert.equal(m.threshold.length, c.xs.length - 1);
  assert.deepEqual(m.threshold, c.extra!.threshold!.slice(1));
  const col = (k: string) => m.columns.find((x) => x.key === k)!.values;
  assert.deepEqual(col('recall'), c.xs.slice(1));
  assert.deepEqual(col('f1'), c.extra!.f1!.slice(1));
  for (const k of ['precision', 'recall', 'f1']) assert.equal(col(k)[m.current], r.metrics[k]!.value, k);
  assert.deepEqual(m.keys, { threshold: 'threshold' });
  assert.ok(buildReportModel(r).tabs.find((t) => t.id === 'importance')!.explorer);
});

test('results written without the operating-point columns: no explorer, a note saying to re-evaluate', async () => {
  const r = await evaluateFile('examples/cifar100-lt-like/logreg.csv', { overrides: { bootstrap: { n: 0 } } });
  const old = structuredClone(r);
  const ex = old.curves.riskCoverage!.extra!;
  for (const k of Object.keys(ex) as (keyof typeof ex)[])
    if (k !== 'threshold' && k !== 'risk_balanced' && k !== 'risk_worst') delete ex[k];
  assert.equal(operatingPointModel(old), undefined);
  assert.match(explorerMissingNote(old)!, /Re-evaluate to explore thresholds/);
  const tab = buildReportModel(old).tabs.find((t) => t.id === 'selective')!;
  assert.equal(tab.explorer, undefined);
  assert.ok(tab.notes.some((n) => /Re-evaluate/.test(n)));
  assert.equal(explorerMissingNote(r), undefined);
});

test('protocol: useOperatingPoint is checked (known key, finite value, sequence id)', () => {
  assert.ok(isWebviewMessage({ type: 'useOperatingPoint', seq: 1, key: 'acceptThreshold', value: 0.8 }));
  assert.ok(isWebviewMessage({ type: 'useOperatingPoint', seq: 2, key: 'targetCoverage', value: 0.5 }));
  assert.ok(!isWebviewMessage({ type: 'useOperatingPoint', seq: 1, key: 'classes', value: 0.8 }));
  assert.ok(!isWebviewMessage({ type: 'useOperatingPoint', seq: 1, key: 'threshold', value: Number.NaN }));
  assert.ok(!isWebviewMessage({ type: 'useOperatingPoint', key: 'threshold', value: 0.5 }));
});
