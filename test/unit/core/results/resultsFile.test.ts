import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeAtomically } from '../../../../src/cli/files';
import {
  PER_ITEM_FILE_MAX,
  PER_ITEM_OMITTED,
  resultsForFile,
  resultsJsonChunks,
} from '../../../../src/core/results/resultsFile';
import { isNote } from '../../../../src/core/results/notes';
import type { Results } from '../../../../src/core/results/types';
import { validateResults } from '../../../../src/core/results/validate';
import { buildReportModel } from '../../../../src/shared/report';
import { userInspectorModel } from '../../../../src/shared/userInspector';
import { classificationResults, rankingResults } from '../../helpers/sampleResults';

test('per-item values within the bound are written as they are: the text of JSON.stringify', () => {
  const r = classificationResults();
  assert.ok(r.perItem);
  assert.equal(resultsForFile(r), r);
  assert.equal([...resultsJsonChunks(r)].join(''), JSON.stringify(r, null, 2) + '\n');
});

test('per-row values past the bound are left out of the file, with a note saying what still works', async () => {
  // One more row than the bound: ids, labels and accuracy of 1,000,001 rows.
  const n = PER_ITEM_FILE_MAX + 1;
  const r = classificationResults();
  r.perItem = {
    kind: 'row',
    ids: Array.from({ length: n }, (_, i) => `r${i}`),
    labels: new Array<string>(n).fill('cat'),
    values: { accuracy: new Array<number>(n).fill(1), nll: new Array<number>(n).fill(0.25) },
  };
  const warningsBefore = r.warnings.length;
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-results-file-'));
  try {
    const out = join(dir, 'big.eval.json');
    await writeAtomically(out, resultsJsonChunks(r), 'the results');
    const text = readFileSync(out, 'utf8');
    assert.ok(text.length < 100_000, `${text.length} characters`);
    const back = JSON.parse(text) as Results;
    assert.equal(back.perItem, undefined);
    assert.deepEqual(validateResults(back), []);
    assert.deepEqual(back.metrics, r.metrics);
    assert.equal(back.warnings.length, warningsBefore + 1);
    const note = back.warnings.at(-1)!;
    assert.equal(note.code, PER_ITEM_OMITTED);
    assert.ok(isNote(note));
    assert.equal(note.count, n);
    assert.match(note.message, /per-row values of the 1,000,001 rows \(accuracy, nll\) are not written/);
    assert.match(note.message, /at most 1,000,000 rows/);
    assert.match(note.message, /`eval-lens compare` pairs the runs by reading again the prediction file/);
    // The results in memory are unchanged (an in-process comparison still has its per-row values).
    assert.equal(r.perItem.ids!.length, n);
    assert.equal(r.warnings.length, warningsBefore);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a ranking results file without per-user values: the report and the user inspector still work', () => {
  const r = rankingResults();
  r.tables.rankingSummary = { users: 2_000_004, usersEvaluated: 2_000_000 };
  r.tables.perUserHistograms = {
    'ndcg@10': { edges: [0, 0.5, 1], counts: [1_500_000, 500_000] },
    mrr: { edges: [0, 0.5, 1], counts: [1_000_000, 1_000_000] },
  };
  r.perItem = { kind: 'user', ids: ['u1', 'u2', 'u3'], values: { 'ndcg@10': [0.1, 0.3, 0.5], mrr: [1, 0.5, 0] } };
  const written = resultsForFile(r, 2);
  assert.equal(written.perItem, undefined);
  assert.match(written.warnings.at(-1)!.message, /per-user values of the 3 users \(ndcg@10, mrr\)/);
  assert.match(written.warnings.at(-1)!.message, /a user id typed in full is still shown/);
  const m = userInspectorModel(written)!;
  assert.deepEqual(m.users, []);
  assert.equal(m.totalUsers, 2_000_000);
  assert.deepEqual(m.population, [
    { key: 'ndcg@10', value: 0.22 },
    { key: 'mrr', value: 0.4 },
  ]);
  const model = buildReportModel(written);
  assert.deepEqual(model.tabs.find((t) => t.id === 'ranking')?.userInspector, m);
});
