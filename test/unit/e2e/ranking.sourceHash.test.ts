// The ranking reader hashes the run while it parses it; the results' source must still carry the
// file's exact size and SHA-256, as for every other task (computed here independently).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { evaluateFile } from '../../../src/core/evaluate';

test('ranking results carry the run file size and SHA-256 computed while parsing', async () => {
  const path = 'examples/ranking-debian-deps/cooccurrence.jsonl';
  const r = await evaluateFile(path, { overrides: { bootstrap: { n: 0 } } });
  assert.equal(r.source.size, statSync(path).size);
  assert.equal(r.source.sha256, createHash('sha256').update(readFileSync(path)).digest('hex'));
  const train = r.source.extra?.find((e) => e.role === 'train');
  assert.ok(train, 'the train file is listed');
  assert.equal(train.sha256, createHash('sha256').update(readFileSync(train.path)).digest('hex'));
});
