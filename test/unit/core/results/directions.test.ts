/**
 * One owner for "which way is better": the glossary's direction for the keys it knows, a guess
 * from the name only for other tools' columns; the slice table's fallback asks the same function.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GLOSSARY } from '../../../../src/core/glossary/entries';
import { explainKey } from '../../../../src/core/glossary';
import { directionOf } from '../../../../src/core/results/directions';
import { readSliceTable } from '../../../../src/shared/inspectModel';

test('every key the glossary ranks gets the glossary direction', () => {
  for (const e of GLOSSARY) {
    if (e.direction === 'none') continue;
    const key = e.pattern
      .replace(/<k>/gi, '10')
      .replace(/<g>/g, 'tail')
      .replace(/<[a-z]+>/gi, 'x');
    if (explainKey(key)?.direction !== e.direction) continue; // a placeholder the guess above does not fill
    assert.equal(directionOf(key), e.direction, key);
  }
});

test("another tool's column: guessed from its name", () => {
  assert.equal(directionOf('val_loss'), 'lower');
  assert.equal(directionOf('Top1_Error'), 'lower');
  assert.equal(directionOf('f1_macro'), 'higher');
});

test('a slice table without directions ranks NLL and ECE as lower-is-better (the same function)', () => {
  const t = readSliceTable(
    [{ slice: 'region', value: 'west', n: 10, nll: { value: 0.4 }, mce: { value: 0.2 }, accuracy: { value: 0.8 } }],
    {},
  )!;
  assert.deepEqual(
    t.metrics.map((m) => [m.key, m.direction]),
    [
      ['nll', 'lower'],
      ['mce', 'lower'],
      ['accuracy', 'higher'],
    ],
  );
});
