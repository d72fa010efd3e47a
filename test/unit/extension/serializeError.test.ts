/**
 * Both worker threads (evaluation and row inspection) post errors through one function, which keeps
 * an Eval Lens error's code, location and every located problem.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EvalLensError } from '../../../src/core/diagnostics';
import { serializeError } from '../../../src/extension/serializeError';

test('an Eval Lens error keeps its code, location and problems; other errors their name and message', () => {
  const problems = [
    { code: 'bad-label', location: { file: 'p.csv', line: 3, column: 'label' }, what: 'expected a class, got ""' },
    { code: 'bad-label', location: { file: 'p.csv', line: 7, column: 'label' }, what: 'expected a class, got "?"' },
  ];
  const e = serializeError(
    new EvalLensError('bad-label', 'p.csv:3: expected a class', problems[0]!.location, problems),
  );
  assert.equal(e.code, 'bad-label');
  assert.deepEqual(e.location, { file: 'p.csv', line: 3, column: 'label' });
  assert.deepEqual(e.problems, problems);
  assert.equal(e.name, 'EvalLensError');
  const plain = serializeError(new RangeError('out of range'));
  assert.deepEqual([plain.name, plain.message, plain.code], ['RangeError', 'out of range', undefined]);
  assert.deepEqual(serializeError('text'), { name: 'Error', message: 'text' });
  // a structured clone (what postMessage does) keeps all of it
  assert.deepEqual(structuredClone(e).problems, problems);
});

test('the two workers use it and have no serializer of their own', () => {
  for (const f of ['src/extension/worker.ts', 'src/extension/inspect/inspectWorker.ts']) {
    const text = readFileSync(f, 'utf8');
    assert.match(text, /import \{ serializeError \} from '[./]+serializeError'/, f);
    assert.doesNotMatch(text, /function serialize/, f);
  }
});
