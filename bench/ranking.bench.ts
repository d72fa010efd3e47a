// The whole ranking evaluation of 100,000 users × top-100 lists through evaluateFile, as
// the CLI and the extension run it: bench/data/rank/recs.jsonl (~96 MB) + train.csv (~26 MB, 1.75M
// rows) + eval-lens.json (k [5, 10, 20, 50], catalogSize, coldThreshold), made by
//   /usr/bin/python3 bench/gen_large.py bench/data --only rank
// Every key at every K, parse included, popularity and random baselines, curves, histograms,
// activity bins, perItem. Two runs, each in its own process (so each peak RSS is its own):
// 1. bootstrap off — like for like with the Python peer run as `peer_bench.py --only rank
//    --bootstrap 0` (which computes fewer things: no baselines, novelty, curves, per-user tables);
// 2. the config as written (1,000 bootstrap resamples of every user-mean metric).
// With --peer, runs the peer on the same data right after and prints the time ratio and the largest
// difference between the values both compute.
// The measured runs execute this file bundled by esbuild (dist/bench-ranking-child.js), as the CLI
// and the extension run the core: under tsx the loader alone adds ~45 MB of RSS and compile time
// that users never pay. --tsx measures through tsx instead (for comparison).
//   node --import tsx bench/ranking.bench.ts [--peer] [--no-bootstrap] [--tsx]
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvalConfig } from '../src/core/config/types';
import { evaluateFile } from '../src/core/evaluate';
import { report } from './report';

const DIR = 'bench/data/rank';
const FILE = join(DIR, 'recs.jsonl');

async function once(label: string, overrides: EvalConfig, valuesOut?: string): Promise<void> {
  const bytes = statSync(FILE).size + statSync(join(DIR, 'train.csv')).size;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  // Stage marks from the progress reports: CPU time since the start and RSS when each stage began,
  // and the largest RSS seen during it (sampled at its reports).
  const stages: { stage: string; cpu: number; rss: number; maxRss: number }[] = [];
  const progress = {
    report(stage: string): void {
      const rss = process.memoryUsage.rss() / 2 ** 20;
      const last = stages[stages.length - 1];
      if (last && last.stage === stage) last.maxRss = Math.max(last.maxRss, rss);
      else {
        const u = process.cpuUsage(c0);
        stages.push({ stage, cpu: (u.user + u.system) / 1e6, rss, maxRss: rss });
      }
    },
  };
  // collectGarbage: as the command line evaluates (the extension's worker thread does by default)
  const results = await evaluateFile(FILE, { overrides, progress, collectGarbage: true });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  console.log(`-- ${label}`);
  for (const [stage, s] of Object.entries(results.timings ?? {}))
    console.log(`  ${stage.padEnd(32)} ${s.toFixed(3).padStart(8)} s`);
  if (process.env.RANK_BENCH_STAGES)
    for (const st of stages)
      console.log(
        `  stage ${st.stage.padEnd(28)} from cpu ${st.cpu.toFixed(3)} s, rss ${st.rss.toFixed(0)}–${st.maxRss.toFixed(0)} MB`,
      );
  report(`evaluateFile total (${label})`, seconds, bytes, results.source.rows);
  console.log(
    `  cpu (user+sys) ${((cpu.user + cpu.system) / 1e6).toFixed(3)} s; metrics: ${Object.keys(results.metrics).length}, warnings: ${results.warnings.length}; input ${(bytes / 1e6).toFixed(1)} MB (run + train)`,
  );
  console.log(
    `RESULT ${JSON.stringify({ label, seconds, cpu: (cpu.user + cpu.system) / 1e6, rssMB: process.resourceUsage().maxRSS / 1024, inputMB: bytes / 2 ** 20 })}`,
  );
  if (valuesOut) {
    const v: Record<string, number | null> = {};
    for (const [k, m] of Object.entries(results.metrics)) v[k] = m.value;
    writeFileSync(valuesOut, JSON.stringify(v));
  }
}

/**
 * Bundles this file into dist/ (once per bench run), beside the bundled worker scripts, so that
 * the reading and bootstrap threads start as in the CLI and the extension; the children run the bundle.
 */
async function bundle(): Promise<string> {
  const out = join('dist', 'bench-ranking-child.js');
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [__filename],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    logLevel: 'warning',
    external: ['esbuild'],
  });
  return out;
}

let childArgv: string[] = [];

function child(
  mode: string,
  extra: string[] = [],
): { seconds: number; cpu: number; rssMB: number; inputMB: number } | null {
  const r = spawnSync(process.execPath, [...childArgv, mode, ...extra], { encoding: 'utf8' });
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  if (r.status !== 0) process.exit(r.status ?? 1);
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith('RESULT '));
  return line ? JSON.parse(line.slice(7)) : null;
}

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode === 'off') return once('bootstrap off', { bootstrap: { n: 0 } }, process.argv[3]);
  if (mode === 'on') return once('as configured (1,000 resamples)', {});
  if (!existsSync(FILE)) {
    console.error(`${FILE} is missing: /usr/bin/python3 bench/gen_large.py bench/data --only rank`);
    process.exit(1);
  }
  const peer = process.argv.includes('--peer');
  childArgv = process.argv.includes('--tsx') ? [...process.execArgv, __filename] : [await bundle()];
  console.log(`ranking bench: node ${childArgv.join(' ')}`);
  const valuesFile = join(mkdtempSync(join(tmpdir(), 'rank-bench-')), 'ours.json');
  const off = child('off', peer ? [valuesFile] : []);
  if (!process.argv.includes('--no-bootstrap')) child('on');
  if (!peer || !off) return;
  const peerJson = valuesFile.replace('ours.json', 'peer.json');
  const p0 = performance.now();
  // bash's `time` gives the peer's CPU time too: on a shared machine wall times swing with the load.
  const peerCmd = `/usr/bin/python3 bench/peer_bench.py bench/data --only rank --bootstrap 0 --json '${peerJson}'`;
  const r = spawnSync('bash', ['-c', `TIMEFORMAT='PEERCPU %U %S'; time ${peerCmd}`], { encoding: 'utf8' });
  const peerWall = (performance.now() - p0) / 1000;
  process.stdout.write(`-- Python peer (peer_bench.py --only rank --bootstrap 0)\n${r.stdout}`);
  const total = /TOTAL\s+([\d.]+) s/.exec(r.stdout ?? '');
  const cpuMatch = /PEERCPU ([\d.]+) ([\d.]+)/.exec(r.stderr ?? '');
  const peerCpu = cpuMatch ? Number(cpuMatch[1]) + Number(cpuMatch[2]) : NaN;
  const peerSeconds = total ? Number(total[1]) : peerWall;
  console.log(
    `ranking: Eval Lens ${off.seconds.toFixed(2)} s (bootstrap off, every key) vs peer ${peerSeconds.toFixed(2)} s → ${(off.seconds / peerSeconds).toFixed(3)} of the peer's time (goal ≤ 0.2)`,
  );
  console.log(
    `ranking: CPU time ${off.cpu.toFixed(2)} s vs peer ${peerCpu.toFixed(2)} s (whole process, imports included) → ${(off.cpu / peerCpu).toFixed(3)}`,
  );
  console.log(
    `ranking: peak RSS ${off.rssMB.toFixed(0)} MB = ${(off.rssMB / off.inputMB).toFixed(2)}× the input (run + train; goal ≤ 1.5); the peer's: see above`,
  );
  const ours = JSON.parse(readFileSync(valuesFile, 'utf8')) as Record<string, number | null>;
  const theirs = JSON.parse(readFileSync(peerJson, 'utf8')) as Record<string, number | null>;
  let worst = 0;
  let worstKey = '';
  let n = 0;
  for (const [k, v] of Object.entries(theirs)) {
    if (!(k in ours) || v === null || ours[k] === null) continue;
    n++;
    const d = Math.abs((ours[k] as number) - v);
    if (d > worst) [worst, worstKey] = [d, k];
  }
  console.log(
    `values: ${n} keys in common, largest |difference| ${worst.toExponential(2)}${worstKey ? ` (${worstKey})` : ''}`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
