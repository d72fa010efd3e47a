// Per-class accuracy intervals: the percentile interval of each class's accuracy over the same
// resamples as the metrics' intervals, against a slow count over the resampled rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortedCiJob } from '../../../../src/core/tasks/classificationCi';
import { percentileInterval } from '../../../../src/core/stats/bootstrap';
import { drawResample } from '../../../../src/core/stats/resampleDraws';
import { buildReportModel } from '../../../../src/shared/report';
import { config, randomData, runClassificationSteps } from '../../helpers/classification';
import { createRng } from '../../helpers/selective';

for (const weighted of [false, true]) {
  test(`per-class accuracy intervals = percentile intervals of Σ w·correct / Σ w per class on the same resamples (${weighted ? 'weights' : 'no weights'})`, async () => {
    const B = 80;
    const data = randomData(createRng(21), 400, 5, { weighted, ties: true });
    const cfg = config({ targetCoverage: 0.7, bootstrap: { n: B, confidence: 0.9, seed: 7, stratified: false } });
    const { run, ctx } = await runClassificationSteps(data, cfg);
    const rows = ctx.results.tables.perClass!;
    // The draws of resample b are made in the selective score order; map them back to file rows.
    const { order } = sortedCiJob(run, ['accuracy'], null);
    const counts = new Int32Array(data.n);
    const per: number[][] = rows.map(() => []);
    for (let b = 0; b < B; b++) {
      drawResample(7, b, counts, null);
      const correct = new Float64Array(rows.length);
      const support = new Float64Array(rows.length);
      for (let p = 0; p < data.n; p++) {
        const i = order ? order[p]! : p;
        const w = counts[p]! * (data.weights ? data.weights[i]! : 1);
        support[data.labels[i]!] += w;
        if (data.preds[i] === data.labels[i]) correct[data.labels[i]!] += w;
      }
      rows.forEach((_, c) => per[c]!.push(support[c]! > 0 ? correct[c]! / support[c]! : NaN));
    }
    rows.forEach((r, c) => {
      const ref = percentileInterval(Float64Array.from(per[c]!), 0.9)!;
      assert.ok(r.ci, `class ${r.class} has an interval`);
      assert.ok(
        Math.abs(r.ci![0] - ref[0]) < 1e-12 && Math.abs(r.ci![1] - ref[1]) < 1e-12,
        `class ${r.class}: ${r.ci} vs ${ref}`,
      );
      assert.ok(r.ci![0] <= r.accuracy! + 1e-12 || r.ci![1] >= r.accuracy! - 1e-12);
    });
    // The report draws them as whiskers on the per-class bars.
    const results = {
      schema: 'eval-lens/results@1',
      tool: { name: 'eval-lens', version: 't' },
      createdAt: '',
      source: { path: 'test.csv', size: 0, sha256: '', format: 'csv', rows: data.n, rowsUsed: data.n, columns: {} },
      task: 'classification',
      config: cfg,
      metrics: ctx.results.metrics,
      families: ctx.results.families,
      curves: ctx.results.curves,
      tables: ctx.results.tables,
      warnings: [],
    } as never;
    const chart = buildReportModel(results)
      .tabs.flatMap((t) => t.charts)
      .find((c) => c.id === 'perClassAccuracy')!;
    assert.deepEqual(
      chart.series[0]!.errorBars,
      rows.map((r) => ({ lo: r.ci![0], hi: r.ci![1] })),
    );
  });
}
