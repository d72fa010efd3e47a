import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Warnings } from '../../../../src/core/diagnostics';
import { checkDuplicateIds as checkIds, ClassScoreRowChecks } from '../../../../src/core/io/classificationChecks';
import { RowIds } from '../../../../src/core/data/rowIds';
import { textHash } from '../../../../src/core/data/stringIndex';
import { FIRST_LINES } from '../../../../src/core/io/rowProblems';
import { createRng } from '../../../../src/core/stats/rng';

/** The duplicate-id check with the ids' hashes, as the reader computes them (none for numeric ids). */
function checkDuplicateIds(file: string, column: string, ids: string[], lines: Int32Array, w: Warnings) {
  const rowIds = RowIds.ofTexts(ids);
  checkIds(file, column, rowIds, rowIds.texts ? Int32Array.from(ids, textHash) : null, lines, w);
}

/** The probability-sum check of every row of a row-major n×C matrix, as the reader runs it row by row. */
function checkProbabilitySums(file: string, P: Float64Array, C: number, n: number, lines: Int32Array, w: Warnings) {
  const checks = new ClassScoreRowChecks();
  for (let i = 0; i < n; i++) checks.sum(P, i * C, C, lines[i]);
  checks.warn(file, null, 'probs', w);
}

/** The pred-is-the-arg-max check of every row, as the reader runs it row by row. */
function checkPredIsArgmax(
  file: string,
  predColumn: string,
  scoreKind: 'probs' | 'logits',
  preds: Int32Array,
  P: Float64Array,
  C: number,
  n: number,
  lines: Int32Array,
  w: Warnings,
) {
  const checks = new ClassScoreRowChecks();
  for (let i = 0; i < n; i++) checks.predIsArgmax(P, i * C, C, preds[i], lines[i]);
  checks.warn(file, predColumn, scoreKind, w);
}

// 25 flagged rows among 30 (rows 0–4 fine, 5–29 flagged), file lines = row + 2 (a header line first):
// each check counts all 25 and lists the lines of the first FIRST_LINES (20) of them.
const n = 30;
const lines = Int32Array.from({ length: n }, (_, i) => i + 2);
const flaggedLines = Array.from({ length: FIRST_LINES }, (_, j) => j + 5 + 2);

test('probability sums: every row off 1 counted, the first lines listed, the first sum quoted', () => {
  const C = 2;
  const P = new Float64Array(n * C);
  for (let i = 0; i < n; i++) {
    P[i * C] = 0.5;
    P[i * C + 1] = i < 5 ? 0.5 : 0.25 + i / 1000;
  }
  const w = new Warnings();
  checkProbabilitySums('/d/p.csv', P, C, n, lines, w);
  assert.equal(w.list.length, 1);
  const [warning] = w.list;
  assert.equal(warning.code, 'probabilities-not-normalised');
  assert.equal(warning.count, 25);
  assert.deepEqual(warning.lines, flaggedLines);
  assert.equal(warning.line, 7);
  assert.match(
    warning.message,
    /^p\.csv: 25 rows of class probabilities do not sum to 1 .*First: line 7 \(sum 0\.755\)\.$/,
  );
});

test('pred not the arg-max: every such row counted, the first lines listed', () => {
  const C = 3;
  const P = new Float64Array(n * C);
  const preds = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    P[i * C + 1] = 0.9;
    preds[i] = i < 5 ? 1 : 2;
  }
  const w = new Warnings();
  checkPredIsArgmax('/d/p.csv', 'pred', 'probs', preds, P, C, n, lines, w);
  assert.equal(w.list.length, 1);
  assert.equal(w.list[0].code, 'pred-not-argmax');
  assert.equal(w.list[0].count, 25);
  assert.deepEqual(w.list[0].lines, flaggedLines);
  assert.match(
    w.list[0].message,
    /^p\.csv: on 25 rows the `pred` column is not the class with the highest probability \(first: line 7\)/,
  );
  assert.match(w.list[0].message, /the metrics of the scores \(.*\) use the probabilities\.$/);
  const wl = new Warnings();
  checkPredIsArgmax('/d/p.csv', 'pred', 'logits', preds, P, C, n, lines, wl);
  assert.match(wl.list[0].message, /is not the class with the highest logit \(first: line 7\).* use the logits\.$/);
});

test('repeated ids: every repeat counted, the first lines listed, the first repeated id quoted', () => {
  const ids = Array.from({ length: n }, (_, i) => (i < 5 ? `u${i}` : `u${i % 5}`));
  const w = new Warnings();
  checkDuplicateIds('/d/p.csv', 'id', ids, lines, w);
  assert.equal(w.list.length, 1);
  assert.equal(w.list[0].code, 'duplicate-ids');
  assert.equal(w.list[0].count, 25);
  assert.deepEqual(w.list[0].lines, flaggedLines);
  assert.match(w.list[0].message, /^p\.csv: 25 rows repeat an id seen on an earlier line \(first: "u0" at line 7\)/);
});

test('repeated numeric ids = a Set of the ids seen (compared as numbers: a bit set over a dense range, else a hash table)', () => {
  const rng = createRng(19);
  for (let rep = 0; rep < 20; rep++) {
    const n = 1 + rng.int(3000);
    // spread out on odd repetitions (the hash table), near the row numbers on even ones (the bit set)
    const scale = rep % 2 === 1 ? 1_000_003 : 1;
    const ids = Array.from({ length: n }, () =>
      String(scale * (rng.int(1 + rng.int(2 * n)) - (rng.next() < 0.2 ? n : 0))),
    );
    const lines = Int32Array.from({ length: n }, (_, i) => 2 + i);
    const seen = new Set<string>();
    const dup: number[] = [];
    ids.forEach((id, i) => (seen.has(id) ? dup.push(lines[i]) : seen.add(id)));
    const rowIds = RowIds.ofTexts(ids);
    assert.ok(rowIds.numbers, 'canonical integers are kept as numbers');
    const w = new Warnings();
    checkIds('/d/p.csv', 'id', rowIds, null, lines, w);
    if (dup.length === 0) assert.deepEqual(w.list, []);
    else {
      assert.equal(w.list[0].count, dup.length);
      assert.deepEqual(w.list[0].lines, dup.slice(0, FIRST_LINES));
      assert.ok(w.list[0].message.includes(`(first: "${ids[dup[0] - 2]}" at line ${dup[0]})`));
    }
  }
});

test('no flagged row: no warning', () => {
  const w = new Warnings();
  checkDuplicateIds('/d/p.csv', 'id', ['a', 'b'], Int32Array.of(2, 3), w);
  checkPredIsArgmax('/d/p.csv', 'pred', 'logits', Int32Array.of(0), Float64Array.of(2, 1), 2, 1, Int32Array.of(2), w);
  checkProbabilitySums('/d/p.csv', Float64Array.of(0.3, 0.7), 2, 1, Int32Array.of(2), w);
  assert.deepEqual(w.list, []);
});

test('repeated ids = a Set of the ids seen, on random ids, also when hashes collide', () => {
  const rng = createRng(17);
  for (let rep = 0; rep < 20; rep++) {
    const n = 1 + rng.int(3000);
    const ids = Array.from({ length: n }, () => `id${rng.int(1 + rng.int(2 * n))}${rng.next() < 0.1 ? 'é' : ''}`);
    const lines = Int32Array.from({ length: n }, (_, i) => 2 + i);
    const seen = new Set<string>();
    const dup: number[] = [];
    ids.forEach((id, i) => (seen.has(id) ? dup.push(lines[i]) : seen.add(id)));
    // the ids' own hashes; one hash for every id (the texts decide); three hashes, the same for equal ids
    const three = new Map<string, number>();
    for (const id of ids) if (!three.has(id)) three.set(id, rng.int(3));
    for (const hashes of [
      Int32Array.from(ids, textHash),
      new Int32Array(n),
      Int32Array.from(ids, (id) => three.get(id)!),
    ]) {
      const w = new Warnings();
      checkIds('/d/p.csv', 'id', RowIds.ofTexts(ids), hashes, lines, w);
      if (dup.length === 0) assert.deepEqual(w.list, []);
      else {
        assert.equal(w.list[0].count, dup.length);
        assert.deepEqual(w.list[0].lines, dup.slice(0, FIRST_LINES));
        assert.ok(w.list[0].message.includes(`(first: "${ids[dup[0] - 2]}" at line ${dup[0]})`));
      }
    }
  }
});
