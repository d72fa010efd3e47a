// The config writer's text edit: set / remove top-level keys of eval-lens.json, keeping every other
// key, the key order and the person's layout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ConfigEditError, editConfigText } from '../../../src/shared/configEdit';
import { createRng } from '../../../src/core/stats/rng';

test('the TSDoc example: acceptThreshold replaces targetCoverage where it stood', () => {
  const text = '{\n  "task": "classification",\n  "targetCoverage": 0.8\n}\n';
  assert.equal(
    editConfigText(text, { acceptThreshold: 0.9 }, ['targetCoverage']),
    '{\n  "task": "classification",\n  "acceptThreshold": 0.9\n}\n',
  );
});

test('an existing key is replaced in place; a compact array and nested objects stay as written', () => {
  const text =
    '{\n    "trainCounts": [500, 300, 200],\n    "acceptThreshold": 0.5,\n    "bootstrap": { "n": 100, "seed": 3 },\n    "groupNames": ["he}ad", "ta\\"il"]\n}';
  const out = editConfigText(text, { acceptThreshold: 0.87654321 }, ['targetCoverage']);
  assert.equal(out, text.replace('0.5', '0.87654321'));
});

test("a new key is appended in the file's indentation and line ending (CRLF, BOM kept)", () => {
  const text = '\uFEFF{\r\n\t"task": "classification",\r\n\t"eceBins": 10\r\n}\r\n';
  assert.equal(
    editConfigText(text, { targetCoverage: 0.7 }),
    '\uFEFF{\r\n\t"task": "classification",\r\n\t"eceBins": 10,\r\n\t"targetCoverage": 0.7\r\n}\r\n',
  );
});

test('removing the first, a middle, the last and the only key', () => {
  const t = '{\n  "a": 1,\n  "b": [1, {"x": "}"}],\n  "c": "z"\n}\n';
  assert.equal(editConfigText(t, {}, ['a']), '{\n  "b": [1, {"x": "}"}],\n  "c": "z"\n}\n');
  assert.equal(editConfigText(t, {}, ['b']), '{\n  "a": 1,\n  "c": "z"\n}\n');
  assert.equal(editConfigText(t, {}, ['c']), '{\n  "a": 1,\n  "b": [1, {"x": "}"}]\n}\n');
  assert.equal(editConfigText('{ "a": 1 }', {}, ['a']), '{}');
  assert.equal(editConfigText(t, {}, ['missing']), t);
});

test('a new file, an empty object, a one-line object', () => {
  assert.equal(editConfigText(null, { acceptThreshold: 0.5 }), '{\n  "acceptThreshold": 0.5\n}\n');
  assert.equal(editConfigText('{}', { k: [5, 10] }), '{\n  "k": [5,10]\n}');
  assert.equal(editConfigText('{"task": "ranking"}', { k: 3 }), '{"task": "ranking", "k": 3}');
});

test('the example configs: every key kept, the value set, the other key gone', () => {
  for (const f of [
    'examples/cifar100-lt-like/eval-lens.json',
    'examples/digits-lt/eval-lens.json',
    'examples/iw-breast-cancer/eval-lens.json',
    'examples/ranking-debian-deps/eval-lens.json',
  ]) {
    const text = readFileSync(f, 'utf8');
    const before = JSON.parse(text) as Record<string, unknown>;
    const out = editConfigText(text, { acceptThreshold: 0.625 }, ['targetCoverage']);
    const after = JSON.parse(out) as Record<string, unknown>;
    const expected: Record<string, unknown> = { ...before, acceptThreshold: 0.625 };
    delete expected.targetCoverage;
    assert.deepEqual(after, expected, f);
    // untouched lines stay byte for byte
    const kept = text.split('\n').filter((l) => !/acceptThreshold|targetCoverage/.test(l) && l.trim() !== '}');
    for (const l of kept) assert.ok(out.includes(l.replace(/,$/, '')), `${f}: line kept: ${l}`);
  }
});

test('random objects: the result parses to exactly the edited object (slow reference: object edit)', () => {
  const rng = createRng(17);
  const values = [1, -0.25, 'a "q" }', [1, [2, 3]], { x: { y: '[' } }, true, null];
  for (let rep = 0; rep < 200; rep++) {
    const obj: Record<string, unknown> = {};
    const n = rng.int(5);
    for (let i = 0; i < n; i++) obj[`k${rng.int(6)}`] = values[rng.int(values.length)];
    const text = rng.next() < 0.5 ? JSON.stringify(obj, null, rng.int(2) === 0 ? 2 : '\t') : JSON.stringify(obj);
    const set: Record<string, unknown> = {};
    if (rng.next() < 0.8) set[`k${rng.int(6)}`] = rng.next();
    const remove = [`k${rng.int(6)}`];
    const expected = { ...obj };
    for (const k of remove) delete expected[k];
    Object.assign(expected, set);
    assert.deepEqual(JSON.parse(editConfigText(text, set, remove)), expected, `rep ${rep}: ${text}`);
  }
});

test('not an object, not JSON: a clear error naming the file', () => {
  assert.throws(
    () => editConfigText('[1, 2]', { a: 1 }, [], 'examples/x/eval-lens.json'),
    (e: Error) =>
      e instanceof ConfigEditError &&
      /examples\/x\/eval-lens\.json must hold one JSON object, got an array/.test(e.message),
  );
  assert.throws(() => editConfigText('{"a": 1,}', { a: 1 }), /eval-lens\.json is not valid JSON/);
});
