// Reading the classification CSVs, measured on the bundled code (dist/core.js, built by
// `npm run bench`) against two anchors in the same run:
// - a byte scan: `fs.readSync` into one reused 1 MiB buffer, counting line feeds — the floor for
//   any reader that looks at every byte once on this machine;
// - Polars' `readCSV` (nodejs-polars, a multi-threaded Rust CSV reader). It is installed by this
//   script into bench/.peer (git-ignored), never a dependency of the project; when it cannot be
//   installed the output says so and the ratios to it are left out.
// Files: bench/data/cls/preds.csv (200,000 rows × 100 classes, 268 MB) and
// bench/data/small20/cls/preds.csv (200,000 × 20). The page cache is warmed first, so all three
// read from memory. Every measurement runs in its own Node process (its peak RSS is its own) and
// is repeated; the fastest run is shown.
//
//   node bench/read.bench.mjs              all files
//   node bench/read.bench.mjs <mode> <file>   one measurement (used by the parent; prints JSON)
import { Buffer } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const PEER = join(here, '.peer');
const FILES = ['bench/data/cls/preds.csv', 'bench/data/small20/cls/preds.csv'];
const REPEAT = 2;

function peakRssMb() {
  return process.resourceUsage().maxRSS / 1024;
}

function scan(file) {
  const buf = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(file, 'r');
  let lines = 0;
  try {
    for (;;) {
      const got = readSync(fd, buf, 0, buf.length, null);
      if (got === 0) break;
      for (let i = buf.indexOf(10, 0); i !== -1 && i < got; i = buf.indexOf(10, i + 1)) lines++;
    }
  } finally {
    closeSync(fd);
  }
  return lines;
}

async function load(file) {
  const core = require('../dist/core.js');
  const config = core.resolveConfig([JSON.parse(readFileSync(join(dirname(file), 'eval-lens.json'), 'utf8'))]);
  const { data } = await core.loadClassification(file, config, new core.Warnings());
  return data.n;
}

function polars(file) {
  const pl = require(join(PEER, 'node_modules', 'nodejs-polars'));
  return pl.readCSV(file).height;
}

/** Installs nodejs-polars into bench/.peer once; returns why not when it cannot load. */
function ensurePolars() {
  const tryLoad = () => {
    const r = spawnSync(
      process.execPath,
      ['-e', `require(${JSON.stringify(join(PEER, 'node_modules', 'nodejs-polars'))})`],
      { encoding: 'utf8' },
    );
    return r.status === 0 ? null : r.stderr;
  };
  let err = existsSync(join(PEER, 'node_modules', 'nodejs-polars')) ? tryLoad() : 'not installed';
  if (err === null) return null;
  const npm = (pkgs) => spawnSync('npm', ['install', '--prefix', PEER, ...pkgs], { encoding: 'utf8' });
  console.log(`installing nodejs-polars into ${PEER} (not a project dependency)…`);
  let r = npm(['nodejs-polars']);
  if (r.status !== 0) return `npm install nodejs-polars failed: ${(r.stderr || '').trim().split('\n').pop()}`;
  err = tryLoad();
  // npm may skip the optional native package for this platform (e.g. when optional dependencies are
  // omitted by configuration); install the one the loader names, at the same version.
  const missing = err && /Cannot find module '(nodejs-polars-[\w-]+)'/.exec(err);
  if (missing) {
    const version = JSON.parse(
      readFileSync(join(PEER, 'node_modules', 'nodejs-polars', 'package.json'), 'utf8'),
    ).version;
    r = npm([`nodejs-polars@${version}`, `${missing[1]}@${version}`]);
    if (r.status !== 0)
      return `npm install ${missing[1]}@${version} failed: ${(r.stderr || '').trim().split('\n').pop()}`;
    err = tryLoad();
  }
  return err === null
    ? null
    : `nodejs-polars does not load: ${
        err
          .trim()
          .split('\n')
          .find((l) => /Error/.test(l)) ?? err.trim()
      }`;
}

async function child(mode, file) {
  const t0 = performance.now();
  const rows = mode === 'scan' ? scan(file) : mode === 'load' ? await load(file) : polars(file);
  const seconds = (performance.now() - t0) / 1000;
  console.log(JSON.stringify({ mode, rows, seconds, rssMb: peakRssMb() }));
}

function measure(mode, file) {
  let best = null;
  for (let k = 0; k < REPEAT; k++) {
    const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), mode, file], {
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`${mode} on ${file} failed:\n${r.stderr}`);
    const m = JSON.parse(r.stdout.trim().split('\n').pop());
    if (!best || m.seconds < best.seconds) best = { ...m, rssMb: Math.max(m.rssMb, best?.rssMb ?? 0) };
  }
  return best;
}

function row(label, m, mb, ratios) {
  console.log(
    `${label.padEnd(34)} ${m.seconds.toFixed(3).padStart(7)} s  ${(mb / m.seconds).toFixed(0).padStart(5)} MB/s  peak RSS ${m.rssMb.toFixed(0).padStart(5)} MB (${(m.rssMb / mb).toFixed(2)}× file)${ratios}`,
  );
}

async function main() {
  const [mode, file] = process.argv.slice(2);
  if (mode) return child(mode, file);
  const noPolars = ensurePolars();
  if (noPolars) console.log(`Polars not measured: ${noPolars}`);
  for (const f of FILES) {
    if (!existsSync(f)) {
      console.log(`${f}: missing (generated by \`npm run bench\`); skipped`);
      continue;
    }
    const mb = statSync(f).size / 1e6;
    scan(f); // warm the page cache
    const s = measure('scan', f);
    const l = measure('load', f);
    const p = noPolars ? null : measure('polars', f);
    if (l.rows > s.rows || (p && p.rows !== l.rows))
      throw new Error(`row counts disagree: scan ${s.rows} lines, loader ${l.rows}, Polars ${p?.rows}`);
    console.log(
      `${f} (${mb.toFixed(0)} MB, ${l.rows.toLocaleString('en')} rows; fastest of ${REPEAT}, each in its own process)`,
    );
    row('byte scan (readSync, reused buffer)', s, mb, '');
    row(
      'loadClassification (Eval Lens)',
      l,
      mb,
      // the goal is set on the 268 MB file; on the small one loading the code and starting a thread weigh more
      `  ${(l.seconds / s.seconds).toFixed(2)}× scan${p ? `, ${(l.seconds / p.seconds).toFixed(2)}× Polars${f === FILES[0] ? ' (goal ≤ 1.5×)' : ' (no goal)'}` : ''}`,
    );
    if (p) row('Polars readCSV', p, mb, `  ${(p.seconds / s.seconds).toFixed(2)}× scan`);
    else console.log('Polars readCSV                     not measured (see above)');
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
