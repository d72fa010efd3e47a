import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// docs/architecture.md is the map of the tree: every folder under src/ and webview/ is named in
// it (as its path with a trailing slash), so a folder added without a word there fails here.

function folders(dir: string): string[] {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((p) => statSync(p).isDirectory() && !p.endsWith('node_modules'))
    .flatMap((p) => [p, ...folders(p)]);
}

const doc = readFileSync('docs/architecture.md', 'utf8');

test('docs/architecture.md names every folder under src/ and webview/', () => {
  const all = ['src', 'webview', ...folders('src'), ...folders('webview')].map((p) => p.split('\\').join('/') + '/');
  assert.ok(all.length > 20, `${all.length} folders`);
  const missing = all.filter((f) => !doc.includes(f));
  assert.deepEqual(missing, [], `not named in docs/architecture.md: ${missing.join(', ')}`);
});

test('docs/architecture.md draws the threads and the webview protocol', () => {
  for (const part of [
    'dist/worker.js',
    'dist/ciWorker.js',
    'dist/rankingCiWorker.js',
    'dist/readWorker.js',
    'dist/trainReadWorker.js',
    'dist/inspectWorker.js',
    'src/shared/protocol.ts',
    'webview/vscodeApi.ts',
  ])
    assert.ok(doc.includes(part), part);
});

// The core is the bottom layer: it imports nothing from the folders built on it (src/shared,
// src/cli, src/extension, webview) nor `vscode`. Returns "file → specifier" for each import that
// climbs back, given each file's path and text.
const UPPER = ['src/shared/', 'src/cli/', 'src/extension/', 'webview/'];

function coreBackEdges(files: { path: string; text: string }[]): string[] {
  const out: string[] = [];
  const spec = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const { path, text } of files) {
    for (const m of text.matchAll(spec)) {
      const s = (m[1] ?? m[2])!;
      if (s === 'vscode') out.push(`${path} → ${s}`);
      else if (s.startsWith('.')) {
        const target = join(path, '..', s).split('\\').join('/');
        // the layers above (the JSON schemas at the root are data every layer reads)
        if (UPPER.some((u) => target.startsWith(u))) out.push(`${path} → ${s}`);
      }
    }
  }
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .flatMap((p) => (statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : []));
}

test('src/core imports nothing from src/shared, src/cli, src/extension, webview or vscode', () => {
  const files = sources('src/core').map((p) => ({ path: p.split('\\').join('/'), text: readFileSync(p, 'utf8') }));
  assert.ok(files.length > 100, `${files.length} files`);
  assert.deepEqual(coreBackEdges(files), []);
});

test('the layer check fails on a planted back-edge', () => {
  const planted = [
    { path: 'src/core/results/x.ts', text: "import { csvCell } from '../../shared/csvCell';\n" },
    { path: 'src/core/a.ts', text: "export { y } from '../cli/y';\nimport * as vscode from 'vscode';\n" },
    {
      path: 'src/core/b.ts',
      text: "const w = await import('../../webview/main');\nimport { ok } from './text/csvCell';\n",
    },
  ];
  assert.deepEqual(coreBackEdges(planted), [
    'src/core/results/x.ts → ../../shared/csvCell',
    'src/core/a.ts → ../cli/y',
    'src/core/a.ts → vscode',
    'src/core/b.ts → ../../webview/main',
  ]);
});

// Inside src/core the units are layered in one direction: docs/architecture.md lists them bottom
// first in its ```layers block (the first word of each line), and a unit imports only the units
// listed before it. A folder is one unit with its sub-folders; a file directly in src/core is a
// unit of its own. Returns "file → specifier" for each relative import (static, re-export or
// dynamic) whose target is a later unit, or a unit the order does not name.

function coreLayers(text: string): string[] {
  const block = /```layers\n([\s\S]*?)```/.exec(text);
  assert.ok(block, 'docs/architecture.md has a ```layers block');
  return block[1]
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[0])
    .filter((unit): unit is string => !!unit);
}

/** The unit of a file under src/core/ (its first folder, or the file itself). */
function unitOf(pathInCore: string): string {
  return pathInCore.split('/')[0];
}

function layerBackEdges(order: string[], files: { path: string; text: string }[]): string[] {
  const rank = new Map(order.map((unit, i) => [unit, i]));
  const out: string[] = [];
  const spec =
    /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const { path, text } of files) {
    if (!path.startsWith('src/core/')) continue;
    const from = unitOf(path.slice('src/core/'.length));
    for (const m of text.matchAll(spec)) {
      const s = (m[1] ?? m[2] ?? m[3])!;
      if (!s.startsWith('.')) continue;
      const target = join(path, '..', s).split('\\').join('/');
      if (!target.startsWith('src/core/')) continue;
      const inCore = target.slice('src/core/'.length);
      // `../glossary` is the folder's index.ts; `../evaluate` the file evaluate.ts
      const to = inCore.includes('/') || !rank.has(`${inCore}.ts`) ? inCore.split('/')[0] : `${inCore}.ts`;
      if (to === from) continue;
      const a = rank.get(from);
      const b = rank.get(to);
      if (a === undefined || b === undefined || b > a) out.push(`${path} → ${s}`);
    }
  }
  return out;
}

test('docs/architecture.md orders every unit of src/core, each once', () => {
  const order = coreLayers(doc);
  assert.equal(new Set(order).size, order.length, `a unit named twice: ${order.join(', ')}`);
  const units = new Set(sources('src/core').map((p) => unitOf(p.split('\\').join('/').slice('src/core/'.length))));
  assert.ok(units.size > 10, `${units.size} units`);
  assert.deepEqual([...units].filter((u) => !order.includes(u)).sort(), [], 'units of src/core not in the order');
  assert.deepEqual(
    order.filter((u) => !units.has(u)),
    [],
    'units in the order that src/core does not have',
  );
});

test('inside src/core no import climbs to a later unit of the order in docs/architecture.md', () => {
  const files = sources('src/core').map((p) => ({ path: p.split('\\').join('/'), text: readFileSync(p, 'utf8') }));
  assert.ok(files.length > 100, `${files.length} files`);
  assert.deepEqual(layerBackEdges(coreLayers(doc), files), []);
  // the same tree with one import that climbs (data → tasks, a config file → evaluate.ts) fails on it alone
  const planted = files.map((f) =>
    f.path === 'src/core/config/forInput.ts'
      ? { ...f, text: `${f.text}\nimport { evaluateFile } from '../evaluate';\n` }
      : f,
  );
  planted.push({ path: 'src/core/data/planted.ts', text: "import type { TaskContext } from '../tasks/types';\n" });
  assert.deepEqual(layerBackEdges(coreLayers(doc), planted), [
    'src/core/config/forInput.ts → ../evaluate',
    'src/core/data/planted.ts → ../tasks/types',
  ]);
});

test('the layer check inside src/core fails on a planted back-edge', () => {
  const order = coreLayers('```layers\nbase.ts  the bottom\ndata\nio   readers\nevaluate.ts\n```\n');
  assert.deepEqual(order, ['base.ts', 'data', 'io', 'evaluate.ts']);
  const planted = [
    // allowed: downwards, within a unit (a sub-folder counts as its folder), outside src/core
    { path: 'src/core/io/table.ts', text: "import { a } from '../data/cells';\nimport { b } from '../base';\n" },
    {
      path: 'src/core/io/ranking/run.ts',
      text: "import { t } from '../table';\nimport s from '../../../../schemas/x.json';\n",
    },
    { path: 'src/core/evaluate.ts', text: "const io = await import('./io/table');\nimport * as fs from 'node:fs';\n" },
    { path: 'src/core/io/index.ts', text: "export * from '../data';\n" },
    // climbing: each form of import, from a folder, a sub-folder and a file of src/core
    { path: 'src/core/data/cells.ts', text: "import type { Cell } from '../io/table';\n" },
    {
      path: 'src/core/data/deep/x.ts',
      text: "export {\n  y,\n} from '../../evaluate';\nconst r = await import('../../io/ranking/run');\n",
    },
    { path: 'src/core/base.ts', text: "import './data/cells';\nexport * from './io';\n" },
    // a unit the order does not name
    { path: 'src/core/newUnit/z.ts', text: "import { a } from '../data/cells';\n" },
    { path: 'src/core/io/w.ts', text: "import { z } from '../newUnit/z';\n" },
  ];
  assert.deepEqual(layerBackEdges(order, planted), [
    'src/core/data/cells.ts → ../io/table',
    'src/core/data/deep/x.ts → ../../evaluate',
    'src/core/data/deep/x.ts → ../../io/ranking/run',
    'src/core/base.ts → ./data/cells',
    'src/core/base.ts → ./io',
    'src/core/newUnit/z.ts → ../data/cells',
    'src/core/io/w.ts → ../newUnit/z',
  ]);
});

/**
 * Imports of src/core from the CLI and the extension that bypass its public surface
 * (src/core/index.ts, imported as `…/core`): "file → specifier".
 */
function surfaceBypasses(files: { path: string; text: string }[]): string[] {
  const out: string[] = [];
  const spec =
    /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const { path, text } of files) {
    for (const m of text.matchAll(spec)) {
      const s = (m[1] ?? m[2] ?? m[3])!;
      if (!s.startsWith('.')) continue;
      const target = join(path, '..', s).split('\\').join('/');
      if (target.startsWith('src/core/') && target !== 'src/core/index') out.push(`${path} → ${s}`);
    }
  }
  return out;
}

test('the CLI and the extension import the core only through its public surface (src/core/index.ts)', () => {
  const files = ['src/cli', 'src/extension']
    .flatMap((d) => sources(d))
    .map((p) => ({ path: p.split('\\').join('/'), text: readFileSync(p, 'utf8') }));
  assert.ok(files.length > 40, `${files.length} files`);
  assert.deepEqual(surfaceBypasses(files), []);
  assert.ok(existsSync('src/core/index.ts'));
});

test('the public-surface check fails on an import that bypasses it', () => {
  const planted = [
    { path: 'src/cli/x.ts', text: "import { evaluateFile } from '../core/evaluate';\n" },
    { path: 'src/extension/inspect/y.ts', text: "import type { Results } from '../../core/results/types';\n" },
    { path: 'src/extension/z.ts', text: "const m = await import('../core/compare/files');\n" },
    { path: 'src/cli/ok.ts', text: "import { evaluateFile } from '../core';\n" },
    { path: 'src/extension/inspect/ok.ts', text: "import type { Results } from '../../core';\n" },
  ];
  assert.deepEqual(surfaceBypasses(planted), [
    'src/cli/x.ts → ../core/evaluate',
    'src/extension/inspect/y.ts → ../../core/results/types',
    'src/extension/z.ts → ../core/compare/files',
  ]);
});
