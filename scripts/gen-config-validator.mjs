// Writes src/core/config/configValidator.generated.ts: the validator of
// schemas/eval-lens.config.schema.json as ajv's standalone code, so that a process does not compile
// the schema (about 60–70 ms) before its first evaluation. The file is made, never committed (it is
// git-ignored): `npm ci` (prepare), the build, `npm run typecheck` and the unit test runner call
// this script, which rewrites the file only when the schema, the options
// (src/core/config/ajvOptions.json) or ajv give other code.
//
//   node scripts/gen-config-validator.mjs
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configValidatorSource } from './configValidatorSource.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Writes the validator's module when it is missing or differs from what the schema gives now. */
export async function generateConfigValidator() {
  const out = join(root, 'src/core/config/configValidator.generated.ts');
  const code = await configValidatorSource(root);
  if (existsSync(out) && readFileSync(out, 'utf8') === code) return;
  writeFileSync(out, code);
  console.log(`wrote ${out}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await generateConfigValidator();
