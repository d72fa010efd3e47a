// The whole classification evaluation of the 268 MB CSV through evaluateFile (config beside it:
// bench/data/cls/eval-lens.json), as the CLI and the extension run it. Two runs:
// 1. bootstrap off (`bootstrap.n = 0`): reading + every metric — compare with the Python peer's
//    cls.* stages without its two bootstrap stages;
// 2. the config as written (1,000 bootstrap resamples): compare with the peer's cls.* total.
// Prints the total, the reading time (until the reader reports the last byte) and the stages from
// `results.timings`; then, for each step the runner announces, the same time without the garbage
// collector's pauses inside it, and the pauses of the whole evaluation. A collection of garbage left
// by earlier stages lands in whichever stage happens to be running when the heap fills, so comparing
// two versions stage by stage needs both numbers: the step's own work, and the collector's total.
import { statSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import type { EvalConfig } from '../src/core/config/types';
import { evaluateFile } from '../src/core/evaluate';
import { report } from './report';

const FILE = 'bench/data/cls/preds.csv';

/** The collector's pauses (performance-timeline milliseconds), as the runtime reports them. */
const pauses: { start: number; end: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) pauses.push({ start: e.startTime, end: e.startTime + e.duration });
}).observe({ entryTypes: ['gc'] });

/** Milliseconds of collector pauses inside [from, to). */
function pausedIn(from: number, to: number): number {
  let ms = 0;
  for (const p of pauses) ms += Math.max(0, Math.min(p.end, to) - Math.max(p.start, from));
  return ms;
}

async function once(label: string, overrides: EvalConfig): Promise<void> {
  const size = statSync(FILE).size;
  const t0 = performance.now();
  let readDone = 0;
  /** When the runner announced each step (its first report). */
  const started = new Map<string, number>();
  const results = await evaluateFile(FILE, {
    overrides,
    progress: {
      report: (stage, done, total) => {
        if (!started.has(stage)) started.set(stage, performance.now());
        if (stage === 'reading' && total !== undefined && done >= total) readDone = performance.now();
      },
    },
  });
  const t1 = performance.now();
  const seconds = (t1 - t0) / 1000;
  await new Promise((r) => setTimeout(r, 100)); // the observer hears of the last pauses asynchronously
  console.log(`-- ${label}`);
  if (readDone) console.log(`  ${'reading (parse)'.padEnd(32)} ${((readDone - t0) / 1000).toFixed(3).padStart(8)} s`);
  const timings = results.timings ?? {};
  for (const [stage, s] of Object.entries(timings)) console.log(`  ${stage.padEnd(32)} ${s.toFixed(3).padStart(8)} s`);
  // A step's window runs from its announcement to the next announcement (or the end).
  const marks = [...started].filter(([stage]) => timings[stage] !== undefined).sort((a, b) => a[1] - b[1]);
  const windows: [string, number, number][] = marks.map(([stage, from], i) => [
    stage,
    from,
    i + 1 < marks.length ? marks[i + 1]![1] : t1,
  ]);
  // A step's `<step>.prepare` is the first thing the step does: it spans the step's first `d` seconds.
  for (const [stage, from] of marks) {
    const d = timings[`${stage}.prepare`];
    if (d !== undefined) windows.push([`${stage}.prepare`, from, from + d * 1000]);
  }
  for (const [stage, from, to] of windows) {
    const own = Math.max(0, timings[stage]! - pausedIn(from, to) / 1000);
    console.log(`  ${`${stage} (without GC pauses)`.padEnd(32)} ${own.toFixed(3).padStart(8)} s`);
  }
  console.log(`  ${'GC pauses (whole evaluation)'.padEnd(32)} ${(pausedIn(t0, t1) / 1000).toFixed(3).padStart(8)} s`);
  report(`evaluateFile total (${label})`, seconds, size, results.source.rows);
  console.log(`  metrics: ${Object.keys(results.metrics).length}, warnings: ${results.warnings.length}`);
}

async function main(): Promise<void> {
  await once('bootstrap off', { bootstrap: { n: 0 } });
  (globalThis as { gc?: () => void }).gc?.();
  if (!process.argv.includes('--no-bootstrap')) await once('as configured', {});
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
