/**
 * Every filter and sort of the row query against a slow reference over rows parsed here (random
 * seeded files); the other columns of each row equal the file's cells.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openInspection, parseWhere, QueryError, type ClassificationRowView } from '../../../../src/core/inspect/index';
import { derive, writeRandomFile, type RefRow } from '../../helpers/randomFile';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-inspect-'));

type Ref = RefRow & ReturnType<typeof derive>;

/** Reference predicates, one per filter expression. */
const FILTERS: [string, (r: Ref) => boolean][] = [
  ['label=a', (r) => r.label === 'a'],
  ['label!=b', (r) => r.label !== 'b'],
  ['pred=c', (r) => r.pred === 'c'],
  ['correct=false', (r) => !r.correct],
  ['correct=true', (r) => r.correct],
  ['confidence>=0.7', (r) => r.confidence >= 0.7],
  ['confidence>0.4 and confidence<=0.6', (r) => r.confidence > 0.4 && r.confidence <= 0.6],
  ['loss>1', (r) => r.loss > 1],
  ['shot=few', (r) => r.shot === 'few'],
  ['shot=medium', (r) => r.shot === 'medium'],
  ['class_group=tail', (r) => r.group === 'tail'],
  ['split=val', (r) => r.split === 'val'],
  ['accepted=true', (r) => r.accepted],
  ['accepted=false and correct=true', (r) => !r.accepted && r.correct],
  ['city="São Paulo, BR"', (r) => r.city === 'São Paulo, BR'],
  [`city='say "hi"'`, (r) => r.city === 'say "hi"'],
  ['city!=Oslo', (r) => r.city !== 'Oslo'],
  ['age<30', (r) => Number(r.age) < 30],
  ['age>=50 and label=d', (r) => Number(r.age) >= 50 && r.label === 'd'],
  ['note="two\\nlines"', (r) => r.note === 'two\nlines'],
  ['note=""', (r) => r.note === ''],
  ['line<=40', (r) => r.line <= 40],
  ['id=r7', (r) => r.id === 'r7'],
  ['label=a AND correct=false and shot=many', (r) => r.label === 'a' && !r.correct && r.shot === 'many'],
];

for (const [seed, eol] of [
  [1, '\n'],
  [2, '\r\n'],
] as const) {
  test(`filters equal the reference (seed ${seed}, ${eol === '\n' ? 'LF' : 'CRLF'})`, async () => {
    const { path, rows } = writeRandomFile(dir, seed, 400, eol);
    const ref: Ref[] = rows.map((r) => ({ ...r, ...derive(r) }));
    const ins = await openInspection(path, { configPath: join(dir, `random-${seed}.json`) });
    assert.equal(ins.rowsInFile, rows.length);
    for (const [expr, pred] of FILTERS) {
      const want = ref.filter(pred).map((r) => r.line);
      const page = ins.query({ where: parseWhere(expr), offset: 0, limit: 10_000 });
      assert.equal(page.total, want.length, expr);
      assert.deepEqual(
        page.rows.map((r) => r.line),
        want,
        expr,
      );
    }
    assert.ok(
      ref.some((r) => r.note.includes('\n')),
      'the file has quoted newlines',
    );
  });
}

test('each row view equals the reference: values, top 3, other columns as written', async () => {
  const { path, rows } = writeRandomFile(dir, 3, 300);
  const ins = await openInspection(path, { configPath: join(dir, 'random-3.json') });
  const page = ins.query({ where: [], offset: 0, limit: 1000 });
  assert.equal(page.rows.length, rows.length);
  page.rows.forEach((v, i) => {
    const r = rows[i];
    const d = derive(r);
    const row = v as ClassificationRowView;
    assert.equal(row.line, r.line);
    assert.equal(row.id, r.id);
    assert.equal(row.label, r.label);
    assert.equal(row.pred, d.pred);
    assert.equal(row.correct, d.correct);
    assert.equal(row.confidence, d.confidence);
    assert.equal(row.loss, d.loss);
    assert.equal(row.shot, d.shot);
    assert.equal(row.classGroup, d.group);
    assert.equal(row.group, undefined, 'the file has no group column');
    assert.equal(row.accepted, d.accepted);
    assert.equal(row.split, r.split);
    assert.deepEqual(row.columns, { city: r.city, age: r.age, note: r.note });
    // top 3: by probability descending, first class on ties
    const order = [0, 1, 2, 3].sort((x, y) => r.probs[y] - r.probs[x] || x - y).slice(0, 3);
    assert.deepEqual(
      row.top,
      order.map((c) => [['a', 'b', 'c', 'd'][c], r.probs[c]]),
    );
  });
});

test('sorts are stable (ties by line) in both directions, and pages cut the sorted rows', async () => {
  const { path, rows } = writeRandomFile(dir, 4, 500);
  const ref: Ref[] = rows.map((r) => ({ ...r, ...derive(r) }));
  const ins = await openInspection(path, { configPath: join(dir, 'random-4.json') });
  const byLine = (a: Ref, b: Ref) => a.line - b.line;
  const cases: [string, 'asc' | 'desc', (a: Ref, b: Ref) => number][] = [
    ['confidence', 'desc', (a, b) => b.confidence - a.confidence || byLine(a, b)],
    ['confidence', 'asc', (a, b) => a.confidence - b.confidence || byLine(a, b)],
    ['loss', 'desc', (a, b) => b.loss - a.loss || byLine(a, b)],
    ['line', 'desc', (a, b) => b.line - a.line],
    ['label', 'asc', (a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0) || byLine(a, b)],
    ['id', 'asc', (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)],
  ];
  for (const [key, dir, cmp] of cases) {
    const mistakes = ref.filter((r) => !r.correct).sort(cmp);
    const all = ins.query({ where: parseWhere('correct=false'), sort: { key, dir }, offset: 0, limit: 10_000 });
    assert.deepEqual(
      all.rows.map((r) => r.line),
      mistakes.map((r) => r.line),
      `${key} ${dir}`,
    );
    const page = ins.query({ where: parseWhere('correct=false'), sort: { key, dir }, offset: 7, limit: 5 });
    assert.equal(page.total, mistakes.length);
    assert.equal(page.offset, 7);
    assert.deepEqual(
      page.rows.map((r) => r.line),
      mistakes.slice(7, 12).map((r) => r.line),
    );
  }
});

test('query errors name the key and what was expected', async () => {
  const { path } = writeRandomFile(dir, 5, 50);
  const ins = await openInspection(path, { configPath: join(dir, 'random-5.json') });
  const err = (q: Parameters<typeof ins.query>[0], re: RegExp) =>
    assert.throws(
      () => ins.query(q),
      (e: unknown) => e instanceof QueryError && re.test(e.message),
    );
  err(
    { where: parseWhere('nope=1'), offset: 0, limit: 1 },
    /unknown key "nope"; expected one of: label, pred, correct/,
  );
  err({ where: parseWhere('confidence>high'), offset: 0, limit: 1 }, /expected a number after >/);
  err({ where: parseWhere('correct=maybe'), offset: 0, limit: 1 }, /expected true\/false/);
  err({ where: parseWhere('correct<1'), offset: 0, limit: 1 }, /expected = or !=/);
  err({ where: [], sort: { key: 'city', dir: 'asc' }, offset: 0, limit: 1 }, /cannot sort by "city"/);
});

test('freshness: the SHA-256 read is compared with the results', async () => {
  const { path } = writeRandomFile(dir, 6, 30);
  const ins = await openInspection(path, { configPath: join(dir, 'random-6.json') });
  assert.equal(ins.checkFresh({ source: { sha256: ins.sha256 } }).fresh, true);
  assert.equal(ins.checkFresh({ source: { sha256: '0'.repeat(64) } }).fresh, false);
  assert.throws(() => ins.assertFresh({ source: { sha256: '0'.repeat(64) } }), /changed since it was evaluated/);
  assert.equal(await ins.fileChanged(), false);
  await assert.rejects(
    openInspection(path, { configPath: join(dir, 'random-6.json'), expectSha256: 'f'.repeat(64) }),
    /re-evaluate/,
  );
  writeRandomFile(dir, 7, 30); // another file; now overwrite this one
  const { writeFileSync, readFileSync } = await import('node:fs');
  writeFileSync(path, readFileSync(path, 'utf8') + 'r999,a,1,0,0,0,val,Oslo,20,\n');
  assert.equal(await ins.fileChanged(), true);
});
