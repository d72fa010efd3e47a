import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  baselineChoices,
  comparablePredictions,
  comparableResults,
  FILES_AT_ONCE,
  mapFewAtOnce,
  type IndexedFile,
} from '../../../../src/extension/commands/runChoices';

const entry = (fsPath: string, kind: IndexedFile['kind'], task?: string): IndexedFile => ({
  kind,
  uri: { fsPath },
  ...(task ? { results: { task } } : {}),
});

test('Compare With… offers the results of the same task, not the run itself, comparisons or invalid files', () => {
  const index = [
    entry('/w/a.eval.json', 'results', 'classification'),
    entry('/w/b.eval.json', 'results', 'classification'),
    entry('/w/r.eval.json', 'results', 'ranking'),
    entry('/w/iw.eval.json', 'results', 'iw-binary'),
    entry('/w/a-vs-b.compare.json', 'compare'),
    entry('/w/bad.eval.json', 'invalid'),
  ];
  const paths = (es: IndexedFile[]): string[] => es.map((e) => e.uri.fsPath);
  assert.deepEqual(paths(comparableResults(index, ['/w/a.eval.json'], 'classification')), ['/w/b.eval.json']);
  assert.deepEqual(paths(comparableResults(index, ['/w/r.eval.json'], 'ranking')), []);
  // The first run's task unknown (a prediction file not yet evaluated): every results file.
  assert.deepEqual(paths(comparableResults(index, [], undefined)), [
    '/w/a.eval.json',
    '/w/b.eval.json',
    '/w/r.eval.json',
    '/w/iw.eval.json',
  ]);
});

test('Compare With… offers the prediction files of the same task and those whose task is unknown, and counts the others', () => {
  const files = [
    { uri: 'a.csv', task: 'classification' },
    { uri: 'recs.jsonl', task: 'ranking' },
    { uri: 'iw.csv', task: 'iw-binary' },
    { uri: 'b.csv', task: 'classification' },
    { uri: 'broken.csv', task: undefined },
  ];
  assert.deepEqual(comparablePredictions(files, 'classification'), {
    offered: ['a.csv', 'b.csv', 'broken.csv'],
    hidden: 2,
  });
  assert.deepEqual(comparablePredictions(files, 'ranking'), { offered: ['recs.jsonl', 'broken.csv'], hidden: 3 });
  // the first run's task unknown: every file
  assert.deepEqual(comparablePredictions(files, undefined), { offered: files.map((f) => f.uri), hidden: 0 });
});

test('the pickers read files a few at a time, and keep their order', async () => {
  let open = 0;
  let most = 0;
  const items = Array.from({ length: 100 }, (_, i) => i);
  const out = await mapFewAtOnce(items, async (i) => {
    open++;
    most = Math.max(most, open);
    await new Promise((r) => setTimeout(r, (i * 7) % 5));
    open--;
    return 2 * i;
  });
  assert.deepEqual(
    out,
    items.map((i) => 2 * i),
  );
  assert.equal(most, FILES_AT_ONCE);
});

test('the pickers offer the baselines that fit the task: majority and prior for classification, popularity and random for ranking', () => {
  assert.deepEqual(
    baselineChoices('classification').map((b) => [b.kind, b.label]),
    [
      ['majority', '$(symbol-constant) Majority-class baseline'],
      ['prior', '$(symbol-constant) Class-prior baseline'],
    ],
  );
  assert.deepEqual(
    baselineChoices('ranking').map((b) => b.kind),
    ['popularity', 'random'],
  );
  assert.deepEqual(baselineChoices('iw-binary'), []);
  assert.deepEqual(baselineChoices(undefined), []);
});
