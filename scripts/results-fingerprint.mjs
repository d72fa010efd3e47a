// `node scripts/results-fingerprint.mjs --save FILE | --check FILE [--also PATH…] [--added REGEX]`
// (after `npm run build`): evaluates every example prediction file (the files `npm run demo`
// evaluates, plus any `--also` file) with the built CLI, drops what may differ between two runs of
// the same code — `createdAt` and `timings` — and either saves the results, one per file, as one
// JSON document, or compares them with a saved document and lists every key whose value differs.
//
// Why: refactors and speed work must not change a single number. Comparing the serialised results
// (bootstrap intervals included) is stricter than any tolerance a test could pick.
//
// `--added REGEX` (with --check), for a change that adds metric keys: a key the saved results lack
// whose name matches REGEX (`--added '^ndcg_std@'`) is listed as added instead of failing the
// check, and so is such a name added to a list (`families.ranking`), where the list without it must
// equal the saved one element by element (every other key keeps its place). Everything else is
// compared as strictly as without it: a changed, removed or other added value still fails.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverExamples } from './demo.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const cli = join(root, 'dist', 'cli.js');

function usage(msg) {
  if (msg) console.error(msg);
  console.error(
    'usage: node scripts/results-fingerprint.mjs (--save FILE | --check FILE [--added REGEX]) [--also PATH]…',
  );
  process.exit(2);
}

const args = process.argv.slice(2);
let mode;
let file;
const also = [];
let added = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--save' || args[i] === '--check') {
    mode = args[i].slice(2);
    file = args[++i];
  } else if (args[i] === '--also') also.push(args[++i]);
  else if (args[i] === '--added') added = new RegExp(args[++i] ?? usage('--added needs a pattern'));
  else usage(`unknown argument ${args[i]}`);
}
if (!mode || !file) usage();
if (added && mode !== 'check') usage('--added goes with --check');

const paths = [
  ...discoverExamples(join(root, 'examples')).flatMap((ex) => ex.files.map((f) => relative(root, f.path))),
  ...also,
];
const now = {};
for (const rel of paths) {
  const r = spawnSync(process.execPath, [cli, 'evaluate', rel, '--format', 'json'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (r.status !== 0) {
    console.error(`${rel}: exit ${r.status}\n${r.stderr}`);
    process.exit(1);
  }
  // Absolute paths (the config file's) name the checkout; two checkouts of one commit must agree.
  const results = JSON.parse(r.stdout.split(JSON.stringify(root).slice(1, -1)).join('<checkout>'));
  delete results.createdAt;
  delete results.timings;
  now[rel] = results;
}

if (mode === 'save') {
  writeFileSync(file, JSON.stringify(now, null, 1) + '\n');
  console.log(`saved the results of ${paths.length} files to ${file}`);
  process.exit(0);
}

const before = JSON.parse(readFileSync(file, 'utf8'));
const diffs = [];
/** With --added: the keys (`path.key`) and list elements (`path[] += name`) added, which match it. */
const additions = [];
/** A list element `x` that `--added` allows where the saved list `a` lacks it. */
const addedElement = (x, a) => added !== null && typeof x === 'string' && added.test(x) && !a.includes(x);
function walk(a, b, at, key = '') {
  if (diffs.length > 50) return;
  if (a === undefined && b !== undefined && added?.test(key)) {
    additions.push(at);
    return;
  }
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) {
    diffs.push(`${at}: ${JSON.stringify(a)?.slice(0, 80)} → ${JSON.stringify(b)?.slice(0, 80)}`);
    return;
  }
  if (Array.isArray(b) && b.some((x) => addedElement(x, a))) {
    for (const x of b) if (addedElement(x, a)) additions.push(`${at}[] += ${x}`);
    walk(
      a,
      b.filter((x) => !addedElement(x, a)),
      at,
    );
    return;
  }
  if (a && typeof a === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) walk(a[k], b[k], `${at}.${k}`, k);
    return;
  }
  if (a !== b) diffs.push(`${at}: ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
}
for (const rel of new Set([...Object.keys(before), ...Object.keys(now)])) walk(before[rel], now[rel], rel);
if (diffs.length) {
  console.error(`results differ from ${file}:\n  ${diffs.join('\n  ')}`);
  if (additions.length) console.error(`(and ${additions.length} additions matching ${added})`);
  process.exit(1);
}
if (additions.length) console.log(`added, matching ${added} (${additions.length}):\n  ${additions.join('\n  ')}`);
console.log(
  `the results of ${paths.length} files are identical to ${file} (apart from createdAt and timings${additions.length ? ` and the ${additions.length} additions above` : ''})`,
);
