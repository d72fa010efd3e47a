// Rows without groups (nGroups 0) hold an empty `group` array instead of one −1 a row: every metric
// over them gives what it gave over the same rows with the −1 array, value for value (weights or
// not, with multiplicities, ties), and sortRowsByScore makes the empty array exactly when no row
// has a group.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortRowsByScore, type SortedRows } from '../../../../src/core/metrics/sortedRows';
import { aurcGrid101, aurcValues, exactRiskCoverage } from '../../../../src/core/metrics/riskCoverage';
import { groupAnalysis, operatingPoint } from '../../../../src/core/metrics/selective';
import { costSweep } from '../../../../src/core/metrics/costSweep';
import { operatingPointColumns } from '../../../../src/core/metrics/operatingPoints';
import { binIndices } from '../../../../src/core/metrics/calibration';
import { selectiveResampler, selectiveResampleValues } from '../../../../src/core/metrics/selectiveResample';
import { createRng } from '../../../../src/core/stats/rng';

/** `rows` as they were held before: one −1 a row. */
const withMinusOnes = (rows: SortedRows): SortedRows => ({ ...rows, group: new Int32Array(rows.n).fill(-1) });

test('rows without groups: an empty group array, the same metric values as with one −1 a row', () => {
  const rng = createRng(3);
  for (let trial = 0; trial < 24; trial++) {
    const n = 150 + rng.int(200); // above 101 rows: the grid keys are defined
    const levels = 2 + rng.int(30);
    const scores = Float64Array.from({ length: n }, () => rng.int(levels) / levels);
    const wrong = Uint8Array.from({ length: n }, () => (rng.next() < 0.3 ? 1 : 0));
    const weighted = trial % 2 === 1;
    const weights = weighted ? Array.from({ length: n }, () => rng.next() * 2) : null;
    const rows = sortRowsByScore(scores, wrong, {
      weights,
      groups: trial % 3 === 0 ? new Int32Array(n).fill(-1) : null,
    });
    assert.equal(rows.nGroups, 0);
    assert.equal(rows.group.length, 0);
    const old = withMinusOnes(rows);
    const mult = Int32Array.from({ length: n }, () => rng.int(3));
    const what = `trial ${trial}`;
    for (const m of [null, mult]) {
      assert.deepEqual(exactRiskCoverage(rows, m), exactRiskCoverage(old, m), what);
      assert.deepEqual(aurcValues(rows, m), aurcValues(old, m), what);
      assert.deepEqual(aurcGrid101(rows, m), aurcGrid101(old, m), what);
      const end = Math.floor(n / 2);
      assert.deepEqual(
        operatingPoint(rows, { kind: 'prefix', end }, m),
        operatingPoint(old, { kind: 'prefix', end }, m),
        what,
      );
    }
    assert.deepEqual(
      costSweep(rows, [0, 0.3, 0.7, 1], { probability: true }),
      costSweep(old, [0, 0.3, 0.7, 1], { probability: true }),
    );
    assert.deepEqual(operatingPointColumns(rows, 10), operatingPointColumns(old, 10));
    assert.deepEqual(
      groupAnalysis(rows, { kind: 'prefix', end: 5 }, [], []),
      groupAnalysis(old, { kind: 'prefix', end: 5 }, [], []),
    );
    // the bootstrap's one-pass walk (Int32 multiplicities; unit masses: also bytes)
    const B = 10;
    const calibration = { B, bins: binIndices(rows, B) };
    const accept = { kind: 'end' as const, end: Math.floor(n / 3) };
    const a = selectiveResampler(rows, accept, calibration);
    const b = selectiveResampler(old, accept, calibration);
    const items = mult.reduce((s, c) => s + c, 0);
    assert.deepEqual(
      { ...selectiveResampleValues(a, mult, weighted ? undefined : items) },
      { ...selectiveResampleValues(b, mult, weighted ? undefined : items) },
      what,
    );
    if (!weighted)
      assert.deepEqual(
        { ...selectiveResampleValues(a, Uint8Array.from(mult), items) },
        { ...selectiveResampleValues(b, Uint8Array.from(mult), items) },
        what,
      );
  }
});

test('sortRowsByScore keeps the group array when a row has a group', () => {
  const rows = sortRowsByScore([0.2, 0.9, 0.5], [0, 1, 0], { groups: Int32Array.from([-1, 1, 0]) });
  assert.equal(rows.nGroups, 2);
  assert.deepEqual([...rows.group], [1, 0, -1]);
});
