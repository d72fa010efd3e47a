// What a file or a config can ask for is bounded: each case is an input error naming the key or
// the line, within a second, not minutes of work, gigabytes of memory or a stack overflow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EvalLensError } from '../../../src/core/diagnostics';
import { checkConfig } from '../../../src/core/config/check';
import { evaluateFile } from '../../../src/core/evaluate';
import { loadConfigFile } from '../../../src/core/config/load';
import { tmpFile } from '../helpers/io';

async function inputError(p: Promise<unknown>): Promise<EvalLensError> {
  const t0 = Date.now();
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof EvalLensError, `an input error, got ${String(e)}`);
    assert.ok(Date.now() - t0 < 5000, `within seconds (took ${Date.now() - t0} ms)`);
    return e;
  }
  assert.fail('expected an input error');
}

test('T above 10,000 and ranking k above 100,000 are config errors naming the key', () => {
  assert.throws(() => checkConfig({ T: 10001 }, 'flags'), /`T`.*10000/);
  assert.doesNotThrow(() => checkConfig({ T: 10000 }, 'flags'));
  assert.throws(() => checkConfig({ k: [10, 100001] }, 'flags'), /`k\[1\]`.*100000/);
  assert.doesNotThrow(() => checkConfig({ k: [100000] }, 'flags'));
  assert.throws(() => checkConfig({ topK: [100001] }, 'flags'), /`topK\[0\]`.*100000/);
});

test('more than 10,000 classes: an input error (the dense confusion matrix would need C² cells)', async () => {
  const rows = ['label,pred'];
  for (let i = 0; i < 10001; i++) rows.push(`c${i},c${(i + 1) % 10001}`);
  const e = await inputError(
    evaluateFile(tmpFile('many.csv', rows.join('\n') + '\n'), { overrides: { bootstrap: { n: 0 } } }),
  );
  assert.equal(e.code, 'too-many-classes');
  assert.match(e.message, /10001 classes/);
  assert.match(e.message, /10000/);
});

test('JSON nested deeper than 1,000 levels in a cell or a config: an input error, no stack overflow', async () => {
  const deep = '['.repeat(5000) + ']'.repeat(5000);
  const cell = await inputError(
    evaluateFile(tmpFile('deep.csv', `label,probs\n0,"${deep}"\n`), { overrides: { bootstrap: { n: 0 } } }),
  );
  assert.equal(cell.location?.line, 2);
  assert.match(cell.message, /nested deeper than 1000/);
  const cfg = await inputError(loadConfigFile(tmpFile('eval-lens.json', `{"columns": ${deep}}`)));
  assert.match(cfg.message, /nested deeper than 1000/);
  assert.equal(cfg.location?.line, 1);
});
