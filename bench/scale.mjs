// `npm run bench -- --scale`: how cost grows with the rows. Generates predictions CSVs of 1 M, 10 M
// and 50 M rows with 10 classes and of 1 M and 10 M rows with 100 classes (`id,label,pred,prob_0…`,
// integer ids, probabilities in millionths that add up to exactly 1) into bench/data/scale/
// (git-ignored, kept between runs: generating is slow), evaluates each with the bundled CLI
// (dist/cli.js, no config, no bootstrap — a whole process, as a user or CI runs it, with
// EVAL_LENS_REQUIRE_WORKERS=1) and with the Python peer (bench/peer_scale.py: pandas + scikit-learn)
// in the same run, and prints per file: time, MB/s, peak RSS ÷ input size, results-file size, the
// ratio of our time to the peer's, and our throughput ÷ the smallest file's (same classes).
//
// A file that cannot be generated (not enough free disk) or a peer that would not fit in memory
// is skipped with a line that says so; a failed evaluation is printed with its error and makes the
// bench exit 1 — it never hides behind a smaller run.
//
//   node bench/scale.mjs [--rows 1e6,1e7,5e7] [--classes 10,100] [--no-peer] [--keep-results]
//                        [--generate-only]   (write the missing files, evaluate nothing)
//
// Peak RSS comes from GNU time (`/usr/bin/time -f %M`, Debian's `time` package).
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  statfsSync,
  writeSync,
} from 'node:fs';
import { freemem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const list = (s) => s.split(',').map((x) => Math.round(Number(x)));
const rowsOpt = opt('--rows');
const classesOpt = opt('--classes');
/** (rows, classes) pairs: the default grid, or every pair of the sizes and classes given. */
const plan =
  rowsOpt || classesOpt
    ? list(classesOpt ?? '10').flatMap((c) => list(rowsOpt ?? '1e6,1e7,5e7').map((r) => [r, c]))
    : [
        [1e6, 10],
        [1e7, 10],
        [5e7, 10],
        [1e6, 100],
        [1e7, 100],
      ];
const peer = !argv.includes('--no-peer');
const generateOnly = argv.includes('--generate-only');
const DIR = 'bench/data/scale';
mkdirSync(DIR, { recursive: true });
if (!existsSync('dist/cli.js')) throw new Error('dist/cli.js is missing: run `npm run build` first');
if (!existsSync('/usr/bin/time')) throw new Error('/usr/bin/time is missing (Debian package `time`): no peak RSS');

const GB = 1e9;
const MB = 1e6;

/**
 * Writes `rows` rows of `classes` classes, seeded: labels long-tailed (class c ∝ 1/(c+1)), the true
 * class favoured, probabilities in millionths (the last class takes the rounding remainder so a row
 * sums to exactly 1), `pred` the first arg-max of the written probabilities.
 */
function generate(file, rows, classes) {
  let s = (rows * 31 + classes) >>> 0 || 1;
  const rand = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
  let harmonic = 0;
  for (let c = 0; c < classes; c++) harmonic += 1 / (c + 1);
  const cum = new Float64Array(classes);
  for (let c = 0, a = 0; c < classes; c++) cum[c] = a += 1 / (c + 1) / harmonic;
  const w = new Float64Array(classes);
  const m = new Int32Array(classes);
  const frac = (v) => `0.${String(v).padStart(6, '0')}`;
  const tmp = `${file}.part`;
  const fd = openSync(tmp, 'w');
  writeSync(fd, ['id', 'label', 'pred', ...Array.from({ length: classes }, (_, c) => `prob_${c}`)].join(',') + '\n');
  let chunk = [];
  for (let i = 0; i < rows; i++) {
    const u = rand();
    let label = 0;
    while (label < classes - 1 && cum[label] < u) label++;
    let sum = 0;
    for (let c = 0; c < classes; c++) sum += w[c] = Math.exp(3 * rand() + (c === label ? 2.5 : 0));
    let rest = 1_000_000;
    let best = 0;
    for (let c = 0; c < classes; c++) {
      const v = c === classes - 1 ? rest : Math.floor((w[c] / sum) * 1_000_000);
      m[c] = v;
      rest -= v;
      if (v > m[best]) best = c;
    }
    let line = `${i},${label},${best}`;
    for (let c = 0; c < classes; c++) line += m[c] === 1_000_000 ? ',1' : `,${frac(m[c])}`;
    chunk.push(line);
    if (chunk.length === 20_000) {
      writeSync(fd, chunk.join('\n') + '\n');
      chunk = [];
    }
  }
  if (chunk.length) writeSync(fd, chunk.join('\n') + '\n');
  closeSync(fd);
  spawnSync('mv', [tmp, file]);
}

/** Runs `cmd` under GNU time; returns wall seconds, peak RSS bytes, status, stdout and stderr. */
function timed(cmd, args, env) {
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %e %M', cmd, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * MB,
  });
  const m = /TIME ([\d.]+) (\d+)\s*$/.exec(r.stderr ?? '');
  return {
    seconds: m ? Number(m[1]) : NaN,
    rss: m ? Number(m[2]) * 1024 : NaN,
    status: r.status,
    stdout: r.stdout ?? '',
    stderr: (r.stderr ?? '').replace(/TIME [\d.]+ \d+\s*$/, '').trim(),
  };
}

const bytesPerRow = (classes) => 12 + 9 * classes;
/** The peer's peak memory, from its runs here: about 440 B a row at 10 classes (4.4 GB at 10 M rows). */
const peerBytesPerRow = (classes) => 200 + 24 * classes;
/**
 * Keys both tools compute, with the largest difference allowed: the counts agree to rounding; the
 * AURC's differs where scores tie (Eval Lens counts a tied block fractionally, the peer's stable
 * sort takes file order), which on millionths is a few parts in a hundred thousand. top5_accuracy
 * is checked against the peer's numpy count of the rule Eval Lens documents (a tie at the 5th place
 * counts as a hit); scikit-learn's top_k_accuracy_score breaks that tie by class index, and on the
 * 10 M-row file it differs by one row in ten million (printed by the peer as top5_accuracy_sklearn).
 */
const AGREE = {
  accuracy: 1e-12,
  balanced_accuracy: 1e-12,
  macro_f1: 1e-12,
  nll: 1e-9,
  top5_accuracy: 1e-12,
  aurc: 1e-4,
};
const fmt = (v, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : '—');

const rowsOut = [];
let failed = 0;
for (const [rows, classes] of plan) {
  const file = join(DIR, `rows-${rows}-c${classes}.csv`);
  const label = `${rows >= 1e6 ? `${rows / 1e6} M` : `${rows / 1e3} k`} × ${classes}`;
  if (!existsSync(file)) {
    const need = rows * bytesPerRow(classes);
    const fs = statfsSync(DIR);
    const free = fs.bavail * fs.bsize;
    if (need > free - 5 * GB) {
      console.log(`${label}: skipped — the file needs about ${fmt(need / GB, 1)} GB, ${fmt(free / GB, 1)} GB free`);
      rowsOut.push({ label, rows, classes, skipped: 'disk' });
      continue;
    }
    const t0 = performance.now();
    process.stdout.write(`${label}: generating ${file} … `);
    generate(file, rows, classes);
    console.log(`${fmt((performance.now() - t0) / 1000, 1)} s`);
  }
  if (generateOnly) continue;
  const size = statSync(file).size;
  // Read once so that both tools read from the page cache.
  spawnSync('cat', [file], { stdio: ['ignore', 'ignore', 'ignore'] });
  const out = join(DIR, `rows-${rows}-c${classes}.eval.json`);
  rmSync(out, { force: true });
  const ours = timed(process.execPath, ['dist/cli.js', 'evaluate', file, '-o', out, '--bootstrap-n', '0'], {
    EVAL_LENS_REQUIRE_WORKERS: '1',
  });
  const entry = { label, rows, classes, size, ours };
  if (ours.status !== 0) {
    failed++;
    const lastLine = ours.stderr.split('\n').filter(Boolean).at(-1) ?? `exit ${ours.status}`;
    console.log(
      `${label}: Eval Lens FAILED after ${fmt(ours.seconds, 1)} s (peak ${fmt(ours.rss / GB)} GB): ${lastLine}`,
    );
  } else {
    entry.resultsBytes = statSync(out).size;
    console.log(
      `${label}: Eval Lens ${fmt(ours.seconds, 1)} s, ${fmt(size / MB / ours.seconds, 0)} MB/s, peak ${fmt(ours.rss / GB)} GB, results ${fmt(entry.resultsBytes / MB, 1)} MB`,
    );
  }
  const ourValues = ours.status === 0 ? JSON.parse(readFileSync(out, 'utf8')).metrics : {};
  if (!argv.includes('--keep-results')) rmSync(out, { force: true });
  if (peer) {
    const need = rows * peerBytesPerRow(classes);
    if (need > freemem() - 2 * GB) {
      console.log(
        `${label}: peer skipped — pandas would need about ${fmt(need / GB, 1)} GB, ${fmt(freemem() / GB, 1)} GB free`,
      );
      entry.peerSkipped = true;
    } else {
      const p = timed('/usr/bin/python3', ['bench/peer_scale.py', file], {
        OMP_NUM_THREADS: '1',
        OPENBLAS_NUM_THREADS: '1',
      });
      if (p.status !== 0) {
        failed++;
        console.log(`${label}: peer FAILED: ${p.stderr.split('\n').filter(Boolean).at(-1) ?? ''}`);
      } else {
        entry.peer = p;
        console.log(`${label}: peer ${fmt(p.seconds, 1)} s, peak ${fmt(p.rss / GB)} GB`);
        // Both tools must have computed the same numbers, or the times compare different work.
        const theirs = JSON.parse(/^values (.*)$/m.exec(p.stdout)?.[1] ?? '{}');
        for (const [key, tol] of Object.entries(AGREE)) {
          const a = ourValues[key]?.value;
          const b = theirs[key];
          if (a === undefined || b === undefined) continue;
          if (!(Math.abs(a - b) <= tol)) {
            failed++;
            console.log(`${label}: ${key} differs: Eval Lens ${a}, peer ${b} (tolerance ${tol})`);
          }
        }
      }
    }
  }
  rowsOut.push(entry);
}

if (generateOnly) process.exit(failed ? 1 : 0);
console.log('\n== scaling (whole processes, one run; ratios are within this run)');
console.log(
  '| rows × classes | input | Eval Lens | MB/s | ÷ smallest MB/s | peak RSS ÷ input | results file | peer (pandas + scikit-learn) | ours ÷ peer | peer RSS |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const e of rowsOut) {
  if (e.skipped) {
    console.log(`| ${e.label} | skipped (disk) | | | | | | | | |`);
    continue;
  }
  const ok = e.ours.status === 0;
  const mbs = ok ? e.size / MB / e.ours.seconds : NaN;
  const first = rowsOut.find((x) => x.classes === e.classes && !x.skipped && x.ours.status === 0);
  const base = first ? first.size / MB / first.ours.seconds : NaN;
  console.log(
    `| ${e.label} | ${fmt(e.size / GB, 2)} GB | ${ok ? `${fmt(e.ours.seconds, 1)} s` : `failed after ${fmt(e.ours.seconds, 1)} s`} | ${fmt(mbs, 0)} | ${fmt(mbs / base)} | ${fmt(e.ours.rss / e.size)} | ${ok ? `${fmt(e.resultsBytes / MB, 1)} MB` : '—'} | ${e.peer ? `${fmt(e.peer.seconds, 1)} s` : e.peerSkipped ? 'skipped (memory)' : '—'} | ${e.peer && ok ? fmt(e.ours.seconds / e.peer.seconds) : '—'} | ${e.peer ? `${fmt(e.peer.rss / GB)} GB` : '—'} |`,
  );
}
process.exit(failed ? 1 : 0);
