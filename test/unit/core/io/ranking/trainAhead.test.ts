// A train file read ahead on a worker thread (while the run is read) gives exactly what reading it
// in turn gives: every user and item gets the same integer (the ids the run already met keep
// theirs, new ones follow in the order the train file first mentions them), the same rows, hash,
// warnings and error, on random CSV/TSV files with unicode ids, quoted cells, spaces, blank lines
// and CRLF endings; and it hashes the run after the train file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { EvalLensError, Warnings } from '../../../../../src/core/diagnostics';
import { IdIndex } from '../../../../../src/core/data/rankingData';
import type { RankingReadContext } from '../../../../../src/core/io/ranking/jsonl';
import { TrainAhead } from '../../../../../src/core/io/ranking/trainAhead';
import { readTrainRows, trainSpec, type TrainRows } from '../../../../../src/core/io/ranking/trainRows';
import { createRng, type Rng } from '../../../../../src/core/stats/rng';
import { configOf } from '../../../helpers/ioConfig';
import { tmpFile } from '../../../helpers/io';
import { bundledWorker } from '../../../helpers/bundledWorker';

const workerFile = bundledWorker('src/core/io/ranking/trainReadWorker.ts');
const spec = trainSpec(configOf({ task: 'ranking' }));

const IDS = ['u1', 'u2', 'é', '日本', '🙂', 'a-long-identifier-of-a-user-42', '7', 'x y', 'i1', 'i2', 'i3'];

function pick<T>(rng: Rng, xs: readonly T[]): T {
  return xs[rng.int(xs.length)];
}

/** A context whose indices already hold some ids, as after the run was read. */
function contextAfterRun(rng: Rng): RankingReadContext {
  const ctx: RankingReadContext = { users: new IdIndex(), items: new IdIndex(), warnings: new Warnings() };
  for (let k = rng.int(6); k > 0; k--) ctx.users.intern(pick(rng, IDS));
  for (let k = rng.int(6); k > 0; k--) ctx.items.intern(pick(rng, IDS));
  return ctx;
}

function cell(rng: Rng, id: string, delim: string): string {
  const r = rng.next();
  if (r < 0.1) return `"${id.replace(/"/g, '""')}"`;
  if (r < 0.2) return ` ${id} `;
  return id.includes(delim) ? `"${id}"` : id;
}

function randomTrain(rng: Rng): string {
  const tsv = rng.next() < 0.3;
  const d = tsv ? '\t' : ',';
  const eol = rng.next() < 0.3 ? '\r\n' : '\n';
  let text = `${pick(rng, ['user', 'user_id', 'uid'])}${d}${pick(rng, ['item', 'item_id'])}${eol}`;
  const rows = rng.int(300);
  let user = pick(rng, IDS);
  for (let r = 0; r < rows; r++) {
    if (rng.next() < 0.3) user = pick(rng, IDS);
    if (rng.next() < 0.03) text += eol;
    text += `${cell(rng, user, d)}${d}${cell(rng, pick(rng, IDS), d)}${eol}`;
  }
  if (rng.next() < 0.1) text += `only-one-cell${eol}`;
  return text;
}

async function outcome(read: () => Promise<TrainRows | null>, ctx: RankingReadContext): Promise<unknown> {
  try {
    const t = await read();
    assert.ok(t, 'the worker read the file');
    return {
      rows: t.rows,
      users: Array.from(t.users.toArray()),
      items: Array.from(t.items),
      size: t.size,
      sha256: t.sha256,
      userIds: ctx.users.ids,
      itemIds: ctx.items.ids,
      warnings: ctx.warnings.list,
    };
  } catch (e) {
    if (!(e instanceof EvalLensError)) throw e;
    return { error: { code: e.code, message: e.message, location: e.location } };
  }
}

test('a train file read ahead on a worker equals reading it in turn, on random files', async () => {
  const rng = createRng(2611);
  let errors = 0;
  for (let c = 0; c < 25; c++) {
    const path = tmpFile(rng.next() < 0.5 ? 'train.csv' : 'train.tsv', randomTrain(rng));
    const seed = rng.int(1 << 30);
    const one = contextAfterRun(createRng(seed));
    const many = contextAfterRun(createRng(seed));
    const inTurn = await outcome(() => readTrainRows(path, 'train.csv', spec, one), one);
    const ahead = await TrainAhead.start({ path, label: 'train.csv', spec }, { minBytes: 0, threads: 2, workerFile });
    assert.ok(ahead);
    const read = await outcome(() => ahead.join(many), many);
    assert.deepEqual(read, inTurn, `case ${c}`);
    if ((inTurn as { error?: unknown }).error) errors++;
  }
  assert.ok(errors > 0 && errors < 10, `files with an error: ${errors}`);
});

test('a train file read ahead: hand-made ids keep the numbers the run gave them', async () => {
  const path = tmpFile('train.csv', 'user,item\nu9,b\nu9,a\nu1,c\nu9,b\n');
  const ctx: RankingReadContext = { users: new IdIndex(), items: new IdIndex(), warnings: new Warnings() };
  ctx.users.intern('u1');
  ctx.items.intern('a');
  const runText = '{"user": "u1", "items": ["a"]}\n';
  const run = tmpFile('run.jsonl', runText);
  const ahead = await TrainAhead.start(
    { path, label: 'train.csv', spec, hashAfter: run },
    { minBytes: 0, threads: 2, workerFile },
  );
  const t = await ahead!.join(ctx);
  // The run hashed by the worker after the train file: its size and SHA-256.
  assert.deepEqual(ahead!.afterHash, {
    size: Buffer.byteLength(runText),
    sha256: createHash('sha256').update(runText).digest('hex'),
  });
  assert.deepEqual(ctx.users.ids, ['u1', 'u9']);
  assert.deepEqual(ctx.items.ids, ['a', 'b', 'c']);
  assert.deepEqual(Array.from(t!.users.toArray()), [1, 1, 0, 1]);
  assert.deepEqual(Array.from(t!.items), [1, 0, 2, 1]);
  assert.equal(t!.rows, 4);
});

test('a train file read ahead: a worker that fails leaves the file to the calling thread, with a note', async () => {
  const path = tmpFile('train.csv', 'user,item\nu1,a\n');
  const broken = tmpFile('broken.js', 'throw new Error("no such module");');
  const ctx: RankingReadContext = { users: new IdIndex(), items: new IdIndex(), warnings: new Warnings() };
  const ahead = await TrainAhead.start(
    { path, label: 'train.csv', spec },
    { minBytes: 0, threads: 2, workerFile: broken },
  );
  assert.equal(await ahead!.join(ctx), null);
  assert.deepEqual(
    ctx.warnings.list.map((w) => w.code),
    ['read-worker-fallback'],
  );
  // Below the size threshold, on one core, or without the file: read in turn.
  assert.equal(await TrainAhead.start({ path, label: 'train.csv', spec }, { threads: 2, workerFile }), null);
  assert.equal(
    await TrainAhead.start({ path, label: 'train.csv', spec }, { minBytes: 0, threads: 1, workerFile }),
    null,
  );
  assert.equal(
    await TrainAhead.start({ path: path + '.none', label: 'x', spec }, { minBytes: 0, threads: 2, workerFile }),
    null,
  );
});
