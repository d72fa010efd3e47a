import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reportColumn } from '../../../../src/extension/report/column';

test('a report opens beside with one group, in the other group with two, never a third', () => {
  assert.equal(reportColumn([1], 1), 'beside');
  assert.equal(reportColumn([1, 2], 1), 2);
  assert.equal(reportColumn([1, 2], 2), 1);
  assert.equal(reportColumn([1, 2, 3], 2), 3);
  assert.equal(reportColumn([1, 2, 3], 3), 2);
  assert.equal(reportColumn([], undefined), 'beside');
});
