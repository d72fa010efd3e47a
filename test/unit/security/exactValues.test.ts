// Inputs that used to be evaluated as something else without a word: a factor-model config that
// replaced the file evaluated, and distinct large integers (labels, Parquet INT64/UINT64 and
// timestamps, NumPy int64 arrays) rounded to one double and merged into one class. Each is now
// refused with a message naming the file, or evaluated exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvalLensError, Warnings } from '../../../src/core/diagnostics';
import { evaluateFile } from '../../../src/core/evaluate';
import { loadClassification } from '../../../src/core/io/loadClassification';
import { integerText, sortedClassUnion } from '../../../src/core/io/classSet';
import { configOf } from '../helpers/ioConfig';
import { tmpFile } from '../helpers/io';
import { writeFactorModel } from '../helpers/factors';
import { tinyParquet, type TinyColumn } from '../helpers/tinyParquet';
import { isoTimestamp } from '../../../src/core/io/parquet';

const metric = (r: { metrics: Record<string, unknown> }, key: string): number =>
  (r.metrics[key] as { value: number }).value;

test('a factor-model config with another input file is refused, naming both ways to evaluate', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-factor-input-'));
  const model = writeFactorModel(
    dir,
    [
      [1, 0],
      [0, 1],
    ],
    [
      [0, 1],
      [1, 0],
      [0.5, 0.5],
    ],
    ['u0', 'u1'],
    ['a', 'b', 'c'],
  );
  writeFileSync(join(dir, 'relevant.csv'), 'user,item\nu0,a\nu1,b\n');
  writeFileSync(join(dir, 'run.jsonl'), '{"user":"u0","items":["a"]}\n{"user":"u1","items":["b"]}\n');
  writeFileSync(
    join(dir, 'eval-lens.json'),
    JSON.stringify({ ...model, relevant: 'relevant.csv', k: [1], bootstrap: { n: 0 } }),
  );
  await assert.rejects(
    evaluateFile(join(dir, 'run.jsonl'), { configPath: join(dir, 'eval-lens.json') }),
    (e: unknown) => {
      assert.ok(e instanceof EvalLensError, String(e));
      assert.equal(e.code, 'factor-config-input');
      assert.equal(e.location?.file, join(dir, 'run.jsonl'));
      assert.match(e.message, /run\.jsonl: eval-lens\.json describes a factor model \(`userFactors`: U\.npy\)/);
      assert.match(e.message, /`eval-lens evaluate U\.npy --config eval-lens\.json`/);
      assert.match(e.message, /To evaluate run\.jsonl: use a config without `userFactors`/);
      return true;
    },
  );
  // The run itself, with the config minus the factor keys: its own lists (recall@1 = 1).
  writeFileSync(
    join(dir, 'run.json'),
    JSON.stringify({ task: 'ranking', relevant: 'relevant.csv', k: [1], bootstrap: { n: 0 } }),
  );
  const run = await evaluateFile(join(dir, 'run.jsonl'), { configPath: join(dir, 'run.json') });
  assert.equal(metric(run, 'recall@1'), 1);
  // The model, named by its U file: u0 scores b (1) over c (0.5) and a (0); u1 scores a first.
  const fromModel = await evaluateFile(join(dir, 'U.npy'), { configPath: join(dir, 'eval-lens.json') });
  assert.equal(metric(fromModel, 'recall@1'), 0);
  assert.equal(fromModel.source.path.endsWith('U.npy'), true);
});

test('integer texts are kept digit for digit', () => {
  assert.equal(integerText('9007199254740993'), '9007199254740993');
  assert.equal(integerText('9007199254740993.000'), '9007199254740993');
  assert.equal(integerText('1.0'), '1');
  assert.equal(integerText('-0'), '0');
  assert.equal(integerText('1e21'), '1000000000000000000000');
  assert.equal(integerText('12.5e1'), '125');
  assert.equal(integerText('18446744073709551615'), '18446744073709551615');
  assert.equal(integerText('9007199254740993.5'), null);
  assert.equal(integerText('1.5'), null);
  assert.equal(integerText('abc'), null);
  assert.equal(integerText('1e400'), null);
  const u = sortedClassUnion(['9007199254740993', '9007199254740992', '10', '2', '9007199254740993.0']);
  assert.deepEqual(u.classes, ['2', '10', '9007199254740992', '9007199254740993']);
  // 9007199254740993.5 is not an integer: the classes are texts, in code-unit order.
  assert.equal(sortedClassUnion(['9007199254740993.5', '9007199254740994']).allIntegers, false);
});

/** Ten rows over two labels 2⁵³ and 2⁵³ + 1, eight predicted right: accuracy 0.8. */
function bigLabelRows(big: (i: number) => string): [string, string][] {
  const rows: [string, string][] = [];
  for (let i = 0; i < 10; i++) {
    const label = big(i % 2);
    rows.push([label, i < 8 ? label : big(1 - (i % 2))]);
  }
  return rows;
}

test('labels of 2^53 and more are distinct classes in CSV and JSONL: accuracy 0.8, not 1', async () => {
  const rows = bigLabelRows((j) => (2n ** 53n + BigInt(j)).toString());
  const csv = tmpFile('big.csv', 'label,pred\n' + rows.map((r) => r.join(',')).join('\n') + '\n');
  const r = await evaluateFile(csv, { overrides: { bootstrap: { n: 0 } } });
  assert.equal(metric(r, 'accuracy'), 0.8);
  const warnings = new Warnings();
  const { data } = await loadClassification(csv, configOf({}), warnings);
  assert.deepEqual(data.classes, ['9007199254740992', '9007199254740993']);
  // 18446744073709551615 and …614 (UINT64 max and max − 1), spelt as JSONL strings and numbers.
  const u64 = bigLabelRows((j) => (2n ** 64n - 1n - BigInt(j)).toString());
  const jsonl = tmpFile('u64.jsonl', u64.map(([l, p]) => `{"label":${l},"pred":"${p}"}`).join('\n') + '\n');
  assert.equal(metric(await evaluateFile(jsonl, { overrides: { bootstrap: { n: 0 } } }), 'accuracy'), 0.8);
  // `classes` in the config is matched exactly too: 2⁵³ + 1 is not found as 2⁵³.
  await assert.rejects(
    loadClassification(csv, configOf({ classes: ['9007199254740992', '9007199254740994'] }), new Warnings()),
    (e: unknown) => e instanceof EvalLensError && /9007199254740993/.test(e.message),
  );
});

test('Parquet INT64, UINT64 and timestamp labels a unit apart stay distinct classes: accuracy 0.8', async () => {
  const pairs = bigLabelRows((j) => String(j));
  const column = (name: string, spec: Omit<TinyColumn, 'name' | 'values'>, of: (j: number) => bigint) =>
    pairs
      .map(([l, p]) => [of(Number(l)), of(Number(p))])
      .reduce(
        (cols, [l, p]) => {
          cols[0]!.values = [...cols[0]!.values, l!];
          cols[1]!.values = [...cols[1]!.values, p!];
          return cols;
        },
        [
          { name: `label_${name}`, ...spec, values: [] as bigint[] },
          { name: `pred_${name}`, ...spec, values: [] as bigint[] },
        ] as TinyColumn[],
      );
  const file = tmpFile(
    'big.parquet',
    tinyParquet([
      ...column('i64', { type: 'INT64', convertedType: 18 }, (j) => 2n ** 53n + BigInt(j)),
      ...column('u64', { type: 'INT64', convertedType: 14 }, (j) => 2n ** 64n - 1n - BigInt(j)),
      // 2023-11-14T22:13:20.000001Z and .000002Z; 1 ns apart for the nanosecond column
      ...column('us', { type: 'INT64', convertedType: 10 }, (j) => 1_700_000_000_000_001n + BigInt(j)),
      ...column('ns', { type: 'INT64', timestampNanos: true }, (j) => 1_700_000_000_000_000_000n + BigInt(j)),
    ]),
  );
  for (const name of ['i64', 'u64', 'us', 'ns']) {
    const config = { columns: { label: `label_${name}`, pred: `pred_${name}` }, bootstrap: { n: 0 } };
    const r = await evaluateFile(file, { overrides: config });
    assert.equal(metric(r, 'accuracy'), 0.8, name);
  }
  const { data } = await loadClassification(
    file,
    configOf({ columns: { label: 'label_ns', pred: 'pred_ns' } }),
    new Warnings(),
  );
  assert.deepEqual(data.classes, ['2023-11-14T22:13:20.000000000Z', '2023-11-14T22:13:20.000000001Z']);
});

test('Parquet timestamps keep every digit of their unit, before 1970 too', () => {
  assert.equal(isoTimestamp(1_700_000_000_000_000n, 1_000_000n), '2023-11-14T22:13:20.000000Z');
  assert.equal(isoTimestamp(1_700_000_000_000_120n, 1_000_000n), '2023-11-14T22:13:20.000120Z');
  assert.equal(isoTimestamp(-1n, 1_000_000n), '1969-12-31T23:59:59.999999Z');
  assert.equal(isoTimestamp(5n, 1_000_000_000n), '1970-01-01T00:00:00.000000005Z');
  assert.equal(isoTimestamp(2n ** 63n - 1n, 1_000_000n), null); // beyond the range of a Date
});

test('NumPy int64 and uint64 labels of 2^53 and more stay distinct classes: accuracy 0.8', async () => {
  const file = join(__dirname, '../../fixtures/npz/big-int-labels.npz');
  const r = await evaluateFile(file, { overrides: { bootstrap: { n: 0 } } });
  assert.equal(metric(r, 'accuracy'), 0.8);
  const u = await evaluateFile(file, {
    overrides: { columns: { label: 'label_u64', pred: 'pred_u64' }, bootstrap: { n: 0 } },
  });
  assert.equal(metric(u, 'accuracy'), 0.8);
  const { data } = await loadClassification(file, configOf({}), new Warnings());
  assert.deepEqual(data.classes, ['9007199254740992', '9007199254740993']);
});

test('weights of 5e-324 give the weighted log-loss, Brier score and calibration of the same weights scaled to 1', async () => {
  const rows = [
    ['a', 0.7, 0.3],
    ['b', 0.4, 0.6],
    ['a', 0.2, 0.8],
    ['b', 0.9, 0.1],
  ] as const;
  const w = [1, 2, 1, 3];
  const file = (name: string, scale: number) =>
    tmpFile(
      name,
      'label,prob_a,prob_b,weight\n' + rows.map((r, i) => `${r.join(',')},${w[i]! * scale}`).join('\n') + '\n',
    );
  const opts = { overrides: { bootstrap: { n: 0 } } };
  const one = await evaluateFile(file('one.csv', 1), opts);
  const tiny = await evaluateFile(file('tiny.csv', 5e-324), opts);
  // by hand: Σ w·(−ln p_y) / Σ w and Σ w·Σ_c (p_c − 1[c=y])² / Σ w
  const py = [0.7, 0.6, 0.2, 0.1];
  const nll = w.reduce((s, x, i) => s + x * -Math.log(py[i]!), 0) / 7;
  const brier = w.reduce((s, x, i) => s + x * 2 * (1 - py[i]!) ** 2, 0) / 7;
  assert.ok(Math.abs(metric(one, 'nll') - nll) < 1e-15, `${metric(one, 'nll')} vs ${nll}`);
  assert.ok(Math.abs(metric(one, 'brier') - brier) < 1e-15, `${metric(one, 'brier')} vs ${brier}`);
  for (const key of ['nll', 'brier', 'accuracy', 'macro_f1', 'ece'])
    assert.equal(metric(tiny, key), metric(one, key), key);
  // totals are reported in the weights as written
  const support = (r: typeof one) => r.tables.perClass!.map((x) => x.support);
  assert.deepEqual(support(one), [2, 5]);
  assert.deepEqual(support(tiny), [2 * 5e-324, 5 * 5e-324]);
  assert.deepEqual(tiny.tables.confusion!.matrix, [
    [5e-324, 5e-324],
    [15e-324, 10e-324],
  ]);
});

test('Parquet DECIMAL(38, 0) and DECIMAL(18, 0) labels beyond 2^53 stay distinct classes: accuracy 0.8', async () => {
  const pairs = bigLabelRows((j) => String(j));
  const cols = (name: string, spec: Omit<TinyColumn, 'name' | 'values'>, of: (j: number) => bigint): TinyColumn[] => [
    { name: `label_${name}`, ...spec, values: pairs.map(([l]) => of(Number(l))) },
    { name: `pred_${name}`, ...spec, values: pairs.map(([, p]) => of(Number(p))) },
  ];
  const file = tmpFile(
    'decimal.parquet',
    tinyParquet([
      ...cols('d128', { type: 'DECIMAL128' }, (j) => 10n ** 30n + BigInt(j)),
      ...cols('neg', { type: 'DECIMAL128' }, (j) => -(10n ** 30n) - BigInt(j)),
      ...cols('d64', { type: 'INT64', convertedType: 5 }, (j) => 2n ** 53n + BigInt(j)),
    ]),
  );
  for (const name of ['d128', 'neg', 'd64']) {
    const r = await evaluateFile(file, {
      overrides: { columns: { label: `label_${name}`, pred: `pred_${name}` }, bootstrap: { n: 0 } },
    });
    assert.equal(metric(r, 'accuracy'), 0.8, name);
  }
  const { data } = await loadClassification(
    file,
    configOf({ columns: { label: 'label_neg', pred: 'pred_neg' } }),
    new Warnings(),
  );
  assert.deepEqual(data.classes, ['-1000000000000000000000000000001', '-1000000000000000000000000000000']);
});
