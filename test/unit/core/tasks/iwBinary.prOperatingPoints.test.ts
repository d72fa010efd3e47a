// The PR curve's exact points carry F1, so the threshold explorer of the importance-weighted report
// reads precision, recall and F1 at any stored threshold: the point of the configured threshold
// equals the metrics, and F1 at every point is the harmonic mean of its precision and recall.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runIw } from '../../helpers/iwBinary';

const dir = 'examples/iw-breast-cancer';
const cfg = JSON.parse(readFileSync(`${dir}/eval-lens.json`, 'utf8')) as {
  populationSize: number;
  biasedSize: number;
  threshold: number;
};

test('PR curve: f1 per point; the point of the configured threshold equals precision, recall, f1', async () => {
  const { results } = await runIw(`${dir}/logreg.csv`, { ...cfg, task: 'iw-binary', bootstrapN: 0 });
  for (const name of ['pr', 'pr_unweighted'] as const) {
    const c = results.curves[name]!;
    const th = c.extra!.threshold!;
    const f1 = c.extra!.f1!;
    assert.equal(f1.length, c.xs.length);
    assert.equal(f1[0], null, 'start point');
    for (let i = 1; i < c.xs.length; i++) {
      const p = c.ys[i]!;
      const r = c.xs[i]!;
      assert.ok(Math.abs(f1[i]! - (p + r > 0 ? (2 * p * r) / (p + r) : 0)) < 1e-12, `${name} point ${i}`);
    }
    // positive iff s ≥ t: the point with the smallest stored threshold ≥ t
    let k = -1;
    th.forEach((t, i) => {
      if (t !== null && t >= cfg.threshold) k = i;
    });
    const m = name === 'pr' ? results.metrics : results.baselines!.unweighted!;
    assert.ok(Math.abs(c.ys[k]! - m.precision!.value!) < 1e-12, `${name} precision`);
    assert.ok(Math.abs(c.xs[k]! - m.recall!.value!) < 1e-12, `${name} recall`);
    assert.ok(Math.abs(f1[k]! - m.f1!.value!) < 1e-12, `${name} f1`);
  }
});
