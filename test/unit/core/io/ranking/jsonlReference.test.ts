// The JSONL run reader (a byte scanner with JSON.parse as its fallback) against a slow, obvious
// reference written with JSON.parse alone, on random files: ids of every length around the 8 bytes
// packed into two words by the fast path, unicode and escaped ids, integer ids, repeated items and
// users, grades of 0 and below, blank and whitespace-only lines, CRLF endings, a byte-order mark,
// files larger than one read chunk, and one bad line (the first error's code and line).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvalLensError, Warnings } from '../../../../../src/core/diagnostics';
import { IdIndex, VOID_ITEM } from '../../../../../src/core/data/rankingData';
import { readJsonlRun } from '../../../../../src/core/io/ranking/jsonl';
import { createRng, type Rng } from '../../../../../src/core/stats/rng';

interface Read {
  lists: { user: string; items: (string | null)[] }[];
  rel: Record<string, Record<string, number>>;
  warnings: { code: string; count?: number; line?: number }[];
}

/**
 * The reader under test: lists as id strings (a repeat = null), ground truth, warnings; with
 * `usersOnce`, the users numbered without the byte table.
 */
async function readFast(text: string, usersOnce = false): Promise<Read & { userOrder: string[] }> {
  const p = join(mkdtempSync(join(tmpdir(), 'jsonl-ref-')), 'r.jsonl');
  writeFileSync(p, text);
  const users = new IdIndex();
  const items = new IdIndex();
  const warnings = new Warnings();
  const r = await readJsonlRun(p, 'r.jsonl', { users, items, warnings }, true, usersOnce);
  const { lists } = r.lists.finish(items.size, 'r.jsonl', warnings);
  const out: Read & { userOrder: string[] } = { lists: [], rel: {}, warnings: [], userOrder: users.ids };
  for (let j = 0; j < lists.user.length; j++)
    out.lists.push({
      user: users.ids[lists.user[j]],
      items: Array.from(lists.items.subarray(lists.offsets[j], lists.offsets[j + 1]), (k) =>
        k === VOID_ITEM ? null : items.ids[k],
      ),
    });
  const gt = r.rel!.finish(users.size, items.size, 'r.jsonl', warnings);
  for (let u = 0; u < users.size; u++) {
    if (!gt.inGroundTruth[u]) continue;
    const m: Record<string, number> = {};
    for (let q = gt.relOffsets[u]; q < gt.relOffsets[u + 1]; q++) m[items.ids[gt.relItems[q]]] = gt.relGrades[q];
    out.rel[users.ids[u]] = m;
  }
  out.warnings = warnings.list.map((w) => ({ code: w.code, count: w.count, line: w.line }));
  return out;
}

/** The obvious reading of the same text: JSON.parse per line, the rules written out one by one. */
function readReference(text: string): Read {
  const out: Read = { lists: [], rel: {}, warnings: [] };
  const tally = () => ({ count: 0, line: 0 });
  const [repeats, dupUsers, dupRel, negative, unsorted] = [tally(), tally(), tally(), tally(), tally()];
  const hit = (t: { count: number; line: number }, line: number) => {
    if (t.count++ === 0) t.line = line;
  };
  const seen = new Set<string>();
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (/^[ \t]*$/.test(line)) return;
    const o = JSON.parse(line) as {
      user: string | number;
      items: (string | number)[];
      relevant: (string | number)[] | Record<string, number>;
      scores?: number[];
    };
    if (o.scores && o.scores.some((s, p) => p > 0 && s > o.scores![p - 1])) hit(unsorted, lineNo);
    const user = String(o.user);
    if (seen.has(user)) return hit(dupUsers, lineNo);
    seen.add(user);
    const inList = new Set<string>();
    out.lists.push({
      user,
      items: o.items.map((x) => {
        const id = String(x);
        if (inList.has(id)) {
          hit(repeats, lineNo);
          return null;
        }
        inList.add(id);
        return id;
      }),
    });
    const rel: Record<string, number> = (out.rel[user] = {});
    const facts: [string, number][] = Array.isArray(o.relevant)
      ? o.relevant.map((x) => [String(x), 1])
      : Object.entries(o.relevant);
    for (const [id, g] of facts) {
      if (g < 0) hit(negative, lineNo);
      else if (g === 0) continue;
      else if (id in rel) hit(dupRel, lineNo);
      else rel[id] = g;
    }
  });
  const warn = (code: string, t: { count: number; line: number }) => {
    if (t.count > 0) out.warnings.push({ code, count: t.count, line: t.line });
  };
  // In the order the reader adds them: while reading, then the lists, then the ground truth.
  warn('scores-not-sorted', unsorted);
  warn('duplicate-items-in-list', repeats);
  warn('duplicate-user', dupUsers);
  warn('duplicate-relevance', dupRel);
  warn('negative-relevance', negative);
  return out;
}

/** One id as JSON text: a string of 0–12 bytes or more, unicode, escapes, or an integer. */
function randomId(rng: Rng): string {
  const kind = rng.int(10);
  if (kind === 0) return String([0, 7, -3, 42, 12345678901, 999999999999999][rng.int(6)]);
  if (kind === 1) return `"${['7', '007', '-0', '42', '12345678901'][rng.int(5)]}"`;
  const pieces = ['a', 'b', 'i', '1', '9', 'é', '日', ' ', '\\"', '\\\\', '\\u00e9', '\\n', '\\/'];
  const plain = kind < 8; // mostly ids the byte scanner reads itself: ASCII without escapes
  const len = rng.int(plain ? 13 : 5);
  let s = '';
  for (let q = 0; q < len; q++) s += plain ? 'abi19xyz'[rng.int(8)] : pieces[rng.int(pieces.length)];
  return `"${s}"`;
}

function randomLine(rng: Rng, user: string, withScores: boolean): string {
  const sp = () => [' ', '', '', '\t'][rng.int(4)];
  const items = Array.from({ length: rng.int(12) }, () => randomId(rng));
  // Some lists repeat an item.
  if (items.length > 1 && rng.int(4) === 0) items.push(items[rng.int(items.length)]);
  const relIds = Array.from({ length: rng.int(4) }, () => randomId(rng));
  const relevant =
    rng.int(2) === 0
      ? `[${relIds.join(',')}]`
      : `{${[...new Set(relIds.map((r) => (r.startsWith('"') ? r : `"${r}"`)))]
          .map((r) => `${r}:${sp()}${[1, 2, 0, -1, 0.5][rng.int(5)]}`)
          .join(',')}}`;
  const parts = [`"user":${sp()}${user}`, `"items":${sp()}[${items.join(`,${sp()}`)}]`, `"relevant":${relevant}`];
  if (withScores) {
    const scores = items.map((_, p) => (rng.int(8) === 0 ? p : -p) / 4);
    parts.push(`"scores":[${scores.join(',')}]`);
  }
  if (rng.int(6) === 0) parts.push(`"note":${sp()}"x"`);
  // Key order varies: "items" before "user" on some lines.
  if (rng.int(3) === 0) parts.reverse();
  return `{${sp()}${parts.join(`,${sp()}`)}${sp()}}`;
}

function randomFile(rng: Rng, nLines: number): string {
  const eol = rng.int(2) === 0 ? '\n' : '\r\n';
  const withScores = rng.int(2) === 0;
  const out: string[] = [];
  for (let k = 0; k < nLines; k++) {
    if (rng.int(15) === 0) out.push(['', '  ', '\t', ' \t '][rng.int(4)]);
    // A user seen before now and then (its later line is ignored, with a warning).
    const user = rng.int(12) === 0 && k > 0 ? `"u${rng.int(k)}"` : rng.int(8) === 0 ? String(k) : `"u${k}"`;
    out.push(randomLine(rng, user, withScores));
  }
  return (rng.int(4) === 0 ? '\uFEFF' : '') + out.join(eol) + (rng.int(2) === 0 ? eol : '');
}

test('JSONL reader equals a JSON.parse reference on random files (lists, repeats, ground truth, warnings)', async () => {
  const rng = createRng(2024);
  for (let round = 0; round < 40; round++) {
    const text = randomFile(rng, 1 + rng.int(60));
    const ref = readReference(text);
    const withTable = await readFast(text);
    for (const fast of [withTable, await readFast(text, true)]) {
      assert.deepEqual(fast.lists, ref.lists, `round ${round}`);
      assert.deepEqual(fast.rel, ref.rel, `round ${round}`);
      assert.deepEqual(fast.warnings, ref.warnings, `round ${round}`);
      // The users get the same integers either way (the order they were first met).
      assert.deepEqual(fast.userOrder, withTable.userOrder, `round ${round}`);
    }
  }
});

test('JSONL reader equals the reference on a file larger than one read chunk (lines cut at chunk ends)', async () => {
  const rng = createRng(77);
  const lines: string[] = [];
  let bytes = 0;
  // Long lines of short ids, about 9 MB: the reader's 4 MiB chunks end inside lines and inside ids.
  for (let k = 0; bytes < 9e6; k++) {
    const items = Array.from({ length: 200 + rng.int(400) }, () => `"i${rng.int(30000)}"`);
    const line = `{"user":"u${k}","items":[${items.join(',')}],"relevant":["i${rng.int(30000)}"]}`;
    lines.push(line);
    bytes += line.length + 1;
  }
  const text = lines.join('\n') + '\n';
  const fast = await readFast(text);
  const ref = readReference(text);
  assert.equal(fast.lists.length, lines.length);
  assert.deepEqual(fast.lists, ref.lists);
  assert.deepEqual(fast.rel, ref.rel);
  assert.deepEqual(fast.warnings, ref.warnings);
});

test('JSONL reader: the first bad line of a random file is the error, with its code and line', async () => {
  const rng = createRng(5);
  const bad: [string, string][] = [
    ['{"user":"u","items":[null],"relevant":[]}', 'bad-value'],
    ['{"user":"u","items":"i1","relevant":[]}', 'bad-value'],
    ['{"user":"u","items":["i1"],"relevant":[],', 'bad-json'],
    ['{"user":"u","items":["i1",],"relevant":[]}', 'bad-json'],
    ['{"items":["i1"],"relevant":[]}', 'missing-key'],
    ['{"user":"u","relevant":[]}', 'missing-key'],
    ['{"user":"u","items":["i1"],"relevant":{"i1":"x"}}', 'bad-value'],
    ['["u",["i1"]]', 'bad-json'],
    ['{"user":"u","items":["i1"]}', 'missing-key'],
  ];
  for (let round = 0; round < 30; round++) {
    const good = Array.from({ length: 1 + rng.int(20) }, (_, k) => randomLine(rng, `"u${k}"`, false));
    // After at least one good line: the first line decides whether every line has "relevant".
    const at = 1 + rng.int(good.length);
    const [line, code] = bad[rng.int(bad.length)];
    const lines = [...good.slice(0, at), line, ...good.slice(at)];
    await assert.rejects(readFast(lines.join('\n') + '\n'), (e: unknown) => {
      assert.ok(e instanceof EvalLensError, String(e));
      assert.equal(e.code, code, `${line}: ${e.message}`);
      assert.equal(e.location?.line, at + 1, e.message);
      assert.match(e.message, new RegExp(`^r\\.jsonl:${at + 1}(, column "\\w+")?: expected`));
      return true;
    });
  }
});

test('JSONL reader: ids of 0–9 bytes followed by every kind of byte the word-at-a-time scan must tell apart', async () => {
  // The fast path reads an id's first 8 bytes as two words and finds its end by bit tests; each
  // length around the two words' bounds, with an escape, a multi-byte character or a space at
  // each place, and lines ending right at the end of the file (fewer than 8 bytes after an id).
  const ids: string[] = [];
  for (let len = 0; len <= 9; len++) {
    const base = 'abcdefghi'.slice(0, len);
    ids.push(`"${base}"`);
    for (let at = 0; at <= len; at++)
      for (const piece of ['\\"', '\\\\', '\\u0041', 'é', '日', ' ', '\\t', '\\/'])
        ids.push(`"${base.slice(0, at)}${piece}${base.slice(at)}"`);
  }
  const lines = ids.map((id, k) => `{"user":"u${k}","items":[${id},"x",${id}],"relevant":[${id}]}`);
  for (const tail of ['\n', '']) {
    // Also each id alone on the file's last line, ending the file without a newline.
    for (const id of ['""', '"a"', '"abcdefg"', '"abcdefgh"', '"é"']) {
      const text = lines.join('\n') + '\n' + `{"user":"last","relevant":[],"items":[${id}]}` + tail;
      const fast = await readFast(text);
      const ref = readReference(text);
      assert.deepEqual(fast.lists, ref.lists, id);
      assert.deepEqual(fast.rel, ref.rel, id);
      assert.deepEqual(fast.warnings, ref.warnings, id);
    }
  }
});

test('JSONL reader: a raw control byte inside a short id is a JSON error at its line', async () => {
  for (let len = 0; len <= 9; len++)
    for (const ctl of ['\t', '\u0001', '\u001f']) {
      const id = `"${'abcdefghi'.slice(0, len)}${ctl}z"`;
      const text = `{"user":"u0","items":["a"],"relevant":["a"]}\n{"user":"u1","items":["a",${id}],"relevant":["a"]}\n`;
      await assert.rejects(readFast(text), (e: unknown) => {
        assert.ok(e instanceof EvalLensError, String(e));
        assert.equal(e.code, 'bad-json', e.message);
        assert.equal(e.location?.line, 2, e.message);
        return true;
      });
    }
});
