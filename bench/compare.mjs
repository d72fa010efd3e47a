// `node bench/compare.mjs <rev> [--rounds N] [name-substring…]`: the same benches on an earlier
// revision and on the working tree, in one run, side by side — to show that a refactor slowed no stage.
//
// The revision is exported (`git archive`) into a temporary folder that shares this checkout's
// node_modules and bench/data; both trees are built (`npm run build`) and the working tree's
// bench/*.bench.ts is bundled against each tree's sources into that tree's dist/ beside its
// bootstrap worker, exactly as bench/run.mjs does, so both sides run the bundled code on their
// worker threads and print the same stages (the revision's own bench file is used when the working
// tree's does not build against it). The two sides
// alternate round by round (base, head, base, head, …) so that a change in the machine's load hits
// both; the best time of each stage over the rounds is compared. A stage whose best time on the
// base is under 0.05 s is listed but not judged (timer and scheduler noise there exceed 5%). A
// stage that the bench also prints without the garbage collector's pauses is judged by that line,
// and the pauses of the whole evaluation by their own line, since a collection of garbage left by
// earlier stages lands in whichever stage runs when the heap fills.
// Exit status 1 when a judged stage is more than 5% slower on the working tree.
import { spawnSync } from 'node:child_process';
import { bundleBench } from './bundle.mjs';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const head = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const rev = args[0];
if (!rev || rev.startsWith('--')) {
  console.error('usage: node bench/compare.mjs <rev> [--rounds N] [name-substring…]');
  process.exit(2);
}
const ri = args.indexOf('--rounds');
const rounds = ri > 0 ? Number(args[ri + 1]) : 3;
const filters = args.slice(1).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--rounds');
const TOLERANCE = 1.05;
const MIN_JUDGED = 0.05;

function sh(cmd, argv, cwd, opts = {}) {
  const r = spawnSync(cmd, argv, { cwd, encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    process.stderr.write(r.stdout ?? '');
    process.stderr.write(r.stderr ?? '');
    throw new Error(`${cmd} ${argv.join(' ')} failed in ${cwd} (exit ${r.status})`);
  }
  return r.stdout;
}

const sha = sh('git', ['rev-parse', '--short', rev], head).trim();
// A folder of its own: two comparisons against the same revision at once must not share (and
// delete) each other's build.
const base = mkdtempSync(join(tmpdir(), `eval-lens-bench-${sha}-`));
sh('bash', ['-c', `git archive ${sha} | tar -x -C ${JSON.stringify(base)}`], head);
symlinkSync(realpathSync(join(head, 'node_modules')), join(base, 'node_modules'));
if (!existsSync(join(head, 'bench', 'data', 'cls', 'preds.csv'))) {
  console.error('bench/data has no inputs yet: run `npm run bench` once (it generates them).');
  process.exit(2);
}
rmSync(join(base, 'bench', 'data'), { recursive: true, force: true });
symlinkSync(realpathSync(join(head, 'bench', 'data')), join(base, 'bench', 'data'));

const sides = [
  { name: `base ${sha}`, root: base },
  { name: 'head (working tree)', root: head },
];
for (const s of sides) {
  console.log(`== building ${s.name}`);
  sh('npm', ['run', '--silent', 'build'], s.root, { stdio: ['ignore', 'ignore', 'inherit'] });
}

// factors.bench generates its own data for minutes and inspect/read/firstReport are not stage tables.
const names = readdirSync(join(head, 'bench'))
  .filter((f) => f.endsWith('.bench.ts') && !f.startsWith('factors.'))
  .filter((f) => existsSync(join(base, 'bench', f)))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

/** `label   1.234 s` lines of a bench's output (stage tables), by label; a repeated label is numbered. */
function stages(text) {
  const out = new Map();
  let section = '';
  for (const line of text.split('\n')) {
    if (line.startsWith('-- ')) section = line.slice(3).trim();
    const m = /^(\s*\S.*?)\s{2,}(\d+\.\d+) s\b/.exec(line);
    if (!m) continue;
    let label = `${section ? `${section}: ` : ''}${m[1].trim()}`;
    for (let k = 2; out.has(label); k++) label = `${label.replace(/ #\d+$/, '')} #${k}`;
    out.set(label, Number(m[2]));
  }
  return out;
}

const best = sides.map(() => new Map());
/** The 1-minute load average before each run: on a shared machine it says how far to trust the times. */
const loads = [];
for (const f of names) {
  const scripts = [];
  for (const s of sides) {
    const script = join(s.root, 'dist', `bench-${f.replace(/\.ts$/, '.cjs')}`);
    const build = (entry) => bundleBench(entry, script, 'silent');
    if (s.root === head) await build(join(head, 'bench', f));
    else {
      // The working tree's bench code, built against the revision's sources, so both sides measure
      // (and print) the same things; the revision's own bench file when its sources lack what it uses.
      for (const g of ['report.ts', f]) copyFileSync(join(head, 'bench', g), join(s.root, 'bench', `head-${g}`));
      const text = readFileSync(join(s.root, 'bench', `head-${f}`), 'utf8').replaceAll(
        "from './report'",
        "from './head-report'",
      );
      writeFileSync(join(s.root, 'bench', `head-${f}`), text);
      try {
        await build(join(s.root, 'bench', `head-${f}`));
      } catch {
        console.log(`(${f}: the working tree's version does not build against ${sha}; its own is used)`);
        await build(join(s.root, 'bench', f));
      }
    }
    scripts.push(script);
  }
  for (let r = 0; r < rounds; r++) {
    sides.forEach((s, i) => {
      const load = loadavg()[0];
      loads.push(load);
      console.log(`== ${f}, round ${r + 1}/${rounds}, ${s.name} (load average ${load.toFixed(2)})`);
      const text = sh(process.execPath, ['--expose-gc', scripts[i]], s.root, {
        env: { ...process.env, EVAL_LENS_REQUIRE_WORKERS: '1' },
      });
      for (const [label, t] of stages(text)) {
        const key = `${f.replace(/\.bench\.ts$/, '')} · ${label}`;
        best[i].set(key, Math.min(best[i].get(key) ?? Infinity, t));
      }
    });
  }
}

let slower = 0;
const rows = [];
const TWIN = ' (without GC pauses)';
for (const [key, b] of best[0]) {
  const h = best[1].get(key);
  if (h === undefined) continue;
  const ratio = h / b;
  // A stage printed also without the collector's pauses is judged by that line (and the pauses by
  // their own line): a collection of earlier stages' garbage can land in any stage.
  const twin = best[0].has(key + TWIN) && best[1].has(key + TWIN);
  const judged = b >= MIN_JUDGED && !twin;
  const mark = twin
    ? 'judged without GC pauses'
    : !judged
      ? 'not judged (< 0.05 s)'
      : ratio > TOLERANCE
        ? 'SLOWER'
        : 'ok';
  if (judged && ratio > TOLERANCE) slower++;
  rows.push([key, b.toFixed(3), h.toFixed(3), ratio.toFixed(3), mark]);
}
const width = Math.max(...rows.map((r) => r[0].length), 5);
console.log(`\n== best of ${rounds} rounds per stage: ${sides[0].name} vs ${sides[1].name}`);
if (loads.length)
  console.log(
    `(1-minute load average before the runs: ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}, on ${availableParallelism()} cores)`,
  );
console.log(`${'stage'.padEnd(width)}  base s   head s   head/base`);
for (const r of rows)
  console.log(`${r[0].padEnd(width)}  ${r[1].padStart(7)}  ${r[2].padStart(7)}  ${r[3].padStart(6)}  ${r[4]}`);
const onlyOne =
  [...best[0].keys()].filter((k) => !best[1].has(k)).length + [...best[1].keys()].filter((k) => !best[0].has(k)).length;
if (onlyOne) console.log(`(${onlyOne} stage labels appear on one side only and are not compared)`);
console.log(
  slower ? `${slower} stage(s) more than 5% slower on the working tree` : 'no judged stage more than 5% slower',
);
rmSync(base, { recursive: true, force: true });
process.exit(slower ? 1 : 0);
