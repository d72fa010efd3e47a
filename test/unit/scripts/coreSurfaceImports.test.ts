// The CLI build's plugin (scripts/core-surface-imports.mjs): a CLI source's imports of the core's
// index are bundled as imports of the modules behind each name, as src/core/index.ts maps them, so
// a command loads only the core modules it names; a name the index does not re-export that way
// stops the build instead of loading the whole core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

type OnLoad = (args: { path: string }) => Promise<{ contents: string; loader: string }>;

/** Runs the plugin's setup against a recorder of esbuild's hooks, its start hook from `root`. */
async function plugin(): Promise<{ filter: RegExp; load: OnLoad }> {
  const { coreSurface } = (await import(join(root, 'scripts', 'core-surface-imports.mjs'))) as {
    coreSurface: {
      setup(build: { onStart(f: () => Promise<void>): void; onLoad(o: { filter: RegExp }, f: OnLoad): void }): void;
    };
  };
  let start: (() => Promise<void>) | undefined;
  let load: { filter: RegExp; f: OnLoad } | undefined;
  coreSurface.setup({
    onStart: (f) => (start = f),
    onLoad: (o, f) => (load = { filter: o.filter, f }),
  });
  assert.ok(start && load);
  const cwd = process.cwd();
  process.chdir(root);
  try {
    await start();
  } finally {
    process.chdir(cwd);
  }
  return { filter: load.filter, load: load.f };
}

function source(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'core-surface-')), 'x.ts');
  writeFileSync(path, text);
  return path;
}

test('each name is imported from the module the index re-exports it from', async () => {
  const { load } = await plugin();
  const index = readFileSync(join(root, 'src', 'core', 'index.ts'), 'utf8');
  // the test's expectations come from the index itself, so they follow it
  assert.match(index, /export \{ renameOverlayRuns \} from '\.\/compare\/curves';/);
  assert.match(index, /export \{ compareFiles, isResultsPath \} from '\.\/compare\/files';/);
  assert.match(index, /export \{ evaluateFile, type EvaluateOptions, type EvaluationStage \} from '\.\/evaluate';/);
  const out = await load({
    path: source(
      [
        "import { renameOverlayRuns, compareFiles as cf, isResultsPath } from '../core';",
        "import type { EvaluateOptions } from '../core';",
        "import { evaluateFile, type EvaluationStage } from '../../core';",
        "import { other } from './other';",
        '',
      ].join('\n'),
    ),
  });
  assert.equal(out.loader, 'ts');
  assert.equal(
    out.contents,
    [
      "import { renameOverlayRuns } from '../core/compare/curves'; import { compareFiles as cf, isResultsPath } from '../core/compare/files';",
      "import type { EvaluateOptions } from '../core/evaluate';",
      "import { evaluateFile, type EvaluationStage } from '../../core/evaluate';",
      "import { other } from './other';",
      '',
    ].join('\n'),
  );
});

test('a name the index does not re-export stops the build, naming the file and the name', async () => {
  const { load } = await plugin();
  const path = source("import { noSuchExport } from '../core';\n");
  await assert.rejects(load({ path }), (e: Error) => e.message.includes(path) && e.message.includes('noSuchExport'));
});

test('the hook applies to the CLI sources only', async () => {
  const { filter } = await plugin();
  assert.ok(filter.test(join(root, 'src', 'cli', 'main.ts')));
  assert.ok(!filter.test(join(root, 'src', 'core', 'evaluate.ts')));
  assert.ok(!filter.test(join(root, 'src', 'extension', 'extension.ts')));
});
