import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveInputConfig } from '../../../../src/core/config/forInput';

// Resolving a config opens config files only: the input itself is not read (the task, when no
// config names it, is detected by io/evaluationInput.ts).
test('resolveInputConfig reads no data file: a missing input, the configured task or none', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-for-input-config-'));
  const missing = join(dir, 'not-there.csv');
  const none = await resolveInputConfig(missing);
  assert.equal(none.input, missing);
  assert.equal(none.configPath, undefined);
  assert.equal(none.config.task, undefined);
  writeFileSync(join(dir, 'eval-lens.json'), '{ "task": "ranking" }\n');
  const configured = await resolveInputConfig(missing);
  assert.equal(configured.configPath, join(dir, 'eval-lens.json'));
  assert.equal(configured.config.task, 'ranking');
});
