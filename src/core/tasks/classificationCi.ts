/**
 * Bootstrap confidence intervals for every scalar of the classification task (METRICS.md sections
 * 1, 1.1, 1.2, 2 and the bootstrap part of 5). One set of resamples serves every key: each resample
 * is a multiplicity vector over the rows (src/core/stats/bootstrap.ts), and every family computes
 * its statistics as weighted statistics (sample weight × multiplicity) from data prepared once —
 * section 1 through `scalarMetricsFor`, sections 2 through `selectiveScalars` (the score order is
 * never recomputed).
 *
 * Conventions: `bootstrap.n` resamples (0 = no intervals), percentile interval at
 * `bootstrap.confidence`, generator seeded by `bootstrap.seed`. With `stratified: true` each stratum
 * is resampled to its own size; strata = the `group` column when the file has one, else the true
 * label. With `targetCoverage` the threshold is re-chosen on every resample (the interval covers the
 * whole procedure, so `coverage` varies little); `acceptThreshold` and an `accept` column stay fixed.
 */
import { ciForStatistics, resampleProgress, strataOf } from '../stats/bootstrap';
import type { MetricFamily } from '../results/types';
import { scalarMetricsFor, type ClassificationStep } from './classification';
import { selectiveScalars, selectiveScratch } from './classificationSelective';

/** Families whose scalar keys get intervals here. */
export const CI_FAMILIES: readonly MetricFamily[] = ['classification', 'longtail', 'evolving', 'selective', 'calibration'];

export const classificationCiStep: ClassificationStep = (run, ctx) => {
  const { config, results, warnings } = ctx;
  const bs = config.bootstrap;
  if (!bs || !(bs.n > 0)) return;
  const { data } = run;
  const keys: string[] = [];
  for (const f of CI_FAMILIES) for (const k of results.families[f] ?? []) if (results.metrics[k]?.value !== null) keys.push(k);
  if (keys.length === 0 || data.n === 0) return;
  const strata = bs.stratified ? (data.groupColumn ? strataOf(data.groupColumn) : data.labels) : null;
  const sel = run.selective ?? null;
  const scratch = sel ? selectiveScratch(sel) : undefined;
  const cis = results.time('bootstrap', () =>
    ciForStatistics(
      data.n,
      (counts) => {
        const v: Record<string, number | null> = scalarMetricsFor(run, counts);
        if (sel) Object.assign(v, selectiveScalars(sel, counts, scratch));
        return keys.map((k) => {
          const x = v[k];
          return x === undefined || x === null ? NaN : x;
        });
      },
      keys,
      { n: bs.n, confidence: bs.confidence, seed: bs.seed, strata, onResample: resampleProgress(ctx.progress, 'bootstrap') },
    ),
  );
  const missing: string[] = [];
  for (const k of keys) {
    const ci = cis[k];
    if (ci) results.setCi(k, ci);
    else missing.push(k);
  }
  if (missing.length > 0) {
    warnings.note('ci-undefined', `No bootstrap interval for ${missing.join(', ')}: the value is undefined in more than half of the ${bs.n} resamples.`, { count: missing.length });
  }
};
