import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { looksLikeRows } from '../../../src/shared/rowsSniff';

test('rows: an array of row objects, an object of column arrays', () => {
  assert.ok(looksLikeRows('[{"label": 1, "pred": 2}]'));
  assert.ok(looksLikeRows('\uFEFF\n  [\n  {"label": 1'));
  assert.ok(looksLikeRows('{"label": [1, 2], "pred": [2, 2]}'));
  assert.ok(looksLikeRows('{"label": ["a", "b"], "probs": [[0.1, 0.9], [0.8'));
});

test('not rows: metrics, configs, train counts, empty and broken files', () => {
  assert.ok(!looksLikeRows('{"accuracy": 0.91, "f1": 0.88}'));
  assert.ok(!looksLikeRows('{"task": "classification", "columns": {"label": "y"}}'));
  assert.ok(!looksLikeRows('{"classes": ["a", "b"], "trainCounts": 3}'));
  assert.ok(!looksLikeRows('[16, 3, 25, 93]'));
  assert.ok(!looksLikeRows('{"0": 16, "1": 3}'));
  assert.ok(!looksLikeRows('{"history": {"loss": [1, 2]}}'));
  assert.ok(!looksLikeRows(''));
  assert.ok(!looksLikeRows('{}'));
  assert.ok(!looksLikeRows('not json'));
});

test('the JSON files of examples/: configs and train counts are not rows', () => {
  const root = join(import.meta.dirname, '../../../examples');
  for (const dir of readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const f of readdirSync(join(root, dir.name)).filter((n) => n.endsWith('.json'))) {
      assert.equal(
        looksLikeRows(readFileSync(join(root, dir.name, f), 'utf8').slice(0, 65536)),
        false,
        `${dir.name}/${f}`,
      );
    }
  }
});
