// `eval-lens diff` over typed columns (src/core/compare/diffRows.ts) against the slow obvious
// reference (every row a row view, runs paired with a Map, every changed row sorted:
// test/unit/helpers/diffRowsReference.ts) on random runs — ids as numbers, as texts or none, rows
// shuffled, a split column, a text column, filters, both metrics, limits — and on the bundled
// examples; the bounded selection against a full sort; repeated and unmatched ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffRuns, firstByKey, type DiffOptions } from '../../../../src/core/compare/diffRows';
import { parseWhere } from '../../../../src/core/rows/where';
import { createRng } from '../../../../src/core/stats/rng';
import { diffRunsReference } from '../../helpers/diffRowsReference';

const dir = mkdtempSync(join(tmpdir(), 'diff-fast-'));

/** The same call on both; equal answers, or the same error message. */
async function same(a: string, b: string, opts: DiffOptions, what: string): Promise<'ok' | 'error'> {
  const fast = await diffRuns(a, b, opts).then(
    (d) => ({ d }),
    (e: Error) => ({ e: e.message }),
  );
  const slow = await diffRunsReference(a, b, opts).then(
    (d) => ({ d }),
    (e: Error) => ({ e: e.message }),
  );
  assert.deepStrictEqual(fast, slow, what);
  return 'e' in fast ? 'error' : 'ok';
}

interface RandomRun {
  header: string[];
  rows: string[][];
}

/** Two runs of the same rows: B's rows shuffled (when they have ids), its predictions redrawn for some rows. */
function randomPair(seed: number): { a: RandomRun; b: RandomRun; probs: boolean; ids: 'number' | 'text' | 'none' } {
  const rng = createRng(seed);
  const n = 1 + rng.int(60);
  const C = 2 + rng.int(4);
  const ids = (['number', 'text', 'none'] as const)[rng.int(3)];
  const probs = rng.next() < 0.7;
  const split = rng.next() < 0.4;
  const idOf = (i: number): string => (ids === 'number' ? String(i * 7 - 20) : `u${(i * 13) % 1000}-${i}`);
  const header = [
    ...(ids !== 'none' ? ['id'] : []),
    'label',
    ...(probs ? Array.from({ length: C }, (_, c) => `prob_${c}`) : ['pred']),
    'region',
    ...(split ? ['split'] : []),
  ];
  const labels = Array.from({ length: n }, () => rng.int(C));
  const regions = Array.from({ length: n }, () => ['x', 'y', 'z'][rng.int(3)]!);
  const splits = Array.from({ length: n }, () => (rng.next() < 0.4 ? 'val' : 'test'));
  const scores = (): string[] => {
    // few distinct values, so that rows tie on their loss
    const p = Array.from({ length: C }, () => 1 + rng.int(4));
    const s = p.reduce((x, y) => x + y, 0);
    return p.map((x) => String(x / s));
  };
  const row = (i: number, keep: string[] | null): string[] => [
    ...(ids !== 'none' ? [idOf(i)] : []),
    String(labels[i]),
    ...(keep ?? (probs ? scores() : [String(rng.int(C))])),
    regions[i]!,
    ...(split ? [splits[i]!] : []),
  ];
  const predOf = (r: string[]): string[] => r.slice(ids !== 'none' ? 2 : 1, (ids !== 'none' ? 2 : 1) + (probs ? C : 1));
  const a = Array.from({ length: n }, (_, i) => row(i, null));
  const b = a.map((r, i) => row(i, rng.next() < 0.5 ? predOf(r) : null));
  if (ids !== 'none')
    for (let i = n - 1; i > 0; i--) {
      const k = rng.int(i + 1);
      [b[i], b[k]] = [b[k]!, b[i]!];
    }
  return { a: { header, rows: a }, b: { header, rows: b }, probs, ids };
}

function write(name: string, run: RandomRun): string {
  const path = join(dir, name);
  writeFileSync(path, [run.header, ...run.rows].map((r) => r.join(',')).join('\n') + '\n');
  return path;
}

const WHERE = ['', 'region=x', 'label>=1', 'correct=false', 'region!=y and label<=2', 'split=test', 'id=20', 'line>10'];

test('random runs: the same answer as the row-view reference (cells, Δ, changed rows and their order, lines, errors)', async () => {
  let ok = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const rng = createRng(1000 + seed);
    const { a, b, probs, ids } = randomPair(seed);
    const pa = write(`a${seed}.csv`, a);
    const pb = write(`b${seed}.csv`, b);
    for (let k = 0; k < 3; k++) {
      const whereText = WHERE[rng.int(WHERE.length)]!;
      const opts: DiffOptions = {
        metric: probs && rng.next() < 0.5 ? 'nll' : rng.next() < 0.1 ? 'nll' : undefined,
        limit: [0, 1, 3, 7, 1000, Infinity][rng.int(6)],
        ...(whereText ? { where: parseWhere(whereText), whereText } : {}),
        ...(rng.next() < 0.25 ? { matchBy: 'position' as const } : {}),
        ...(rng.next() < 0.5 ? { overrides: { metricsOn: 'all' as const } } : {}),
      };
      if ((await same(pa, pb, opts, `seed ${seed} (${ids} ids) ${JSON.stringify(opts)}`)) === 'ok') ok++;
    }
  }
  assert.ok(ok >= 100, `${ok} comparisons answered`); // most succeed: the errors are not all that is compared
});

test('the bundled examples: classification, split, importance-weighted and ranking runs = the reference', async () => {
  const cases: [string, string, DiffOptions][] = [
    ['examples/digits-lt/logreg.csv', 'examples/digits-lt/knn.csv', { limit: 40, where: parseWhere('shot=few') }],
    ['examples/digits-lt/logreg.csv', 'examples/digits-lt/logreg.jsonl', { metric: 'nll', limit: 1000 }],
    ['examples/selective-protocol/logreg.csv', 'examples/selective-protocol/logreg_balanced.csv', { limit: 30 }],
    [
      'examples/selective-protocol/logreg.csv',
      'examples/selective-protocol/logreg_balanced.csv',
      { metric: 'nll', where: parseWhere('accepted=true'), limit: 10 },
    ],
    ['examples/iw-breast-cancer/logreg.csv', 'examples/iw-breast-cancer/gaussian_nb.csv', { metric: 'nll', limit: 9 }],
    [
      'examples/ranking-debian-deps/popularity.jsonl',
      'examples/ranking-debian-deps/cooccurrence.jsonl',
      { metric: 'mrr', where: parseWhere('relevant>=2'), limit: 25 },
    ],
  ];
  for (const [a, b, opts] of cases) assert.equal(await same(a, b, opts, `${a} ${b}`), 'ok');
});

test('the listed rows: a bounded heap gives the first `limit` of the full sort (ties by position, ∞ last)', () => {
  const rng = createRng(7);
  for (let t = 0; t < 200; t++) {
    const m = rng.int(80);
    const key = Float64Array.from({ length: m }, () => (rng.next() < 0.1 ? Infinity : rng.int(5) - 2));
    const full = Array.from({ length: m }, (_, p) => p).sort((p, q) => key[p]! - key[q]! || p - q);
    for (const limit of [0, 1, 2, 5, m - 1, m, m + 3, Infinity])
      assert.deepEqual(Array.from(firstByKey(key, m, limit)), full.slice(0, Math.max(0, limit)), `${t} ${limit}`);
  }
});

const csv = (lines: string[]): string => lines.join('\n') + '\n';

test('repeated ids are refused with both lines; an unmatched id is named; without ids, rows pair by position', async () => {
  const head = 'id,label,pred';
  const a = join(dir, 'rep-a.csv');
  const b = join(dir, 'rep-b.csv');
  writeFileSync(a, csv([head, 'r1,0,0', 'r2,1,1', 'r3,1,0']));
  // A repeats an id: two of its rows would be paired with one row of B
  writeFileSync(b, csv([head, 'r1,0,1', 'r1,0,1', 'r3,1,1']));
  await assert.rejects(
    diffRuns(b, a),
    /rep-b\.csv:3: expected unique ids to pair the runs by id, but "r1" is at line 2 and line 3\./,
  );
  // B repeats an id and has every id of A: one row too many
  writeFileSync(b, csv([head, 'r3,1,1', 'r1,0,1', 'r2,1,0', 'r1,0,0']));
  await assert.rejects(
    diffRuns(a, b),
    /rep-b\.csv:5: expected unique ids to pair the runs by id, but "r1" is at line 3 and line 5\./,
  );
  // an id of A missing from B
  writeFileSync(b, csv([head, 'r3,1,1', 'r1,0,1', 'r9,1,0']));
  await assert.rejects(diffRuns(a, b), /rep-b\.csv: expected every id of .*rep-a\.csv here, but "r2" is not\./);
  // B has an id more
  writeFileSync(b, csv([head, 'r3,1,1', 'r1,0,1', 'r2,1,0', 'r4,0,0']));
  await assert.rejects(diffRuns(a, b), /expected the same ids as .*rep-a\.csv: this run has 4 rows, that one 3\./);
  // the same id, another label
  writeFileSync(b, csv([head, 'r3,1,1', 'r1,1,1', 'r2,1,0']));
  await assert.rejects(diffRuns(a, b), /rep-b\.csv:3: expected the true label of id "r1" to be "0"/);
  // no id column: paired by position, no ids in the rows
  const na = join(dir, 'pos-a.csv');
  const nb = join(dir, 'pos-b.csv');
  writeFileSync(na, csv(['label,pred', '0,0', '1,1', '1,0', '0,0']));
  writeFileSync(nb, csv(['label,pred', '0,1', '1,1', '1,1', '0,0']));
  const d = await diffRuns(na, nb);
  assert.deepEqual(d.cells, { bothRight: 2, lost: 1, gained: 1, bothWrong: 0 });
  assert.equal(d.delta, (3 - 3) / 4);
  assert.deepEqual(
    d.rows.map((r) => [r.id, r.lineA, r.lineB, r.change]),
    [
      [null, 2, 2, -1],
      [null, 4, 4, 1],
    ],
  );
  writeFileSync(nb, csv(['label,pred', '0,1', '1,1', '1,1']));
  await assert.rejects(diffRuns(na, nb), /expected 4 rows as in .*pos-a\.csv \(pairing by position\), but got 3\./);
});

test('a filter and a split: only A’s test rows that match are compared; a bad key is refused after the pairing', async () => {
  const head = 'id,label,pred,region,split';
  const a = join(dir, 'split-a.csv');
  const b = join(dir, 'split-b.csv');
  writeFileSync(a, csv([head, '1,0,0,x,val', '2,1,1,x,test', '3,1,0,y,test', '4,0,0,x,test', '5,1,1,x,test']));
  writeFileSync(b, csv([head, '5,1,0,x,test', '4,0,1,x,test', '3,1,1,y,test', '2,1,0,x,test', '1,0,1,x,val']));
  const d = await diffRuns(a, b, { where: parseWhere('region=x'), whereText: 'region=x' });
  // test rows with region x: ids 2, 4, 5, each right in A and wrong in B
  assert.equal(d.n, 3);
  assert.deepEqual(d.measured, { testRows: 4, rowsInFile: 5 });
  assert.deepEqual(d.cells, { bothRight: 0, lost: 3, gained: 0, bothWrong: 0 });
  assert.deepEqual(
    d.rows.map((r) => [r.id, r.lineA, r.lineB]),
    [
      ['2', 3, 5],
      ['4', 5, 3],
      ['5', 6, 2],
    ],
  );
  await assert.rejects(diffRuns(a, b, { where: parseWhere('nokey=1') }), /unknown key "nokey"/);
  const c = join(dir, 'split-c.csv');
  writeFileSync(c, csv([head, '9,1,0,x,test']));
  // the pairing is checked first, as before
  await assert.rejects(diffRuns(a, c, { where: parseWhere('nokey=1') }), /expected every id of/);
});
