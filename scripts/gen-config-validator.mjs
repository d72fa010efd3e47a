// Writes src/core/config/configValidator.generated.ts: the validator of
// schemas/eval-lens.config.schema.json as ajv's standalone code, so that a process does not compile
// the schema (about 60–70 ms) before its first evaluation. Run it after changing the schema or the
// validator's options (src/core/config/ajvOptions.json); a unit test fails while the file is stale.
//
//   node scripts/gen-config-validator.mjs [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configValidatorSource } from './configValidatorSource.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'src/core/config/configValidator.generated.ts');
const code = await configValidatorSource(root);
if (process.argv.includes('--check')) {
  const same = readFileSync(out, 'utf8') === code;
  console.log(same ? `${out} is up to date` : `${out} is stale: run node scripts/gen-config-validator.mjs`);
  process.exit(same ? 0 : 1);
}
writeFileSync(out, code);
console.log(`wrote ${out}`);
