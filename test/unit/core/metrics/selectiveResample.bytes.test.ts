// Byte multiplicities (a Uint8Array) for the unit-mass walk and the draws: the same values, class sums and
// counts as Int32, bit for bit, and a count above the byte limit reported (never silently wrapped).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortRowsByScore } from '../../../../src/core/metrics/sortedRows';
import { thresholdEnd } from '../../../../src/core/metrics/selective';
import {
  selectiveResampler,
  selectiveResampleValues,
  type PrefixAcceptance,
  type SelectiveResampleValues,
  walkedItems,
} from '../../../../src/core/metrics/selectiveResample';
import {
  drawResample,
  resampleEvaluator,
  stratumPositions,
  type ResampleStat,
} from '../../../../src/core/stats/resampleDraws';
import { createRng } from '../../../../src/core/stats/rng';
import { prepareClassification, type PreparedClassification } from '../../../../src/core/metrics/classification';
import { makeData } from '../../helpers/classification';

/** The values as plain numbers (groupError copied: the resampler reuses its buffer). */
function snapshot(v: SelectiveResampleValues): Record<string, number | number[]> {
  const out: Record<string, number | number[]> = {};
  for (const [k, x] of Object.entries(v)) out[k] = x instanceof Float64Array ? [...x] : (x as number);
  return out;
}

test("the byte walk gives the Int32 walk's values and classification sums bit for bit (random inputs: ties, groups, ECE bins, acceptance, copies up to 255, more rows than a slice)", () => {
  const rng = createRng(17);
  let cases = 0;
  let withSums = 0;
  for (const n of [1, 7, 60, 500, 10_000]) {
    for (const G of [0, 2, 3]) {
      for (const accKind of ['all', 'threshold', 'target'] as const) {
        for (let rep = 0; rep < 3; rep++) {
          const levels = rep === 0 ? 3 : rep === 1 ? 300 : 1_000_000;
          const scores = Array.from({ length: n }, () => (1 + rng.int(levels)) / levels);
          const wrong = Array.from({ length: n }, () => (rng.next() < 0.3 ? 1 : 0));
          const groups = G > 0 ? Int32Array.from({ length: n }, () => (rng.next() < 0.1 ? -1 : rng.int(G))) : null;
          const rows = sortRowsByScore(scores, wrong, { groups, nGroups: G });
          const counts = new Int32Array(n);
          drawResample(n + rep, cases, counts, null);
          // a few rows with many copies (up to the byte's 255): the copies cross grid points and chunks
          if (rep === 2) for (let j = 0; j < 5; j++) counts[rng.int(n)] = 200 + rng.int(56);
          const small = Uint8Array.from(counts);
          let items = 0;
          for (const c of counts) items += c;
          const t = 0.2 + 0.6 * rng.next();
          const accept: PrefixAcceptance =
            accKind === 'all'
              ? { kind: 'end', end: n }
              : accKind === 'threshold'
                ? { kind: 'end', end: thresholdEnd(rows, t) }
                : { kind: 'target', target: t };
          const calibration = rep === 1 ? null : { B: rep === 0 ? 4 : 15 };
          // the classification sums gathered by the same walk (the bootstrap's byte path always has
          // them), in every other case: row p of `prep` is the row at sorted position p
          const prep = (cases & 1) === 0 ? randomPrepared(rng, n, 1 + ((cases >> 1) % 6)) : null;
          const r32 = selectiveResampler(rows, accept, calibration, prep);
          const r8 = selectiveResampler(rows, accept, calibration, prep);
          const want = snapshot(selectiveResampleValues(r32, counts, items));
          const got = snapshot(selectiveResampleValues(r8, small, items));
          // deepEqual compares numbers with Object.is: NaN = NaN, 0 ≠ −0; every finite value exactly
          assert.deepEqual(got, want, `n=${n} G=${G} ${accKind} rep=${rep}`);
          if (prep) {
            assert.ok(r8.cls !== null && r32.cls !== null);
            const sums = (c: NonNullable<typeof r8.cls>) => ({
              cells: [...c.cells],
              counts: [...c.counts],
              total: c.total,
              nll: c.nll,
              brier: c.brier,
            });
            assert.deepEqual(sums(r8.cls), sums(r32.cls), `class sums: n=${n} G=${G} ${accKind} rep=${rep}`);
            assert.equal(r8.cls.total, items);
            withSums++;
          }
          cases++;
        }
      }
    }
  }
  assert.equal(cases, 5 * 3 * 3 * 3);
  assert.equal(withSums, 68);
});

/** n random rows of C classes, with probabilities (NLL and Brier terms) when C > 1. */
function randomPrepared(rng: ReturnType<typeof createRng>, n: number, C: number): PreparedClassification {
  const classes = Array.from({ length: C }, (_, c) => `c${c}`);
  const labels = Array.from({ length: n }, () => rng.int(C));
  if (C === 1) return prepareClassification(makeData({ classes, labels, preds: labels.slice() }));
  const probs = Array.from({ length: n }, () => {
    const r = Array.from({ length: C }, () => rng.next());
    const t = r.reduce((a, b) => a + b, 0);
    return r.map((x) => x / t);
  });
  return prepareClassification(makeData({ classes, labels, probs }), { topK: [1, 2] });
}

test('byte multiplicities need the resample size and unit masses', () => {
  const rows = sortRowsByScore([0.9, 0.5, 0.2], [0, 1, 0], { weights: new Float64Array([1, 2, 1]) });
  const r = selectiveResampler(rows, { kind: 'end', end: 3 }, null);
  assert.throws(() => selectiveResampleValues(r, new Uint8Array([1, 1, 1]), 3), /without sample weights/);
  const unit = selectiveResampler(sortRowsByScore([0.9, 0.5, 0.2], [0, 1, 0]), { kind: 'end', end: 3 }, null);
  assert.throws(() => selectiveResampleValues(unit, new Uint8Array([1, 1, 1])), /with the resample size/);
});

test('byte draws = Int32 draws modulo 256, with and without strata', () => {
  for (const [n, strata] of [
    [300, null],
    [1000, null],
    [999, Int32Array.from({ length: 999 }, (_, i) => (i * 7) % 3)],
    [12, null],
  ] as const) {
    const pos = stratumPositions(n, strata);
    for (let b = 0; b < 40; b++) {
      const want = new Int32Array(n);
      drawResample(9, b, want, pos);
      const got = new Uint8Array(n);
      drawResample(9, b, got, pos, new Int32Array(4));
      assert.deepEqual([...got], [...want], `n=${n} b=${b}`);
    }
  }
});

test('a count of 256 or more wraps around in a byte: the walk then enters fewer items than the resample size', () => {
  const n = 300;
  const rng = createRng(5);
  const scores = Array.from({ length: n }, () => rng.next());
  const wrong = Array.from({ length: n }, () => (rng.next() < 0.3 ? 1 : 0));
  const rows = sortRowsByScore(scores, wrong, { groups: Int32Array.from({ length: n }, (_, i) => i % 2), nGroups: 2 });
  const r = selectiveResampler(rows, { kind: 'target', target: 0.7 }, { B: 15 });
  for (const [copies, row] of [
    [256, 10],
    [299, 0],
    [257, 299],
  ]) {
    // `copies` of one row, the other draws spread one per row: n draws in all
    const counts = new Int32Array(n);
    counts[row] = copies;
    for (let left = n - copies, p = 0; left > 0; p++) {
      if (p === row) continue;
      counts[p] = 1;
      left--;
    }
    const small = Uint8Array.from(counts); // modulo 256
    selectiveResampleValues(r, small, n);
    assert.equal(walkedItems(r), n - 256, `${copies} copies of row ${row}`);
    selectiveResampleValues(r, counts, n);
    assert.equal(walkedItems(r), n);
  }
});

test('above 2^21 rows (the modulo draws): byte draws = Int32 draws modulo 256, and the evaluator hands the statistic bytes', () => {
  const n = 2 ** 21 + 3;
  // one stratum above 2^21 rows and a small one
  const strata = Int32Array.from({ length: n }, (_, i) => (i % 1000 === 7 ? 1 : 0));
  for (const pos of [null, stratumPositions(n, strata)]) {
    for (const b of [0, 1]) {
      const want = new Int32Array(n);
      drawResample(4, b, want, pos);
      const got = new Uint8Array(n);
      drawResample(4, b, got, pos, new Int32Array(4));
      assert.ok(Buffer.from(got).equals(Buffer.from(Uint8Array.from(want))), `b=${b} ${pos ? 'strata' : ''}`);
    }
  }
  // a statistic with a byte form gets bytes at this size too (the same draws)
  const seen: number[] = [];
  const stat: ResampleStat = (_counts, out) => {
    out[0] = -1;
  };
  stat.bytes = {
    run: (counts, out) => {
      let s = 0;
      for (let i = 0; i < counts.length; i++) s += counts[i];
      out[0] = s;
      seen.push(counts.length);
      return true;
    },
  };
  const values = new Float64Array(1);
  resampleEvaluator(n, 1, stat, 4, null)(0, 1, values, 0);
  assert.deepEqual(seen, [n]);
  const want = new Int32Array(n);
  drawResample(4, 0, want, null);
  let s = 0;
  for (const c of Uint8Array.from(want)) s += c;
  assert.equal(values[0], s);
});
