// The walk's class tables pack each position's (label, prediction) cell and true-class rank in a
// 16-bit word with up to 31 classes (cell in the low 10 bits), in a 32-bit word above (low 20 bits).
// The same tables with 32-bit words give the same resample values and class sums, bit for bit
// (Int32 and byte multiplicities), at 5 classes and at 31, the most the 16-bit word holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  classTablesInOrder,
  selectiveResampler,
  selectiveResampleValues,
  type SelectiveResampler,
} from '../../../../src/core/metrics/selectiveResample';
import { binIndices } from '../../../../src/core/metrics/calibration';
import { config, randomData, runClassificationSteps } from '../../helpers/classification';
import { familyStep, CLASSIFICATION_FAMILIES } from '../../../../src/core/tasks/classificationFamilies';
import { createRng } from '../../helpers/selective';

/** A resample's walk values and the class sums it gathered (copies: the next walk reuses them). */
function walked(r: SelectiveResampler, m: Int32Array | Uint8Array, items: number) {
  const values = { ...selectiveResampleValues(r, m, items) };
  const cls = r.cls!;
  return [values, { counts: [...cls.counts], cells: [...cls.cells], nll: cls.nll, brier: cls.brier }] as const;
}

for (const C of [5, 31, 32])
  test(`16-bit and 32-bit class words: the same walk values and class sums (${C} classes)`, async () => {
    const n = 3000;
    const steps = CLASSIFICATION_FAMILIES.map(familyStep);
    const { run } = await runClassificationSteps(randomData(createRng(C), n, C, { ties: true }), config(), steps);
    const rows = run.selective!.rows;
    const tables = classTablesInOrder(run.prepared, rows.rowIndex)!;
    assert.equal(tables.word instanceof Uint16Array, C <= 31, 'words of 16 bits up to 31 classes');
    if (!(tables.word instanceof Uint16Array)) return;
    assert.equal(tables.cellBits, 10);
    const wide = {
      ...tables,
      word: Int32Array.from(tables.word, (w) => (w & 1023) | ((w >>> 10) << 20)),
      cellBits: 20,
    };
    const B = 10;
    const calibration = { B, bins: binIndices(rows, B) };
    const accept = { kind: 'end' as const, end: Math.floor(n / 3) };
    const narrowWalk = selectiveResampler(rows, accept, calibration, run.prepared, tables);
    const wideWalk = selectiveResampler(rows, accept, calibration, run.prepared, wide);
    assert.equal(narrowWalk.cls!.word, tables.word);
    assert.equal(wideWalk.cls!.word, wide.word);
    const rng = createRng(9);
    for (let trial = 0; trial < 6; trial++) {
      const mult = Int32Array.from({ length: n }, () => rng.int(4));
      const items = mult.reduce((s, c) => s + c, 0);
      for (const m of [mult, Uint8Array.from(mult)]) {
        const [a, sa] = walked(narrowWalk, m, items);
        const [b, sb] = walked(wideWalk, m, items);
        assert.deepEqual(a, b);
        assert.deepEqual(sa, sb);
        assert.ok(sa.counts.some((x) => x > 0) && sa.nll > 0);
      }
    }
  });
