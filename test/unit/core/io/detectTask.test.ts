// detectTask: the documented peek rule, and fileInfo.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { detectTask } from '../../../../src/core/io/detectTask';
import { fileInfo } from '../../../../src/core/io/fileInfo';
import { configOf } from '../../helpers/ioConfig';
import { tmpFile } from '../../helpers/io';

const cfg = configOf();

test('JSONL / JSON with items → ranking; stratum → iw-binary; user+item → ranking', async () => {
  assert.equal(
    await detectTask(tmpFile('r.jsonl', '\n{"user":"u1","items":["a","b"],"relevant":["a"]}\n'), cfg),
    'ranking',
  );
  assert.equal(await detectTask(tmpFile('r.json', '[{"user":"u1","items":["a"]}]'), cfg), 'ranking');
  assert.equal(await detectTask(tmpFile('s.jsonl', '{"label":1,"score":0.3,"stratum":"B"}\n'), cfg), 'iw-binary');
  assert.equal(await detectTask(tmpFile('c.jsonl', '{"label":1,"probs":[0.1,0.9]}\n'), cfg), 'classification');
  const big = '[' + Array.from({ length: 5000 }, (_, i) => `{"user":"u${i}","items":["a","b","c"]}`).join(',') + ']';
  assert.equal(await detectTask(tmpFile('big.json', big), cfg), 'ranking'); // beyond the 64 KiB peek
});

test('TREC run (6 whitespace fields, numeric rank and score) → ranking', async () => {
  assert.equal(await detectTask(tmpFile('run.txt', 'q1 Q0 d3 1 12.5 bm25\nq1 Q0 d9 2 11.0 bm25\n'), cfg), 'ranking');
  assert.equal(await detectTask(tmpFile('run', 'q1\tQ0\td3\t1\t12.5\tbm25\n'), cfg), 'ranking');
  assert.equal(await detectTask(tmpFile('notes.txt', 'hello world\n'), cfg), 'classification');
});

test('CSV headers: stratum → iw-binary (also via columns.stratum); user,item → ranking; else classification', async () => {
  assert.equal(await detectTask(tmpFile('a.csv', '\uFEFFlabel,score,Stratum\n1,0.2,B\n'), cfg), 'iw-binary');
  assert.equal(
    await detectTask(tmpFile('b.csv', 'label,score,sel\n1,0.2,B\n'), configOf({ columns: { stratum: 'sel' } })),
    'iw-binary',
  );
  assert.equal(await detectTask(tmpFile('c.csv', 'user,item,rank\nu,i,1\n'), cfg), 'ranking');
  assert.equal(await detectTask(tmpFile('d.tsv', 'label\tpred\n1\t1\n'), cfg), 'classification');
  assert.equal(await detectTask(tmpFile('e.csv', 'id,label,prob_0,prob_1\n'), cfg), 'classification');
  assert.equal(
    await detectTask(tmpFile('f.csv', 'label,score,stratum\n'), configOf({ task: 'classification' })),
    'classification',
  );
});

test('fileInfo: size and streaming SHA-256 (small files here, large ones in a worker thread)', async () => {
  for (const size of [0, 3 * 1024 * 1024 + 7, 17 * 1024 * 1024 + 3]) {
    const content = Buffer.alloc(size, 'ab');
    const info = await fileInfo(tmpFile('x.bin', content));
    assert.equal(info.size, content.length);
    assert.equal(info.sha256, createHash('sha256').update(content).digest('hex'));
  }
  await assert.rejects(fileInfo('/nonexistent/file.csv'), /Cannot read \/nonexistent\/file.csv: no such file/);
});
