import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import schema from '../../../../schemas/eval-lens.config.schema.json';
import options from '../../../../src/core/config/ajvOptions.json';
import precompiled, { compiledFrom } from '../../../../src/core/config/configValidator.generated';
import { configProblems, configValidatorKey } from '../../../../src/core/config/check';
import { createRng } from '../../../../src/core/stats/rng';

const root = join(__dirname, '..', '..', '..', '..');

test('the precompiled config validator is the current schema compiled with the current options', async () => {
  const { configValidatorSource } = (await import(join(root, 'scripts', 'configValidatorSource.mjs'))) as {
    configValidatorSource: (root: string) => Promise<string>;
  };
  const file = join(root, 'src/core/config/configValidator.generated.ts');
  assert.equal(
    readFileSync(file, 'utf8'),
    await configValidatorSource(root),
    'stale: run npm run build (or node scripts/gen-config-validator.mjs)',
  );
});

test('the checker takes the precompiled validator: its key is the schema and options as imported', () => {
  // Computed here from the files, and as the checker computes it: a different key would make the
  // checker compile the schema at run time again (slower, not wrong, so no other test would fail).
  const key = createHash('sha256')
    .update(JSON.stringify([schema, options]))
    .digest('hex');
  assert.equal(compiledFrom, key);
  assert.equal(configValidatorKey(), compiledFrom);
});

/** Values of every kind, to put under known and unknown keys. */
const VALUES: unknown[] = [
  0,
  -1,
  0.5,
  2,
  1e9,
  '',
  'ranking',
  'min',
  'exp',
  true,
  null,
  [],
  [5, 10],
  [0],
  ['a', 'b'],
  {},
  { n: 100 },
  { n: -1, seed: 'x' },
  { label: 'y' },
];

test('the precompiled validator and one compiled now give the same verdicts and errors on random configs', () => {
  const fresh = new Ajv(options).compile(schema);
  const check = precompiled as unknown as typeof fresh;
  const keys = [...Object.keys(schema.properties), 'unknownKey', 'kk'];
  const rng = createRng(17);
  let invalid = 0;
  for (let trial = 0; trial < 400; trial++) {
    const config: Record<string, unknown> = {};
    const n = rng.int(4);
    for (let q = 0; q < n; q++) config[keys[rng.int(keys.length)]] = VALUES[rng.int(VALUES.length)];
    const a = fresh(config);
    const b = check(config);
    assert.equal(b, a, `trial ${trial}: ${JSON.stringify(config)}`);
    assert.deepEqual(check.errors ?? null, fresh.errors ?? null, `trial ${trial}: ${JSON.stringify(config)}`);
    if (!a) invalid++;
  }
  assert.ok(invalid > 100 && invalid < 400, `${invalid} invalid configs of 400`);
});

test('configProblems names an unknown key and a wrong type with the precompiled validator', () => {
  const problems = configProblems({ k: [0], bootstrp: { n: 10 } } as never);
  assert.ok(problems.some((p) => p.code === 'config-unknown-key' && p.pointer === '/bootstrp'));
  assert.ok(problems.some((p) => p.code === 'config-invalid' && p.pointer.startsWith('/k')));
});
