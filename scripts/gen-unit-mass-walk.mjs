// Writes src/core/wasm/unitMassWalk.generated.ts: the WebAssembly build of
// src/core/wasm/unitMassWalk.c, the bootstrap's per-row walk (needs Debian's clang and lld). Run it
// after changing the C file; a unit test fails while the module is stale.
//
//   node scripts/gen-unit-mass-walk.mjs [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unitMassWalkSource } from './unitMassWalkSource.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'src/core/wasm/unitMassWalk.generated.ts');
const code = unitMassWalkSource(root);
if (process.argv.includes('--check')) {
  const same = readFileSync(out, 'utf8') === code;
  console.log(same ? `${out} is up to date` : `${out} is stale: run node scripts/gen-unit-mass-walk.mjs`);
  process.exit(same ? 0 : 1);
}
writeFileSync(out, code);
console.log(`wrote ${out}`);
