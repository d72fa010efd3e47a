// Benchmark of the selective family and the bootstrap (issue 3). Run from the project root:
//   node --import tsx --expose-gc bench/selective.bench.ts
// 1. The exact RC curve and every AURC key on 1,000,000 random rows.
// 2. 1,000 bootstrap resamples of accuracy + AURC + ECE on bench/data/cls/preds.csv (200,000 rows;
//    made by `/usr/bin/python3 ../shared/bench/gen_large.py bench/data --only cls`), and 1,000
//    resamples of EVERY scalar of the task (sections 1 and 2), as the tool runs them.
// The Python peer (../shared/bench/peer_bench.py) re-sorts on each resample: about 30 s for 1,000
// AURC resamples on the same file.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sortRowsByScore, gatherCounts } from '../src/core/metrics/sortedRows';
import { aurcGrid101, aurcValues, exactRiskCoverage } from '../src/core/metrics/riskCoverage';
import { binIndices, calibrationValues } from '../src/core/metrics/calibration';
import { createRng } from '../src/core/stats/rng';
import { bootstrapDistribution, percentileInterval } from '../src/core/stats/bootstrap';
import { Warnings } from '../src/core/diagnostics';
import { loadConfigFile, resolveConfig } from '../src/core/config/load';
import { loadClassification } from '../src/core/io/loadClassification';
import { ResultsBuilder } from '../src/core/results/builder';
import { CLASSIFICATION_STEPS, prepareRun } from '../src/core/tasks/classification';
import { prepareSelective } from '../src/core/tasks/classificationSelective';
import { classificationCiStep } from '../src/core/tasks/classificationCi';
import type { TaskContext } from '../src/core/tasks/types';

const gc = (globalThis as { gc?: () => void }).gc;
const now = () => performance.now() / 1000;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const mb = () => Math.round(process.memoryUsage().rss / 2 ** 20);
function line(name: string, seconds: number, extra = ''): void {
  console.log(`selective  ${name.padEnd(46)} ${seconds.toFixed(3).padStart(8)} s${extra ? `  ${extra}` : ''}  (rss ${mb()} MB)`);
}

function millionRows(): void {
  const n = 1_000_000;
  const rng = createRng(1);
  const scores = new Float64Array(n);
  const wrong = new Uint8Array(n);
  const groups = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const s = Math.round((0.2 + 0.8 * rng.next()) * 1e6) / 1e6; // ~800k distinct values, some ties
    scores[i] = s;
    wrong[i] = rng.next() > s ? 1 : 0;
    groups[i] = rng.next() < 0.7 ? 0 : 1;
  }
  gc?.();
  let t = now();
  const rows = sortRowsByScore(scores, wrong, { groups, nGroups: 2 });
  const tSort = now() - t;
  line('1M rows: stable sort + tied blocks', tSort, `${rows.blockStart.length - 1} distinct scores`);
  t = now();
  const curve = exactRiskCoverage(rows);
  const tCurve = now() - t;
  line('1M rows: exact RC curve (std/balanced/worst)', tCurve, `${curve.coverage.length} points`);
  t = now();
  const a = aurcValues(rows);
  const tAurc = now() - t;
  line('1M rows: aurc, eaurc, aurc_balanced, aurc_worst', tAurc, `aurc ${a.aurc.toFixed(6)}`);
  t = now();
  const g = aurcGrid101(rows)!;
  const tGrid = now() - t;
  line('1M rows: six *_grid101 keys', tGrid, `aurc_grid101 ${g.standard.toFixed(6)}`);
  line('1M rows: total (sort + curve + every AURC key)', tSort + tCurve + tAurc + tGrid);
}

async function bootstrapOnFile(): Promise<void> {
  const dir = resolve('bench/data/cls');
  const file = join(dir, 'preds.csv');
  if (!existsSync(file)) {
    console.log(`selective  (skipped: ${file} not found; run /usr/bin/python3 ../shared/bench/gen_large.py bench/data --only cls)`);
    return;
  }
  const cfgPath = join(dir, 'eval-lens.json');
  const config = resolveConfig([await loadConfigFile(cfgPath), { bootstrap: { n: 1000, confidence: 0.95, seed: 0 } }], cfgPath);
  const warnings = new Warnings();
  let t = now();
  let c0: number;
  const loaded = await loadClassification(file, config, warnings);
  line('200k file: load (for reference)', now() - t, `${loaded.data.n} rows`);
  const ctx: TaskContext = { path: file, baseDir: dir, config, warnings, results: new ResultsBuilder() };
  t = now();
  const run = await prepareRun(loaded.data, ctx);
  const sel = prepareSelective(run, ctx)!;
  run.selective = sel;
  line('200k file: prepare (per-row data, one sort)', now() - t);

  // accuracy + AURC + ECE, 1,000 resamples (the standard AURC, as the peer's stage: the same sorted
  // rows without the group index; aurc_balanced / aurc_worst are timed in the all-keys line)
  const rows = { ...sel.rows, nGroups: 0 };
  const calib = sel.calib!;
  const bins = binIndices(calib.rows, calib.B);
  const correct = run.prepared.correct;
  const n = loaded.data.n;
  const mult = new Float64Array(rows.n);
  const out = new Float64Array(3);
  gc?.();
  t = now();
  c0 = cpu();
  const dist = bootstrapDistribution(
    n,
    (counts) => {
      let c = 0;
      for (let i = 0; i < n; i++) c += counts[i] * correct[i];
      out[0] = c / n;
      gatherCounts(rows, counts, mult);
      out[1] = aurcValues(rows, mult).aurc;
      out[2] = calibrationValues(calib.rows, calib.B, calib.rows === sel.rows ? mult : gatherCounts(calib.rows, counts), bins).ece;
      return out;
    },
    { n: 1000, confidence: 0.95, seed: 0 },
  );
  const tb = now() - t;
  line('200k file: 1,000 resamples accuracy+AURC+ECE', tb, `cpu ${(cpu() - c0).toFixed(3)} s; ${(1000 / tb).toFixed(0)} resamples/s; aurc CI ${fmt(percentileInterval(dist[1], 0.95))}`);

  // AURC alone (the peer's "cls.bootstrap aurc x1000" stage)
  t = now();
  c0 = cpu();
  bootstrapDistribution(
    n,
    (counts) => {
      gatherCounts(rows, counts, mult);
      return aurcValues(rows, mult).aurc;
    },
    { n: 1000, confidence: 0.95, seed: 0 },
  );
  const ta = now() - t;
  line('200k file: 1,000 resamples AURC only', ta, `cpu ${(cpu() - c0).toFixed(3)} s; ${(1000 / ta).toFixed(0)} resamples/s (peer: bench/peer_selective.py)`);

  // every scalar of the task, as `evaluate` runs it
  for (const { name, step } of CLASSIFICATION_STEPS) if (name !== 'bootstrap') await step(run, ctx);
  const nKeys = Object.keys(ctx.results.metrics).length;
  gc?.();
  t = now();
  c0 = cpu();
  classificationCiStep(run, ctx);
  const tAll = now() - t;
  line(`200k file: 1,000 resamples of all ${nKeys} scalar keys`, tAll, `cpu ${(cpu() - c0).toFixed(3)} s; ${(1000 / tAll).toFixed(0)} resamples/s`);
}

function fmt(ci: [number, number] | null): string {
  return ci ? `[${ci[0].toFixed(6)}, ${ci[1].toFixed(6)}]` : 'null';
}

async function main(): Promise<void> {
  millionRows();
  await bootstrapOnFile();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
