// Nothing a user reads names project-internal things ("seed 002", "METRICS.md", "section 2",
// "Eq. 9"): the bundles in dist/ (checked when they exist, i.e. after `npm run build`), docs/,
// README.md, the JSON Schemas, the example READMEs, the `--help` of the CLI and every
// subcommand, and what the core writes into results and comparison files (notes, warnings). A random-number seed is fine; "seed 0" is not written that way (`seed = 0`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { evaluateFile } from '../../../src/core/evaluate';
import { compareRuns } from '../../../src/core/compare/compareRuns';
import type { EvalConfig } from '../../../src/core/config/types';

const INTERNAL: readonly RegExp[] = [
  /seed 0/i,
  /seed-0/i,
  /METRICS\.md/i,
  /DESIGN\.md/i,
  /section [0-9]/i,
  /section-[0-9]/i,
  /\bEq\. ?[0-9]/,
];

function files(dir: string, exts: RegExp): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p, exts));
    else if (exts.test(name)) out.push(p);
  }
  return out;
}

function offences(label: string, text: string): string[] {
  const out: string[] = [];
  for (const re of INTERNAL) {
    const m = re.exec(text);
    if (m)
      out.push(`${label}: "${text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40).replace(/\s+/g, ' ')}"`);
  }
  return out;
}

test('docs, README, schemas and example READMEs name no project-internal things', () => {
  const paths = [...files('docs', /\.md$/), 'README.md', ...files('schemas', /\.json$/), ...files('examples', /\.md$/)];
  assert.ok(paths.length >= 10);
  const bad = paths.flatMap((p) => offences(p, readFileSync(p, 'utf8')));
  assert.deepEqual(bad, []);
});

test('dist/ (the shipped bundles) names no project-internal things', (t) => {
  const paths = files('dist', /\.(js|html|css|json)$/);
  if (paths.length === 0) {
    t.skip('dist/ is not built (npm run build); `npm test` builds it first');
    return;
  }
  const bad = paths.flatMap((p) => offences(p, readFileSync(p, 'utf8')));
  assert.deepEqual(bad, []);
});

/** `eval-lens ARGS` run from the sources (main.ts runs on import, so it is spawned). */
function cliHelp(args: string[]): string {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return r.stdout + r.stderr;
}

test('`--help` of eval-lens and of every subcommand names no project-internal things', () => {
  const top = cliHelp(['--help']);
  const commands = [...(top.split(/^Commands:$/m)[1] ?? '').matchAll(/^ {2}([a-z][a-z-]*)\b/gm)]
    .map((m) => m[1]!)
    .filter((c) => c !== 'help');
  assert.ok(
    ['evaluate', 'compare', 'explain'].every((c) => commands.includes(c)),
    `subcommands found: ${commands.join(', ')}`,
  );
  const bad = [
    ...offences('eval-lens --help', top),
    ...commands.flatMap((c) => offences(`eval-lens ${c} --help`, cliHelp([c, '--help']))),
  ];
  assert.deepEqual(bad, []);
});

test('results and comparison files of the examples (notes, warnings, curve and table labels) name no project-internal things', async () => {
  const ex = (f: string): string => join(process.cwd(), 'examples', f);
  const overrides = { bootstrap: { n: 20 } } as EvalConfig;
  const files = [
    'digits-lt/logreg.csv',
    'digits-lt/knn.csv',
    'digits-lt/gaussian_nb.csv',
    'cifar100-lt-like/logreg.csv',
    'iw-breast-cancer/logreg.csv',
    'ranking-debian-deps/popularity.jsonl',
    'ranking-debian-deps/cooccurrence.jsonl',
  ];
  const results = await Promise.all(files.map((f) => evaluateFile(ex(f), { overrides })));
  const digits = results.slice(0, 3);
  const ranking = results.slice(5);
  const comparisons = await Promise.all(
    [digits, ranking].map((runs) => compareRuns(runs, { bootstrap: { n: 20, confidence: 0.95, seed: 0 } })),
  );
  assert.ok(
    results.some((r) => r.warnings.length > 0) && results.some((r) => Object.values(r.metrics).some((m) => m.note)),
  );
  const bad = [
    ...results.flatMap((r, i) => offences(files[i]!, JSON.stringify(r))),
    ...comparisons.flatMap((c, i) => offences(`comparison ${i + 1}`, JSON.stringify(c))),
  ];
  assert.deepEqual(bad, []);
});
