// Benchmark of the paired comparison: the paired bootstrap of two 200,000 × 100 runs (1,000
// resamples, every key the classification families resample, both runs on each resample) against
// one run's own bootstrap of the same keys, measured in the same process, one after the other, on
// the bundled code and its worker threads (as the CLI runs them). The goal: paired ≤ 2.2 × one run.
// Inputs: bench/data/cls/preds.csv and preds_b.csv (the same rows, a second model), made by
//   /usr/bin/python3 bench/gen_large.py bench/data --only cls --pair
// Run: `npm run bench -- paired`.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { evaluateFile } from '../src/core/evaluate';
import { pairedBootstrap } from '../src/core/compare/pairedBootstrap';
import { directionOf } from '../src/core/results/directions';
import type { ResamplingPlan } from '../src/core/stats/resamplingPlan';

const B = 1000;
const dir = resolve('bench/data/cls');
const [fa, fb] = [join(dir, 'preds.csv'), join(dir, 'preds_b.csv')];
const now = (): number => performance.now() / 1000;
const mb = (): number => Math.round(process.memoryUsage().rss / 2 ** 20);

async function main(): Promise<void> {
  if (!existsSync(fa) || !existsSync(fb)) {
    console.log(`paired     (skipped: run /usr/bin/python3 bench/gen_large.py bench/data --only cls --pair)`);
    return;
  }
  const bootstrap = { n: B, confidence: 0.95, seed: 0 };
  // One run's own bootstrap of every key (its stage time, as the results record it).
  const one = await evaluateFile(fa, { overrides: { bootstrap } });
  const tOne = one.timings?.bootstrap ?? NaN;
  const keys = Object.values(one.metrics).filter((m) => m.ci).length;
  console.log(
    `paired     one run: bootstrap of ${keys} keys, ${B} resamples        ${tOne.toFixed(3).padStart(8)} s  (rss ${mb()} MB)`,
  );
  // The two runs with their plans, then the paired bootstrap alone.
  const plans: ResamplingPlan[] = [];
  for (const f of [fa, fb]) {
    let plan: ResamplingPlan | null = null;
    await evaluateFile(f, { overrides: { bootstrap }, onResampling: (p) => (plan = p) });
    if (!plan) throw new Error(`${f}: no resampling plan`);
    plans.push(plan);
  }
  const t0 = now();
  const paired = await pairedBootstrap(plans[0]!, plans[1]!, {
    ...bootstrap,
    names: ['preds.csv', 'preds_b.csv'],
    matchBy: 'id',
    direction: directionOf,
  });
  const tPaired = now() - t0;
  const tested = paired.filter((k) => k.ci_diff !== null && !k.key.startsWith('#')).length;
  console.log(
    `paired     two runs: paired bootstrap of ${tested} keys, ${B} resamples ${tPaired.toFixed(3).padStart(8)} s  (rss ${mb()} MB)`,
  );
  const ratio = tPaired / tOne;
  console.log(
    `paired     ratio paired / one run: ${ratio.toFixed(2)}× (goal ≤ 2.2×) ${ratio <= 2.2 ? 'met' : 'NOT MET'}`,
  );
}

void main();
