// Parquet, .npz and .npy files that declare far more than they hold, or are malformed in ways a
// reader could trip on (issue 31, items 4, 6, 8 and 11): each is an input error naming the file
// and what is wrong — checked before anything of the declared size is allocated — and the bombs
// end, through the built CLI under a memory limit, in an exit 1 with at most 512 MB resident
// (the time and the peak memory of each are printed). The files are written by
// test/unit/helpers/hostileBinaries.ts, in the test (none is committed: the largest, the NPZ inflate bomb, is about 1 MB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { EvalLensError } from '../../../src/core/diagnostics';
import { evaluateFile } from '../../../src/core/evaluate';
import { readTable } from '../../../src/core/io/table';
import { parseNpyArray } from '../../../src/core/io/npy';
import { collector, tmpFile } from '../helpers/io';
import {
  PQ,
  classificationColumns,
  classificationParquet,
  npyBytes,
  npzBombs,
  parquetBombs,
  parquetFile,
  plainInt32,
  pqPage,
  schemaElement,
  zipBytes,
} from '../helpers/hostileBinaries';

const ROOT = join(__dirname, '../../..');

async function inputError(path: string): Promise<EvalLensError> {
  try {
    await evaluateFile(path, { overrides: { bootstrap: { n: 0 } }, root: join(path, '..') });
  } catch (e) {
    assert.ok(e instanceof EvalLensError, `an input error, got ${(e as Error)?.stack ?? String(e)}`);
    assert.ok(e.message.includes(basename(path)), `the message names the file: ${e.message}`);
    assert.doesNotMatch(e.message, /bug/i);
    return e;
  }
  return assert.fail(`expected an input error for ${path}`);
}

test('Parquet bombs: declared rows, dictionary runs and zstd frames are refused before they are allocated', async () => {
  const expected: Record<string, RegExp> = {
    'row-group-2e31.parquet': /declares 2147483647 rows in \d+ bytes \(at most 1024 rows a byte of the file/,
    'dictionary-run.parquet': /declares 2147483647 rows in \d+ bytes/,
    'dictionary-run-small-group.parquet':
      /column "label" of row group 1: an RLE run of 2147483647 dictionary indices where 4 remain in the page/,
    'rows-134M.parquet': /declares 134217728 rows in \d+ bytes/,
    'zstd-frames.parquet': /column "label" of row group 1: zstd frames declare more than the page's 1024 bytes/,
  };
  for (const b of parquetBombs()) {
    const e = await inputError(tmpFile(b.name, b.bytes));
    assert.equal(e.code, 'bad-parquet', e.message);
    assert.match(e.message, expected[b.name]!, b.name);
  }
});

test('NPZ bombs: entries sharing one member and a member inflating past its declared size are refused', async () => {
  const [overlap, inflate] = npzBombs();
  const e1 = await inputError(tmpFile(overlap!.name, overlap!.bytes));
  assert.equal(e1.code, 'bad-npz');
  assert.match(e1.message, /the zip entries "y_true\.npy" and "a0\.npy" share the same bytes \(overlapping entries/);
  const e2 = await inputError(tmpFile(inflate!.name, inflate!.bytes));
  assert.equal(e2.code, 'bad-npz');
  assert.match(e2.message, /array "y_true": it inflates to more than the 1024 bytes it declares/);
  // a declared size deflate cannot reach from the compressed bytes: refused without inflating
  const small = zipBytes([{ name: 'y_true.npy', data: Buffer.alloc(10), deflate: true, size: 2 ** 30 }]);
  const e3 = await inputError(tmpFile('declared-1GB.npz', small));
  assert.match(
    e3.message,
    /declares 1073741824 bytes once uncompressed, more than deflate can encode in its \d+ bytes/,
  );
});

/** Peak resident memory (KB) and seconds of a command, from /usr/bin/time -v when present. */
function measured(args: string[]): { status: number | null; stderr: string; seconds: number; kb: number | null } {
  const time = existsSync('/usr/bin/time');
  const t0 = process.hrtime.bigint();
  const r = time
    ? spawnSync('/usr/bin/time', ['-v', process.execPath, ...args], { cwd: ROOT, encoding: 'utf8' })
    : spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1];
  return { status: r.status, stderr: r.stderr, seconds, kb: kb === undefined ? null : Number(kb) };
}

test(
  'every bomb, through the built CLI: exit 1 with a message naming the file, at most 512 MB resident',
  { skip: !existsSync(join(ROOT, 'dist/cli.js')) && 'dist/ is not built (npm run build)', timeout: 180_000 },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-bombs-'));
    try {
      for (const b of [...parquetBombs(), ...npzBombs()]) {
        const file = join(dir, b.name);
        writeFileSync(file, b.bytes);
        const r = measured(['--max-old-space-size=512', 'bin/eval-lens.js', 'evaluate', file, '--bootstrap-n', '0']);
        const mb = r.kb === null ? 'n/a' : (r.kb / 1024).toFixed(0);
        console.log(
          `  ${b.name} (${b.bytes.length} bytes): exit ${r.status}, ${r.seconds.toFixed(2)} s, peak ${mb} MB`,
        );
        assert.equal(r.status, 1, r.stderr);
        assert.match(r.stderr, new RegExp(`^eval-lens: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `, 'm'));
        assert.doesNotMatch(r.stderr, /unexpected|bug|out of memory/i);
        if (r.kb !== null) assert.ok(r.kb <= 512 * 1024, `${b.name}: peak ${mb} MB`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('malformed Parquet schemas are input errors naming the file: too few children, empty, 20,000 levels deep', async () => {
  const cols = classificationColumns(4);
  const tooFew = parquetFile({
    groups: [],
    numRows: 0,
    schema: [schemaElement({ name: 'schema', children: 9 }), schemaElement({ name: 'label', type: PQ.INT32 })],
  });
  assert.match(
    (await inputError(tmpFile('few-children.parquet', tooFew))).message,
    /schema element "schema" declares 9 children but the schema ends after 1/,
  );
  const empty = parquetFile({ groups: [], numRows: 0, schema: [] });
  assert.match((await inputError(tmpFile('empty-schema.parquet', empty))).message, /has an empty schema/);
  const deep = [
    ...Array.from({ length: 20000 }, (_, i) => schemaElement({ name: `g${i}`, children: 1, repetition: PQ.OPTIONAL })),
    schemaElement({ name: 'label', type: PQ.INT32, repetition: PQ.OPTIONAL }),
  ];
  const e = await inputError(tmpFile('deep.parquet', parquetFile({ groups: [], numRows: 0, schema: deep })));
  assert.match(e.message, /nests its schema more than 1000 levels deep/);
  // elements past the root's declared columns
  const extra = parquetFile({
    groups: [{ rows: 4, columns: cols }],
    schema: [
      schemaElement({ name: 'schema', children: 4 }),
      ...cols.map((c) => schemaElement({ name: c.name, type: c.type, repetition: PQ.REQUIRED })),
      schemaElement({ name: 'stray', type: PQ.INT32 }),
    ],
  });
  assert.match(
    (await inputError(tmpFile('extra.parquet', extra))).message,
    /has 1 schema elements after the 4 columns its root declares/,
  );
});

test('a Parquet row group whose column holds fewer or more values than its rows is an error, not read silently', async () => {
  const fewer = classificationColumns(5, 0, 4); // 4 values a column
  const e1 = await inputError(tmpFile('fewer.parquet', parquetFile({ groups: [{ rows: 5, columns: fewer }] })));
  assert.match(e1.message, /column "label" of row group 1 holds 4 values, but the row group declares 5 rows/);
  const more = classificationColumns(4);
  more[1] = { name: 'pred', type: PQ.INT32, pages: pqPage({ values: 5, data: plainInt32([0, 1, 0, 1, 1]) }) };
  const e2 = await inputError(tmpFile('more.parquet', parquetFile({ groups: [{ rows: 4, columns: more }] })));
  assert.match(e2.message, /column "pred" of row group 1: its pages hold more values than the row group's 4 rows/);
  // a second page past the rows
  const twice = classificationColumns(4);
  twice[0] = {
    ...twice[0]!,
    pages: Buffer.concat([twice[0]!.pages, pqPage({ values: 1, data: plainInt32([1]) })]),
  };
  const e3 = await inputError(tmpFile('extra-page.parquet', parquetFile({ groups: [{ rows: 4, columns: twice }] })));
  assert.match(e3.message, /column "label" of row group 1: its pages hold more values than the row group's 4 rows/);
});

// Quadratic reading took 25 s for 20,000 groups (100 s for 40,000), 35 s for 40,000 columns; linear, a few seconds.
test(
  'Parquet reading is linear in row groups and columns: 40,000 one-row groups, 40,000 columns',
  { timeout: 45_000 },
  async () => {
    const groups = tmpFile('groups.parquet', classificationParquet(40000, 1));
    let t0 = Date.now();
    const c = collector();
    assert.equal((await readTable(groups, c)).rows, 40000);
    assert.deepEqual(c.rows[39999], [1, 0, 0.75, 0.25]);
    console.log(`  40,000 row groups of one row: ${Date.now() - t0} ms`);
    const cols = classificationColumns(4);
    for (let i = 0; i < 40000; i++)
      cols.push({ name: `x${i}`, type: PQ.INT32, pages: pqPage({ values: 4, data: plainInt32([i, i, i, i]) }) });
    const wide = tmpFile('wide.parquet', parquetFile({ groups: [{ rows: 4, columns: cols }] }));
    t0 = Date.now();
    const w = collector();
    assert.equal((await readTable(wide, w)).rows, 4);
    assert.equal(w.names.length, 40004);
    assert.equal(w.rows[3]![40003], 39999);
    console.log(`  40,004 columns: ${Date.now() - t0} ms`);
  },
);

test('NPZ and zip malformations are input errors naming the file: code point 0x110000, an extra field past the end', async () => {
  const text = Buffer.alloc(8);
  text.writeUInt32LE(0x41, 0);
  text.writeUInt32LE(0x110000, 4);
  const labels = npyBytes("{'descr': '<U2', 'fortran_order': False, 'shape': (1,), }", text);
  const probs = npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", Buffer.alloc(8));
  const u = zipBytes([
    { name: 'y_true.npy', data: labels },
    { name: 'probs.npy', data: probs },
  ]);
  const e = await inputError(tmpFile('codepoint.npz', u));
  assert.equal(e.code, 'bad-npy');
  assert.match(
    e.message,
    /array "y_true": row 1 holds the code point 0x110000 in a <U2 string \(expected Unicode text/,
  );
  const extra = zipBytes([{ name: 'y_true.npy', data: labels }], { extraLength: 0xffff });
  const e2 = await inputError(tmpFile('extra.npz', extra));
  assert.equal(e2.code, 'bad-npz');
  assert.match(
    e2.message,
    /central directory entry 1 declares a name, extra field and comment of \d+ bytes, past the end/,
  );
});

test('a .npy header with a repeated key uses the last value, as NumPy does', () => {
  const data = Buffer.alloc(8);
  data.writeInt32LE(7, 0);
  data.writeInt32LE(-3, 4);
  const a = parseNpyArray(
    npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'descr': '<i4', 'shape': (2,), }", data),
    'repeated.npy',
  );
  assert.equal(a.dtype, '<i4');
  assert.deepEqual(a.shape, [2]);
  assert.deepEqual(Array.from(a.data!), [7, -3]);
});

test(
  'under a virtual-memory limit of 8 GB the CLI starts (no WebAssembly at start): --version and a Parquet evaluation',
  { skip: (!existsSync(join(ROOT, 'dist/cli.js')) || process.platform !== 'linux') && 'Linux with dist/ built only' },
  () => {
    const pq = tmpFile('ok.parquet', classificationParquet(10));
    const run = (cmd: string) =>
      spawnSync('/bin/sh', ['-c', `ulimit -v 8000000 && ${cmd}`], { cwd: ROOT, encoding: 'utf8' });
    const v = run(`"${process.execPath}" bin/eval-lens.js --version`);
    assert.equal(v.status, 0, v.stderr);
    assert.equal(v.stdout.trim(), JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    const r = run(`"${process.execPath}" bin/eval-lens.js evaluate "${pq}" --bootstrap-n 0`);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /accuracy\s+0\.6000/);
  },
);
