// Parsing the 200,000 × 103 classification CSV (268 MB): papaparse alone (the baseline: every cell
// a string, nothing converted) against loadClassification (input rules applied, typed arrays out).
// Each runs in its own child process so that each peak RSS is its own.
import { spawnSync } from 'node:child_process';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import Papa from 'papaparse';
import { Warnings } from '../src/core/diagnostics';
import { resolveConfig } from '../src/core/config/load';
import { loadClassification } from '../src/core/io/loadClassification';
import { report } from './report';

const FILE = 'bench/data/cls/preds.csv';

async function papaparseAlone(): Promise<void> {
  const t0 = performance.now();
  let rows = -1;
  await new Promise<void>((done, fail) => {
    Papa.parse(createReadStream(FILE, { encoding: 'utf8', highWaterMark: 1 << 20 }) as unknown as File, {
      chunk: (r: Papa.ParseResult<string[]>) => {
        rows += r.data.length;
      },
      complete: () => done(),
      error: (e: Error) => fail(e),
    });
  });
  report('papaparse alone (strings)', (performance.now() - t0) / 1000, statSync(FILE).size, rows);
}

async function loader(): Promise<void> {
  const config = resolveConfig([JSON.parse(readFileSync('bench/data/cls/eval-lens.json', 'utf8'))]);
  const t0 = performance.now();
  const { data } = await loadClassification(FILE, config, new Warnings());
  report('loadClassification', (performance.now() - t0) / 1000, statSync(FILE).size, data.n);
}

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode === 'papa') return papaparseAlone();
  if (mode === 'load') return loader();
  for (const m of ['papa', 'load']) {
    const r = spawnSync(process.execPath, [...process.execArgv, __filename, m], { stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
