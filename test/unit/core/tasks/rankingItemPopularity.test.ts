// `itemPopularity`: a numeric column of the `items` table (e.g. units sold) as the item popularity of
// novelty@K, the popularity baseline's order and the item map, instead of the train counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../src/core/evaluate';
import type { EvalConfig } from '../../../../src/core/config/types';
import { formatTable } from '../../../../src/core/results/format';
import { rankingConventionNotes } from '../../../../src/core/results/rankingConventions';
import { validateResults } from '../../../../src/core/results/validate';
import { closeAbs as close } from '../../helpers/numericClose';

// Items a..e. Units sold a 4.5, b 3, c 2, d (empty cell: no value), e 0.5: Σ over the table = 10.
// Train counts a 1, b 2, c 3, d 1, e 1 (train order by count: c, b, then a, d, e by id).
// Column order: a 4.5, b 3, c 2, e 0.5, d (0).
const DIR = mkdtempSync(join(tmpdir(), 'pop-items-'));
const write = (name: string, text: string) => writeFileSync(join(DIR, name), text);
write(
  'run.jsonl',
  [
    { user: 'u1', items: ['a', 'b', 'c'], relevant: { e: 1 } },
    { user: 'u2', items: ['c', 'd'], relevant: { a: 1 } },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n') + '\n',
);
write('train.csv', 'user,item\nu1,d\nu2,b\nu3,a\nu3,b\nu3,c\nu4,c\nu5,c\nu5,e\n');
write('items.csv', 'item,name,units\na,Alpha,4.5\nb,Beta,3\nc,Gamma,2\nd,Delta,\ne,Echo,0.5\n');
write('emb.json', JSON.stringify({ a: [1, 0], b: [0, 1], c: [1, 1], d: [2, 1], e: [1, 3] }));

const ev = (o: EvalConfig) =>
  evaluateFile(join(DIR, 'run.jsonl'), { overrides: { task: 'ranking', k: [2], bootstrap: { n: 0 }, ...o } });
const s = (p: number) => -Math.log2(p);

test('itemPopularity: novelty@K from the column, the popularity baseline in its order, the source recorded', async () => {
  const r = await ev({ train: 'train.csv', items: 'items.csv', itemPopularity: 'units', itemEmbeddings: 'emb.json' });
  // u1 top 2 [a, b]: (s(4.5/10) + s(3/10)) / 2; u2 [c, d]: s(2/10) (d has no value: left out).
  close(r.metrics['novelty@2'].value!, ((s(0.45) + s(0.3)) / 2 + s(0.2)) / 2);
  assert.match(r.metrics['novelty@2'].note!, /"units" \/ the sum of "units" over the item table items\.csv/);
  const w = r.warnings.find((x) => x.code === 'novelty-items-without-train-count')!;
  assert.match(w.message, /1 top-2 slot\(s\) hold items with popularity 0 or no value in column "units" of items\.csv/);
  // Baseline: u1 (saw d) → [a, b], u2 (saw b) → [a, c]; relevant: u1 e, u2 a.
  // ndcg@2 = (0 + 1) / 2 (a at rank 1 for u2); by train counts u2 would get [c, a]: (0 + 1/log2 3) / 2.
  const pop = r.baselines!.popularity;
  close(pop['ndcg@2'].value!, 0.5);
  close(pop['novelty@2'].value!, ((s(0.45) + s(0.3)) / 2 + (s(0.45) + s(0.2)) / 2) / 2);
  assert.match(pop['ndcg@2'].note!, /train items by "units" of the item table \(items\.csv\), descending/);
  // Cold-start coverage keeps the train counts: cold = 1 ≤ count < 5 = every item; the top 2 hold a, b, c, d.
  close(r.metrics['cold_start_coverage@2'].value!, 4 / 5);
  // The source, in the run summary, the columns and the conventions.
  const summary = r.tables.rankingSummary!;
  assert.equal(summary.popularitySource, 'column "units" of the item table items.csv');
  assert.equal(r.source.columns.itemPopularity, 'units');
  const notes = rankingConventionNotes(r);
  assert.ok(
    notes.some((n) => n.startsWith('Popularity baseline: the train items with the largest "units" in the item table')),
  );
  const line =
    'Popularity: novelty and the popularity baseline use "units" from the item table (itemPopularity), not the train interactions; cold-start coverage and activity bins keep the train counts.';
  assert.ok(notes.includes(line));
  assert.ok(formatTable(r).replace(/\s+/g, ' ').includes(line));
  // The item map's popularity: the column (d without a value: 0); items in order of first appearance.
  const map = r.tables.itemMap!;
  assert.equal(map.popularityColumn, 'units');
  assert.deepEqual(
    map.ids.map((id, i) => [id, map.popularity![i]]).sort((x, y) => (x[0]! < y[0]! ? -1 : 1)),
    [
      ['a', 4.5],
      ['b', 3],
      ['c', 2],
      ['d', 0],
      ['e', 0.5],
    ],
  );
  // Real-valued popularity and its column are valid results.
  assert.deepEqual(validateResults(JSON.parse(JSON.stringify(r))), []);
});

test('without itemPopularity the train counts stay the popularity (the test above fails on them)', async () => {
  const r = await ev({ train: 'train.csv', items: 'items.csv' });
  const n = 8; // train interactions
  close(r.metrics['novelty@2'].value!, ((s(1 / n) + s(2 / n)) / 2 + (s(3 / n) + s(1 / n)) / 2) / 2);
  close(r.baselines!.popularity['ndcg@2'].value!, 1 / Math.log2(3) / 2);
  assert.equal(r.tables.rankingSummary!.popularitySource, undefined);
  assert.ok(!rankingConventionNotes(r).some((n) => n.startsWith('Popularity:')));
});

test('itemPopularity without train: novelty from the column, no baselines', async () => {
  const r = await ev({ items: 'items.csv', itemPopularity: 'units' });
  close(r.metrics['novelty@2'].value!, ((s(0.45) + s(0.3)) / 2 + s(0.2)) / 2);
  assert.equal(r.baselines, undefined);
  assert.ok(!('cold_start_coverage@2' in r.metrics));
  const w = r.warnings.find((x) => x.code === 'no-train')!;
  assert.ok(!w.message.includes('no novelty'));
});

test('itemPopularity: bad input is an error naming the file, the line and the column', async () => {
  await assert.rejects(
    ev({ train: 'train.csv', itemPopularity: 'units' }),
    /`itemPopularity` names a column of the `items` table \("units"\), but `items` is not set/,
  );
  await assert.rejects(
    ev({ items: 'items.csv', itemPopularity: 'sold' }),
    (e: Error) =>
      e.message ===
      'items.csv:1: expected a column "sold" (named by `itemPopularity`), got the columns "name", "units".',
  );
  const NUMBER = "expected a number ≥ 0 (the item's popularity, `itemPopularity`)";
  const cases: [string, string, string][] = [
    ['items_text.csv', 'item,units\na,5\nb,12 units\n', `items_text.csv:3, column "units": ${NUMBER}, got "12 units".`],
    [
      'items_neg.csv',
      'item,units\na,5\nb,3\nc,-1.5\n',
      'items_neg.csv:4, column "units": expected a popularity ≥ 0 (`itemPopularity`), got a negative number -1.5.',
    ],
    [
      'items.jsonl',
      '{"item":"a","units":5}\n{"item":"b","units":true}\n',
      `items.jsonl:2, column "units": ${NUMBER}, got "true".`,
    ],
    ['items_inf.csv', 'item,units\na,Infinity\n', `items_inf.csv:2, column "units": ${NUMBER}, got "Infinity".`],
  ];
  for (const [file, text, message] of cases) {
    write(file, text);
    await assert.rejects(ev({ items: file, itemPopularity: 'units' }), (e: Error) => e.message === message, file);
  }
});

test('itemPopularity: novelty@K and the popularity baseline equal numpy golden values', async () => {
  // scripts/golden/item_popularity.py writes the inputs and the values by their definitions.
  const g = JSON.parse(readFileSync(join(__dirname, '../../../golden/item_popularity.json'), 'utf8')) as {
    ks: number[];
    itemsCsv: string;
    trainCsv: string;
    runJsonl: string;
    novelty: Record<string, number>;
    baselineNovelty: Record<string, number>;
    baselineRecall: Record<string, number>;
  };
  const dir = mkdtempSync(join(tmpdir(), 'pop-golden-'));
  writeFileSync(join(dir, 'items.csv'), g.itemsCsv);
  writeFileSync(join(dir, 'train.csv'), g.trainCsv);
  writeFileSync(join(dir, 'run.jsonl'), g.runJsonl);
  const r = await evaluateFile(join(dir, 'run.jsonl'), {
    overrides: {
      task: 'ranking',
      k: g.ks,
      train: 'train.csv',
      items: 'items.csv',
      itemPopularity: 'units',
      bootstrap: { n: 0 },
    },
  });
  for (const k of g.ks) {
    close(r.metrics[`novelty@${k}`].value!, g.novelty[k], 1e-12);
    close(r.baselines!.popularity[`novelty@${k}`].value!, g.baselineNovelty[k], 1e-12);
    close(r.baselines!.popularity[`recall@${k}`].value!, g.baselineRecall[k], 1e-12);
  }
});
