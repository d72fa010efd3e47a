// The paired bootstrap of every key equals a slow, obvious reference: for each resample b, the
// multiplicities of (seed, b) over the baseline's rows are turned into explicit files — each row
// written as many times as it is drawn, in both runs — and both files are evaluated by the plain
// evaluation (no bootstrap). Δ*_b = run_b − baseline_b per key; the percentile interval and the
// p-value of those must equal the engine's, for every key the families resample.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../src/core/evaluate';
import { bootstrapPValue, pairedBootstrap } from '../../../../src/core/compare/pairedBootstrap';
import { directionOf } from '../../../../src/core/results/directions';
import { percentileInterval } from '../../../../src/core/stats/bootstrap';
import { drawResample } from '../../../../src/core/stats/resampleDraws';
import type { ResamplingPlan } from '../../../../src/core/stats/resamplingPlan';

/** A seeded generator (mulberry32) for the test data. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Row {
  id: string;
  label: number;
  probs: number[];
  split?: string;
}

/** Rows of C classes whose scores are multiples of 0.1 (many ties), the right class more likely. */
function makeRows(n: number, C: number, r: () => number, skill: number, split: boolean): Row[] {
  return Array.from({ length: n }, (_, i) => {
    const label = Math.floor(r() * C);
    const raw = Array.from({ length: C }, (_, c) => r() + (c === label ? skill * r() : 0));
    const total = raw.reduce((s, x) => s + x, 0);
    // rounded to tenths, the last class takes the rest so that they add up to 1
    const probs = raw.map((x) => Math.round((x / total) * 10) / 10);
    probs[C - 1] = Math.max(0, Math.round((1 - probs.slice(0, -1).reduce((s, x) => s + x, 0)) * 10) / 10);
    return { id: `r${i}`, label, probs, ...(split ? { split: i % 3 === 0 ? 'val' : 'test' } : {}) };
  });
}

function csv(rows: readonly Row[], C: number): string {
  const split = rows[0]?.split !== undefined;
  const head = ['id', 'label', ...(split ? ['split'] : []), ...Array.from({ length: C }, (_, c) => `prob_${c}`)];
  return (
    [head.join(','), ...rows.map((x) => [x.id, x.label, ...(split ? [x.split] : []), ...x.probs].join(','))].join(
      '\n',
    ) + '\n'
  );
}

async function plansOf(dir: string, files: string[], config: object, seed: number) {
  const plans: ResamplingPlan[] = [];
  for (const f of files) {
    let plan: ResamplingPlan | null = null;
    await evaluateFile(join(dir, f), {
      overrides: { ...config, bootstrap: { n: 10, confidence: 0.9, seed } },
      onResampling: (p) => (plan = p),
    });
    assert.ok(plan, `${f}: a plan`);
    plans.push(plan);
  }
  return plans;
}

async function checkAgainstReference(name: string, config: object, split: boolean): Promise<void> {
  const C = 3;
  const n = 48;
  const B = 30;
  const seed = 7;
  const r = rng(name.length * 101);
  const a = makeRows(n, C, r, 1.5, split);
  // The other run: other scores for the same rows, in another order (paired by id).
  const b = makeRows(n, C, r, 2.5, split).map((x, i) => ({
    ...x,
    id: a[i]!.id,
    label: a[i]!.label,
    split: a[i]!.split,
  }));
  const shuffled = [...b].sort(() => r() - 0.5);
  const dir = mkdtempSync(join(tmpdir(), 'paired-ref-'));
  writeFileSync(join(dir, 'a.csv'), csv(a, C));
  writeFileSync(join(dir, 'b.csv'), csv(shuffled, C));
  const cfg = { classes: [0, 1, 2], ...config };
  const [pa, pb] = await plansOf(dir, ['a.csv', 'b.csv'], cfg, seed);
  const engine = await pairedBootstrap(pa!, pb!, {
    n: B,
    confidence: 0.9,
    seed,
    names: ['a.csv', 'b.csv'],
    matchBy: 'id',
    direction: directionOf,
    threads: 1,
  });
  // Per-class accuracies (`#class_accuracy.<c>`, the per-class chart's intervals) are not metrics.
  engine.splice(0, engine.length, ...engine.filter((e) => !e.key.startsWith('#')));
  assert.ok(engine.length >= 10, `${name}: ${engine.length} keys`);

  // The reference: explicit files per resample, evaluated plainly. The resampled units are the rows
  // the metrics cover: with a split, the test rows (in A's file order); the validation rows stay
  // in every file once each, so the threshold each file chooses on them is the run's own, fixed over
  // the resamples as the split protocol says.
  const units = a.filter((x) => !split || x.split === 'test');
  const unitOf = new Map(units.map((x, i) => [x.id, i]));
  const counts = new Int32Array(units.length);
  const times = (id: string): number => (unitOf.has(id) ? counts[unitOf.get(id)!]! : 1);
  const deltas: Record<string, number[]> = {};
  for (let k = 0; k < B; k++) {
    drawResample(seed, k, counts, null);
    const ra: Row[] = [];
    const rb: Row[] = [];
    for (const x of a) for (let m = 0; m < times(x.id); m++) ra.push({ ...x, id: `${x.id}_${m}` });
    // The run's rows in its own file order: metrics whose ties follow the file order (the
    // equal-mass bins of the adaptive ECE) see the same order as in the run's own file.
    for (const x of shuffled) for (let m = 0; m < times(x.id); m++) rb.push({ ...x, id: `${x.id}_${m}` });
    writeFileSync(join(dir, `a${k}.csv`), csv(ra, C));
    writeFileSync(join(dir, `b${k}.csv`), csv(rb, C));
    const opts = { overrides: { ...cfg, bootstrap: { n: 0, confidence: 0.9, seed } } };
    const [va, vb] = [
      await evaluateFile(join(dir, `a${k}.csv`), opts),
      await evaluateFile(join(dir, `b${k}.csv`), opts),
    ];
    for (const e of engine) {
      const x = va.metrics[e.key]?.value;
      const y = vb.metrics[e.key]?.value;
      (deltas[e.key] ??= []).push(x === null || x === undefined || y === null || y === undefined ? NaN : y - x);
    }
  }
  const [whole] = [
    await evaluateFile(join(dir, 'a.csv'), { overrides: { ...cfg, bootstrap: { n: 0, confidence: 0.9, seed } } }),
  ];
  const [wholeB] = [
    await evaluateFile(join(dir, 'b.csv'), { overrides: { ...cfg, bootstrap: { n: 0, confidence: 0.9, seed } } }),
  ];
  for (const e of engine) {
    const close = (x: number | null | undefined, y: number | null | undefined): boolean =>
      (x === null || x === undefined) === (y === null || y === undefined) &&
      (x === null || x === undefined || Math.abs(x - y!) <= 1e-9 * Math.max(1, Math.abs(x)));
    const ref = deltas[e.key]!;
    const ci = percentileInterval(ref, 0.9);
    assert.ok(
      close(ci?.[0], e.ci_diff?.[0]) && close(ci?.[1], e.ci_diff?.[1]),
      `${name} ${e.key}: ${ci} vs ${e.ci_diff}`,
    );
    assert.equal(e.p_boot, bootstrapPValue(ref), `${name} ${e.key}: p`);
    // The point: the runs' own values on every row once.
    const d = (wholeB.metrics[e.key]?.value ?? NaN) - (whole.metrics[e.key]?.value ?? NaN);
    assert.ok(close(e.delta, Number.isNaN(d) ? null : d), `${name} ${e.key}: Δ ${e.delta} vs ${d}`);
  }
}

test('paired bootstrap = explicit resampled files, every key: classification, selective at a target coverage, calibration', async () => {
  await checkAgainstReference('plain', { targetCoverage: 0.7, topK: [2], eceBins: 5 }, false);
});

test('paired bootstrap = explicit resampled files, every key: long tail, groups, evolving distributions', async () => {
  await checkAgainstReference(
    'longtail',
    { trainCounts: [50, 20, 5], groups: [1], groupNames: ['head', 'tail'], T: 4, targetCoverage: 0.8 },
    false,
  );
});

test('paired bootstrap = explicit resampled files, every key: a split column (threshold on validation rows)', async () => {
  await checkAgainstReference('split', { targetCoverage: 0.7 }, true);
});
