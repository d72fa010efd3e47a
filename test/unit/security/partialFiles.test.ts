/**
 * Hostile partial files for `eval-lens merge`: everything read from an .npz is untrusted. A file
 * that is not a zip, lacks its meta, has meta that is not JSON or not of the schema, another format
 * version, an array of the wrong dtype or shape, values out of range, a run that is not a sorted
 * permutation, sums that do not describe the run, a changed config; and shards that do not fit
 * together (another class list, another config, a shard numbered twice or missing). Each gives an
 * error naming the file and what was expected, never a crash or a number.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EvalLensError } from '../../../src/core/diagnostics';
import { parseNpz } from '../../../src/core/io/npz';
import { npzBytes, type NpyDtype, type NpyOut } from '../../../src/core/io/npzWrite';
import { mergePartialFiles } from '../../../src/core/partial/merge';
import { createRng } from '../../../src/core/stats/rng';
import { partialOfFile } from '../../../src/core/partial/partial';
import { dropColumns, readText, tempDir, writeShards } from '../core/partial/shards';

const CONFIG = { task: 'classification', classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], topK: [2] };

/** Two good shards of logreg.csv (rows 1–100, 101–300) and their partial files' bytes. */
async function goodShards(config: object = CONFIG): Promise<{ dir: string; parts: Buffer[]; shards: string[] }> {
  const dir = tempDir();
  const configPath = join(dir, 'eval-lens.json');
  writeFileSync(configPath, JSON.stringify(config));
  const csv = dropColumns(readText('examples/digits-lt/logreg.csv'), ['split']);
  const { shards } = writeShards(dir, 'p', csv, [100]);
  const parts: Buffer[] = [];
  for (let i = 0; i < shards.length; i++)
    parts.push((await partialOfFile(shards[i]!, { configPath, root: '/', shard: { index: i + 1, count: 2 } })).bytes);
  return { dir, parts, shards };
}

type Arrays = Map<string, NpyOut>;

/** The archive's arrays, editable, and the archive made again from them. */
function decode(buf: Buffer): Arrays {
  const out: Arrays = new Map();
  for (const [name, a] of parseNpz(buf, 'x')) {
    const d = a.data!;
    const dtype = a.dtype as NpyDtype;
    const data =
      dtype === '<f8'
        ? Float64Array.from(d)
        : dtype === '<i4'
          ? Int32Array.from(d)
          : dtype === '<i8'
            ? BigInt64Array.from(Array.from(d, (x) => BigInt(x)))
            : Uint8Array.from(d);
    out.set(name, { dtype, shape: a.shape, data });
  }
  return out;
}
const encode = (arrays: Arrays): Buffer => npzBytes([...arrays]);
function getMeta(arrays: Arrays): Record<string, unknown> {
  return JSON.parse(Buffer.from(arrays.get('meta')!.data as Uint8Array).toString('utf8')) as Record<string, unknown>;
}
function setMeta(arrays: Arrays, meta: unknown): void {
  const bytes = new Uint8Array(Buffer.from(typeof meta === 'string' ? meta : JSON.stringify(meta), 'utf8'));
  arrays.set('meta', { dtype: '|u1', shape: [bytes.length], data: bytes });
}

/** Merges `first` (edited) with the good second shard; the error must match `message` and name the file. */
async function rejects(
  edit: (arrays: Arrays) => void,
  message: RegExp,
  opts: { raw?: Buffer; alone?: boolean } = {},
): Promise<void> {
  const { dir, parts } = await goodShards();
  let bytes = opts.raw;
  if (!bytes) {
    const arrays = decode(parts[0]!);
    edit(arrays);
    bytes = encode(arrays);
  }
  const bad = join(dir, 'bad.npz');
  const good = join(dir, 'good.npz');
  writeFileSync(bad, bytes);
  writeFileSync(good, parts[1]!);
  await assert.rejects(mergePartialFiles(opts.alone ? [bad] : [bad, good]), (e: unknown) => {
    assert.ok(e instanceof EvalLensError, `an EvalLensError, got ${String(e)}`);
    assert.match(e.message, message);
    assert.ok(e.message.includes(bad), `the message names the file: ${e.message}`);
    return true;
  });
}

test('not a zip, no meta, meta not JSON', async () => {
  await rejects(() => {}, /cannot read the file as \.npz/, { raw: Buffer.from('label,pred\n1,1\n') });
  await rejects((a) => a.delete('meta'), /not an Eval Lens partial file: expected an array "meta" of uint8/);
  await rejects((a) => setMeta(a, '{"format": '), /the meta is not UTF-8 JSON/);
  await rejects(
    (a) => a.set('meta', { dtype: '<f8', shape: [2], data: Float64Array.of(1, 2) }),
    /expected an array "meta" of uint8/,
  );
  await rejects((a) => setMeta(a, '[1, 2]'), /expected meta\.format "eval-lens\/partial"/);
});

test('another format version is refused with the version expected', async () => {
  await rejects((a) => setMeta(a, { ...getMeta(a), version: 2 }), /partial format version 2, expected 1/);
});

test('meta that does not match its schema', async () => {
  await rejects((a) => setMeta(a, { ...getMeta(a), extra: 1 }), /the meta does not match the partial format/);
  await rejects((a) => {
    const m = getMeta(a);
    delete m.classes;
    setMeta(a, m);
  }, /does not match the partial format.*classes/);
  await rejects((a) => setMeta(a, { ...getMeta(a), rows: -1 }), /does not match the partial format: \/rows/);
  await rejects((a) => setMeta(a, { ...getMeta(a), task: 'ranking' }), /task "ranking", expected "classification"/);
  await rejects(
    (a) => setMeta(a, { ...getMeta(a), probScoreKind: 'entropy' }),
    /does not match the partial format: \/probScoreKind must be equal to one of the allowed values/,
  );
  // a changed config no longer has its hash
  await rejects(
    (a) => setMeta(a, { ...getMeta(a), config: { ...(getMeta(a).config as object), eceBins: 3 } }),
    /configHash is not the SHA-256 of meta\.config/,
  );
});

test('arrays of the wrong dtype or shape, unlisted or missing', async () => {
  await rejects((a) => {
    const c = a.get('run/class')!;
    a.set('run/class', { dtype: '<f8', shape: c.shape, data: Float64Array.from(c.data as Int32Array) });
  }, /the array "run\/class" is <f8 of shape \(100\), the meta says <i4 of shape \(100\)/);
  await rejects((a) => {
    const m = getMeta(a);
    const info = (m.arrays as { name: string; shape: number[] }[]).find((x) => x.name === 'sum/confusion')!;
    info.shape = [100];
    setMeta(a, m);
    a.set('sum/confusion', { dtype: '<f8', shape: [100], data: a.get('sum/confusion')!.data });
  }, /the array "sum\/confusion" is <f8 of shape \(100\), expected <f8 of shape \(10, 10\)/);
  await rejects(
    (a) => a.set('run/other', { dtype: '<f8', shape: [1], data: Float64Array.of(1) }),
    /"run\/other" is not listed/,
  );
  await rejects((a) => a.delete('run/nll'), /lists the array "run\/nll", which the archive lacks/);
  // a meta claiming more rows than the arrays hold
  await rejects((a) => {
    const m = getMeta(a);
    setMeta(a, { ...m, rows: 101, source: { ...(m.source as object), rowsUsed: 101 } });
  }, /the array "run\/key" is <i4 of shape \(100\), expected <i4 of shape \(101\)/);
});

test('values out of range, a run that is not a sorted permutation, sums that do not describe the run', async () => {
  const poke = (name: string, at: number, value: number) => (a: Arrays) => {
    (a.get(name)!.data as Float64Array | Int32Array)[at] = value;
  };
  await rejects(poke('run/class', 3, 10), /run\/class at position 3 is 10, expected a class index 0…9/);
  await rejects(poke('run/pred', 0, -1), /run\/pred at position 0 is -1/);
  await rejects(poke('run/rank', 5, 0), /run\/rank at position 5 is 0, expected 1…10/);
  await rejects(poke('run/key', 1, 0), /run\/key is not a permutation/);
  await rejects(poke('run/score', 50, 1), /run\/score is not sorted descending/);
  await rejects(poke('run/score', 50, NaN), /run\/score at position 50 is NaN, expected a finite number/);
  await rejects(poke('run/score', 0, 1.5), /run\/score at position 0 is 1\.5, expected a probability in \[0, 1\]/);
  await rejects(poke('run/score', 99, -0.5), /run\/score at position 99 is -0\.5, expected a probability/);
  await rejects(poke('run/nll', 7, Infinity), /run\/nll at position 7 is Infinity, expected a finite number/);
  await rejects(poke('sum/support', 2, 1e9), /sum\/support does not match the rows of its run \(entry 2/);
  await rejects(poke('sum/nll', 0, 1), /sum\/nll does not match the rows of its run/);
  await rejects((a) => {
    const c = a.get('run/correct')!.data as Uint8Array;
    c[0] = c[0] ? 0 : 1;
  }, /run\/correct at position 0 disagrees/);
});

test('shards that do not fit together', async () => {
  // another class list
  await rejects((a) => {
    const m = getMeta(a);
    setMeta(a, { ...m, classes: ['0', '1', '2', '3', '4', '5', '6', '7', '8', 'nine'] });
  }, /good\.npz: class list .*"9".*, expected .*"nine".* as in .*bad\.npz; list the classes in the config/);
  // another config (its hash made to match)
  const { dir, parts } = await goodShards();
  const other = (await goodShards({ ...CONFIG, eceBins: 4 })).parts[1]!;
  const a = join(dir, 'a.npz');
  const b = join(dir, 'b.npz');
  writeFileSync(a, parts[0]!);
  writeFileSync(b, other);
  await assert.rejects(
    mergePartialFiles([a, b]),
    /b\.npz: made with another config than .*a\.npz \(they differ in `eceBins`\)/,
  );
  // the same shard twice, a shard missing
  writeFileSync(b, parts[0]!);
  await assert.rejects(mergePartialFiles([a, b]), /b\.npz: --shard 1\/2 is also the shard of .*a\.npz/);
  await assert.rejects(mergePartialFiles([a]), /shard 2\/2 missing/);
  // numbered and unnumbered shards
  const { parts: plain } = await goodShards();
  const arrays = decode(plain[1]!);
  setMeta(arrays, { ...getMeta(arrays), shard: null });
  writeFileSync(b, encode(arrays));
  await assert.rejects(mergePartialFiles([a, b]), /b\.npz: made without --shard i\/N while other shards have it/);
});

test('configs and files partial does not support yet are refused, naming what', async () => {
  const dir = tempDir();
  const csv = dropColumns(readText('examples/digits-lt/logreg.csv'), ['split']);
  const { shards } = writeShards(dir, 'q', csv, [150]);
  const withConfig = async (config: object): Promise<unknown> => {
    const p = join(dir, 'c.json');
    writeFileSync(p, JSON.stringify(config));
    return partialOfFile(shards[0]!, { configPath: p, root: '/' });
  };
  await assert.rejects(
    withConfig({ ...CONFIG, trainCounts: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1] }),
    /`trainCounts` \/ `classWeights`.*not supported by `eval-lens partial` yet/,
  );
  await assert.rejects(withConfig({ ...CONFIG, score: 'margin' }), /`score` other than "msp"/);
  await assert.rejects(withConfig({ ...CONFIG, slices: ['id'] }), /`slices`/);
  // a split column
  const withSplit = join(dir, 'split.csv');
  writeFileSync(withSplit, readText('examples/digits-lt/logreg.csv'));
  await assert.rejects(
    partialOfFile(withSplit, { overrides: { classes: CONFIG.classes }, root: dir }),
    /a split column \("split"\) is not supported/,
  );
});

test('flipped bytes anywhere in a partial file give a clear error or the same results, never a crash', async () => {
  const { dir, parts } = await goodShards();
  const good = join(dir, 'good.npz');
  writeFileSync(good, parts[1]!);
  const first = join(dir, 'first.npz');
  writeFileSync(first, parts[0]!);
  const reference = await mergePartialFiles([first, good]);
  const rng = createRng(5);
  let refused = 0;
  for (let t = 0; t < 150; t++) {
    const bytes = Buffer.from(parts[0]!);
    const at = rng.int(bytes.length);
    bytes[at] ^= 1 + rng.int(255);
    const bad = join(dir, `flip${t}.npz`);
    writeFileSync(bad, bytes);
    try {
      // a flip the checks let through is one that changes nothing read (a zip header's date, a
      // version field): the results are the same
      const merged = await mergePartialFiles([bad, good]);
      assert.deepEqual(merged.metrics, reference.metrics, `byte ${at}`);
      assert.deepEqual(merged.tables, reference.tables, `byte ${at}`);
    } catch (e) {
      assert.ok(e instanceof EvalLensError, `byte ${at}: ${String(e)}`);
      assert.ok(e.message.includes(bad), `byte ${at}: the message names the file: ${e.message}`);
      refused++;
    }
  }
  // the CRC-32 of every member alone catches a flip in the stored data
  assert.ok(refused > 120, `${refused} of 150 refused`);
});
