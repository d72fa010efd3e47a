// The ranking summary records the longest list, where the metric-vs-K chart ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../src/core/evaluate';

test('rankingSummary.longestList is the length of the longest recommendation list', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-longest-'));
  const lines = [
    { user: 'u1', items: ['a', 'b', 'c'], relevant: ['a'] },
    { user: 'u2', items: ['a', 'b', 'c', 'd', 'e'], relevant: ['e'] },
    { user: 'u3', items: ['b'], relevant: ['b'] },
  ];
  writeFileSync(join(dir, 'run.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  writeFileSync(join(dir, 'eval-lens.json'), JSON.stringify({ task: 'ranking', k: [2, 10], bootstrap: { n: 0 } }));
  const r = await evaluateFile(join(dir, 'run.jsonl'));
  assert.equal(r.tables.rankingSummary!.longestList, 5);
});
