/**
 * Every example prediction file (the ones `npm run demo` evaluates, found by the same rule)
 * evaluates without error and gives results that match the results schema, every table of them one
 * the typed map of tables knows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { evaluateFile } from '../../../src/core/evaluate';
import { otherCurves } from '../../../src/core/results/curves';
import { otherTables } from '../../../src/core/results/tables';
import { validateResults } from '../../../src/core/results/validate';

interface Example {
  name: string;
  dir: string;
  config: string;
  files: { path: string; outName: string }[];
}

test('every example file evaluates to schema-valid results', async () => {
  const demo = (await import(pathToFileURL(join(process.cwd(), 'scripts', 'demo.mjs')).href)) as {
    discoverExamples(dir: string): Example[];
  };
  const examples = demo.discoverExamples(join(process.cwd(), 'examples'));
  assert.ok(examples.length > 0, 'examples/ has example folders');
  let n = 0;
  for (const ex of examples) {
    for (const f of ex.files) {
      // Few resamples: the intervals' shape is what the schema checks, not their width.
      const results = await evaluateFile(f.path, { overrides: { bootstrap: { n: 20 } }, root: process.cwd() });
      const roundTrip = JSON.parse(JSON.stringify(results)) as unknown;
      assert.deepEqual(validateResults(roundTrip), [], f.path);
      // Every table written is one of the typed map (ResultTables): none is left to a cast.
      assert.deepEqual(
        otherTables(results).map(([name]) => name),
        [],
        f.path,
      );
      // and every curve one of ResultCurves
      assert.deepEqual(
        otherCurves(results).map(([name]) => name),
        [],
        f.path,
      );
      assert.equal(results.config.configFile, ex.config);
      assert.ok(Object.keys(results.metrics).length > 0, `${f.path} has metrics`);
      n++;
    }
  }
  assert.ok(n > 0);
});

test('the demo skips configs, results, referenced and underscore files', async () => {
  const demo = (await import(pathToFileURL(join(process.cwd(), 'scripts', 'demo.mjs')).href)) as {
    discoverExamples(dir: string): Example[];
  };
  for (const ex of demo.discoverExamples(join(process.cwd(), 'examples'))) {
    for (const f of ex.files) {
      const base = f.path.slice(ex.dir.length + 1);
      assert.ok(
        !base.includes('/') &&
          !base.startsWith('_') &&
          base !== 'eval-lens.json' &&
          !base.endsWith('.eval.json') &&
          !base.endsWith('.compare.json'),
        base,
      );
      assert.notEqual(base, 'train_counts.json');
    }
  }
});

test('demo discovery on a made-up examples folder', async () => {
  const demo = (await import(pathToFileURL(join(process.cwd(), 'scripts', 'demo.mjs')).href)) as {
    discoverExamples(dir: string): Example[];
  };
  const root = mkdtempSync(join(tmpdir(), 'eval-lens-demo-'));
  const ex = join(root, 'ex1');
  mkdirSync(join(ex, 'sub'), { recursive: true });
  mkdirSync(join(root, 'noconfig'));
  writeFileSync(
    join(ex, 'eval-lens.json'),
    JSON.stringify({ trainCounts: 'counts.json', relevant: 'qrels.tsv', train: './train.csv', groups: [3] }),
  );
  for (const f of [
    'a.csv',
    'a.jsonl',
    'counts.json',
    'qrels.tsv',
    'train.csv',
    '_b.csv',
    'r.eval.json',
    'c.compare.json',
    'e.trec',
    'f.run',
    'g.TSV',
    'readme.md',
    'sub/d.csv',
  ]) {
    writeFileSync(join(ex, f), '');
  }
  writeFileSync(join(root, 'noconfig', 'x.csv'), '');
  const found = demo.discoverExamples(root);
  assert.deepEqual(
    found.map((e) => e.name),
    ['ex1'],
  );
  assert.deepEqual(
    found[0]!.files.map((f) => [f.path.slice(ex.length + 1), f.outName]),
    [
      ['a.csv', 'a.csv'],
      ['a.jsonl', 'a.jsonl'],
      ['e.trec', 'e'],
      ['f.run', 'f'],
      ['g.TSV', 'g'],
    ],
  );
  assert.deepEqual(demo.discoverExamples(join(root, 'missing')), []);
});
