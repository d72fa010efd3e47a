/**
 * The family contract of the classification task: every family's statistic of a resample, at the
 * full data, is its point estimate; it writes exactly the keys its point step wrote (plus the
 * internal keys whose intervals go to tables); with all-ones multiplicities it gives the same
 * values; and the bootstrap resamples the keys of the families with a statistic and no others.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import {
  CLASSIFICATION_FAMILIES,
  familyScalars,
  resampledKeys,
} from '../../../../src/core/tasks/classificationFamilies';
import { selectiveScalars } from '../../../../src/core/tasks/classificationSelective';
import { aggregateClassification } from '../../../../src/core/metrics/classification';
import type { ResolvedConfig } from '../../../../src/core/config/types';
import type { EvalConfig } from '../../../../src/core/config/types';
import { evaluateFile } from '../../../../src/core/evaluate';
import { config, createRng, randomData, runClassificationSteps } from '../../helpers/classification';
import { closeRel as close } from '../../helpers/numericClose';

/** Keys a statistic writes for the intervals of table rows (per-class accuracy, operating points), never metrics. */
const internal = (k: string): boolean => k.startsWith('#class_accuracy.') || k.startsWith('operatingPoints.');
const asNumber = (v: number | null | undefined): number | null =>
  v === null || v === undefined || Number.isNaN(v) ? null : v;

const setups: [string, Partial<ResolvedConfig>, { weighted?: boolean; ties?: boolean }][] = [
  [
    'every family, unweighted',
    { trainCounts: [500, 300, 100, 50, 20, 5], groups: [3], topK: [1, 3], targetCoverage: 0.7 },
    {},
  ],
  [
    'every family, weighted, ties, a targetCoverage list',
    { trainCounts: [400, 200, 90, 40, 10, 3], groups: [2, 4], topK: [2], targetCoverage: [0.5, 0.8] },
    { weighted: true, ties: true },
  ],
  ['no train distribution (no long-tail or evolving keys)', { acceptThreshold: 0.6 }, {}],
  [
    'sampled shift protocol, reweighted groups',
    { trainCounts: [300, 200, 100, 60, 30, 10], groups: [3], shiftProtocol: 'sampled', reweight: true },
    {},
  ],
];

for (const [name, extra, dataOpts] of setups) {
  test(`family contract (${name}): each statistic at the full data is the family's point estimate`, async () => {
    const rng = createRng(name.length * 7 + 1);
    const data = randomData(rng, 300, 6, dataOpts);
    const cfg = config({ ...extra, bootstrap: { n: 0, confidence: 0.95, seed: 3, stratified: false } });
    const { run, ctx } = await runClassificationSteps(data, cfg);
    const metrics = ctx.results.metrics;
    const sel = run.selective ?? null;
    const full = { agg: run.point, counts: null, perClass: true, selective: sel ? selectiveScalars(sel, null) : null };
    let checked = 0;
    for (const f of CLASSIFICATION_FAMILIES) {
      const wrote = run.familyKeys?.[f.name];
      assert.ok(wrote, `${f.name}: its point step's keys are recorded`);
      if (!f.resample) continue;
      const out: Record<string, number | null> = {};
      f.resample(run, full, out);
      for (const k of wrote) {
        assert.ok(k in out, `${f.name}: its statistic gives ${k}`);
        close(asNumber(out[k]), metrics[k]!.value, 1e-12, `${f.name} ${k}`);
        checked++;
      }
      for (const k of Object.keys(out))
        assert.ok(wrote.includes(k) || internal(k), `${f.name}: ${k} is one of its own keys`);
    }
    assert.ok(checked >= 8, `${checked} keys checked`);
    // All-ones multiplicities are the full data again, through the resample path (sums recomputed).
    const ones = new Float64Array(data.n).fill(1);
    const again = familyScalars(run, {
      agg: aggregateClassification(run.prepared, ones),
      counts: ones,
      perClass: false,
      selective: sel ? selectiveScalars(sel, ones) : null,
    });
    for (const k of resampledKeys(run, metrics)) close(asNumber(again[k]), metrics[k]!.value, 1e-12, `ones ${k}`);
  });
}

test('family contract: the bootstrap resamples the keys of the families with a statistic; subgroups get none', async () => {
  const digits = JSON.parse(readFileSync('examples/digits-lt/eval-lens.json', 'utf8')) as EvalConfig;
  const r = await evaluateFile(join(process.cwd(), 'test/golden/subgroups.csv'), {
    overrides: { ...digits, metricsOn: 'all', subgroupColumn: 'group', bootstrap: { n: 60, seed: 1 } },
  });
  const subgroup = Object.keys(r.metrics).filter(
    (k) => k.startsWith('error_subgroup.') || k === 'worst_subgroup_error',
  );
  assert.ok(subgroup.length >= 3, subgroup.join(', '));
  for (const k of subgroup) assert.equal(r.metrics[k]!.ci, undefined, `${k} has no interval`);
  const withCi = Object.keys(r.metrics).filter((k) => r.metrics[k]!.ci);
  for (const f of ['classification', 'longtail', 'selective', 'calibration'] as const)
    assert.ok(
      (r.families[f] ?? []).some((k) => withCi.includes(k)),
      `a key of ${f} has an interval`,
    );
  for (const [k, m] of Object.entries(r.metrics))
    if (m.value !== null && !subgroup.includes(k)) assert.ok(m.ci, `${k} has an interval`);
  assert.ok(!r.warnings.some((w) => w.code === 'ci-undefined'), 'no key left without an interval');
});
