import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isHostMessage, isWebviewMessage, isWebviewState, MAX_PAGE_ROWS, pngBytes } from '../../../src/shared/protocol';

test('webview messages: every valid kind is accepted', () => {
  for (const m of [
    { type: 'ready' },
    { type: 'savePng', seq: 1, fileName: 'a.png', dataUrl: 'data:image/png;base64,AAAA' },
    { type: 'copy', seq: 0, text: '| a |', what: 'table' },
    { type: 'command', command: 'export' },
    { type: 'command', command: 'reevaluate' },
    { type: 'cspViolation', directive: 'style-src', blocked: 'inline' },
    { type: 'log', level: 'warn', message: 'x' },
  ])
    assert.equal(isWebviewMessage(m), true, JSON.stringify(m));
});

test('webview messages: malformed ones are rejected', () => {
  for (const m of [
    null,
    'ready',
    [],
    { type: 'nope' },
    { type: 'savePng', seq: -1, fileName: 'a.png', dataUrl: 'data:image/png;base64,AAAA' },
    { type: 'savePng', seq: 1.5, fileName: 'a.png', dataUrl: 'data:image/png;base64,AAAA' },
    { type: 'savePng', seq: 1, fileName: 'a.png', dataUrl: 'data:text/html;base64,AAAA' },
    { type: 'copy', seq: 1, text: 3, what: 'x' },
    { type: 'command', command: 'rm -rf' },
    { type: 'log', level: 'debug', message: 'x' },
  ])
    assert.equal(isWebviewMessage(m), false, JSON.stringify(m));
});

test('host messages and state', () => {
  assert.equal(isHostMessage({ type: 'show', uri: 'file:///a.eval.json', model: { tabs: [] } }), true);
  assert.equal(isHostMessage({ type: 'show', uri: 'file:///a.eval.json', model: {} }), false);
  assert.equal(isHostMessage({ type: 'reply', seq: 3, ok: true }), true);
  assert.equal(isHostMessage({ type: 'reply', seq: 3 }), false);
  assert.equal(isHostMessage({ type: 'focus', target: 'aurc' }), true);
  assert.equal(isWebviewState({ uri: 'file:///x', tab: 'selective', tableView: ['shift'] }), true);
  assert.equal(isWebviewState({ uri: 'file:///x', tableView: [1] }), false);
  assert.equal(isWebviewState({ tab: 'x' }), false);
});

test('pngBytes decodes the base64 payload', () => {
  const bytes = pngBytes(`data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64')}`);
  assert.deepEqual([...bytes], [0x89, 0x50, 0x4e, 0x47]);
});

test('inspection requests from the webview: valid ones are accepted', () => {
  const where = [
    { key: 'label', op: '=', value: '3' },
    { key: 'confidence', op: '>=', value: '0.9' },
  ];
  for (const m of [
    { type: 'queryRows', seq: 1, query: { where, offset: 0, limit: 100 } },
    {
      type: 'queryRows',
      seq: 2,
      query: { where: [], sort: { key: 'confidence', dir: 'desc' }, offset: 200, limit: MAX_PAGE_ROWS },
    },
    { type: 'openLine', line: 1 },
    { type: 'openLine', line: 200_001 },
    { type: 'evaluateSubset', seq: 3, where },
    { type: 'evaluateSubset', seq: 4, where: [] },
    {
      type: 'evaluateSubset',
      seq: 4,
      where: Array.from({ length: 50 }, (_, i) => ({ key: 'city', op: '!=', value: `c${i}` })),
    },
    { type: 'sliceCandidates', seq: 5 },
    { type: 'computeSlices', seq: 6, by: ['split'] },
    { type: 'findSlices', seq: 7 },
    { type: 'findSlices', seq: 8, minSupport: 1, limit: 0 },
    { type: 'findSlices', seq: 9, minSupport: 30, limit: 20, run: 'runs/knn.csv' },
  ])
    assert.equal(isWebviewMessage(m), true, JSON.stringify(m));
});

test('inspection requests from the webview: malformed ones are rejected', () => {
  const q = { where: [], offset: 0, limit: 10 };
  for (const m of [
    { type: 'queryRows', seq: 1 },
    { type: 'queryRows', seq: -1, query: q },
    { type: 'queryRows', seq: 1, query: { ...q, limit: 0 } },
    { type: 'queryRows', seq: 1, query: { ...q, limit: MAX_PAGE_ROWS + 1 } },
    { type: 'queryRows', seq: 1, query: { ...q, offset: -5 } },
    { type: 'queryRows', seq: 1, query: { ...q, offset: 1.5 } },
    { type: 'queryRows', seq: 1, query: { ...q, where: {} } },
    { type: 'queryRows', seq: 1, query: { ...q, where: [{ key: 'label', op: '~', value: '1' }] } },
    { type: 'queryRows', seq: 1, query: { ...q, where: [{ key: 'label', op: '=', value: 1 }] } },
    { type: 'queryRows', seq: 1, query: { ...q, where: [{ key: '', op: '=', value: '1' }] } },
    { type: 'queryRows', seq: 1, query: { ...q, where: [{ key: 'label', op: '=', value: '1', extra: 'x' }] } },
    {
      type: 'queryRows',
      seq: 1,
      query: { ...q, where: Array.from({ length: 65 }, () => ({ key: 'a', op: '!=', value: '1' })) },
    },
    { type: 'queryRows', seq: 1, query: { ...q, sort: { key: 'confidence', dir: 'up' } } },
    { type: 'queryRows', seq: 1, query: { ...q, sort: 'confidence' } },
    { type: 'openLine', line: 0 },
    { type: 'openLine', line: 2.5 },
    { type: 'openLine', line: '3' },
    { type: 'evaluateSubset', seq: 1 },
    { type: 'evaluateSubset', seq: 1, where: [{ key: 'x', op: '=', value: null }] },
    { type: 'sliceCandidates' },
    { type: 'computeSlices', seq: 1, by: [] },
    { type: 'computeSlices', seq: 1, by: [''] },
    { type: 'computeSlices', seq: 1, by: 'split' },
    { type: 'computeSlices', seq: 1, by: ['a', 'b', 'c', 'd', 'e'] },
    { type: 'findSlices' },
    { type: 'findSlices', seq: 1, minSupport: 0 },
    { type: 'findSlices', seq: 1, minSupport: 2.5 },
    { type: 'findSlices', seq: 1, minSupport: '30' },
    { type: 'findSlices', seq: 1, limit: -1 },
    { type: 'findSlices', seq: 1, limit: 1001 },
    { type: 'findSlices', seq: 1, run: '' },
    { type: 'findSlices', seq: 1, run: 3 },
  ])
    assert.equal(isWebviewMessage(m), false, JSON.stringify(m));
});

test('inspection answers from the host', () => {
  const row = {
    kind: 'classification',
    line: 2,
    id: '7',
    label: '1',
    pred: '4',
    correct: false,
    confidence: 0.3,
    loss: 3.6,
    top: [['4', 0.3]],
    columns: {},
  };
  const page = { total: 1, rowsInFile: 300, offset: 0, rows: [row] };
  assert.equal(isHostMessage({ type: 'rows', seq: 1, page }), true);
  assert.equal(isHostMessage({ type: 'rows', seq: 1, page: { ...page, rows: [{ ...row, kind: 'other' }] } }), false);
  assert.equal(isHostMessage({ type: 'rows', seq: 1, page: { ...page, rows: [{ ...row, line: -1 }] } }), false);
  assert.equal(isHostMessage({ type: 'rows', seq: 1, page: { ...page, total: '1' } }), false);
  assert.equal(
    isHostMessage({
      type: 'rows',
      seq: 1,
      page: { ...page, rows: Array.from({ length: MAX_PAGE_ROWS + 1 }, () => row) },
    }),
    false,
  );
  assert.equal(isHostMessage({ type: 'rows', seq: 1 }), false);
  assert.equal(isHostMessage({ type: 'reply', seq: 2, ok: false, message: 'changed', stale: true }), true);
  assert.equal(isHostMessage({ type: 'reply', seq: 2, ok: false, message: 'changed', stale: 'yes' }), false);
  assert.equal(
    isHostMessage({ type: 'sliceCandidates', seq: 3, candidates: [{ column: 'split', distinct: 2, numeric: false }] }),
    true,
  );
  assert.equal(isHostMessage({ type: 'sliceCandidates', seq: 3, candidates: [{ distinct: 2 }] }), false);
  assert.equal(isHostMessage({ type: 'slices', seq: 4, table: { metrics: [], rows: [] } }), true);
  assert.equal(isHostMessage({ type: 'slices', seq: 4, table: [] }), false);
  const found = {
    mode: 'one-run',
    tried: 14,
    runs: ['logreg.csv'],
    slices: [{ slice: 'label = 8', n: 30, where: [{ key: 'label', op: '=', value: '8' }] }],
  };
  assert.equal(isHostMessage({ type: 'foundSlices', seq: 5, result: found }), true);
  assert.equal(isHostMessage({ type: 'foundSlices', seq: 5, result: { ...found, mode: 'three' } }), false);
  assert.equal(
    isHostMessage({ type: 'foundSlices', seq: 5, result: { ...found, slices: [{ slice: 'x', n: 3, where: 'x' }] } }),
    false,
  );
  assert.equal(isHostMessage({ type: 'foundSlices', seq: 5 }), false);
});

test('Changed rows: the diff request, Open in both files and the diff answer are checked', () => {
  const where = [{ key: 'label', op: '=', value: '9' }];
  for (const m of [
    { type: 'diffRows', seq: 1, query: { run: 'digits-lt/knn.csv', where: [], limit: 50 } },
    { type: 'diffRows', seq: 2, query: { run: 'digits-lt/knn.csv', metric: 'nll', where, limit: 1000 } },
    { type: 'openLines', run: 'digits-lt/knn.csv', lineA: 2, lineB: 80 },
  ])
    assert.equal(isWebviewMessage(m), true, JSON.stringify(m));
  for (const m of [
    { type: 'diffRows', seq: 1, query: { run: 'knn.csv', where: [], limit: 0 } },
    { type: 'diffRows', seq: 1, query: { run: 'knn.csv', where: [], limit: 1001 } },
    { type: 'diffRows', seq: 1, query: { run: 'knn.csv', metric: '', where: [], limit: 5 } },
    { type: 'diffRows', seq: 1, query: { run: 1, where: [], limit: 5 } },
    { type: 'diffRows', seq: 1, query: { run: 'knn.csv', where: [{ key: 'label' }], limit: 5 } },
    { type: 'openLines', run: 'knn.csv', lineA: 0, lineB: 1 },
    { type: 'openLines', run: 'knn.csv', lineA: 1 },
    { type: 'openLines', run: '', lineA: 1, lineB: 1 },
  ])
    assert.equal(isWebviewMessage(m), false, JSON.stringify(m));
  assert.equal(isHostMessage({ type: 'diff', seq: 3, diff: { n: 300, rows: [] } }), true);
  assert.equal(isHostMessage({ type: 'diff', seq: 3, diff: { n: -1, rows: [] } }), false);
  assert.equal(isHostMessage({ type: 'diff', seq: 3, diff: { n: 3 } }), false);
});
