import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
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
