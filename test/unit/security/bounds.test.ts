// What a file or a config can ask for is bounded: each case is an input error naming the key or
// the line, within a second, not minutes of work, gigabytes of memory or a stack overflow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EvalLensError } from '../../../src/core/diagnostics';
import { checkConfig } from '../../../src/core/config/check';
import { evaluateFile } from '../../../src/core/evaluate';
import { loadConfigFile } from '../../../src/core/config/load';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tmpFile } from '../helpers/io';

async function inputError(p: Promise<unknown>): Promise<EvalLensError> {
  const t0 = Date.now();
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof EvalLensError, `an input error, got ${String(e)}`);
    assert.ok(Date.now() - t0 < 5000, `within seconds (took ${Date.now() - t0} ms)`);
    return e;
  }
  assert.fail('expected an input error');
}

test('T above 10,000 and ranking k above 100,000 are config errors naming the key', () => {
  assert.throws(() => checkConfig({ T: 10001 }, 'flags'), /`T`.*10000/);
  assert.doesNotThrow(() => checkConfig({ T: 10000 }, 'flags'));
  assert.throws(() => checkConfig({ k: [10, 100001] }, 'flags'), /`k\[1\]`.*100000/);
  assert.doesNotThrow(() => checkConfig({ k: [100000] }, 'flags'));
  assert.throws(() => checkConfig({ topK: [100001] }, 'flags'), /`topK\[0\]`.*100000/);
});

test('more than 10,000 classes: an input error (the dense confusion matrix would need C² cells)', async () => {
  const rows = ['label,pred'];
  for (let i = 0; i < 10001; i++) rows.push(`c${i},c${(i + 1) % 10001}`);
  const e = await inputError(
    evaluateFile(tmpFile('many.csv', rows.join('\n') + '\n'), { overrides: { bootstrap: { n: 0 } } }),
  );
  assert.equal(e.code, 'too-many-classes');
  assert.match(e.message, /10001 classes/);
  assert.match(e.message, /10000/);
});

test('JSON nested deeper than 1,000 levels in a cell or a config: an input error, no stack overflow', async () => {
  const deep = '['.repeat(5000) + ']'.repeat(5000);
  const cell = await inputError(
    evaluateFile(tmpFile('deep.csv', `label,probs\n0,"${deep}"\n`), { overrides: { bootstrap: { n: 0 } } }),
  );
  assert.equal(cell.location?.line, 2);
  assert.match(cell.message, /nested deeper than 1000/);
  const cfg = await inputError(loadConfigFile(tmpFile('eval-lens.json', `{"columns": ${deep}}`)));
  assert.match(cfg.message, /nested deeper than 1000/);
  assert.equal(cfg.location?.line, 1);
});

test('ranking K above the longest list: curves and baselines stop at the longest list, with a note; the metrics at K stay', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-kcap-'));
  try {
    // u1 lists a, b, c (relevant b); u2 lists a, c (relevant f). Longest list: 3.
    writeFileSync(
      join(dir, 'run.jsonl'),
      '{"user":"u1","items":["a","b","c"],"relevant":["b"]}\n{"user":"u2","items":["a","c"],"relevant":["f"]}\n',
    );
    // Train counts: b 2; a, d, e, f, g 1. Popularity lists (seen items left out, ties by id):
    // u1 (seen a) b, d, e, f, g; u2 (seen b) a, d, e, f, g — f is 4th, past the longest list.
    writeFileSync(join(dir, 'train.csv'), 'user,item\nu1,a\nu2,b\nu3,b\nu3,d\nu3,e\nu3,f\nu3,g\n');
    writeFileSync(
      join(dir, 'eval-lens.json'),
      // maskSeen: false keeps u1's seen item a in its list, so that the longest list stays 3 long.
      JSON.stringify({ task: 'ranking', k: [2, 99999], train: 'train.csv', maskSeen: false, bootstrap: { n: 0 } }),
    );
    const t0 = Date.now();
    const r = await evaluateFile(join(dir, 'run.jsonl'));
    assert.ok(Date.now() - t0 < 5000, `took ${Date.now() - t0} ms`);
    assert.equal(r.metrics['recall@99999']!.value, (1 + 0) / 2);
    assert.equal(r.metrics['precision@99999']!.value, (1 / 99999 + 0) / 2, 'precision@K still divides by K');
    const curve = r.curves['metricVsK.recall']!;
    assert.deepEqual(curve.xs, [1, 2, 3]);
    assert.deepEqual(curve.ys, [0, 1 / 2, 1 / 2], "b is 2nd in u1's list; f is never listed for u2");
    assert.equal(curve.extra!.popularity!.length, 3);
    // The popularity baseline recommends 3 items, as many as the run's longest list: f (4th) is a miss.
    assert.equal(r.baselines!.popularity!['recall@99999']!.value, (1 + 0) / 2);
    assert.equal(r.baselines!.popularity!['recall@2']!.value, (1 + 0) / 2);
    const w = r.warnings.find((x) => x.code === 'k-above-longest-list');
    assert.ok(w, JSON.stringify(r.warnings.map((x) => x.code)));
    assert.match(w.message, /K = 99999 of `k` is above the longest list \(3 items\)/);
    assert.ok(JSON.stringify(r).length < 100_000, `results of ${JSON.stringify(r).length} characters`);
    // Without `k`: the default cutoffs.
    writeFileSync(join(dir, 'eval-lens.json'), JSON.stringify({ task: 'ranking', bootstrap: { n: 0 } }));
    const d = await evaluateFile(join(dir, 'run.jsonl'));
    const wd = d.warnings.find((x) => x.code === 'k-above-longest-list');
    assert.match(wd?.message ?? '', /K = 5, 10, 20, 50 of `k` are above the longest list \(3 items\)/);
    assert.deepEqual(d.curves['metricVsK.recall']!.xs, [1, 2, 3]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ranking K of 100,000 over short lists: per-user work follows the lists, not K (novelty and diversity included)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-kwork-'));
  try {
    // 10,000 users with 3-item lists over 50 items; train counts and 2-d item vectors for every item (a JSON object).
    const users = 10_000;
    const lines: string[] = [];
    const train = ['user,item'];
    for (let u = 0; u < users; u++) {
      const items = [u % 50, (u * 7 + 1) % 50, (u * 13 + 2) % 50].map((i) => `"i${i}"`);
      lines.push(`{"user":"u${u}","items":[${[...new Set(items)].join(',')}],"relevant":["i${(u * 3) % 50}"]}`);
      train.push(`u${u},i${(u * 11 + 5) % 50}`);
    }
    const emb = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`i${i}`, [Math.cos(i), Math.sin(i)]]));
    writeFileSync(join(dir, 'run.jsonl'), lines.join('\n') + '\n');
    writeFileSync(join(dir, 'train.csv'), train.join('\n') + '\n');
    writeFileSync(join(dir, 'items.json'), JSON.stringify(emb));
    const config = { task: 'ranking', train: 'train.csv', itemEmbeddings: 'items.json', bootstrap: { n: 0 } };
    writeFileSync(join(dir, 'eval-lens.json'), JSON.stringify({ ...config, k: [3, 100000] }));
    const t0 = Date.now();
    const r = await evaluateFile(join(dir, 'run.jsonl'));
    const ms = Date.now() - t0;
    assert.ok(ms < 5000, `took ${ms} ms`);
    // Past the end of every list nothing changes: the values at K = 100,000 are those at K = 3
    // (precision aside, which divides by K).
    for (const m of ['recall', 'ndcg', 'hit_rate', 'novelty', 'diversity', 'coverage'])
      assert.equal(r.metrics[`${m}@100000`]!.value, r.metrics[`${m}@3`]!.value, m);
    const p = r.metrics['precision@100000']!.value!;
    const expected = (r.metrics['precision@3']!.value! * 3) / 100000;
    assert.ok(Math.abs(p - expected) <= 1e-12 * expected, `${p} vs ${expected}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('JSON nested deeper than 1,000 levels in a .json input or a JSONL line: an input error naming the line', async () => {
  const deep = '['.repeat(5000) + ']'.repeat(5000);
  const doc = await inputError(
    evaluateFile(tmpFile('deep.json', `[\n  {"label": "a", "pred": "a"},\n  {"label": ${deep}, "pred": "a"}\n]\n`)),
  );
  assert.equal(doc.code, 'json-too-deep');
  assert.equal(doc.location?.line, 3);
  assert.match(doc.message, /deep\.json:3: .*nested at most 1000/);
  const line = await inputError(
    evaluateFile(tmpFile('deep.jsonl', `{"label": "a", "pred": "a"}\n{"label": ${deep}, "pred": "a"}\n`)),
  );
  assert.equal(line.code, 'json-too-deep');
  assert.equal(line.location?.line, 2);
  // 1,000 levels are accepted (then the value is simply not a label)
  const ok = '['.repeat(999) + ']'.repeat(999);
  const at = await inputError(evaluateFile(tmpFile('ok.jsonl', `{"label": "a", "pred": "a"}\n{"label": ${ok}}\n`)));
  assert.notEqual(at.code, 'json-too-deep');
});

test('a .json input larger than 256 MB: an input error pointing to JSONL, before anything is read', async () => {
  // A sparse file: its size is 257 MB, none of it on disk; reading it would take seconds and memory.
  const path = tmpFile('huge.json', '');
  truncateSync(path, 257 * 2 ** 20);
  const e = await inputError(evaluateFile(path));
  assert.equal(e.code, 'json-too-large');
  assert.match(e.message, /257 MB, more than the 256 MB read as one JSON document\. Save the rows as JSONL/);
});
