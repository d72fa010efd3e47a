// `npm run test:ui`: the UI tests (test/ui/*.ui.test.ts) — Debian's Chromium driving the workbench
// of code-server with the extension installed — through node's test runner. Each test file starts
// and always stops its own code-server. Options: --no-build; --update-readme-shots (copy the
// chosen screenshots from test-artifacts/screenshots/ into media/screenshots/ for the README).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumMissing, codeServerInstalled, ensureCodeServer, root } from './codeServer.mjs';

const argv = process.argv.slice(2);
const noChromium = chromiumMissing();
if (noChromium) {
  console.error(`test:ui SKIPPED: ${noChromium}`);
  process.exit(3);
}
if (!codeServerInstalled()) {
  console.log('code-server is not installed yet: installing it (first use, 3 to 10 minutes)…');
  const why = ensureCodeServer();
  if (why) {
    console.error(`test:ui SKIPPED: ${why}`);
    process.exit(3);
  }
}
if (!argv.includes('--no-build')) {
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(2);
}
const files = readdirSync(join(root, 'test/ui'))
  .filter((f) => f.endsWith('.ui.test.ts'))
  .sort()
  .map((f) => join('test/ui', f));
const env = { ...process.env, ...(argv.includes('--update-readme-shots') ? { EVAL_LENS_README_SHOTS: '1' } : {}) };
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files],
  { cwd: root, stdio: 'inherit', env },
);
process.exit(r.status ?? 1);
