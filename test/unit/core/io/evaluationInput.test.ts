import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveInputTask } from '../../../../src/core/io/evaluationInput';
import { EvalLensError } from '../../../../src/core/diagnostics';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-for-input-'));

test('resolveInputTask: the task from the columns, from the config beside the file, from the settings; flags win', async () => {
  const plain = join(dir, 'plain');
  mkdirSync(plain);
  writeFileSync(join(plain, 'preds.csv'), 'label,pred\n1,1\n');
  writeFileSync(join(plain, 'iw.csv'), 'label,score,stratum\n1,0.9,B\n');
  writeFileSync(join(plain, 'long.csv'), 'user,item,score\nu1,i1,0.5\n');
  writeFileSync(join(plain, 'recs.jsonl'), '{"user": "u1", "items": ["a"], "relevant": ["a"]}\n');
  // detected from the columns, no config anywhere
  assert.equal((await resolveInputTask(join(plain, 'preds.csv'))).task, 'classification');
  assert.equal((await resolveInputTask(join(plain, 'iw.csv'))).task, 'iw-binary');
  assert.equal((await resolveInputTask(join(plain, 'long.csv'))).task, 'ranking');
  const r = await resolveInputTask(join(plain, 'recs.jsonl'));
  assert.equal(r.task, 'ranking');
  assert.equal(r.configPath, undefined);
  assert.equal(r.config.task, 'ranking', 'the resolved config carries the task');
  // a task in the settings is a config like any other: the columns are looked at only without one
  assert.equal(
    (await resolveInputTask(join(plain, 'preds.csv'), { defaults: { task: 'iw-binary' } })).task,
    'iw-binary',
  );

  // eval-lens.json beside the file wins over the settings; a flag wins over both
  const configured = join(dir, 'configured');
  mkdirSync(configured);
  writeFileSync(join(configured, 'long.csv'), 'user,item,score\nu1,i1,0.5\n');
  writeFileSync(join(configured, 'eval-lens.json'), '{"task": "classification"}');
  const c = await resolveInputTask(join(configured, 'long.csv'), { defaults: { task: 'ranking' } });
  assert.equal(c.task, 'classification');
  assert.equal(c.configPath, join(configured, 'eval-lens.json'));
  assert.equal(
    (await resolveInputTask(join(configured, 'long.csv'), { overrides: { task: 'iw-binary' } })).task,
    'iw-binary',
  );
});

test('resolveInputTask: an invalid config beside the file is an error naming it (the caller decides what to do)', async () => {
  const bad = join(dir, 'bad');
  mkdirSync(bad);
  writeFileSync(join(bad, 'preds.csv'), 'label,pred\n1,1\n');
  writeFileSync(join(bad, 'eval-lens.json'), '{"task": "regression"}');
  await assert.rejects(
    resolveInputTask(join(bad, 'preds.csv')),
    (e: unknown) => e instanceof EvalLensError && e.message.startsWith(join(bad, 'eval-lens.json')),
  );
});
