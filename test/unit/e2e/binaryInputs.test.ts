// Parquet and NumPy .npz inputs: the same predictions as CSV, JSONL, Parquet (each compression,
// wide and list columns) and .npz (stored and deflated, C and Fortran order) give byte-identical
// metrics; streaming by row group; errors name the file, the row or array, and what was expected.
// The binary files are written by scripts/golden/parquet.mjs (DuckDB), scripts/golden/parquet_python.py
// (pandas with the pyarrow and fastparquet engines, pyarrow) and scripts/golden/npz.py (NumPy) from examples/digits-lt/logreg.csv and examples/iw-breast-cancer/logreg.csv.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CancelledError, EvalLensError } from '../../../src/core/diagnostics';
import { evaluateFile } from '../../../src/core/evaluate';
import { detectTask } from '../../../src/core/io/detectTask';
import { readTable } from '../../../src/core/io/table';
import { collector, tmpFile } from '../helpers/io';

const ROOT = join(__dirname, '../../..');
const DIGITS = join(ROOT, 'examples/digits-lt');
const PQ = join(ROOT, 'test/fixtures/parquet');
const NPZ = join(ROOT, 'test/fixtures/npz');
const CODECS = ['uncompressed', 'snappy', 'gzip', 'zstd'];

async function metricsOf(path: string, configPath: string): Promise<string> {
  // every row: the Parquet and .npz copies may not carry the split column
  const r = await evaluateFile(path, {
    configPath,
    root: ROOT,
    overrides: { bootstrap: { n: 200, seed: 3 }, metricsOn: 'all' },
  });
  return JSON.stringify(r.metrics);
}

test('golden: CSV, JSONL, Parquet (every codec, wide and list columns) and .npz give byte-identical metrics', async () => {
  const config = join(DIGITS, 'eval-lens.json');
  const csv = await metricsOf(join(DIGITS, 'logreg.csv'), config);
  assert.ok(csv.includes('"accuracy":{"value":0.75'), 'the reference evaluation ran');
  const others = [
    join(DIGITS, 'logreg.jsonl'),
    ...CODECS.map((c) => join(PQ, `digits-logreg-wide.${c}.parquet`)),
    join(PQ, 'digits-logreg-list.parquet'),
    join(NPZ, 'digits-logreg.npz'),
    join(NPZ, 'digits-logreg-compressed.npz'),
  ];
  for (const f of others) assert.equal(await metricsOf(f, config), csv, f);
});

test('golden: Parquet written by pandas (pyarrow and fastparquet engines, index column kept) and by pyarrow (list column, page v2, the Spark flavour) gives the CSV metrics', async () => {
  const config = join(DIGITS, 'eval-lens.json');
  const csv = await metricsOf(join(DIGITS, 'logreg.csv'), config);
  const files = [
    ...['snappy', 'zstd', 'gzip'].map((c) => `pandas-wide.pyarrow.${c}.parquet`),
    ...['snappy', 'gzip'].map((c) => `pandas-wide.fastparquet.${c}.parquet`),
    'pyarrow-list.parquet',
    'pyarrow-spark.parquet',
  ];
  for (const f of files) assert.equal(await metricsOf(join(PQ, 'python', f), config), csv, f);
});

test('golden: an iw-binary Parquet file is detected as iw-binary and gives the CSV metrics', async () => {
  const dir = join(ROOT, 'examples/iw-breast-cancer');
  const pq = join(PQ, 'iw-logreg.parquet');
  assert.equal(await detectTask(pq, {}), 'iw-binary');
  assert.equal(await detectTask(join(NPZ, 'digits-logreg.npz'), {}), 'classification');
  assert.equal(
    await metricsOf(pq, join(dir, 'eval-lens.json')),
    await metricsOf(join(dir, 'logreg.csv'), join(dir, 'eval-lens.json')),
  );
});

test('Parquet: read row group by row group, with progress, rows located as line = row + 1', async () => {
  const csv = readFileSync(join(DIGITS, 'logreg.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
  const c = collector();
  const reports: number[] = [];
  // The 300 CSV rows 14 times over, in row groups of 2048, 2048 and 104 rows.
  const r = await readTable(join(PQ, 'digits-logreg-groups.parquet'), c, {
    progress: { report: (_s, done) => reports.push(done) },
  });
  assert.equal(r.format, 'parquet');
  assert.equal(r.rows, 4200);
  assert.deepEqual(reports, [2048, 4096, 4200]);
  assert.deepEqual(c.names, ['id', 'label', 'pred', 'split', 'probs']);
  assert.deepEqual(
    c.lines,
    Array.from({ length: 4200 }, (_, i) => i + 2),
  );
  // Every row equals its CSV row (INT64 read as numbers, list<double> as an array), across the group boundary.
  for (let i = 0; i < 4200; i++) {
    const t = csv[i % 300];
    assert.deepEqual(
      c.rows[i],
      [Number(t[0]), Number(t[1]), Number(t[2]), t[3], t.slice(4).map(Number)],
      `row ${i + 1}`,
    );
  }
});

test('Parquet: cancellation between row groups stops the read', async () => {
  let groups = 0;
  const c = collector();
  await assert.rejects(
    readTable(join(PQ, 'digits-logreg-groups.parquet'), c, {
      progress: { report: () => groups++, isCancelled: () => groups >= 1 },
    }),
    CancelledError,
  );
  assert.equal(groups, 1);
  assert.equal(c.rows.length, 2048);
});

test('Parquet: an invalid value is reported by data row ("row 3"), not by line', async () => {
  const f = join(PQ, 'bad-prob.parquet');
  await assert.rejects(evaluateFile(f, { root: ROOT }), (e: unknown) => {
    assert.ok(e instanceof EvalLensError);
    assert.match(e.message, /bad-prob\.parquet, row 3, column "probs": /);
    assert.doesNotMatch(e.message, /parquet:\d/);
    assert.equal(e.location?.line, 4);
    return true;
  });
});

test('Parquet: a truncated or non-Parquet file is an error naming the file', async () => {
  const bytes = readFileSync(join(PQ, 'digits-logreg-wide.snappy.parquet'));
  for (const [name, content] of [
    ['truncated.parquet', bytes.subarray(0, bytes.length - 100)],
    ['text.parquet', Buffer.from('id,label\n1,2\n')],
  ] as const) {
    const p = tmpFile(name, content);
    await assert.rejects(evaluateFile(p, { overrides: { task: 'classification' } }), (e: unknown) => {
      assert.ok(e instanceof EvalLensError, String(e));
      assert.equal(e.code, 'bad-parquet');
      assert.ok(
        e.message.startsWith(`${p}: cannot read the file as Parquet (expected an Apache Parquet file`),
        e.message,
      );
      return true;
    });
  }
});

test('.npz: float32 scores, big-endian int64 labels, Fortran order and text columns are read exactly', async () => {
  const csvRows = readFileSync(join(DIGITS, 'logreg.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
  const f32 = collector();
  await readTable(join(NPZ, 'digits-logreg-f32.npz'), f32);
  assert.deepEqual(f32.names, ['y_true', 'probs']);
  assert.equal(f32.rows.length, 300);
  for (let i = 0; i < 300; i++) {
    assert.equal(f32.rows[i][0], Number(csvRows[i][1]));
    assert.deepEqual(
      f32.rows[i][1],
      csvRows[i].slice(4).map((s) => Math.fround(Number(s))),
    );
  }
  const fortran = collector();
  await readTable(join(NPZ, 'digits-logreg-compressed.npz'), fortran);
  assert.deepEqual(fortran.names, ['id', 'labels', 'pred', 'split', 'probs']);
  for (let i = 0; i < 300; i++) {
    assert.deepEqual(fortran.rows[i], [
      Number(csvRows[i][0]),
      Number(csvRows[i][1]),
      Number(csvRows[i][2]),
      csvRows[i][3],
      csvRows[i].slice(4).map(Number),
    ]);
  }
});

test('.npz errors name the file, the array and its dtype or shape', async () => {
  const cases: [string, RegExp][] = [
    [
      'bad-dtype.npz',
      /bad-dtype\.npz: array "probs": unsupported dtype "<c16" \(complex128\); expected float32\/float64, int8…int64, uint8…uint64 or bool numbers/,
    ],
    ['ragged.npz', /ragged\.npz: array "probs" has 5 rows \(shape \(5, 10\)\), expected 4 as array "y_true"/],
    [
      'no-labels.npz',
      /Cannot evaluate no-labels\.npz: no label column\. Found: probs\. Accepted: label, y_true, target, gt, labels\. Set `columns\.label`/,
    ],
    [
      'bad-value.npz',
      /bad-value\.npz, row 2, column "probs": expected finite class probabilities, got NaN at position 4\./,
    ],
    [
      'not-a-zip.npz',
      /not-a-zip\.npz: cannot read the file as \.npz \(expected a zip archive of \.npy arrays, as np\.savez writes\): it does not start with a zip local header/,
    ],
  ];
  for (const [name, re] of cases) {
    await assert.rejects(
      evaluateFile(join(NPZ, name), { root: ROOT }),
      (e: unknown) => {
        assert.ok(e instanceof EvalLensError, String(e));
        assert.match(e.message, re);
        return true;
      },
      name,
    );
  }
});

test('.npz: damaged or truncated archives are errors, never wrong numbers', async () => {
  const stored = readFileSync(join(NPZ, 'digits-logreg.npz'));
  // One byte of the probs data flipped in a stored member: the CRC-32 check catches it.
  const flipped = Buffer.from(stored);
  const at = flipped.indexOf(Buffer.from('probs.npy')) + 200;
  flipped[at] ^= 0xff;
  await assert.rejects(
    readTable(tmpFile('flipped.npz', flipped), collector()),
    /flipped\.npz: array "probs": its CRC-32 checksum does not match/,
  );
  const deflated = readFileSync(join(NPZ, 'digits-logreg-compressed.npz'));
  await assert.rejects(
    readTable(tmpFile('cut.npz', deflated.subarray(0, deflated.length >> 1)), collector()),
    /cut\.npz: cannot read the file as \.npz .*no end-of-central-directory record/,
  );
});

test('columns in the config name .npz arrays as they name columns', async () => {
  const src = readFileSync(join(NPZ, 'digits-logreg-compressed.npz'));
  const p = tmpFile('renamed.npz', src);
  const cfg = join(DIGITS, 'eval-lens.json');
  const named = await evaluateFile(p, {
    configPath: cfg,
    root: '/',
    overrides: { bootstrap: { n: 0 }, columns: { label: 'labels', probsArray: 'probs', pred: 'pred' } },
  });
  const csv = await evaluateFile(join(DIGITS, 'logreg.csv'), {
    configPath: cfg,
    root: ROOT,
    overrides: { bootstrap: { n: 0 } },
  });
  assert.equal(JSON.stringify(named.metrics), JSON.stringify(csv.metrics));
  assert.equal(named.source.columns.label, 'labels');
});

test('golden: a ranking run, ground truth and train interactions as Parquet give the metrics of the JSONL run and CSV train file', async () => {
  const deb = join(ROOT, 'examples/ranking-debian-deps');
  const common = {
    task: 'ranking',
    k: [5, 10, 20],
    coldThreshold: 5,
    mapNormaliser: 'min',
    gain: 'linear',
    bootstrap: { n: 200, seed: 1 },
  };
  const jsonlCfg = tmpFile('eval-lens.json', JSON.stringify({ ...common, train: join(deb, '_train.csv') }));
  const pqCfg = tmpFile(
    'eval-lens.json',
    JSON.stringify({ ...common, relevant: join(PQ, 'debian-gt.parquet'), train: join(PQ, 'debian-train.parquet') }),
  );
  const a = await evaluateFile(join(deb, 'cooccurrence.jsonl'), { configPath: jsonlCfg, root: '/' });
  const b = await evaluateFile(join(PQ, 'debian-run.parquet'), { configPath: pqCfg, root: '/' });
  assert.equal(b.source.format, 'parquet');
  assert.equal(b.source.rows, 1202 * 20);
  assert.ok(JSON.stringify(a.metrics).length > 1000);
  assert.equal(JSON.stringify(b.metrics), JSON.stringify(a.metrics));
  assert.equal(await detectTask(join(PQ, 'debian-run.parquet'), {}), 'ranking');
});

test('golden: a ranking run with one user a row (items and relevant as list columns) gives the metrics of the JSONL run', async () => {
  const deb = join(ROOT, 'examples/ranking-debian-deps');
  const cfg = tmpFile(
    'eval-lens.json',
    JSON.stringify({
      task: 'ranking',
      k: [5, 10, 20],
      coldThreshold: 5,
      mapNormaliser: 'min',
      gain: 'linear',
      train: join(deb, '_train.csv'),
      bootstrap: { n: 200, seed: 1 },
    }),
  );
  const a = await evaluateFile(join(deb, 'cooccurrence.jsonl'), { configPath: cfg, root: '/' });
  const b = await evaluateFile(join(PQ, 'debian-lists.parquet'), { configPath: cfg, root: '/' });
  assert.equal(b.source.format, 'parquet');
  assert.equal(b.source.rows, 1202);
  assert.deepEqual(b.source.columns, a.source.columns);
  assert.ok(JSON.stringify(a.metrics).length > 1000);
  assert.equal(JSON.stringify(b.metrics), JSON.stringify(a.metrics));
  assert.deepEqual(b.perItem, a.perItem);
  // The same lists written by pyarrow (list<string>, zstd).
  const c = await evaluateFile(join(PQ, 'python', 'pyarrow-lists.parquet'), { configPath: cfg, root: '/' });
  assert.equal(JSON.stringify(c.metrics), JSON.stringify(a.metrics));
  assert.equal(await detectTask(join(PQ, 'debian-lists.parquet'), {}), 'ranking');
  const bad = join(PQ, 'bad-list.parquet');
  await assert.rejects(
    evaluateFile(bad, { overrides: { task: 'ranking' }, root: '/' }),
    (e: unknown) =>
      e instanceof EvalLensError && e.message.startsWith(`${bad}, row 2: expected an "items" key with the ranked list`),
  );
});

test('ranking Parquet: a bad value is reported by data row', async () => {
  const cfg = tmpFile('eval-lens.json', JSON.stringify({ task: 'ranking', relevant: join(PQ, 'debian-gt.parquet') }));
  await assert.rejects(
    evaluateFile(join(PQ, 'bad-rank.parquet'), { configPath: cfg, root: '/' }),
    (e: unknown) =>
      e instanceof EvalLensError &&
      e.message ===
        `${join(PQ, 'bad-rank.parquet')}, row 2, column "rank": expected a finite number, got an empty cell.`,
  );
});
