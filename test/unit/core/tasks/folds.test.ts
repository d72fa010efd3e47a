/**
 * Per-fold stability (`tables.folds`, docs/metrics/folds.md): with a `fold` column the headline
 * classification metrics per fold and, per metric, mean, sample std (n − 1), min and max over the
 * folds; with a split, on the test rows. Hand-computed examples, golden values from scikit-learn,
 * numpy and pandas (scripts/golden/folds.py), edge cases.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../src/core/evaluate';
import { EvalLensError } from '../../../../src/core/diagnostics';
import { foldSummary } from '../../../../src/core/tasks/folds';
import type { FoldsTable } from '../../../../src/core/results/types';
import type { Results } from '../../../../src/core/results/types';
import { validateResults } from '../../../../src/core/results/validate';
import { foldsCsv, foldsMarkdown, formatFoldsTable } from '../../../../src/core/results/foldsText';
import { exportReport, reportTableCsv } from '../../../../src/shared/exportReport';
import { buildReportModel } from '../../../../src/shared/report/index';
import { closeAbs } from '../../helpers/numericClose';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-folds-'));
const close = (a: number | null | undefined, b: number, what = ''): void => closeAbs(a ?? null, b, 1e-12, what);

/** `<name>.csv` from `lines` beside `<name>.json` (no bootstrap, plus `config`); returns the CSV's path. */
function csvFile(name: string, lines: string[], config: object = {}): string {
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ ...config, bootstrap: { n: 0 } }));
  writeFileSync(join(dir, `${name}.csv`), `${lines.join('\n')}\n`);
  return join(dir, `${name}.csv`);
}

/** Evaluates `lines` as a CSV file with its config. */
const evaluateLines = (name: string, lines: string[], config: object = {}): Promise<Results> =>
  evaluateFile(csvFile(name, lines, config), { configPath: join(dir, `${name}.json`) });

// Three folds, classes a and b, predictions only:
//   fold 0: (a,a) (a,b) (b,b)  → accuracy 2/3; F1_a = 2·1/(2·1+0+1) = 2/3, F1_b = 2·1/(2·1+1+0) = 2/3 → macro 2/3
//   fold 1: (b,b) (a,a) (b,a)  → accuracy 2/3; F1_a = 2/(2+1+0) = 2/3, F1_b = 2/(2+0+1) = 2/3 → macro 2/3
//   fold 2: 4 correct           → accuracy 1, macro F1 1
// over the folds: mean = (2/3 + 2/3 + 1)/3 = 7/9; deviations −1/9, −1/9, 2/9 →
// sample std = √((1/81 + 1/81 + 4/81)/(3 − 1)) = √3/9; min 2/3, max 1
const THREE = [
  'label,pred,fold',
  'a,a,0',
  'a,b,0',
  'b,b,0',
  'b,b,1',
  'a,a,1',
  'b,a,1',
  'a,a,2',
  'b,b,2',
  'a,a,2',
  'b,b,2',
];

const foldsOf = (r: Results): FoldsTable => {
  const t = r.tables.folds;
  assert.ok(t, 'tables.folds is written');
  return t;
};

test('a fold column gives the metrics per fold and mean, sample std (n − 1), min, max over the folds', async () => {
  const r = await evaluateLines('three', THREE);
  assert.deepEqual(validateResults(r), []);
  assert.equal(r.source.columns.fold, 'fold');
  const t = foldsOf(r);
  assert.equal(t.column, 'fold');
  assert.deepEqual(t.metrics, ['accuracy', 'macro_f1']);
  assert.deepEqual(
    t.folds.map((x) => [x.fold, x.n]),
    [
      ['0', 3],
      ['1', 3],
      ['2', 4],
    ],
  );
  for (const key of ['accuracy', 'macro_f1']) {
    close(t.folds[0].values[key], 2 / 3, `${key} fold 0`);
    close(t.folds[1].values[key], 2 / 3, `${key} fold 1`);
    close(t.folds[2].values[key], 1, `${key} fold 2`);
    const s = t.summary[key];
    assert.equal(s.k, 3);
    close(s.mean, 7 / 9, `${key} mean`);
    close(s.std, Math.sqrt(3) / 9, `${key} sample std`);
    close(s.min, 2 / 3);
    close(s.max, 1);
  }
  assert.equal(t.note, 'mean ± std over 3 folds (sample std, n−1)');
  // 3 and 4 rows < minSliceSize (30): flagged, still counted, one note
  assert.ok(t.folds.every((x) => x.small === true));
  assert.ok(r.warnings.some((w) => w.code === 'small-folds'));
  // the whole-file metrics are those of the file without the fold column
  close(r.metrics.accuracy.value, 8 / 10);
});

test('without a fold column there is no fold table; columns.fold names another column', async () => {
  assert.equal((await evaluateLines('plain', ['label,pred', 'a,a', 'b,a'])).tables.folds, undefined);
  const named = await evaluateLines(
    'named',
    THREE.map((l, i) => (i === 0 ? 'label,pred,cv' : l)),
    { columns: { fold: 'cv' } },
  );
  const t = foldsOf(named);
  assert.equal(t.column, 'cv');
  close(t.summary.accuracy.mean, 7 / 9);
});

test('a single fold: mean = min = max = its value, std null (undefined with one value)', async () => {
  const t = foldsOf(await evaluateLines('single', ['label,pred,fold', 'a,a,x', 'a,b,x', 'b,b,x', 'b,b,x']));
  assert.equal(t.folds.length, 1);
  const s = t.summary.accuracy;
  assert.deepEqual([s.k, s.std], [1, null]);
  close(s.mean, 3 / 4);
  close(s.min, 3 / 4);
  close(s.max, 3 / 4);
  assert.equal(t.note, 'mean ± std over 1 fold (sample std, n−1)');
  assert.match(formatFoldsTable({ tables: { folds: t } } as never), /0\.7500 ± —/);
});

test('fold + split: the folds are cut from the test rows; a fold with only validation rows is listed with n 0 and left out', async () => {
  // test rows: fold 0: (a,a) (a,b) → 1/2; fold 1: (b,b) (b,b) → 1; fold 2: validation rows only
  // over folds 0 and 1: mean 3/4, std √(((1/2 − 3/4)² + (1 − 3/4)²)/1) = √(1/8)
  const r = await evaluateLines('split', [
    'label,pred,fold,split',
    'a,a,0,test',
    'a,b,0,test',
    'b,b,1,test',
    'b,b,1,test',
    'a,b,2,val',
    'b,b,0,val',
  ]);
  assert.deepEqual(validateResults(r), []);
  const t = foldsOf(r);
  assert.deepEqual(
    t.folds.map((x) => [x.fold, x.n]),
    [
      ['0', 2],
      ['1', 2],
      ['2', 0],
    ],
  );
  assert.deepEqual(t.folds[2].values, { accuracy: null, macro_f1: null });
  assert.equal(t.folds[2].small, undefined);
  close(t.folds[0].values.accuracy, 1 / 2);
  close(t.folds[1].values.accuracy, 1);
  assert.equal(t.summary.accuracy.k, 2);
  close(t.summary.accuracy.mean, 3 / 4);
  close(t.summary.accuracy.std, Math.sqrt(1 / 8));
  assert.equal(t.note, 'mean ± std over 2 folds (sample std, n−1)');
});

test('a missing fold value on a row the metrics cover is an error naming the file, line and column', async () => {
  const path = csvFile('missing', ['label,pred,fold', 'a,a,0', 'a,b,', 'b,b,1']);
  await assert.rejects(
    () => evaluateFile(path, { configPath: join(dir, 'missing.json') }),
    (e: unknown) => {
      assert.ok(e instanceof EvalLensError);
      assert.equal(e.code, 'missing-fold');
      assert.equal(e.location?.line, 3);
      assert.equal(e.location?.file, path);
      assert.match(e.message, /missing\.csv:3, column "fold": the fold is missing/);
      return true;
    },
  );
  // on a validation row it does not matter: those rows are not the metrics'
  const v = await evaluateLines('missing-val', ['label,pred,fold,split', 'a,a,0,test', 'a,b,,val', 'b,b,1,test']);
  assert.equal(foldsOf(v).folds.length, 2);
});

test('foldSummary: sample std divides by k − 1; undefined values are left out', () => {
  const s = foldSummary([1, 2, null, 4]);
  // mean 7/3; squares (4/3)², (1/3)², (5/3)² = 42/9; / (3 − 1) → √(7/3)
  assert.equal(s.k, 3);
  close(s.mean, 7 / 3);
  close(s.std, Math.sqrt(7 / 3));
  assert.deepEqual(foldSummary([]), { k: 0, mean: null, std: null, min: null, max: null });
});

test('golden: per-fold accuracy, macro F1, ECE on the test rows and their spread (scikit-learn, numpy ddof=1)', async () => {
  const root = join(__dirname, '..', '..', '..', '..');
  const golden = JSON.parse(readFileSync(join(root, 'test', 'golden', 'folds.json'), 'utf8')) as {
    test: Record<string, Record<string, number>>;
    summary: Record<string, Record<string, number>>;
  };
  const r = await evaluateFile(join(root, 'test', 'fixtures', 'folds', 'logreg-folds.csv'));
  assert.deepEqual(validateResults(r), []);
  const t = foldsOf(r);
  assert.deepEqual(
    t.folds.map((x) => x.fold),
    ['f0', 'f1', 'f2', 'f3', 'f4'],
  );
  for (const x of t.folds) {
    const g = golden.test[x.fold];
    assert.equal(x.n, g.n);
    for (const key of ['accuracy', 'macro_f1', 'ece']) close(x.values[key], g[key], `${key} ${x.fold}`);
  }
  for (const key of ['accuracy', 'macro_f1', 'ece']) {
    const g = golden.summary[key];
    for (const s of ['mean', 'std', 'min', 'max'] as const) close(t.summary[key][s], g[s], `${key} ${s}`);
    assert.notEqual(Math.abs((t.summary[key].std ?? 0) - g.std_ddof0) < 1e-9, true, 'not the population std');
  }
});

test('shown: terminal, Markdown, evaluate CSV, report --table folds and the report', async () => {
  const r = await evaluateLines('shown', THREE);
  const term = formatFoldsTable(r);
  assert.match(term, /mean ± std over 3 folds \(sample std, n−1\)/);
  assert.match(term, /mean ± std\s+3\s+0\.7778 ± 0\.1925\s+0\.7778 ± 0\.1925/);
  assert.match(foldsMarkdown(r), /\| mean ± std \| 3 \| 0\.7778 ± 0\.1925 \|/);
  const csv = foldsCsv(r)!.trim().split('\n');
  assert.equal(csv[0], 'row,fold,n,small,accuracy,macro_f1');
  assert.equal(csv[1], `fold,0,3,true,${2 / 3},${2 / 3}`);
  const std = csv[5].split(',');
  assert.deepEqual(std.slice(0, 4), ['std', '', '3', '']);
  close(Number(std[4]), Math.sqrt(3) / 9, 'std in the CSV, full precision');
  assert.equal(reportTableCsv({ kind: 'results', results: r }, 'folds', 'x.eval.json'), foldsCsv(r));
  // the report (HTML, Markdown, the editor's panel): in the classification tab, numbers as numbers
  const tab = buildReportModel(r).tabs.find((x) => x.tables.some((y) => y.id === 'table.folds'));
  assert.equal(tab?.id, 'classification');
  const table = tab!.tables.find((y) => y.id === 'table.folds')!;
  assert.deepEqual(table.columns, ['fold', 'n', 'accuracy', 'macro_f1']);
  assert.deepEqual(
    table.rows.map((row) => row[0]),
    ['0 (small)', '1 (small)', '2 (small)', 'mean', 'std (n − 1)', 'min', 'max'],
  );
  close(table.rows[4][2] as number, Math.sqrt(3) / 9, 'std in the report table');
  const md = exportReport({ kind: 'results', results: r }, 'md');
  assert.match(md, /### Metrics per fold \(column fold\)/);
  assert.match(md, /mean ± std over 3 folds \(sample std, n−1\)/);
  const without = await evaluateLines('shown-plain', ['label,pred', 'a,a', 'b,a']);
  assert.throws(() => reportTableCsv({ kind: 'results', results: without }, 'folds', 'x.eval.json'), /no fold column/);
});

test('the CLI: evaluate prints the fold table with its convention; report --format csv --table folds writes it', () => {
  const cliDir = mkdtempSync(join(tmpdir(), 'eval-lens-folds-cli-'));
  writeFileSync(join(cliDir, 'eval-lens.json'), JSON.stringify({ bootstrap: { n: 0 } }));
  writeFileSync(join(cliDir, 'preds.csv'), `${THREE.join('\n')}\n`);
  const cli = (args: string[]): string => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(process.cwd(), 'src/cli/main.ts'), ...args], {
      cwd: process.cwd(),
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  const out = cli(['evaluate', join(cliDir, 'preds.csv'), '--out', join(cliDir, 'preds.eval.json')]);
  assert.match(out, /Per fold \(column fold; .*\): mean ± std over 3 folds \(sample std, n−1\)/);
  assert.match(out, /mean ± std\s+3\s+0\.7778 ± 0\.1925/);
  const csv = cli(['report', join(cliDir, 'preds.eval.json'), '--format', 'csv', '--table', 'folds'])
    .trim()
    .split('\n');
  assert.equal(csv[0], 'row,fold,n,small,accuracy,macro_f1');
  assert.deepEqual(
    csv.slice(1).map((l) => l.split(',')[0]),
    ['fold', 'fold', 'fold', 'mean', 'std', 'min', 'max'],
  );
  close(Number(csv[4].split(',')[4]), 7 / 9, 'mean accuracy in the CSV');
});
