import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isHostMessage, isWebviewMessage, isWebviewState, pngBytes } from '../../../src/shared/protocol';

test('webview messages: every valid kind is accepted', () => {
  for (const m of [
    { type: 'ready' },
    { type: 'savePng', seq: 1, fileName: 'a.png', dataUrl: 'data:image/png;base64,AAAA' },
    { type: 'copy', seq: 0, text: '| a |', what: 'table' },
    { type: 'command', command: 'export' },
    { type: 'command', command: 'reevaluate' },
    { type: 'cspViolation', directive: 'style-src', blocked: 'inline' },
    { type: 'log', level: 'warn', message: 'x' },
  ]) assert.equal(isWebviewMessage(m), true, JSON.stringify(m));
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
  ]) assert.equal(isWebviewMessage(m), false, JSON.stringify(m));
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
