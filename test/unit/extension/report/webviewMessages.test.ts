import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from '../../../../src/extension/commandIds';
import {
  handleWebviewMessage,
  safePngName,
  WEBVIEW_COMMANDS,
  type PanelCapabilities,
} from '../../../../src/extension/report/webviewMessages';

/** A host that records every capability called, with its arguments, in order. */
function recordingHost(over: Partial<PanelCapabilities> = {}): { host: PanelCapabilities; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const rec =
    (name: string, answer: unknown = undefined) =>
    async (...args: unknown[]) => {
      calls.push([name, ...args]);
      return answer;
    };
  const host: PanelCapabilities = {
    showReport: rec('showReport') as PanelCapabilities['showReport'],
    writeClipboard: rec('writeClipboard') as PanelCapabilities['writeClipboard'],
    savePng: rec('savePng', '/work/charts/roc.png') as PanelCapabilities['savePng'],
    runCommand: rec('runCommand') as PanelCapabilities['runCommand'],
    log: (level, message) => void calls.push(['log', level, message]),
    useOperatingPoint: rec('useOperatingPoint', {
      ok: true,
      message: 'written',
    }) as PanelCapabilities['useOperatingPoint'],
    queryRows: rec('queryRows'),
    openLine: rec('openLine'),
    evaluateSubset: rec('evaluateSubset'),
    sliceCandidates: rec('sliceCandidates'),
    computeSlices: rec('computeSlices'),
    findSlices: rec('findSlices'),
    diffRows: rec('diffRows'),
    openLines: rec('openLines'),
    ...over,
  };
  return { host, calls };
}

// "PNG" base64-encoded: the bytes 0x50 0x4e 0x47.
const PNG_URL = 'data:image/png;base64,UE5H';

test('webview messages: ready shows the report, no reply', async () => {
  const { host, calls } = recordingHost();
  assert.equal(await handleWebviewMessage({ type: 'ready' }, host), undefined);
  assert.deepEqual(calls, [['showReport']]);
});

test('webview messages: copy writes the clipboard and replies with what was copied', async () => {
  const { host, calls } = recordingHost();
  const reply = await handleWebviewMessage({ type: 'copy', seq: 4, text: '| a |', what: 'table' }, host);
  assert.deepEqual(calls, [['writeClipboard', '| a |']]);
  assert.deepEqual(reply, { type: 'reply', seq: 4, ok: true, message: 'Copied table.' });
});

test('webview messages: savePng decodes the image, proposes a safe name, logs and replies', async () => {
  const { host, calls } = recordingHost();
  const reply = await handleWebviewMessage(
    { type: 'savePng', seq: 7, fileName: 'roc curve/../x.png', dataUrl: PNG_URL },
    host,
  );
  assert.deepEqual(calls, [
    ['savePng', 'roc_curve_.._x.png', Uint8Array.from([0x50, 0x4e, 0x47])],
    ['log', 'info', 'Chart saved to /work/charts/roc.png'],
  ]);
  assert.deepEqual(reply, { type: 'reply', seq: 7, ok: true, message: 'Saved roc.png.' });
});

test('webview messages: savePng cancelled in the dialog replies "Not saved."', async () => {
  const { host, calls } = recordingHost({ savePng: async () => undefined });
  const reply = await handleWebviewMessage({ type: 'savePng', seq: 2, fileName: 'a.png', dataUrl: PNG_URL }, host);
  assert.deepEqual(reply, { type: 'reply', seq: 2, ok: false, message: 'Not saved.' });
  assert.deepEqual(calls, []);
});

test('webview messages: each button command runs its extension command', async () => {
  for (const [command, id] of [
    ['export', Command.exportReport],
    ['revealJson', Command.revealJson],
    ['reevaluate', Command.reevaluate],
    ['openSource', Command.revealJson],
  ] as const) {
    const { host, calls } = recordingHost();
    assert.equal(await handleWebviewMessage({ type: 'command', command }, host), undefined);
    assert.deepEqual(calls, [['runCommand', id]], command);
    assert.equal(WEBVIEW_COMMANDS[command], id);
  }
});

test('webview messages: CSP violations and webview logs go to the log at their level', async () => {
  const { host, calls } = recordingHost();
  await handleWebviewMessage({ type: 'cspViolation', directive: 'style-src', blocked: 'inline' }, host);
  await handleWebviewMessage({ type: 'log', level: 'error', message: 'chart failed' }, host);
  await handleWebviewMessage({ type: 'log', level: 'info', message: 'drawn' }, host);
  assert.deepEqual(calls, [
    ['log', 'warn', 'Report webview CSP violation: style-src blocked inline'],
    ['log', 'error', 'Report webview: chart failed'],
    ['log', 'info', 'Report webview: drawn'],
  ]);
});

test('webview messages: useOperatingPoint is answered by the writer’s outcome', async () => {
  const { host, calls } = recordingHost({
    useOperatingPoint: async (key, value) => {
      calls.push(['useOperatingPoint', key, value]);
      return { ok: false, message: 'Cannot write eval-lens.json' };
    },
  });
  const reply = await handleWebviewMessage(
    { type: 'useOperatingPoint', seq: 9, key: 'targetCoverage', value: 0.8 },
    host,
  );
  assert.deepEqual(calls, [['useOperatingPoint', 'targetCoverage', 0.8]]);
  assert.deepEqual(reply, { type: 'reply', seq: 9, ok: false, message: 'Cannot write eval-lens.json' });
});

test('webview messages: the inspection requests reach the inspector with their arguments, no reply here', async () => {
  const where = [{ key: 'label', op: '=', value: 'cat' }];
  const query = { where, offset: 0, limit: 50 };
  const cases: [unknown, unknown[]][] = [
    [{ type: 'queryRows', seq: 1, query }, ['queryRows', 1, query]],
    [{ type: 'openLine', line: 12 }, ['openLine', 12]],
    [{ type: 'evaluateSubset', seq: 2, where }, ['evaluateSubset', 2, where]],
    [{ type: 'sliceCandidates', seq: 3 }, ['sliceCandidates', 3]],
    [{ type: 'computeSlices', seq: 4, by: ['group'] }, ['computeSlices', 4, ['group']]],
    [{ type: 'findSlices', seq: 5 }, ['findSlices', 5, {}]],
    [
      { type: 'findSlices', seq: 6, minSupport: 40, limit: 5, run: 'knn.csv' },
      ['findSlices', 6, { minSupport: 40, limit: 5, run: 'knn.csv' }],
    ],
  ];
  for (const [m, call] of cases) {
    const { host, calls } = recordingHost();
    assert.equal(await handleWebviewMessage(m, host), undefined, JSON.stringify(m));
    assert.deepEqual(calls, [call], JSON.stringify(m));
  }
});

test('webview messages: an invalid message is logged shortened and dropped, nothing else runs', async () => {
  for (const m of [
    { type: 'nope' },
    { type: 'copy', seq: 1, text: 3, what: 'x' },
    { type: 'command', command: 'rm -rf' },
    { type: 'savePng', seq: 1, fileName: 'a.png', dataUrl: 'data:text/html;base64,AAAA' },
    { type: 'log', level: 'debug', message: 'x' },
    null,
    undefined,
    { type: 'x', pad: 'y'.repeat(1000) },
  ]) {
    const { host, calls } = recordingHost();
    assert.equal(await handleWebviewMessage(m, host), undefined);
    assert.equal(calls.length, 1, JSON.stringify(m));
    const [what, level, text] = calls[0] as [string, string, string];
    assert.equal(what, 'log');
    assert.equal(level, 'warn');
    assert.ok(text.startsWith('Report: dropped an unexpected message '), text);
    assert.ok(text.length <= 'Report: dropped an unexpected message '.length + 200, `${text.length}`);
  }
});

test('webview messages: a capability that throws is logged and a request with a seq is answered ok: false', async () => {
  const { host, calls } = recordingHost({
    writeClipboard: async () => {
      throw new Error('clipboard unavailable');
    },
    showReport: async () => {
      throw new Error('gone');
    },
  });
  const reply = await handleWebviewMessage({ type: 'copy', seq: 5, text: 'x', what: 'value' }, host);
  assert.deepEqual(reply, { type: 'reply', seq: 5, ok: false, message: 'clipboard unavailable' });
  assert.equal(await handleWebviewMessage({ type: 'ready' }, host), undefined);
  assert.deepEqual(calls, [
    ['log', 'error', 'Report: copy failed: clipboard unavailable'],
    ['log', 'error', 'Report: ready failed: gone'],
  ]);
});

test('safePngName keeps word characters, dots and dashes only', () => {
  assert.equal(safePngName('reliability-diagram.png'), 'reliability-diagram.png');
  assert.equal(safePngName('a b/c\\d:e.png'), 'a_b_c_d_e.png');
  assert.equal(safePngName('ü  ö.png'), '_.png');
});

test('webview messages: the Changed rows tab asks for a diff and opens both lines; malformed requests are dropped', async () => {
  const query = { run: 'digits-lt/knn.csv', metric: 'nll', where: [{ key: 'label', op: '=', value: '3' }], limit: 50 };
  {
    const { host, calls } = recordingHost();
    assert.equal(await handleWebviewMessage({ type: 'diffRows', seq: 9, query }, host), undefined);
    assert.deepEqual(calls, [['diffRows', 9, query]]);
  }
  {
    const { host, calls } = recordingHost();
    const m = { type: 'openLines', run: 'digits-lt/knn.csv', lineA: 12, lineB: 40 };
    assert.equal(await handleWebviewMessage(m, host), undefined);
    assert.deepEqual(calls, [['openLines', 'digits-lt/knn.csv', 12, 40]]);
  }
  for (const m of [
    { type: 'diffRows', seq: 1, query: { ...query, limit: 0 } },
    { type: 'diffRows', seq: 1, query: { ...query, limit: 1001 } },
    { type: 'diffRows', seq: 1, query: { ...query, run: '' } },
    { type: 'diffRows', seq: 1, query: { ...query, where: 'label=3' } },
    { type: 'diffRows', query },
    { type: 'openLines', run: 'knn.csv', lineA: 0, lineB: 3 },
    { type: 'openLines', run: 'knn.csv', lineA: 2, lineB: 1.5 },
    { type: 'openLines', lineA: 2, lineB: 3 },
  ]) {
    const { host, calls } = recordingHost();
    assert.equal(await handleWebviewMessage(m, host), undefined);
    assert.equal(calls.length, 1, JSON.stringify(m));
    assert.equal((calls[0] as string[])[0], 'log', JSON.stringify(m));
  }
});

test('webview messages: a failing diff is answered ok: false with the reason', async () => {
  const { host } = recordingHost({
    diffRows: async () => {
      throw new Error('expected the same ids as a.csv');
    },
  });
  const reply = await handleWebviewMessage(
    { type: 'diffRows', seq: 3, query: { run: 'b.csv', where: [], limit: 10 } },
    host,
  );
  assert.deepEqual(reply, { type: 'reply', seq: 3, ok: false, message: 'expected the same ids as a.csv' });
});
