// Benchmark of the selective family and the bootstrap. Run from the project root:
//   node --import tsx --expose-gc bench/selective.bench.ts
// 1. The exact RC curve and every AURC key on 1,000,000 random rows.
// 2. 1,000 bootstrap resamples of accuracy + AURC + ECE on bench/data/cls/preds.csv (200,000 rows;
//    made by `/usr/bin/python3 bench/gen_large.py bench/data --only cls`) on one thread,
//    and 1,000 resamples of EVERY scalar of the task (sections 1 and 2), as the tool runs them
//    (split across worker threads). CPU time is printed beside wall time: on a shared machine the
//    wall time depends on the other processes.
// Side by side with the peer: `/usr/bin/python3 bench/peer_selective.py` (same file, same stages).
// The Python peer (bench/peer_bench.py) re-sorts on each resample: about 30 s for 1,000
// AURC resamples on the same file.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sortRowsByScore } from '../src/core/metrics/sortedRows';
import { aurcGrid101, aurcValues, exactRiskCoverage } from '../src/core/metrics/riskCoverage';
import { selectiveResampler, selectiveResampleValues } from '../src/core/metrics/selectiveResample';
import { createRng } from '../src/core/stats/rng';
import { percentileInterval } from '../src/core/stats/bootstrap';
import { evaluateResamples } from '../src/core/stats/resampleDraws';
import { threadsFor } from '../src/core/stats/parallelBootstrap';
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
  console.log(
    `selective  ${name.padEnd(46)} ${seconds.toFixed(3).padStart(8)} s${extra ? `  ${extra}` : ''}  (rss ${mb()} MB)`,
  );
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
    console.log(
      `selective  (skipped: ${file} not found; run /usr/bin/python3 bench/gen_large.py bench/data --only cls)`,
    );
    return;
  }
  const cfgPath = join(dir, 'eval-lens.json');
  const config = resolveConfig(
    [await loadConfigFile(cfgPath), { bootstrap: { n: 1000, confidence: 0.95, seed: 0 } }],
    cfgPath,
  );
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

  // accuracy + AURC + ECE, 1,000 resamples, one thread, as the tool draws them: multiplicities per
  // position of the score order (stats/resampleDraws.ts), accuracy from the permuted correctness,
  // AURC and ECE from the one-pass resampler (it also computes the operating point, the grid keys,
  // mce and the adaptive ECE: a conservative timing). The standard AURC, as the peer's stage: the
  // same sorted rows without the group index; aurc_balanced / aurc_worst are in the all-keys line.
  const rows = { ...sel.rows, nGroups: 0 };
  const n = loaded.data.n;
  const correctSorted = new Uint8Array(n);
  for (let p = 0; p < n; p++) correctSorted[p] = run.prepared.correct[rows.rowIndex[p]];
  const trio = selectiveResampler(rows, { kind: 'end', end: n }, { B: sel.calib!.B });
  gc?.();
  t = now();
  c0 = cpu();
  const dist = evaluateResamples(
    n,
    3,
    (counts, out) => {
      let c = 0;
      for (let p = 0; p < n; p++) c += counts[p] * correctSorted[p];
      out[0] = c / n;
      const v = selectiveResampleValues(trio, counts, n);
      out[1] = v.aurc;
      out[2] = v.ece;
    },
    { seed: 0, strata: null, range: { from: 0, to: 1000 } },
  );
  const tb = now() - t;
  const aurcCol = Float64Array.from({ length: 1000 }, (_, b) => dist[b * 3 + 1]);
  line(
    '200k file: 1,000 resamples accuracy+AURC+ECE',
    tb,
    `cpu ${(cpu() - c0).toFixed(3)} s; one thread; aurc CI ${fmt(percentileInterval(aurcCol, 0.95))}`,
  );

  // AURC alone (the peer's "cls.bootstrap aurc x1000" stage)
  const aurcOnly = selectiveResampler(rows, { kind: 'end', end: n }, null);
  t = now();
  c0 = cpu();
  evaluateResamples(n, 1, (counts, out) => (out[0] = selectiveResampleValues(aurcOnly, counts, n).aurc), {
    seed: 0,
    strata: null,
    range: { from: 0, to: 1000 },
  });
  const ta = now() - t;
  line(
    '200k file: 1,000 resamples AURC only',
    ta,
    `cpu ${(cpu() - c0).toFixed(3)} s; one thread (peer: bench/peer_selective.py)`,
  );

  // every scalar of the task, as `evaluate` runs it
  for (const { name, step } of CLASSIFICATION_STEPS) if (name !== 'bootstrap') await step(run, ctx);
  const nKeys = Object.keys(ctx.results.metrics).length;
  gc?.();
  t = now();
  c0 = cpu();
  await classificationCiStep(run, ctx);
  const tAll = now() - t;
  line(
    `200k file: 1,000 resamples of all ${nKeys} scalar keys`,
    tAll,
    `cpu ${(cpu() - c0).toFixed(3)} s (all threads); ${threadsFor(n, 1000)} threads`,
  );
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
