// The bootstrap's one-pass resampler (metrics/selectiveResample.ts) against the separate metric
// functions it fuses (aurcValues, aurcGrid101, targetCoverageEnd + operatingPoint,
// calibrationValues), on random inputs with ties, weights (some 0), groups (some rows in none),
// zero and large multiplicities; and the fast draws (stats/resampleDraws.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortRowsByScore } from '../../../../src/core/metrics/sortedRows';
import { aurcGrid101, aurcValues } from '../../../../src/core/metrics/riskCoverage';
import { operatingPoint, targetCoverageEnd, thresholdEnd } from '../../../../src/core/metrics/selective';
import { binIndices, calibrationValues } from '../../../../src/core/metrics/calibration';
import {
  selectiveResampler,
  selectiveResampleValues,
  type PrefixAcceptance,
} from '../../../../src/core/metrics/selectiveResample';
import { drawResample, evaluateResamples, stratumPositions } from '../../../../src/core/stats/resampleDraws';
import { createRng } from '../../../../src/core/stats/rng';

function close(a: number, b: number, what: string, tol = 1e-9): void {
  if (Number.isNaN(b)) assert.ok(Number.isNaN(a), `${what}: got ${a}, expected NaN`);
  else assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: got ${a}, expected ${b}`);
}

test('one pass equals the separate metric functions (random inputs: ties, weights, groups, multiplicities)', () => {
  const rng = createRng(11);
  let cases = 0;
  for (const n of [1, 7, 60, 130, 500]) {
    for (const G of [0, 2, 3]) {
      for (const weighted of [false, true]) {
        for (const accKind of ['all', 'threshold', 'target'] as const) {
          for (let rep = 0; rep < 3; rep++) {
            const levels = rep === 0 ? 3 : rep === 1 ? 20 : 1_000_000;
            const scores = Array.from({ length: n }, () =>
              rep === 2 && rng.next() < 0.05 ? 0 : (1 + rng.int(levels)) / levels,
            );
            const wrong = Array.from({ length: n }, () => (rng.next() < 0.3 ? 1 : 0));
            const groups = G > 0 ? Int32Array.from({ length: n }, () => (rng.next() < 0.1 ? -1 : rng.int(G))) : null;
            const weights = weighted
              ? Float64Array.from({ length: n }, () => (rng.next() < 0.1 ? 0 : 0.25 + 2 * rng.next()))
              : null;
            const rows = sortRowsByScore(scores, wrong, { groups, nGroups: G, weights });
            const counts = new Int32Array(n);
            if (rep === 1)
              for (let j = 0; j < 3 * n; j++) counts[rng.int(n)]++; // many copies
            else drawResample(rep + n, cases, counts, null);
            const mult = Float64Array.from(counts);
            const t = 0.2 + 0.6 * rng.next();
            const accept: PrefixAcceptance =
              accKind === 'all'
                ? { kind: 'end', end: n }
                : accKind === 'threshold'
                  ? { kind: 'end', end: thresholdEnd(rows, t) }
                  : { kind: 'target', target: t };
            const B = rep === 0 ? 4 : 15;
            const r = selectiveResampler(rows, accept, { B });
            let items = 0;
            for (const c of counts) items += c;
            const got = selectiveResampleValues(r, counts, weighted ? undefined : items);
            const what = `n=${n} G=${G} w=${weighted} ${accKind} rep=${rep}`;
            const a = aurcValues(rows, mult);
            close(got.aurc, a.aurc, `${what} aurc`);
            close(got.eaurc, a.eaurc, `${what} eaurc`);
            close(got.aurcBalanced, a.aurcBalanced, `${what} aurc_balanced`);
            close(got.aurcWorst, a.aurcWorst, `${what} aurc_worst`);
            const g = aurcGrid101(rows, mult);
            close(got.grid, g ? g.standard : NaN, `${what} grid`);
            close(got.grid02, g ? g.standardFrom02 : NaN, `${what} grid02`);
            close(got.gridBalanced, g ? g.balanced : NaN, `${what} gridBalanced`);
            close(got.gridWorst02, g ? g.worstFrom02 : NaN, `${what} gridWorst02`);
            const end = accept.kind === 'end' ? accept.end : targetCoverageEnd(rows, accept.target, mult).end;
            const op = operatingPoint(rows, { kind: 'prefix', end }, mult);
            close(got.coverage, op.coverage, `${what} coverage`);
            close(got.risk, op.risk, `${what} risk`);
            for (let k = 0; k < G; k++) close(got.groupError[k], op.groupError[k], `${what} error_group ${k}`);
            close(got.balanced, op.balanced, `${what} balanced`);
            close(got.worst, op.worst, `${what} worst`);
            const cv = calibrationValues(rows, B, mult);
            close(got.ece, cv.ece, `${what} ece`);
            close(got.mce, cv.mce, `${what} mce`);
            close(got.eceAdaptive, cv.eceAdaptive, `${what} ece_adaptive`);
            cases++;
          }
        }
      }
    }
  }
  assert.equal(cases, 5 * 3 * 2 * 3 * 3);
});

test('one pass over more rows than one slice: tied blocks across slice ends, unit masses vs unit weights vs the metric functions; a reused resampler repeats itself', () => {
  const rng = createRng(29);
  const n = 10_000; // the unit-mass walk goes in slices of 4096 positions
  for (const G of [2, 3]) {
    for (const accKind of ['all', 'threshold', 'target'] as const) {
      // 300 score levels: about 33 rows per tied block, so blocks straddle the slice ends
      const scores = Array.from({ length: n }, () => (1 + rng.int(300)) / 300);
      const wrong = Array.from({ length: n }, () => (rng.next() < 0.4 ? 1 : 0));
      const groups = Int32Array.from({ length: n }, () => (rng.next() < 0.05 ? -1 : rng.int(G)));
      const rows = sortRowsByScore(scores, wrong, { groups, nGroups: G });
      const unitWeighted = sortRowsByScore(scores, wrong, { groups, nGroups: G, weights: new Float64Array(n).fill(1) });
      const accept: PrefixAcceptance =
        accKind === 'all'
          ? { kind: 'end', end: n }
          : accKind === 'threshold'
            ? { kind: 'end', end: thresholdEnd(rows, 0.5) }
            : { kind: 'target', target: 0.6 };
      const r = selectiveResampler(rows, accept, { B: 15 });
      const rw = selectiveResampler(unitWeighted, accept, { B: 15 });
      const first = new Int32Array(n);
      drawResample(2, 0, first, null);
      let before: ReturnType<typeof selectiveResampleValues> | null = null;
      for (let b = 0; b < 3; b++) {
        const counts = new Int32Array(n);
        drawResample(2, b, counts, null);
        const got = { ...selectiveResampleValues(r, counts, n) };
        got.groupError = Float64Array.from(got.groupError);
        if (b === 0) before = got;
        const ref = selectiveResampleValues(rw, counts);
        const what = `G=${G} ${accKind} b=${b}`;
        for (const k of [
          'coverage',
          'risk',
          'balanced',
          'worst',
          'aurc',
          'eaurc',
          'aurcBalanced',
          'aurcWorst',
        ] as const)
          close(got[k], ref[k], `${what} ${k}`);
        for (const k of ['grid', 'grid02', 'gridBalanced', 'gridWorst02', 'ece', 'mce', 'eceAdaptive'] as const)
          close(got[k], ref[k], `${what} ${k}`);
        const mult = Float64Array.from(counts);
        const a = aurcValues(rows, mult);
        close(got.aurcWorst, a.aurcWorst, `${what} aurc_worst vs aurcValues`);
        const cv = calibrationValues(rows, 15, mult);
        close(got.eceAdaptive, cv.eceAdaptive, `${what} ece_adaptive vs calibrationValues`);
      }
      // the first resample again, after two others: the same values bit for bit
      const again = selectiveResampleValues(r, first, n);
      for (const k of Object.keys(before!) as (keyof typeof before)[])
        assert.deepEqual(again[k], before![k], `G=${G} ${accKind}: ${String(k)} after reuse`);
    }
  }
});

test('eAURC optimum remembered across resamples: the same wrong-item count with other totals or rows gives each resample its own value', () => {
  const rng = createRng(41);
  const n = 200;
  const scores = Array.from({ length: n }, () => (1 + rng.int(50)) / 50);
  const wrong = Array.from({ length: n }, () => (rng.next() < 0.4 ? 1 : 0));
  const groups = Int32Array.from({ length: n }, () => rng.int(2));
  for (const weighted of [false, true]) {
    const weights = weighted ? Float64Array.from({ length: n }, () => 0.25 + 2 * rng.next()) : null;
    const rows = sortRowsByScore(scores, wrong, { groups, nGroups: 2, weights });
    const accept: PrefixAcceptance = { kind: 'target', target: 0.6 };
    const shared = selectiveResampler(rows, accept, { B: 15 });
    // one multiset of multiplicities, shuffled within the wrong and within the right positions:
    // every resample has the same size and the same wrong-item count (with weights, other masses)
    const base = new Int32Array(n);
    drawResample(5, 0, base, null);
    const wrongAt: number[] = [];
    const rightAt: number[] = [];
    for (let p = 0; p < n; p++) (rows.wrong[p] === 1 ? wrongAt : rightAt).push(p);
    let items = 0;
    for (const c of base) items += c;
    const seen = new Set<number>();
    for (let rep = 0; rep < 12; rep++) {
      const counts = new Int32Array(n);
      for (const at of [wrongAt, rightAt]) {
        const vals = at.map((p) => base[p]);
        for (let i = vals.length - 1; i > 0; i--) {
          const j = rng.int(i + 1);
          [vals[i], vals[j]] = [vals[j], vals[i]];
        }
        at.forEach((p, i) => (counts[p] = vals[i]));
      }
      const got = selectiveResampleValues(shared, counts, weighted ? undefined : items).eaurc;
      const fresh = selectiveResampleValues(
        selectiveResampler(rows, accept, { B: 15 }),
        counts,
        weighted ? undefined : items,
      );
      assert.equal(got, fresh.eaurc, `w=${weighted} rep=${rep}: the remembered optimum changed the value`);
      close(got, aurcValues(rows, Float64Array.from(counts)).eaurc, `w=${weighted} rep=${rep} eaurc`);
      seen.add(got);
    }
    // the resamples differ (else the test would not tell a stale optimum from a right one)
    assert.ok(seen.size > 6, `w=${weighted}: only ${seen.size} distinct values`);
  }
});

test('one pass: every multiplicity 0 gives NaN values (nothing throws)', () => {
  const rows = sortRowsByScore([0.9, 0.5, 0.5], [0, 1, 0], { groups: Int32Array.from([0, 1, 0]), nGroups: 2 });
  const v = selectiveResampleValues(
    selectiveResampler(rows, { kind: 'target', target: 0.5 }, { B: 15 }),
    new Int32Array(3),
  );
  assert.ok(Number.isNaN(v.aurc) && Number.isNaN(v.coverage) && Number.isNaN(v.ece) && Number.isNaN(v.grid));
});

test('fast draws: a resample depends only on (seed, b); n draws in all, each stratum its own size', () => {
  const a = new Int32Array(1000);
  const b = new Int32Array(1000);
  drawResample(5, 17, a, null);
  drawResample(5, 17, b, null);
  assert.deepEqual(a, b);
  drawResample(5, 18, b, null);
  assert.notDeepEqual(a, b);
  assert.equal(
    a.reduce((s, x) => s + x, 0),
    1000,
  );
  const strata = Int32Array.from({ length: 1000 }, (_, i) => (i % 7 === 0 ? 2 : i % 3 === 0 ? 0 : 1));
  const pos = stratumPositions(1000, strata)!;
  for (let rep = 0; rep < 20; rep++) {
    drawResample(1, rep, a, pos);
    const per = [0, 0, 0];
    a.forEach((c, i) => (per[strata[i]] += c));
    assert.deepEqual(per, [pos[0].length, pos[1].length, pos[2].length]);
  }
});

test('fast draws are uniform: chi-square over 50 cells, and Lemire / modulo paths agree in distribution', () => {
  const m = 50;
  const total = new Float64Array(m);
  const counts = new Int32Array(m);
  const R = 2000;
  for (let b = 0; b < R; b++) {
    drawResample(3, b, counts, null);
    for (let i = 0; i < m; i++) total[i] += counts[i];
  }
  const e = R; // each cell expects R·m/m draws
  let chi = 0;
  for (let i = 0; i < m; i++) chi += (total[i] - e) ** 2 / e;
  // chi-square with 49 df: mean 49, sd ≈ 9.9; 99.99% quantile ≈ 95
  assert.ok(chi < 95, `chi-square ${chi}`);
  // m above 2^21 uses rejection + modulo: still n draws
  const big = new Int32Array(2 ** 21 + 3);
  drawResample(1, 0, big, null);
  assert.equal(
    big.reduce((s, x) => s + x, 0),
    big.length,
  );
});

test('evaluateResamples: values do not depend on how the resamples are split into ranges', () => {
  const x = Float64Array.from({ length: 300 }, (_, i) => (i * 7919) % 13);
  const stat = (c: Int32Array, out: Float64Array) => {
    let s = 0;
    for (let i = 0; i < c.length; i++) s += c[i] * x[i];
    out[0] = s / c.length;
    out[1] = c[0];
  };
  const whole = evaluateResamples(300, 2, stat, { seed: 9, strata: null, range: { from: 0, to: 40 } });
  const a = evaluateResamples(300, 2, stat, { seed: 9, strata: null, range: { from: 0, to: 13 } });
  const b = evaluateResamples(300, 2, stat, { seed: 9, strata: null, range: { from: 13, to: 40 } });
  assert.deepEqual(whole, Float64Array.from([...a, ...b]));
});

test('one pass: ECE bins given by the caller (calibration binIndices) are read as they are, the values bit for bit', () => {
  const rng = createRng(31);
  // above 4,096 rows the walk's warm-up runs on its first rows (with bins of its own)
  for (const n of [300, 5000]) {
    for (const weighted of [false, true]) {
      const scores = Array.from({ length: n }, () => (rng.next() < 0.05 ? 0 : (1 + rng.int(200)) / 200));
      const wrong = Array.from({ length: n }, () => (rng.next() < 0.3 ? 1 : 0));
      const weights = weighted ? Float64Array.from({ length: n }, () => 0.25 + 2 * rng.next()) : null;
      const rows = sortRowsByScore(scores, wrong, { weights });
      const accept: PrefixAcceptance = { kind: 'target', target: 0.7 };
      const bins = binIndices(rows, 15);
      const given = selectiveResampler(rows, accept, { B: 15, bins });
      const own = selectiveResampler(rows, accept, { B: 15 });
      if (weighted) {
        assert.equal(given.bins, bins, 'the given array itself');
        assert.deepEqual([...own.bins!], [...bins]);
      } else {
        // the unit-mass walk holds the bin of each position that starts a new one, not one per position
        const runs = [...bins].filter((b, p) => p === 0 || b !== bins[p - 1]);
        assert.ok(runs.length > 1 && runs.length < n);
        for (const r of [given, own]) {
          assert.equal(r.bins, null);
          assert.deepEqual([...r.binRuns!], runs);
        }
      }
      for (let rep = 0; rep < 5; rep++) {
        const counts = new Int32Array(n);
        drawResample(9, rep, counts, null);
        const a = { ...selectiveResampleValues(given, counts, weighted ? undefined : n) };
        const b = { ...selectiveResampleValues(own, counts, weighted ? undefined : n) };
        assert.ok(a.ece > 0 && a.eceAdaptive > 0, 'calibration values computed');
        for (const k of Object.keys(b) as (keyof typeof b)[])
          if (typeof b[k] === 'number') assert.ok(Object.is(a[k], b[k]), `n=${n} w=${weighted} rep=${rep} ${k}`);
      }
    }
  }
  const rows = sortRowsByScore([0.9, 0.5, 0.2], [0, 1, 0]);
  assert.throws(
    () => selectiveResampler(rows, { kind: 'end', end: 2 }, { B: 15, bins: new Int32Array(2) }),
    /3 positions/,
  );
  // bins that change inside a tied block (not the scores' own) are kept per position
  const tied = sortRowsByScore([0.9, 0.5, 0.5, 0.2], [0, 1, 0, 0]);
  const split = Int32Array.from([13, 7, 8, 2]);
  const kept = selectiveResampler(tied, { kind: 'end', end: 2 }, { B: 15, bins: split });
  assert.equal(kept.binRuns, null);
  assert.equal(kept.bins, split);
});

test("the walk's words: bytes with up to 15 groups, 32-bit words with more; the same words in either kind give the same values bit for bit", () => {
  const rng = createRng(37);
  const n = 5000; // above the warm-up's rows
  for (const G of [0, 2, 15, 16]) {
    const scores = Array.from({ length: n }, () => (1 + rng.int(400)) / 400);
    const wrong = Array.from({ length: n }, () => (rng.next() < 0.3 ? 1 : 0));
    const groups = G > 0 ? Int32Array.from({ length: n }, () => (rng.next() < 0.1 ? -1 : rng.int(G))) : null;
    const rows = sortRowsByScore(scores, wrong, { groups, nGroups: G });
    const accept: PrefixAcceptance = { kind: 'target', target: 0.6 };
    const r = selectiveResampler(rows, accept, { B: 15 });
    assert.ok(r.code instanceof (G <= 15 ? Uint8Array : Int32Array), `G=${G}`);
    // one end per tied block of two rows or more
    let tied = 0;
    for (let b = 0; b + 1 < rows.blockStart.length; b++) if (rows.blockStart[b + 1] - rows.blockStart[b] >= 2) tied++;
    assert.equal(r.tiedEnds!.length, tied);
    if (G > 15) continue;
    const wide = selectiveResampler(rows, accept, { B: 15 });
    wide.code = Int32Array.from(r.code!);
    for (let b = 0; b < 4; b++) {
      const counts = new Int32Array(n);
      drawResample(11, b, counts, null);
      const a = { ...selectiveResampleValues(r, counts, n) };
      a.groupError = Float64Array.from(a.groupError);
      const w = selectiveResampleValues(wide, counts, n);
      assert.ok(a.ece > 0 && a.aurc > 0);
      for (const k of Object.keys(w) as (keyof typeof w)[]) assert.deepEqual(a[k], w[k], `G=${G} b=${b} ${k}`);
    }
  }
});
