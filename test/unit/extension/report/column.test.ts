import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reportColumn, type GroupState } from '../../../../src/extension/report/column';

const groups = (...tabs: number[]): GroupState[] => tabs.map((t, i) => ({ column: i + 1, tabs: t }));

test('a first report opens beside with one group, in the other group with two, never a third', () => {
  assert.equal(reportColumn(groups(1), 1), 'beside');
  assert.equal(reportColumn(groups(1, 1), 1), 2);
  assert.equal(reportColumn(groups(1, 1), 2), 1);
  assert.equal(reportColumn(groups(1, 1, 1), 2), 3);
  assert.equal(reportColumn(groups(1, 1, 1), 3), 2);
  assert.equal(reportColumn([], undefined), 'beside');
});

test('a second report opens as a tab in the group of the first, never as a new split', () => {
  // The code in group 1, a report in group 2, the report focused: the next report joins group 2.
  assert.equal(reportColumn(groups(1, 1), 2, [2]), 2);
  // Evaluated from the explorer with no editor open: group 1 is empty, the first report went to
  // group 2; the second must not fill the empty group 1 beside it (halving both).
  assert.equal(reportColumn(groups(0, 1), 2, [2]), 2);
  assert.equal(reportColumn(groups(0, 1), 1, [2]), 2);
  // The code's group was closed: the report's group is the only one; the next report is a tab in it.
  assert.equal(reportColumn(groups(1), 1, [1]), 1);
  // Reports in two groups (the user moved one): the most recently active one's group.
  assert.equal(reportColumn(groups(1, 1, 1), 1, [3, 2]), 3);
  // A report whose group closed meanwhile is ignored.
  assert.equal(reportColumn(groups(1, 1), 1, [undefined, 4]), 2);
});

test('an empty active group takes the report: nothing there to sit beside', () => {
  assert.equal(reportColumn(groups(0), 1), 1);
  assert.equal(reportColumn(groups(2, 0), 2), 2);
  // An empty other group is not a reason to split: beside the active one's editors.
  assert.equal(reportColumn(groups(1, 0), 1), 'beside');
});
