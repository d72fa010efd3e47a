// Runs every unit test file (test/unit/**/*.test.ts) with Node's own test runner; TypeScript is
// loaded by tsx. Node 20's --test does not expand globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateConfigValidator } from './gen-config-validator.mjs';
import { generateByteCopies } from './gen-byte-copies.mjs';

function find(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...find(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

// Tests import the core from its sources, the generated config validator and byte copies too: made
// (or remade after a schema or template change) first, as the build does.
await generateConfigValidator();
await generateByteCopies();

const filter = process.argv.slice(2);
const files = find('test/unit')
  .filter((f) => filter.length === 0 || filter.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('No unit test files found.');
  process.exit(1);
}
// A log (not a terminal, or CI) gets no colour codes. --enable-source-maps makes the reporter's
// `test at file:line:col` point at the TypeScript source rather than tsx's one-line output.
const env = { ...process.env };
if (!process.stdout.isTTY || process.env.CI) {
  delete env.FORCE_COLOR;
  env.NO_COLOR = '1';
}
// The tests' temporary files (made with mkdtemp under os.tmpdir(), which reads TMPDIR) go under
// one folder of this run, removed at the end whatever the tests left, so runs do not fill /tmp.
const scratch = mkdtempSync(join(tmpdir(), 'eval-lens-unit-'));
env.TMPDIR = scratch;
const r = spawnSync(
  process.execPath,
  ['--enable-source-maps', '--import', 'tsx', '--test', '--test-reporter=spec', ...files],
  { stdio: 'inherit', env },
);
rmSync(scratch, { recursive: true, force: true });
process.exit(r.status ?? 1);
