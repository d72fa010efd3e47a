// `node bench/compare.mjs <rev> [--rounds N] [--in-process] [name-substring…]`: the same benches on an earlier
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
//
// On a shared machine the time of one stage moves by 30% or more from one process to the next
// with the code unchanged, so the best of a few rounds alone can call a stage slower (or not) by
// chance. Each round therefore gives a paired ratio (head ÷ base of the same round), and a stage is
// judged by a sign test of those ratios against the 5% line: SLOWER when so many rounds are over
// it that a stage truly at +5% would give that few times in 20 or less (all 5 of 5 rounds, 7 of 8);
// "within 5%" when so few are; otherwise "not resolved", with the rounds it would take. The best
// times and their ratio are printed beside, as before.
// Exit status 1 when a judged stage is SLOWER on the working tree.
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
  console.error('usage: node bench/compare.mjs <rev> [--rounds N] [--in-process] [name-substring…]');
  process.exit(2);
}
const ri = args.indexOf('--rounds');
const rounds = ri > 0 ? Number(args[ri + 1]) : 5;
const filters = args.slice(1).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--rounds');
// --in-process: the stages of bench/inProcessStages.ts, both sides in one process (see there why)
const inProcess = args.includes('--in-process');
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
const names = inProcess
  ? []
  : readdirSync(join(head, 'bench'))
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

/** Every round's time of each stage, per side (round r of both sides ran one after the other). */
const times = sides.map(() => new Map());
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
        if (!times[i].has(key)) times[i].set(key, []);
        times[i].get(key)[r] = t;
      }
    });
  }
}

if (inProcess) {
  // The working tree's stage module, bundled against each side's sources into that side's dist/.
  const bundles = [];
  for (const s of sides) {
    const entry = join(s.root, 'bench', s.root === head ? 'inProcessStages.ts' : 'head-inProcessStages.ts');
    if (s.root !== head) copyFileSync(join(head, 'bench', 'inProcessStages.ts'), entry);
    const bundle = join(s.root, 'dist', 'bench-inProcessStages.cjs');
    await bundleBench(entry, bundle);
    bundles.push(bundle, s.root);
  }
  const out = join(base, 'in-process-times.json');
  const driver = join(head, 'bench', 'inProcessDriver.mjs');
  // the filters go to the driver too, so that only the matching stages take the rounds' time
  const r = spawnSync(
    process.execPath,
    ['--expose-gc', driver, String(rounds), out, JSON.stringify(filters), ...bundles],
    {
      cwd: head,
      stdio: 'inherit',
      env: { ...process.env, EVAL_LENS_REQUIRE_WORKERS: '1' },
    },
  );
  if (r.status !== 0) throw new Error(`the in-process driver failed (exit ${r.status})`);
  const measured = JSON.parse(readFileSync(out, 'utf8'));
  loads.push(...measured.loads);
  for (const [label, [b, h]] of Object.entries(measured.times)) {
    if (filters.length && !filters.some((x) => label.includes(x))) continue;
    times[0].set(`in-process · ${label}`, b);
    times[1].set(`in-process · ${label}`, h);
  }
}

/** P(K ≥ k) for K ~ Binomial(n, 1/2): the one-sided sign test's p-value. */
function signTail(k, n) {
  let p = 0;
  let c = 1; // C(n, j), from j = 0
  for (let j = 0; j <= n; j++) {
    if (j >= k) p += c;
    c = (c * (n - j)) / (j + 1);
  }
  return p / 2 ** n;
}
const ALPHA = 0.05;

let slower = 0;
let unresolved = 0;
const rows = [];
const TWIN = ' (without GC pauses)';
const best = (xs) => Math.min(...xs.filter((x) => x !== undefined));
for (const [key, bs] of times[0]) {
  const hs = times[1].get(key);
  if (hs === undefined) continue;
  const b = best(bs);
  const h = best(hs);
  // paired ratios of the rounds where both sides printed the stage
  const q = bs.flatMap((x, r) => (x !== undefined && hs[r] !== undefined && x > 0 ? [hs[r] / x] : []));
  const over = q.filter((x) => x > TOLERANCE).length;
  // A stage printed also without the collector's pauses is judged by that line (and the pauses by
  // their own line): a collection of earlier stages' garbage can land in any stage.
  const twin = times[0].has(key + TWIN) && times[1].has(key + TWIN);
  const judged = b >= MIN_JUDGED && !twin;
  let mark;
  if (twin) mark = 'judged without GC pauses';
  else if (!judged) mark = 'not judged (< 0.05 s)';
  else if (signTail(over, q.length) <= ALPHA) mark = `SLOWER (${over} of ${q.length} rounds over 5%)`;
  else if (signTail(q.length - over, q.length) <= ALPHA) mark = `within 5% (${over} of ${q.length} rounds over)`;
  else mark = `not resolved (${over} of ${q.length} rounds over 5%)`;
  if (judged && mark.startsWith('SLOWER')) slower++;
  if (judged && mark.startsWith('not resolved')) unresolved++;
  const sorted = [...q].sort((x, y) => x - y);
  const median = sorted.length ? sorted[(sorted.length - 1) >> 1] / 2 + sorted[sorted.length >> 1] / 2 : NaN;
  rows.push([
    key,
    b.toFixed(3),
    h.toFixed(3),
    (h / b).toFixed(3),
    // no ratio when the base printed 0.000 s in every round
    sorted.length ? `${median.toFixed(2)} [${sorted[0].toFixed(2)}–${sorted[sorted.length - 1].toFixed(2)}]` : '—',
    mark,
  ]);
}
const width = Math.max(...rows.map((r) => r[0].length), 5);
console.log(
  `\n== ${rounds} rounds per stage (best time of each side; sign test of the paired round ratios): ${sides[0].name} vs ${sides[1].name}`,
);
if (loads.length)
  console.log(
    `(1-minute load average before the runs: ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}, on ${availableParallelism()} cores)`,
  );
console.log(`${'stage'.padEnd(width)}  base s   head s   best ratio   round ratios: median [range]`);
for (const r of rows)
  console.log(
    `${r[0].padEnd(width)}  ${r[1].padStart(7)}  ${r[2].padStart(7)}  ${r[3].padStart(10)}   ${r[4].padEnd(22)}  ${r[5]}`,
  );
const onlyOne =
  [...times[0].keys()].filter((k) => !times[1].has(k)).length +
  [...times[1].keys()].filter((k) => !times[0].has(k)).length;
if (onlyOne) console.log(`(${onlyOne} stage labels appear on one side only and are not compared)`);
// the fewest rounds in which a sign test can reach ALPHA at all
let need = 1;
while (signTail(need, need) > ALPHA) need++;
console.log(
  [
    slower ? `${slower} stage(s) more than 5% slower on the working tree` : 'no judged stage shown more than 5% slower',
    unresolved
      ? `${unresolved} stage(s) not resolved by ${rounds} rounds (the noise is larger than 5%; a verdict needs at least ${need} rounds, more when they disagree)`
      : '',
  ]
    .filter(Boolean)
    .join('; '),
);
rmSync(base, { recursive: true, force: true });
process.exit(slower ? 1 : 0);
