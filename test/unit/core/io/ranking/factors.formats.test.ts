// Factor matrices as .npy, .npz (named arrays, or the file's only array), CSV with a header and TSV
// without (ids in the first column): the same float64 values and ids, hence the same lists and the
// same metrics (files written by scripts/golden/factors.py from its "random" case); bad files are
// refused with the file, the array or line, and what was expected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../../src/core/evaluate';
import { readFactorMatrix } from '../../../../../src/core/io/ranking/factors';
import { factorTopK, npyFloat64 } from '../../../helpers/factors';

const SRC = join(__dirname, '../../../../golden/factor-formats');
const golden = (
  JSON.parse(readFileSync(join(__dirname, '../../../../golden/factors.json'), 'utf8')) as Record<
    string,
    { k: number; U: number[][]; V: number[][]; train: number[][]; topk: number[][] }
  >
).random;

function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-factor-formats-'));
  cpSync(SRC, dir, { recursive: true });
  return dir;
}

test('every format reads the same matrix and ids; the lists equal the NumPy reference', async () => {
  const u = (f: string, name?: string) => readFactorMatrix(join(SRC, f), f, name);
  const npy = await u('U.npy');
  const npz = await u('factors.npz', 'user_factors');
  const csv = await u('U.csv');
  assert.equal(npy.ids, null);
  assert.equal(npz.ids, null);
  assert.deepEqual(
    csv.ids,
    golden.U.map((_, i) => `u${i}`),
  );
  for (const m of [npz.matrix, csv.matrix]) {
    assert.equal(m.rows, 40);
    assert.equal(m.cols, 8);
    assert.deepEqual([...m.data], [...npy.matrix.data]);
  }
  assert.deepEqual([...npy.matrix.data], golden.U.flat());
  const V = [await u('V.npy'), await u('factors.npz', 'item_factors'), await u('V_only.npz'), await u('V.tsv')];
  for (const m of V) assert.deepEqual([...m.matrix.data], golden.V.flat());
  assert.deepEqual(
    V[3].ids,
    golden.V.map((_, i) => `item${i}`),
  );
  const lists = factorTopK(csv.matrix, V[3].matrix, { k: golden.k, train: golden.train });
  assert.deepEqual(
    lists.items.map((a) => [...a]),
    golden.topk,
  );
});

test('the same factors as .npy, .npz and CSV/TSV give identical metrics', async () => {
  const dir = workDir();
  const base = { task: 'ranking', train: 'train.csv', relevant: 'relevant.csv', k: [1, 5, 10], bootstrap: { n: 20 } };
  const configs: Record<string, Record<string, unknown>> = {
    npy: { userFactors: 'U.npy', itemFactors: 'V.npy', userIds: 'user_ids.txt', itemIds: 'item_ids.txt' },
    npz: {
      userFactors: 'factors.npz',
      itemFactors: 'factors.npz',
      columns: { userFactors: 'user_factors', itemFactors: 'item_factors' },
      userIds: 'user_ids.txt',
      itemIds: 'item_ids.txt',
    },
    npzSingle: { userFactors: 'U.npy', itemFactors: 'V_only.npz', userIds: 'user_ids.txt', itemIds: 'item_ids.txt' },
    csv: { userFactors: 'U.csv', itemFactors: 'V.tsv' },
  };
  const results: Record<string, Awaited<ReturnType<typeof evaluateFile>>> = {};
  for (const [name, cfg] of Object.entries(configs)) {
    writeFileSync(join(dir, `${name}.json`), JSON.stringify({ ...base, ...cfg }));
    results[name] = await evaluateFile(join(dir, cfg.userFactors as string), { configPath: join(dir, `${name}.json`) });
  }
  assert.ok(Object.keys(results.npy.metrics).length > 10);
  assert.ok(results.npy.metrics['ndcg@10'] !== undefined);
  for (const name of ['npz', 'npzSingle', 'csv']) {
    assert.deepEqual(results[name].metrics, results.npy.metrics, name);
    assert.deepEqual(results[name].baselines, results.npy.baselines, name);
  }
  assert.equal(results.csv.source.columns?.userIds, 'U.csv');
  assert.equal(results.csv.source.columns?.itemIds, 'V.tsv');
  // An id list beside a CSV factor file is not read; a note says so.
  writeFileSync(
    join(dir, 'both.json'),
    JSON.stringify({ ...base, ...configs.csv, userIds: 'user_ids.txt', itemIds: 'item_ids.txt' }),
  );
  const both = await evaluateFile(join(dir, 'U.csv'), { configPath: join(dir, 'both.json') });
  assert.deepEqual(both.metrics, results.npy.metrics);
  assert.ok(
    both.warnings.some((w) => /user_ids\.txt: not read; the ids of U\.csv are the first column/.test(w.message)),
  );
});

/** A stored (uncompressed) zip of .npy members, as np.savez writes. */
function zipOf(members: Record<string, Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(members)) {
    const n = Buffer.from(name);
    const crc = crc32(data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, n, data);
    centrals.push(central, n);
    offset += 30 + n.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(members).length, 8);
  end.writeUInt16LE(Object.keys(members).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

test('bad factor files: the file, the array or line, and what was expected', async () => {
  const dir = workDir();
  const read = (name: string, text: string | Buffer, array?: string) => {
    writeFileSync(join(dir, name), text);
    return readFactorMatrix(join(dir, name), name, array);
  };
  await assert.rejects(
    readFactorMatrix(join(SRC, 'factors.npz'), 'factors.npz'),
    /factors\.npz: expected one array, got 2 \("user_factors", "item_factors"\); name the factor matrix in `columns`/,
  );
  await assert.rejects(
    readFactorMatrix(join(SRC, 'factors.npz'), 'factors.npz', 'U'),
    /factors\.npz: expected an array named "U", got the arrays "user_factors", "item_factors"/,
  );
  await assert.rejects(
    read('flat.npz', zipOf({ 'U.npy': npyFloat64([1, 2, 3], [3]) })),
    /flat\.npz: array "U": expected a 2-D array of numbers \(one row per id\), got shape \(3\) of float64/,
  );
  await assert.rejects(read('U.txt', 'x'), /U\.txt: expected a \.npy or \.npz file .* or a \.csv\/\.tsv file/);
  await assert.rejects(
    read('bad.csv', 'user,f1,f2\nu1,1,2\nu2,1,abc\n'),
    /bad\.csv:3.*column 3: expected a finite number \(factor 2\), got "abc"/,
  );
  await assert.rejects(
    read('dup.csv', 'u1,1,2\nu2,1,2\nu1,3,4\n'),
    /dup\.csv:3.*expected each id once, got "u1" again \(first on line 1\)/,
  );
  await assert.rejects(
    read('ragged.csv', 'user,f1,f2\nu1,1,2\nu2,1\n'),
    /ragged\.csv:3.*expected 3 fields \(id and 2 factors\), got 2/,
  );
  await assert.rejects(read('noid.csv', 'user,f1\n,1\n'), /noid\.csv:2.*expected an id in the first column/);
  await assert.rejects(read('one.csv', 'user\nu1\n'), /one\.csv.*expected an id and at least one factor/);
  await assert.rejects(read('empty.csv', 'user,f1\n'), /empty\.csv: the file has a header but no data rows/);
  // A headerless file: its first line is data.
  const plain = await read('plain.csv', 'a,1,2\nb,3,4.5\n');
  assert.deepEqual(plain.ids, ['a', 'b']);
  assert.deepEqual([...plain.matrix.data], [1, 2, 3, 4.5]);
  const single = await read('single.csv', 'a,1,2\n');
  assert.deepEqual(single.ids, ['a']);
  assert.deepEqual([...single.matrix.data], [1, 2]);
});
