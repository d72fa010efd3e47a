import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeAtomically } from '../../../../src/cli/files';
import { resultsForFile, resultsJsonChunks } from '../../../../src/core/results/resultsFile';
import type { Results } from '../../../../src/core/results/types';
import { validateResults } from '../../../../src/core/results/validate';
import { buildReportModel } from '../../../../src/shared/report';
import { userInspectorModel } from '../../../../src/shared/userInspector';
import { classificationResults, rankingResults, rankingSummary } from '../../helpers/sampleResults';

test('a results file never holds per-row values: the text of JSON.stringify without perItem; the results in memory keep them', () => {
  const r = classificationResults();
  assert.ok(r.perItem);
  const written = resultsForFile(r);
  assert.equal(written.perItem, undefined);
  assert.deepEqual({ ...written, perItem: r.perItem }, r);
  assert.equal([...resultsJsonChunks(r)].join(''), JSON.stringify(written, null, 2) + '\n');
  assert.ok(r.perItem, 'the object in memory is not changed');
  // results without per-row values are written as they are
  assert.equal(resultsForFile(written), written);
});

test('a million rows of per-row values add nothing to the file', async () => {
  const n = 1_000_001;
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
    // nothing to say: no per-row values is what every results file holds
    assert.equal(back.warnings.length, warningsBefore);
    assert.equal(r.perItem.ids!.length, n);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a ranking results file without per-user values: the report and the user inspector still work', () => {
  const r = rankingResults();
  r.tables.rankingSummary = rankingSummary({ users: 2_000_004, usersEvaluated: 2_000_000, sampleUsers: ['u1', 'u2'] });
  r.tables.perUserHistograms = {
    'ndcg@10': { edges: [0, 0.5, 1], counts: [1_500_000, 500_000], undefinedUsers: 0, mean: 0.3 },
    mrr: { edges: [0, 0.5, 1], counts: [1_000_000, 1_000_000], undefinedUsers: 0, mean: 0.5 },
  };
  r.perItem = { kind: 'user', ids: ['u1', 'u2', 'u3'], values: { 'ndcg@10': [0.1, 0.3, 0.5], mrr: [1, 0.5, 0] } };
  const written = resultsForFile(r);
  assert.equal(written.perItem, undefined);
  const m = userInspectorModel(written)!;
  // the suggestions are the users the results name; any id typed in full is still looked up
  assert.deepEqual(m.users, ['u1', 'u2']);
  assert.equal(m.totalUsers, 2_000_000);
  assert.deepEqual(m.population, [
    { key: 'ndcg@10', value: 0.22 },
    { key: 'mrr', value: 0.4 },
  ]);
  const model = buildReportModel(written);
  assert.deepEqual(model.tabs.find((t) => t.id === 'ranking')?.userInspector, m);
});
