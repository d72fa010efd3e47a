import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../../src/core/evaluate';
import { EvalLensError, Warnings } from '../../../../../src/core/diagnostics';
import type { EvalConfig } from '../../../../../src/core/config/types';
import { IdIndex, VOID_ITEM } from '../../../../../src/core/data/rankingData';
import { readJsonlRun } from '../../../../../src/core/io/ranking/jsonl';
import { parseNpy } from '../../../../../src/core/io/npy';
import { readEmbeddings } from '../../../../../src/core/io/ranking/embeddings';
import { readQrels, readTrecRun, sniffRankingFormat, trecShapeOf } from '../../../../../src/core/io/ranking/trec';
import { splitDelimited } from '../../../../../src/core/io/ranking/lines';
import { createRng } from '../../../../../src/core/stats/rng';

const SAME = join(__dirname, '../../../../fixtures/ranking/same');
const base: EvalConfig = { task: 'ranking', k: [1, 3, 5], train: 'train.csv', bootstrap: { n: 200, seed: 3 } };

async function evalSame(file: string, extra: EvalConfig = {}) {
  return evaluateFile(join(SAME, file), { overrides: { ...base, ...extra } });
}

test('TREC run + qrels, JSONL, long CSV (rank) and long TSV (score) give the same numbers', async () => {
  const jsonl = await evalSame('run.jsonl');
  const trec = await evalSame('run.trec', { relevant: 'qrels.txt' });
  const csv = await evalSame('run.csv', { relevant: 'gt.csv' });
  const tsv = await evalSame('run_score.tsv', { relevant: 'gt.csv' });
  assert.equal(trec.source.format, 'trec');
  assert.equal(csv.source.format, 'csv');
  assert.equal(tsv.source.format, 'tsv');
  for (const other of [trec, csv, tsv]) {
    assert.deepEqual(Object.keys(other.metrics), Object.keys(jsonl.metrics));
    for (const [k, v] of Object.entries(jsonl.metrics))
      assert.deepEqual(other.metrics[k], v, `${other.source.path} ${k}`);
    assert.deepEqual(other.baselines, jsonl.baselines);
    assert.deepEqual(other.perItem, jsonl.perItem);
  }
  // The hand-checkable numbers: u1..u4 evaluated, u5 (grade 0 only) skipped.
  const m = jsonl.metrics;
  assert.equal(m.users_evaluated.value, 4);
  assert.equal(m.users_skipped.value, 1);
  // recall@3: u1 [i1,i2,·] R={i2,i4,i9} → 1/3; u2 [i5,i7,i6] R={i6,i1} → 1/2; u3 [i8,i2] → 1; u4 [i1,i2,i3] → 1
  assert.ok(Math.abs(m['recall@3'].value! - (1 / 3 + 1 / 2 + 1 + 1) / 4) < 1e-12);
  // mrr: u1 1/2, u2 1/3, u3 1, u4 1/3
  assert.ok(Math.abs(m.mrr.value! - (1 / 2 + 1 / 3 + 1 + 1 / 3) / 4) < 1e-12);
  // ndcg@3 of u1 (graded, linear): DCG = 2/log2 3; IDCG = 3 + 2/log2 3 + 1/2
  const [pj, pt] = [jsonl.perItem!, trec.perItem!];
  assert.ok(pj.kind === 'user' && pt.kind === 'user');
  const u1 = pj.values['ndcg@3'][pj.ids!.indexOf('u1')];
  assert.ok(Math.abs(u1 - 2 / Math.log2(3) / (3 + 2 / Math.log2(3) + 1 / 2)) < 1e-12);
  // the TREC tie (i7, i6 at score 3.0) is broken by docno descending: i7 first, as in the JSONL list
  const u2 = pt.values.mrr[pt.ids!.indexOf('u2')];
  assert.equal(u2, 1 / 3);
});

test('a JSONL ground truth ({"user", "relevant"} a line) gives the numbers of the same ground truth as CSV', async () => {
  // gt.jsonl holds gt.csv's facts: list and graded forms, key aliases, a user over two lines, a
  // user with grade 0 only (u5), one not in the run (u6), a blank line, a ranked list not read.
  const csv = await evalSame('run.csv', { relevant: 'gt.csv' });
  const jsonl = await evalSame('run.csv', { relevant: 'gt.jsonl' });
  assert.equal(jsonl.source.columns.relevant, 'gt.jsonl (JSONL)');
  assert.deepEqual(jsonl.metrics, csv.metrics);
  assert.deepEqual(jsonl.baselines, csv.baselines);
  assert.deepEqual(jsonl.perItem, csv.perItem);
  assert.deepEqual(jsonl.tables, csv.tables);
  const codes = (r: typeof csv) => r.warnings.map((w) => w.code);
  assert.deepEqual(codes(jsonl), codes(csv));
  assert.equal(jsonl.metrics.users_evaluated.value, 4);
  assert.equal(jsonl.metrics.users_skipped.value, 1);
  // Mistakes name the file, the line and what was expected.
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-gt-jsonl-'));
  writeFileSync(join(dir, 'run.jsonl'), '{"user": "u1", "items": ["i1"]}\n');
  const cases: [string, RegExp][] = [
    ['{"user": "u1", "relevant": ["i1"]}\n{"user": "u2"}\n', /gt\.jsonl:2: expected a "relevant" key .* got none/],
    ['{"relevant": ["i1"]}\n', /gt\.jsonl:1: expected a "user" key .* got none/],
    [
      '{"user": "u1", "relevant": "i1"}\n',
      /gt\.jsonl:1.*expected the relevant items as a list or an item → grade object/,
    ],
    ['{"user": "u1", "relevant": ["i1"]\n', /gt\.jsonl:1: expected one JSON object per line, got invalid JSON/],
  ];
  for (const [text, message] of cases) {
    writeFileSync(join(dir, 'gt.jsonl'), text);
    await assert.rejects(
      evaluateFile(join(dir, 'run.jsonl'), { overrides: { task: 'ranking', relevant: 'gt.jsonl' }, root: dir }),
      (e: unknown) => e instanceof EvalLensError && message.test(e.message),
      text,
    );
  }
});

test('warnings: duplicates, short lists, run/ground-truth mismatch, seen items', async () => {
  const r = await evalSame('run.trec', { relevant: 'qrels.txt' });
  const codes = new Map(r.warnings.map((w) => [w.code, w]));
  const dup = codes.get('duplicate-items-in-list')!;
  assert.equal(dup.count, 1);
  assert.equal(dup.line, 1); // u1's first line in run.trec
  assert.ok(codes.get('list-shorter-than-k')!.count! >= 3);
  const absent = codes.get('ground-truth-users-missing-from-run')!;
  assert.equal(absent.count, 1);
  assert.equal(absent.file, 'qrels.txt');
  assert.equal(absent.line, 9);
  assert.equal(codes.get('users-without-relevant-items')!.count, 1);
  // Masked by default (maskSeen); the count is the users whose list lost a seen item:
  // u2 gets i3? no: u2 train {i1,i2}, list [i5,i7,i6,i3] → 0; u3 train {i1,i2,i3}, list [i8,i2] → 1;
  // u4 train {i4}, list [i1,i2,i3] → 0; u1 train {i5,i6} → 0; u5 train {i6,i7,i8}, list [i4,i5] → 0
  const seen = codes.get('seen-items-masked')!;
  assert.equal(seen.count, 1);
  assert.match(seen.message, /run\.trec: 1 recommended item\(s\) in 1 user\(s\)' lists/);
  assert.ok(!codes.has('seen-items-recommended'));
  // a run user missing from the ground truth
  const dir = mkdtempSync(join(tmpdir(), 'rank-'));
  writeFileSync(join(dir, 'run.csv'), 'user,item,rank\na,x,1\nb,y,1\n');
  writeFileSync(join(dir, 'gt.csv'), 'user,item\na,x\n');
  const r2 = await evaluateFile(join(dir, 'run.csv'), {
    overrides: { task: 'ranking', relevant: 'gt.csv', k: [1], bootstrap: { n: 0 } },
  });
  const miss = r2.warnings.find((w) => w.code === 'users-missing-from-ground-truth')!;
  assert.equal(miss.count, 1);
  assert.equal(miss.line, 3);
  assert.equal(r2.metrics.users_skipped.value, 1);
  assert.equal(r2.metrics['recall@1'].value, 1);
});

test('embeddings: JSON, CSV, .npy (<f4, >f8, Fortran order, v2 header) read the same vectors', async () => {
  const items = new IdIndex();
  for (const id of ['i1', 'i2', 'i3', 'i4', 'i5', 'i6', 'i7', 'i8', 'i10']) items.intern(id);
  const w = new Warnings();
  const json = (await readEmbeddings(join(SAME, 'items.json'), 'items.json', items, w, 'item')).emb;
  assert.equal(w.list.filter((x) => x.code === 'embedding-zero-vector').length, 1); // i10 is all zeros
  for (const f of ['items.npy', 'items_be.npy', 'items_fortran.npy', 'items_v2.npy']) {
    const r = await readEmbeddings(join(SAME, f), f, items, new Warnings(), 'item');
    assert.equal(r.emb.dim, 3);
    assert.deepEqual(Array.from(r.emb.present), Array.from(json.present));
    for (let q = 0; q < json.unit.length; q++) assert.ok(Math.abs(r.emb.unit[q] - json.unit[q]) < 1e-7, `${f} ${q}`);
  }
  const users = new IdIndex();
  users.intern('u1');
  users.intern('u9');
  const u = (await readEmbeddings(join(SAME, 'users.csv'), 'users.csv', users, new Warnings(), 'user')).emb;
  assert.deepEqual(Array.from(u.present), [1, 0]);
  assert.deepEqual(Array.from(u.unit.subarray(0, 3)), [1, 0, 0]);
});

test('.npy reader: header checks and messages', () => {
  assert.throws(
    () => parseNpy(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]), 'x.npy'),
    /x\.npy: expected a NumPy \.npy file/,
  );
  const bytes = readFileSync(join(SAME, 'items.npy'));
  const m = parseNpy(bytes, 'items.npy');
  assert.equal(m.rows, 9);
  assert.equal(m.cols, 3);
  assert.equal(m.dtype, '<f4');
  assert.deepEqual(Array.from(m.data.subarray(21, 24)), [2, 0, 1]);
  const bad = Buffer.from(bytes);
  bad.write("'<c8'", bad.indexOf("'<f4'"), 'latin1');
  assert.throws(() => parseNpy(bad, 'c.npy'), /expected float32\/float64\/int32\/int64 values .* got "<c8"/);
});

test('an .npy without its id list is an error naming the expected files', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rank-'));
  writeFileSync(join(dir, 'e.npy'), readFileSync(join(SAME, 'items.npy')));
  const items = new IdIndex();
  items.intern('i1');
  await assert.rejects(
    readEmbeddings(join(dir, 'e.npy'), 'e.npy', items, new Warnings(), 'item'),
    /e\.ids\.txt, e\.ids\.json, e\.txt, e\.json/,
  );
});

test('format sniffing by shape', async () => {
  assert.equal(trecShapeOf('q1 Q0 d1 1 2.5 tag'), 'trec-run');
  assert.equal(trecShapeOf('q1 0 d1 1'), 'qrels');
  assert.equal(trecShapeOf('user,item,rank'), null);
  assert.equal(await sniffRankingFormat(join(SAME, 'run.trec'), 'run.trec'), 'trec-run');
  assert.equal(await sniffRankingFormat(join(SAME, 'qrels.txt'), 'qrels.txt'), 'qrels');
  assert.equal(await sniffRankingFormat(join(SAME, 'run.csv'), 'run.csv'), 'csv');
  assert.equal(await sniffRankingFormat(join(SAME, 'run_score.tsv'), 'run_score.tsv'), 'tsv');
  assert.equal(await sniffRankingFormat(join(SAME, 'run.jsonl'), 'run.jsonl'), 'jsonl');
});

test('CSV splitter handles quotes', () => {
  assert.deepEqual(splitDelimited('a,"b,c",d', ',', 'f', 1), ['a', 'b,c', 'd']);
  assert.deepEqual(splitDelimited('"say ""hi""",x', ',', 'f', 1), ['say "hi"', 'x']);
  assert.throws(() => splitDelimited('"open,x', ',', 'f.csv', 4), /f\.csv:4: expected a closing quote/);
});

/** Reads a JSONL text with the reader; returns lists as id strings (void = null) and relevance. */
async function readBack(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'rank-'));
  const p = join(dir, 'r.jsonl');
  writeFileSync(p, text);
  const users = new IdIndex();
  const items = new IdIndex();
  const r = await readJsonlRun(p, 'r.jsonl', { users, items, warnings: new Warnings() });
  const { lists } = r.lists.finish(items.size, 'r.jsonl', new Warnings());
  const out: { user: string; items: (string | null)[] }[] = [];
  for (let j = 0; j < lists.user.length; j++)
    out.push({
      user: users.ids[lists.user[j]],
      items: Array.from(lists.items.subarray(lists.offsets[j], lists.offsets[j + 1]), (k) =>
        k === VOID_ITEM ? null : items.ids[k],
      ),
    });
  const rel = r.rel!.finish(users.size, items.size, 'r.jsonl', new Warnings());
  const relOut: Record<string, Record<string, number>> = {};
  for (let u = 0; u < users.size; u++) {
    const m: Record<string, number> = {};
    for (let p2 = rel.relOffsets[u]; p2 < rel.relOffsets[u + 1]; p2++)
      m[items.ids[rel.relItems[p2]]] = rel.relGrades[p2];
    relOut[users.ids[u]] = m;
  }
  return { lists: out, rel: relOut };
}

test('JSONL fast byte path and JSON.parse agree on random lines (escapes, numbers, unicode, odd spacing)', async () => {
  const rng = createRng(11);
  const pieces = ['a', 'b', 'é', '\\"', '\\\\', '\\u00e9', '日本', 'x y', '\\n', '7'];
  const id = () => {
    if (rng.int(5) === 0) return String(rng.int(50)); // an integer id, written as a number
    let s = '"';
    const n = 1 + rng.int(3);
    for (let i = 0; i < n; i++) s += pieces[rng.int(pieces.length)];
    return s + '"';
  };
  const sp = () => [' ', '', '\t', '  '][rng.int(4)];
  const lines: string[] = [];
  for (let u = 0; u < 200; u++) {
    const items = Array.from({ length: rng.int(8) }, id);
    const relIds = Array.from({ length: 1 + rng.int(3) }, () => id());
    const relevant = rng.int(2)
      ? `[${relIds.join(',')}]`
      : `{${relIds.map((r) => `${r.startsWith('"') ? r : `"${r}"`}:${sp()}${[1, 2, 0.5, 3][rng.int(4)]}`).join(',')}}`;
    const extra = rng.int(3) === 0 ? `,"note":${sp()}"x\\ty"` : rng.int(3) === 0 ? ',"meta":{"a":[1,2]}' : '';
    lines.push(
      `{${sp()}"user":${sp()}"u${u}",${sp()}"items":${sp()}[${items.join(`,${sp()}`)}],"relevant":${relevant}${extra}${sp()}}`,
    );
  }
  const got = await readBack(lines.join('\n') + '\n');
  // Reference: JSON.parse on each line, ids as strings.
  for (let u = 0; u < lines.length; u++) {
    const o = JSON.parse(lines[u]) as {
      user: string;
      items: (string | number)[];
      relevant: (string | number)[] | Record<string, number>;
    };
    const seen = new Set<string>();
    const expectItems = o.items.map((x) => {
      const s = String(x);
      if (seen.has(s)) return null;
      seen.add(s);
      return s;
    });
    assert.deepEqual(got.lists[u], { user: o.user, items: expectItems }, lines[u]);
    const expRel: Record<string, number> = {};
    if (Array.isArray(o.relevant)) for (const x of o.relevant) expRel[String(x)] ??= 1;
    else for (const [k, g] of Object.entries(o.relevant)) if (!(k in expRel) && g > 0) expRel[k] = g;
    for (const k of Object.keys(expRel)) if (expRel[k] === 0) delete expRel[k];
    assert.deepEqual(got.rel[o.user], expRel, lines[u]);
  }
});

test('JSONL errors name file, line and what was expected', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rank-'));
  const cases: [string, RegExp][] = [
    [
      '{"user":"a","items":["x"],"relevant":["x"]}\n{"user":"b","items":["x"]',
      /r\.jsonl:2: expected one JSON object per line, got invalid JSON/,
    ],
    ['{"user":"a","items":"x","relevant":["x"]}\n', /r\.jsonl:1, column "items": expected the ranked list as an array/],
    ['{"items":["x"],"relevant":["x"]}\n', /r\.jsonl:1: expected a "user" key/],
    ['{"user":"a","relevant":["x"]}\n', /r\.jsonl:1: expected an "items" key/],
    [
      '{"user":"a","items":["x"],"relevant":["x"]}\n\n{"user":"b","items":["x"]}\n',
      /r\.jsonl:3: expected a "relevant" key as on the first line/,
    ],
    [
      '{"user":"a","items":["x", null],"relevant":["x"]}\n',
      /r\.jsonl:1, column "items": expected item 2 to be a string or number id, got null/,
    ],
    [
      '{"user":"a","items":["x"],"relevant":{"x":"high"}}\n',
      /r\.jsonl:1, column "relevant": expected a finite number as the grade of item "x"/,
    ],
    [
      '{"user":"a","items":["x","y"],"scores":[1],"relevant":["x"]}\n',
      /r\.jsonl:1, column "scores": expected 2 scores/,
    ],
  ];
  for (const [text, re] of cases) {
    writeFileSync(join(dir, 'r.jsonl'), text);
    await assert.rejects(
      readJsonlRun(join(dir, 'r.jsonl'), 'r.jsonl', {
        users: new IdIndex(),
        items: new IdIndex(),
        warnings: new Warnings(),
      }),
      (e: unknown) => {
        assert.ok(e instanceof EvalLensError, String(e));
        assert.match(e.message, re);
        return true;
      },
    );
  }
});

test('CSV/TREC errors name file, line and column', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rank-'));
  const run = async (name: string, text: string, extra: EvalConfig = {}) => {
    writeFileSync(join(dir, name), text);
    return evaluateFile(join(dir, name), { overrides: { task: 'ranking', bootstrap: { n: 0 }, ...extra } });
  };
  writeFileSync(join(dir, 'gt.csv'), 'user,item\na,x\n');
  await assert.rejects(
    run('r1.csv', 'user,item,rank\na,x,1\na,y,oops\n', { relevant: 'gt.csv' }),
    /r1\.csv:3, column "rank": expected a finite number, got "oops"/,
  );
  await assert.rejects(
    run('r2.csv', 'user,thing,rank\na,x,1\n', { relevant: 'gt.csv' }),
    /r2\.csv:1: expected an item column .*got columns user, thing, rank/,
  );
  await assert.rejects(
    run('r3.csv', 'user,item\na,x\n', { relevant: 'gt.csv' }),
    /r3\.csv:1: expected a rank or score column/,
  );
  await assert.rejects(run('r4.csv', 'user,item,rank\na,x,1\n'), /expected the relevant items/);
  await assert.rejects(
    run('r5.csv', 'user,item,rank\na,x,1,9\n', { relevant: 'gt.csv' }),
    /r5\.csv:2: expected 3 cells as in the header, got 4/,
  );
  await assert.rejects(
    run('r6.trec', 'q Q0 d 1 2.0 t\nq Q0 e 2 abc t\n', { relevant: 'gt.csv' }),
    /r6\.trec:2, column "score": expected a finite number/,
  );
  // invalidRows: skip drops the bad row and lists it
  const r = await run('r7.csv', 'user,item,rank\na,x,1\na,y,oops\n', {
    relevant: 'gt.csv',
    invalidRows: 'skip',
    k: [1],
  });
  const w = r.warnings.find((x) => x.code === 'invalid-rows-skipped')!;
  assert.deepEqual(w.lines, [3]);
  assert.equal(r.metrics['recall@1'].value, 1);
});

test('TREC run and qrels lines: a wrong number of fields or a bad number is an error naming file, line and field', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trec-'));
  const ctx = () => ({ users: new IdIndex(), items: new IdIndex(), warnings: new Warnings() });
  const cases: [string, 'run' | 'qrels', string, string][] = [
    [
      'a.trec',
      'run',
      'q Q0 d 1 2.0 t\nq Q0 e 2 2.0\n',
      'a.trec:2: expected a TREC run line "qid Q0 docno rank score tag" (6 fields), got 5 field(s).',
    ],
    [
      'b.trec',
      'run',
      'q Q0 d 1 1e999 t\n',
      'b.trec:1, column "score": expected a finite number as the score (field 5), got "1e999".',
    ],
    [
      'c.qrels',
      'qrels',
      'q 0 d 1\nq 0 e\n',
      'c.qrels:2: expected a qrels line "qid iter docno rel" (4 fields), got 3 field(s).',
    ],
    [
      'd.qrels',
      'qrels',
      'q 0 d 1\n\nq 0 e high\n',
      'd.qrels:3, column "rel": expected a number as the relevance (field 4), got "high".',
    ],
  ];
  for (const [name, kind, text, message] of cases) {
    writeFileSync(join(dir, name), text);
    const path = join(dir, name);
    await assert.rejects(
      kind === 'run' ? readTrecRun(path, name, ctx()) : readQrels(path, name, ctx()),
      (e: unknown) => {
        assert.ok(e instanceof EvalLensError, String(e));
        assert.ok(e.message.endsWith(message), `${e.message}\nshould end with\n${message}`);
        return true;
      },
    );
  }
});

test('long CSV: an empty user or item id is an error naming file, line and column, on the byte path and the quoted path', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rank-'));
  writeFileSync(join(dir, 'gt.csv'), 'user,item\na,x\n');
  const cases: [string, string][] = [
    ['user,item,rank\na,x,1\n ,y,2\n', 'e1.csv:3, column "user": expected a user id, got an empty cell.'],
    ['user,item,rank\na,x,1\nb,,2\n', 'e2.csv:3, column "item": expected an item id, got an empty cell.'],
    ['user,item,rank\n"",x,1\n', 'e3.csv:2, column "user": expected a user id, got an empty cell.'],
    ['user,item,rank\n"a",,1\n', 'e4.csv:2, column "item": expected an item id, got an empty cell.'],
  ];
  for (const [i, [text, message]] of cases.entries()) {
    const name = `e${i + 1}.csv`;
    writeFileSync(join(dir, name), text);
    await assert.rejects(
      evaluateFile(join(dir, name), {
        overrides: { task: 'ranking', relevant: 'gt.csv', bootstrap: { n: 0 } },
      }),
      (e: unknown) => {
        assert.ok(e instanceof EvalLensError, String(e));
        assert.ok(e.message.endsWith(message), `${e.message}\nshould end with\n${message}`);
        return true;
      },
    );
  }
});

test('ByteInterner: ids of every length, many of them, agree with the string index', async () => {
  const { ByteInterner } = await import('../../../../../src/core/io/ranking/byteInterner');
  const index = new IdIndex();
  const bi = new ByteInterner(index);
  const rng = createRng(3);
  const ids: string[] = [];
  for (let i = 0; i < 20000; i++) {
    const len = 1 + rng.int(20);
    let s = '';
    for (let q = 0; q < len; q++) s += String.fromCharCode(rng.int(3) === 0 ? 0xe9 + rng.int(3) : 97 + rng.int(4)); // é ê ë / a-d: many near-duplicates
    ids.push(s);
  }
  for (let round = 0; round < 2; round++)
    for (const s of ids) {
      const b = Buffer.from(`,${s},`);
      const k = bi.intern(b, 1, b.length - 1);
      assert.equal(index.ids[k], s);
      assert.equal(index.get(s), k);
    }
});

test('ByteInterner: an id read from a Buffer and from a plain byte array gets the same text and integer', async () => {
  const { ByteInterner } = await import('../../../../../src/core/io/ranking/byteInterner');
  const rng = createRng(17);
  // Random byte strings: ASCII, two- and three-byte characters, and invalid UTF-8 (a lone
  // continuation byte, a truncated sequence, 0xff), decoded with replacement characters.
  const pieces = [[97], [98], [0xc3, 0xa9], [0xe6, 0x97, 0xa5], [0x80], [0xe6, 0x97], [0xff]];
  const fromBuffer = new IdIndex();
  const fromArray = new IdIndex();
  const a = new ByteInterner(fromBuffer);
  const b = new ByteInterner(fromArray);
  for (let i = 0; i < 5000; i++) {
    const bytes: number[] = [];
    for (let n = 1 + rng.int(12); n > 0; n--) bytes.push(...pieces[rng.int(pieces.length)]);
    const expected = Buffer.from(bytes).toString('utf8');
    // The id in the middle of a larger buffer, as in a read chunk.
    const chunk = Buffer.from([44, ...bytes, 44]);
    const plain = new Uint8Array(new ArrayBuffer(bytes.length + 5), 3, bytes.length + 2);
    plain.set(chunk);
    assert.ok(!Buffer.isBuffer(plain));
    const ka = a.intern(chunk, 1, chunk.length - 1);
    const kb = b.intern(plain, 1, plain.length - 1);
    assert.equal(fromBuffer.ids[ka], expected);
    assert.equal(fromArray.ids[kb], expected);
    assert.equal(ka, kb);
  }
  assert.deepEqual(fromBuffer.ids, fromArray.ids);
});

test('ByteInterner: internOnce (no table) and intern (through the table) give every id the same integer', async () => {
  const { ByteInterner } = await import('../../../../../src/core/io/ranking/byteInterner');
  const rng = createRng(29);
  const ids = Array.from({ length: 3000 }, (_, i) => (rng.int(2) === 0 ? `u${i}` : `a-longer-user-id-${i}-é`));
  const index = new IdIndex();
  const bi = new ByteInterner(index);
  // First meetings through internOnce only: nothing enters the table.
  for (const id of ids.slice(0, 1000)) {
    const b = Buffer.from(`"${id}"`);
    assert.equal(index.ids[bi.internOnce(b, 1, b.length - 1)], id);
  }
  assert.ok(bi.empty);
  // Then both ways in a random order, repeats included: the integer is always the index's.
  for (let n = 0; n < 10000; n++) {
    const id = ids[rng.int(ids.length)];
    const b = Buffer.from(`[${id}]`);
    const k = rng.int(2) === 0 ? bi.intern(b, 1, b.length - 1) : bi.internOnce(b, 1, b.length - 1);
    assert.equal(k, index.get(id));
    assert.equal(index.ids[k], id);
  }
  assert.ok(!bi.empty);
  assert.equal(new Set(index.ids).size, index.size);
});

test('ChunkedIntVec: the first chunk is returned without a copy; more chunks are joined in order', async () => {
  const { ChunkedIntVec } = await import('../../../../../src/core/io/ranking/builders');
  const small = new ChunkedIntVec(2000);
  for (let i = 0; i < 1500; i++) small.push(i);
  const a = small.toArray();
  assert.equal(a.length, 1500);
  assert.equal(a[1499], 1499);
  const big = new ChunkedIntVec(1024);
  const src = Int32Array.from({ length: 700_000 }, (_, i) => i);
  big.pushMany(src, 700_000); // crosses from the 1,024 first chunk into 1M chunks
  for (let i = 0; i < 600_000; i++) big.push(700_000 + i);
  big.pushMany(src, 5);
  const b = big.toArray();
  assert.equal(b.length, 1_300_005);
  for (let i = 0; i < 1_300_000; i += 997) assert.equal(b[i], i);
  assert.deepEqual(Array.from(b.subarray(1_300_000)), [0, 1, 2, 3, 4]);
});

test('key offsets: where each key starts once rows are grouped by key (counting sort)', async () => {
  const { keyOffsets } = await import('../../../../../src/core/io/ranking/builders');
  // Keys [2, 0, 2, 1, 2] over 4 keys: counts [1, 1, 3, 0] → starts 0, 0 + 1, 1 + 1, 2 + 3, and the end 5.
  assert.deepEqual(Array.from(keyOffsets(Int32Array.of(2, 0, 2, 1, 2), 5, 4)), [0, 1, 2, 5, 5]);
  // Only the first n rows count (a growable vector's spare capacity is ignored).
  assert.deepEqual(Array.from(keyOffsets(Int32Array.of(2, 0, 2, 1, 2), 3, 4)), [0, 1, 1, 3, 3]);
  assert.deepEqual(Array.from(keyOffsets(new Int32Array(0), 0, 2)), [0, 0, 0]);
});

test('a file that cannot be opened: the label and the system reason, from every ranking and matrix reader', async () => {
  const { readIdList, readFactorMatrix } = await import('../../../../../src/core/io/ranking/factors');
  const { readNpy } = await import('../../../../../src/core/io/npy');
  const missing = join(mkdtempSync(join(tmpdir(), 'gone-')), 'nothing-here');
  const ctx = () => ({ users: new IdIndex(), items: new IdIndex(), warnings: new Warnings() });
  const readers: [string, () => Promise<unknown>][] = [
    ['run.trec', () => readTrecRun(missing, 'run.trec', ctx())],
    ['gt.qrels', () => readQrels(missing, 'gt.qrels', ctx())],
    ['ids.txt', () => readIdList(missing, 'ids.txt')],
    ['U.npy', () => readFactorMatrix(missing, 'U.npy')],
    ['emb.npy', () => readNpy(missing, 'emb.npy')],
    ['r.trec', () => sniffRankingFormat(missing, 'r.trec')],
  ];
  for (const [label, read] of readers)
    await assert.rejects(read(), (e: unknown) => {
      assert.ok(e instanceof EvalLensError, String(e));
      // the same code and words as the table readers' (CSV, JSONL, Parquet, .npz)
      assert.equal(e.code, 'cannot-open');
      assert.equal(e.message, `Cannot read ${label}: no such file.`);
      assert.equal(e.location?.file, label);
      return true;
    });
});
