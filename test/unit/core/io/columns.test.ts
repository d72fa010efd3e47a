// Column detection: aliases (case-insensitive), explicit `columns`, wide class-score sets, messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EvalLensError } from '../../../../src/core/diagnostics';
import { COLUMN_ALIASES, findColumn, findWideColumns } from '../../../../src/core/io/columns';
import { planClassificationColumns } from '../../../../src/core/io/classificationColumns';
import { resolveConfig } from '../../../../src/core/config/load';

test('aliases, case-insensitive, first alias in preference order', () => {
  assert.equal(findColumn(['ID', 'Y_True', 'target'], 'label'), 1);
  assert.equal(findColumn(['prediction', 'y_pred'], 'pred'), 1);
  assert.equal(findColumn(['margin', 'Confidence'], 'score'), 1);
  assert.equal(findColumn(['a'], 'weight'), -1);
  assert.deepEqual(COLUMN_ALIASES.label, ['label', 'y_true', 'target', 'gt', 'labels']);
});

test('explicit columns override detection and must exist', () => {
  assert.equal(findColumn(['label', 'truth'], 'label', { columns: { label: 'truth' } }), 1);
  assert.equal(findColumn(['label', 'Truth'], 'label', { columns: { label: 'truth' } }), 1);
  assert.throws(
    () => findColumn(['a', 'b'], 'label', { columns: { label: 'gold' } }, 'dir/p.csv'),
    (e: EvalLensError) =>
      e.code === 'column-not-found' &&
      /the label column "gold" set in `columns.label` is not in the file\. Found: a, b\./.test(e.message),
  );
});

test('missing required column: the house-style message', () => {
  const names = ['id', 'y', 'p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9'];
  assert.throws(
    () => planClassificationColumns(names, resolveConfig([]), 'runs/preds.csv'),
    (e: EvalLensError) => {
      assert.equal(
        e.message,
        'Cannot evaluate preds.csv: no label column. Found: id, y, p0, p1, p2, p3, p4, p5, … (4 more). Accepted: label, y_true, target, gt, labels. Set `columns.label` in eval-lens.json.',
      );
      assert.equal(e.location?.line, 1);
      return true;
    },
  );
});

test('wide columns: prefixes in preference order, ≥ 2 columns, probabilities before logits, exclusions', () => {
  assert.deepEqual(findWideColumns(['id', 'prob_cat', 'Prob_Dog', 'x']), {
    kind: 'probs',
    indices: [1, 2],
    suffixes: ['cat', 'Dog'],
    prefix: 'prob_',
  });
  assert.equal(findWideColumns(['p_value', 'label']), null);
  assert.deepEqual(findWideColumns(['logit_0', 'logit_1'])?.kind, 'logits');
  assert.deepEqual(findWideColumns(['logit_0', 'logit_1', 'p_0', 'p_1'])?.kind, 'probs');
  assert.deepEqual(findWideColumns(['probs_a', 'probs_b', 'proba_c'])?.suffixes, ['a', 'b']);
  assert.equal(findWideColumns(['p_a', 'p_b'], {}, 'f', new Set([0])), null);
  assert.deepEqual(findWideColumns(['c1', 'c2', 'x'], { columns: { probs: ['c2', 'c1'] } }), {
    kind: 'probs',
    indices: [1, 0],
    suffixes: ['c2', 'c1'],
    prefix: null,
  });
  assert.deepEqual(findWideColumns(['score_a', 'score_b'], { columns: { logits: ['score_a', 'score_b'] } })?.suffixes, [
    'a',
    'b',
  ]);
});
