// Inspection of tables of runs × metrics: the long-tail paper's Table 4 and a recommender evaluation's summary CSV.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { columnDirection, readRunsTable, readRunsTableText, parseCell } from '../../../../src/core/compare/runsTable';
import { directionOf } from '../../../../src/core/results/directions';

const PAPER = 'test/fixtures/compare/fang2023_table4_rho0.1.csv';

// Places read off Table 4 of Fang et al. (ρ = 0.1) by each column's arrow (AUC: higher). The
// paper's own colours are lost in the text; its one surviving mark, PCL's bold 90.77 in
// CIFAR10 AUC, is the best of that column here too.
const EXPECTED: Record<string, Record<string, 1 | 2 | 3>> = {
  'CIFAR10 AUC': { 'PCL [6]': 1, 'TADE [41]': 2, 'MetaS [22]': 3 },
  'CIFAR10 AVG↑': { 'PCL [6]': 1, 'MetaS [22]': 2, 'TADE [41]': 3 },
  'CIFAR10 STD↓': { 'TADE [41]': 1, 'BBN [47]': 2, 'LDAM [3]': 3, 'PCL [6]': 3 }, // 0.51, 0.55, 0.79 = 0.79
  'CIFAR10 MAX↑': { 'MetaS [22]': 1, 'PCL [6]': 2, 'TADE [41]': 3 },
  'CIFAR10 MIN↑': { 'PCL [6]': 1, 'TADE [41]': 2, 'MetaS [22]': 3 },
  'CIFAR10 DR↓': { 'TADE [41]': 1, 'BBN [47]': 2, 'GCLLoss [14]': 3 }, // 1.7%, 1.9%, 2.5%
  'CIFAR10 BTD↑': { 'PCL [6]': 1, 'MetaS [22]': 2, 'TADE [41]': 3 },
  'CIFAR100 AUC': { 'PCL [6]': 1, 'MetaS [22]': 2, 'TADE [41]': 3 },
  'CIFAR100 AVG↑': { 'PCL [6]': 1, 'MetaS [22]': 2, 'TADE [41]': 3 },
  'CIFAR100 STD↓': { 'GCLLoss [14]': 1, 'Prior-LT [29]': 2, 'TADE [41]': 3 }, // 0.88, 0.97, 1.32
  'CIFAR100 MAX↑': { 'MetaS [22]': 1, 'PCL [6]': 2, 'LADE [9]': 3 },
  'CIFAR100 MIN↑': { 'PCL [6]': 1, 'TADE [41]': 2, 'LADE [9]': 3 },
  'CIFAR100 DR↓': { 'GCLLoss [14]': 1, 'Prior-LT [29]': 2, 'PCL [6]': 3 }, // 4.7%, 5.3%, 7.3%
  'CIFAR100 BTD↑': { 'PCL [6]': 1, 'MetaS [22]': 2, 'TADE [41]': 3 },
};

test("the paper's Table 4: best / second / third in every column", async () => {
  const r = await readRunsTable(PAPER);
  assert.equal(r.runColumn, 'Method');
  assert.equal(r.runs.length, 14);
  assert.deepEqual(r.metrics, Object.keys(EXPECTED));
  assert.deepEqual(r.unmarked, []);
  for (const [col, places] of Object.entries(EXPECTED)) assert.deepEqual(r.marks[col], places, col);
  assert.equal(r.marks['CIFAR10 AUC']['PCL [6]'], 1);
});

test("the paper's Table 4 without arrows: directions inferred from the names alone", () => {
  const text = readFileSync(PAPER, 'utf8').replace(/[↑↓]/g, '');
  const r = readRunsTableText(text, 'no-arrows.csv');
  for (const col of Object.keys(EXPECTED)) {
    const plain = col.replace(/[↑↓]/g, '');
    assert.equal(r.directions[plain], /STD|DR/.test(col) ? 'lower' : 'higher', plain);
    assert.deepEqual(r.marks[plain], EXPECTED[col], plain);
  }
});

test("the paper's table: percent cells are fractions, shown as written; DR = (MAX − MIN)/MAX holds", async () => {
  const r = await readRunsTable(PAPER);
  const ce = r.table.CE;
  assert.equal(ce['CIFAR10 DR↓'], 0.072);
  assert.equal(r.display!.CE['CIFAR10 DR↓'], '7.2%');
  for (const run of r.runs) {
    const row = r.table[run];
    const dr = ((row['CIFAR10 MAX↑'] as number) - (row['CIFAR10 MIN↑'] as number)) / (row['CIFAR10 MAX↑'] as number);
    assert.ok(Math.abs(dr - (row['CIFAR10 DR↓'] as number)) < 0.0006, `${run}: ${dr}`);
  }
});

test("a recommender evaluation's cf_eval_summary.csv: metrics marked, hyper-parameters and time listed as unmarked", async () => {
  const r = await readRunsTable('test/fixtures/compare/cf_eval_summary.csv');
  assert.equal(r.runColumn, 'model');
  assert.deepEqual(r.runs, ['als', 'bpr', 'popularity']);
  assert.deepEqual(r.unmarked, ['factors', 'reg', 'alpha', 'training_time']);
  for (const m of ['recall@10', 'recall@20', 'ndcg@10', 'ndcg@20', 'coverage']) {
    assert.equal(r.directions[m], 'higher');
    // Three runs: best and second; the last is not marked.
    assert.deepEqual(r.marks[m], { bpr: 1, als: 2 }, m);
  }
  assert.equal(r.table.bpr.alpha, null);
  assert.equal(r.marks.training_time, undefined);
  assert.ok(
    r.warnings.some(
      (w) => w.code === 'inspect-unknown-direction' && /"factors", "reg", "alpha", "training_time"/.test(w.message),
    ),
  );
});

test('config override (compare.directions) marks a column and can flip one', async () => {
  const r = await readRunsTable('test/fixtures/compare/cf_eval_summary.csv', {
    directions: { training_time: 'lower', coverage: 'lower' },
  });
  assert.deepEqual(r.marks.training_time, { popularity: 1, als: 2 });
  assert.deepEqual(r.marks.coverage, { popularity: 1, als: 2 });
});

test('metrics option keeps only the named columns', async () => {
  const r = await readRunsTable('test/fixtures/compare/cf_eval_summary.csv', { metrics: ['ndcg@10', 'recall@10'] });
  assert.deepEqual(r.metrics, ['recall@10', 'ndcg@10']);
  await assert.rejects(
    readRunsTable('test/fixtures/compare/cf_eval_summary.csv', { metrics: ['ndcg@5'] }),
    /cf_eval_summary\.csv:1, column "ndcg@5": expected a numeric column "ndcg@5"/,
  );
});

test('cell parsing: percent, ±, markup, missing, thousands, unicode minus, text', () => {
  assert.deepEqual(parseCell('48.8%'), { value: 0.488, kind: 'number', percent: true });
  assert.equal(parseCell('48.8±0.3').value, 48.8);
  assert.equal(parseCell('48.8 ± 0.3').value, 48.8);
  assert.equal(parseCell('48.8 +- 0.3').value, 48.8);
  assert.equal(parseCell('48.8+/-0.3').value, 48.8);
  assert.equal(parseCell('48.8 (0.3)').value, 48.8);
  assert.equal(parseCell('48.8%±0.3%').value, 0.488);
  assert.equal(parseCell('<b>90.77</b>').value, 90.77);
  assert.equal(parseCell('**90.77**').value, 90.77);
  assert.equal(parseCell('\\textbf{90.77}').value, 90.77);
  assert.equal(parseCell('1,824.5').value, 1824.5);
  assert.equal(parseCell('−0.5').value, -0.5);
  assert.equal(parseCell('1e-3').value, 0.001);
  for (const m of ['', 'NA', 'n/a', 'NaN', 'null', '-', '—']) assert.equal(parseCell(m).kind, 'missing', m);
  assert.equal(parseCell('als').kind, 'text');
  assert.equal(parseCell('0.1.2').kind, 'text');
});

test('column directions: arrows, names, overrides; directionOf knows the lower-is-better words', () => {
  assert.equal(columnDirection('AVG↑'), 'higher');
  assert.equal(columnDirection('STD↓'), 'lower');
  for (const n of [
    'Top-1 error',
    'top1_err',
    'AURC',
    'E-AURC',
    'ECE',
    'NLL',
    'Brier',
    'STD',
    'DR',
    'selective risk',
    'RMSE',
  ]) {
    assert.equal(columnDirection(n), 'lower', n);
  }
  for (const n of ['Accuracy', 'NDCG@10', 'Recall@20', 'MAP@10', 'MRR', 'BTD', 'AUC', 'macro_f1'])
    assert.equal(columnDirection(n), 'higher', n);
  assert.equal(columnDirection('factors'), null);
  assert.equal(columnDirection('factors', { factors: 'lower' }), 'lower');
  assert.equal(directionOf('top1_err'), 'lower');
  assert.equal(directionOf('accuracy'), 'higher');
});

test('bad tables: ragged row (line named), header only, unreadable file; duplicates renamed with a warning', async () => {
  assert.throws(
    () => readRunsTableText('model,acc\na,0.5\nb,0.6,7\n', 't.csv'),
    /^Error: t\.csv:3: expected 2 cells as in the header, but got 3\.$|t\.csv:3: expected 2 cells as in the header, but got 3\./,
  );
  assert.throws(() => readRunsTableText('model,acc\n', 't.csv'), /only a header/);
  await assert.rejects(readRunsTable('test/fixtures/compare/nope.csv'), /nope\.csv: expected a readable table file/);
  const r = readRunsTableText('model,acc,acc\na,0.5,0.1\na,0.6,0.2\n', 'd.csv');
  assert.deepEqual(r.runs, ['a', 'a (2)']);
  assert.deepEqual(r.metrics, ['acc', 'acc (2)']);
  assert.equal(r.warnings.filter((w) => w.code === 'inspect-duplicate-name').length, 2);
});

test('TSV works too (delimiter detected)', () => {
  const r = readRunsTableText('method\taccuracy\tece\nA\t0.8\t0.1\nB\t0.9\t0.2\n', 't.tsv');
  assert.deepEqual(r.marks, { accuracy: { B: 1 }, ece: { A: 1 } });
});
