import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { addConfigFlags, configFromFlags, kebab, parseFlagValue } from '../../../src/cli/configFlags';
import { configKeys } from '../../../src/core/config/check';
import { UsageError } from '../../../src/cli/errors';

test('kebab: fooBar → foo-bar, T → t', () => {
  assert.equal(kebab('topK'), 'top-k');
  assert.equal(kebab('reweightEpsilon'), 'reweight-epsilon');
  assert.equal(kebab('T'), 't');
  assert.equal(kebab('k'), 'k');
});

test('one flag per config key, derived from the schema', () => {
  const cmd = new Command('x');
  const flags = addConfigFlags(cmd);
  assert.deepEqual(
    flags.map((f) => f.key),
    configKeys(),
  );
  assert.deepEqual(
    flags.find((f) => f.key === 'topK'),
    { key: 'topK', flag: '--top-k', attribute: 'topK' },
  );
  assert.deepEqual(
    flags.find((f) => f.key === 'T'),
    { key: 'T', flag: '--shift-points', attribute: 'shiftPoints', aliasAttribute: 't' },
  );
  assert.deepEqual(
    flags.find((f) => f.key === 'k'),
    { key: 'k', flag: '--cutoffs', attribute: 'cutoffs', aliasAttribute: 'k' },
  );
  cmd.exitOverride().parse(['--top-k', '1,5', '--shift-points', '7'], { from: 'user' });
  assert.deepEqual(cmd.opts(), { topK: '1,5', shiftPoints: '7' });
});

test('terse keys read as words; the old spelling is a hidden alias that still works', () => {
  const cmd = new Command('x');
  const flags = addConfigFlags(cmd);
  const help = cmd.helpInformation();
  assert.match(help, /--shift-points </);
  assert.match(help, /--cutoffs </);
  assert.doesNotMatch(help, /--t </);
  assert.doesNotMatch(help, /--k </);
  cmd.exitOverride().parse(['--t', '7', '--k', '5,10'], { from: 'user' });
  assert.deepEqual(configFromFlags(cmd.opts(), flags, '/w'), { T: 7, k: [5, 10] });
  const cmd2 = new Command('y');
  const flags2 = addConfigFlags(cmd2);
  cmd2.exitOverride().parse(['--shift-points', '0'], { from: 'user' });
  assert.throws(() => configFromFlags(cmd2.opts(), flags2, '/w'), /invalid value for --shift-points/);
});

test('parseFlagValue: JSON when it parses, else a string; lists from scalars and commas', () => {
  assert.deepEqual(parseFlagValue('topK', '[1,5]'), [1, 5]);
  assert.deepEqual(parseFlagValue('topK', '5'), [5]);
  assert.deepEqual(parseFlagValue('topK', '1,5'), [1, 5]);
  assert.deepEqual(parseFlagValue('classes', 'cat,dog'), ['cat', 'dog']);
  assert.deepEqual(parseFlagValue('classes', 'cat'), ['cat']);
  assert.equal(parseFlagValue('eceBins', '10'), 10);
  assert.equal(parseFlagValue('reweight', 'true'), true);
  assert.equal(parseFlagValue('task', 'ranking'), 'ranking');
  assert.deepEqual(parseFlagValue('columns', '{"label":"y"}'), { label: 'y' });
  assert.equal(parseFlagValue('train', '2024'), '2024', 'a file named 2024 stays a path');
  assert.equal(parseFlagValue('trainCounts', 'counts.json'), 'counts.json');
  assert.deepEqual(parseFlagValue('trainCounts', '10,5,1'), [10, 5, 1]);
  assert.equal(parseFlagValue('positiveLabel', '1'), 1);
  assert.equal(parseFlagValue('positiveLabel', 'yes'), 'yes');
  assert.equal(parseFlagValue('eceBins', 'ten'), 'ten', 'left for the schema check to reject');
});

test('configFromFlags: keys set, paths absolute from cwd, bootstrap shortcuts merged, bad values named by flag', () => {
  const cmd = new Command('x');
  const flags = addConfigFlags(cmd);
  const cwd = resolve('/work/proj');
  const c = configFromFlags(
    {
      topK: '1,2',
      train: 'data/train.csv',
      bootstrap: '{"stratified": true, "n": 10}',
      bootstrapN: '50',
      seed: '7',
      t: '4',
    },
    flags,
    cwd,
  );
  assert.deepEqual(c, {
    topK: [1, 2],
    train: resolve(cwd, 'data/train.csv'),
    bootstrap: { stratified: true, n: 50, seed: 7 },
    T: 4,
  });
  assert.deepEqual(configFromFlags({}, flags, cwd), {});
  const bad = (opts: Record<string, unknown>, re: RegExp): void =>
    assert.throws(
      () => configFromFlags(opts, flags, cwd),
      (e: unknown) => e instanceof UsageError && re.test(e.message),
    );
  bad({ eceBins: 'ten' }, /^invalid value for --ece-bins: `eceBins`: expected an integer, got "ten"$/);
  bad({ confidence: '95' }, /^invalid value for --confidence: `bootstrap\.confidence`: expected a number < 1, got 95$/);
  bad({ bootstrap: '{"n": -1}' }, /^invalid value for --bootstrap: `bootstrap\.n`: expected an integer ≥ 0, got -1$/);
  bad(
    { columns: '{"lable": "y"}' },
    /^invalid value for --columns: Unknown key `lable` in `columns`\. Did you mean `label`\?$/,
  );
  bad({ acceptThreshold: '0.5', targetCoverage: '0.8' }, /not both/);
});
