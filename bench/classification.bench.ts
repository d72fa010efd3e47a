// The whole classification evaluation of the 268 MB CSV through evaluateFile (config beside it:
// bench/data/cls/eval-lens.json), as the CLI and the extension run it. Two runs:
// 1. bootstrap off (`bootstrap.n = 0`): reading + every metric — compare with the Python peer's
//    cls.* stages without its two bootstrap stages;
// 2. the config as written (1,000 bootstrap resamples): compare with the peer's cls.* total.
// Prints the total, the reading time (until the reader reports the last byte) and the stages from
// `results.timings`.
import { statSync } from 'node:fs';
import type { EvalConfig } from '../src/core/config/types';
import { evaluateFile } from '../src/core/evaluate';
import { report } from './report';

const FILE = 'bench/data/cls/preds.csv';

async function once(label: string, overrides: EvalConfig): Promise<void> {
  const size = statSync(FILE).size;
  const t0 = performance.now();
  let readDone = 0;
  const results = await evaluateFile(FILE, {
    overrides,
    progress: {
      report: (stage, done, total) => {
        if (stage === 'reading' && total !== undefined && done >= total) readDone = performance.now();
      },
    },
  });
  const seconds = (performance.now() - t0) / 1000;
  console.log(`-- ${label}`);
  if (readDone) console.log(`  ${'reading (parse)'.padEnd(32)} ${((readDone - t0) / 1000).toFixed(3).padStart(8)} s`);
  for (const [stage, s] of Object.entries(results.timings ?? {}))
    console.log(`  ${stage.padEnd(32)} ${s.toFixed(3).padStart(8)} s`);
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
