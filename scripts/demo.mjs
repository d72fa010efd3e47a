// `npm run demo` (after `npm run build`): evaluates every example prediction file with the built
// CLI and prints each summary table. Writes only under out/demo/ (git-ignored), never into
// examples/. Exits non-zero if any evaluation fails.
//
// An example is a folder directly under examples/ holding an eval-lens.json. Its prediction files
// are the .csv/.tsv/.jsonl/.json/.trec/.run files at its top level, except eval-lens.json,
// *.eval.json, *.compare.json, files named by a path-valued config key (trainCounts, classWeights,
// groups, relevant, train, itemEmbeddings, userEmbeddings, items, and the factor keys), and files
// whose name starts with `_`. Files in subfolders are not evaluated. A folder whose config names
// factor matrices (`userFactors`) is evaluated from that file: its lists are generated, not read.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PREDICTION_EXTENSIONS = new Set(['.csv', '.tsv', '.jsonl', '.json', '.trec', '.run']);
const PATH_KEYS = [
  'trainCounts',
  'classWeights',
  'groups',
  'relevant',
  'train',
  'itemEmbeddings',
  'userEmbeddings',
  'items',
  'userFactors',
  'itemFactors',
  'userIds',
  'itemIds',
];

/**
 * Examples under `examplesDir`, each `{ name, dir, config, files: [{ path, outName }] }`, sorted.
 * `outName` is the file's stem, or its full name when two files share a stem (logreg.csv and
 * logreg.jsonl → logreg.csv, logreg.jsonl).
 */
export function discoverExamples(examplesDir) {
  if (!existsSync(examplesDir)) return [];
  const examples = [];
  for (const name of readdirSync(examplesDir).sort()) {
    const dir = join(examplesDir, name);
    const config = join(dir, 'eval-lens.json');
    if (!statSync(dir).isDirectory() || !existsSync(config)) continue;
    let parsed = {};
    try {
      parsed = JSON.parse(readFileSync(config, 'utf8'));
    } catch {
      // A broken config is reported by the CLI when the files are evaluated.
    }
    const referenced = new Set(
      PATH_KEYS.map((k) => parsed?.[k])
        .filter((v) => typeof v === 'string')
        .map((v) => resolve(dir, v)),
    );
    const names = readdirSync(dir)
      .filter((f) => statSync(join(dir, f)).isFile())
      .filter((f) => PREDICTION_EXTENSIONS.has(extname(f).toLowerCase()))
      .filter(
        (f) =>
          f !== 'eval-lens.json' && !f.endsWith('.eval.json') && !f.endsWith('.compare.json') && !f.startsWith('_'),
      )
      .filter((f) => !referenced.has(resolve(dir, f)))
      .sort();
    if (typeof parsed?.userFactors === 'string' && existsSync(resolve(dir, parsed.userFactors)))
      names.push(parsed.userFactors);
    const stem = (f) => basename(f, extname(f));
    const files = names.map((f) => ({
      path: join(dir, f),
      outName: names.filter((g) => stem(g) === stem(f)).length > 1 ? f : stem(f),
    }));
    examples.push({ name, dir, config, files });
  }
  return examples;
}

function main() {
  const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
  const cli = join(root, 'dist', 'cli.js');
  if (!existsSync(cli)) {
    console.error('dist/cli.js is missing: run `npm run demo` (it builds first) or `npm run build`.');
    process.exit(1);
  }
  const examples = discoverExamples(join(root, 'examples'));
  if (examples.length === 0) {
    console.error('No example folder with an eval-lens.json under examples/.');
    process.exit(1);
  }
  const failures = [];
  let count = 0;
  for (const ex of examples) {
    console.log(
      `\n######## examples/${ex.name} (${ex.files.length} prediction file${ex.files.length === 1 ? '' : 's'})`,
    );
    for (const f of ex.files) {
      const rel = relative(root, f.path);
      const out = join('out', 'demo', ex.name, `${f.outName}.eval.json`);
      console.log(`\n==== ${rel}  →  ${out}\n`);
      count++;
      const r = spawnSync(process.execPath, [cli, 'evaluate', rel, '--format', 'table', '--out', out], {
        cwd: root,
        encoding: 'utf8',
      });
      process.stdout.write(r.stdout ?? '');
      if (r.status !== 0) {
        process.stdout.write(r.stderr ?? '');
        failures.push(`${rel} (exit ${r.status ?? r.signal})`);
      }
    }
  }

  // ---- Comparison demo (helper H8): append the `eval-lens compare …` runs here. -------------
  const comparisons = runComparisonDemo(root, cli, examples, failures);
  console.log(
    `\n${comparisons} comparison${comparisons === 1 ? '' : 's'} (written under out/demo/<example>/runs.compare.json).`,
  );
  // ---- end of the comparison demo ------------------------------------------------------------

  console.log(`\n${count} evaluation${count === 1 ? '' : 's'}, ${failures.length} failed. Results under out/demo/.`);
  if (failures.length > 0) {
    for (const f of failures) console.error(`FAILED: ${f}`);
    process.exit(1);
  }
}

// Comparison demo: the runs of each example folder compared with `eval-lens compare`, read back
// from the *.eval.json files written above; then the inspection of a paper's table. Folders named
// in COMPARE_PRESETS compare the listed runs (the first is the baseline) on the listed metrics;
// any other folder with two or more evaluated runs compares them all on every common metric.
const COMPARE_PRESETS = {
  'digits-lt': {
    runs: ['logreg', 'svc_rbf', 'knn', 'random_forest', 'gaussian_nb'],
    metrics: 'accuracy,balanced_accuracy,acc_few,shift_auc,shift_std,shift_dr,aurc,ece,nll',
  },
  'cifar100-lt-like': {
    runs: ['logreg', 'logreg_balanced', 'mlp'],
    metrics: 'accuracy,acc_many,acc_medium,acc_few,shift_auc,shift_dr,aurc,ece',
  },
};

function runComparisonDemo(root, cli, examples, failures) {
  let n = 0;
  const compare = (label, args) => {
    console.log(`\n==== eval-lens compare ${args.join(' ')}\n`);
    n++;
    const r = spawnSync(process.execPath, [cli, 'compare', ...args], { cwd: root, encoding: 'utf8' });
    process.stdout.write(r.stdout ?? '');
    if (r.stderr)
      process.stdout.write(
        r.stderr
          .split('\n')
          .filter((l) => l.trim() !== '')
          .slice(0, 6)
          .map((l) => `  ${l}`)
          .join('\n') + '\n',
      );
    if (r.status !== 0) failures.push(`${label} (exit ${r.status ?? r.signal})`);
  };
  for (const ex of examples) {
    const evaluated = ex.files
      .map((f) => ({ name: f.outName, path: join('out', 'demo', ex.name, `${f.outName}.eval.json`) }))
      .filter((f) => existsSync(join(root, f.path)));
    const preset = COMPARE_PRESETS[ex.name];
    const runs = preset
      ? preset.runs.map((name) => evaluated.find((f) => f.name === name || f.name === `${name}.csv`)).filter(Boolean)
      : evaluated;
    if (runs.length < 2) continue;
    console.log(`\n######## comparison: examples/${ex.name} (${runs.length} runs, baseline ${runs[0].name})`);
    const out = join('out', 'demo', ex.name, 'runs.compare.json');
    const args = [...runs.map((r) => r.path), '--baseline', runs[0].path, '--out', out];
    if (preset?.metrics) args.push('--metrics', preset.metrics);
    compare(`compare examples/${ex.name}`, args);
  }
  const table = join('test', 'fixtures', 'compare', 'fang2023_table4_rho0.1.csv');
  if (existsSync(join(root, table))) {
    console.log(
      '\n######## inspection: Table 4 of the long-tail paper (Fang et al. 2023), best / second / third per column',
    );
    compare('inspect the paper table', [table, '--format', 'markdown']);
  }
  return n;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
