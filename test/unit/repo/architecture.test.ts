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
