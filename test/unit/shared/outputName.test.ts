import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConfig } from '../../../src/core/config/check';
import { draftConfig, parseIntList } from '../../../src/shared/configDraft';
import { leafSummary, numericLeaves } from '../../../src/shared/leafModel';
import {
  compareFileName,
  factorModelName,
  factorResultsFileName,
  jsonKind,
  resultsFileName,
} from '../../../src/shared/outputName';
import { header } from '../../../src/shared/report/common';
import { rankingResults } from '../helpers/reportFixtures';

test('results file names: <stem>.eval.json, the full name when a sibling shares the stem', () => {
  assert.equal(resultsFileName('preds.csv', []), 'preds.eval.json');
  assert.equal(resultsFileName('preds.csv', ['preds.jsonl']), 'preds.eval.json');
  assert.equal(resultsFileName('logreg.jsonl', ['logreg.csv', 'logreg.eval.json']), 'logreg.jsonl.eval.json');
  assert.equal(resultsFileName('run.jsonl', ['run.eval.json', 'other.csv']), 'run.eval.json');
  assert.equal(resultsFileName('noext', []), 'noext.eval.json');
  assert.equal(compareFileName(['a.csv', 'b.eval.json']), 'a-vs-b.compare.json');
  assert.equal(compareFileName(['a.csv', 'b.csv', 'c.csv']), 'a-vs-b-vs-c.compare.json');
});

test('the comparison file is named after the set of runs: any order (any baseline) gives the same file', () => {
  assert.equal(compareFileName(['runs/b.csv', 'runs/a.eval.json']), 'a-vs-b.compare.json');
  assert.equal(compareFileName(['c.csv', 'a.csv', 'b.csv']), compareFileName(['b.csv', 'c.csv', 'a.csv']));
  const four = ['x/d.csv', 'x/a.csv', 'x/c.csv', 'x/b.csv'];
  const name = compareFileName(four);
  assert.match(name, /^a-and-3-more-[0-9a-f]{8}\.compare\.json$/);
  assert.equal(compareFileName([...four].reverse()), name);
  // Another set with the same first run and count: another file.
  assert.notEqual(compareFileName(['x/e.csv', 'x/a.csv', 'x/c.csv', 'x/b.csv']), name);
});

test('which JSON files get CodeLens', () => {
  assert.equal(jsonKind('/w/x/preds.eval.json'), 'results');
  assert.equal(jsonKind('C:\\w\\runs.compare.json'), 'compare');
  for (const f of [
    'metrics.json',
    'all_results.json',
    'eval_results.json',
    'test-scores.json',
    'summary.json',
    'run1.metrics.json',
  ])
    assert.equal(jsonKind(`/w/${f}`), 'foreign', f);
  for (const f of [
    'eval-lens.json',
    'package.json',
    'tsconfig.json',
    'train_counts.json',
    'settings.json',
    'metrics.txt',
  ])
    assert.equal(jsonKind(`/w/${f}`), undefined, f);
});

test('numeric leaves of a foreign results JSON, with paths, and their one-line summary', () => {
  const v = { test: { acc: 0.91, loss: 0.3 }, runs: [{ f1: 0.5 }, { f1: 0.25, name: 'x' }], flag: true, n: 10 };
  assert.deepEqual(numericLeaves(v), [
    { path: 'test.acc', value: 0.91 },
    { path: 'test.loss', value: 0.3 },
    { path: 'runs[0].f1', value: 0.5 },
    { path: 'runs[1].f1', value: 0.25 },
    { path: 'n', value: 10 },
  ]);
  assert.equal(leafSummary(numericLeaves(v), 2), '5 numbers · n 10 · test.acc 0.9100 …');
  assert.equal(leafSummary(numericLeaves(7)), '1 number · (value) 7');
});

test('the drafted eval-lens.json writes only decisions and passes the config schema', () => {
  const c = draftConfig({
    task: 'classification',
    label: 'y',
    detectedLabel: 'label',
    scoreType: 'margin',
    trainCounts: 'train_counts.json',
    groups: [6],
    groupNames: ['head', 'tail'],
  });
  assert.deepEqual(c, {
    task: 'classification',
    columns: { label: 'y' },
    score: 'margin',
    trainCounts: 'train_counts.json',
    groups: [6],
    groupNames: ['head', 'tail'],
  });
  assert.deepEqual(checkConfig(c, 'draft'), c);
  const minimal = draftConfig({ task: 'classification', label: 'label', detectedLabel: 'label', scoreType: 'msp' });
  assert.deepEqual(minimal, { task: 'classification' });
  const ranking = draftConfig({ task: 'ranking', k: [1, 5], relevant: 'qrels.txt', scoreType: 'entropy' });
  assert.deepEqual(ranking, { task: 'ranking', k: [1, 5], relevant: 'qrels.txt' });
  assert.deepEqual(checkConfig(ranking, 'draft'), ranking);
  assert.deepEqual(parseIntList('5, 10;20 50'), [5, 10, 20, 50]);
  assert.equal(parseIntList('5, x'), undefined);
  assert.deepEqual(parseIntList(''), []);
});

test('a factor model is named after its folder: its results file and its report title', () => {
  assert.equal(factorModelName('examples/ranking-factors/U.npy'), 'ranking-factors');
  assert.equal(factorModelName('C:\\models\\als-64\\user_factors.npz'), 'als-64');
  assert.equal(factorModelName('U.npy'), 'U');
  assert.equal(factorResultsFileName('/ws/ranking-factors/U.npy'), 'ranking-factors.eval.json');
  const r = rankingResults();
  r.source = {
    ...r.source,
    path: 'examples/ranking-factors/U.npy',
    columns: { userFactors: 'U.npy', itemFactors: 'V.npy' },
  };
  assert.equal(header(r).title, 'ranking-factors (factor model)');
  assert.equal(header(rankingResults()).title, rankingResults().source.path.split('/').pop());
});
