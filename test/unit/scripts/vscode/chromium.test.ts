/**
 * `npm test` sets up Debian's Chromium on a fresh machine: installed when missing and running as
 * root with apt-get, otherwise the exact command is printed; an EVAL_LENS_CHROMIUM path is never
 * replaced by an install.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromiumPlan, INSTALL_COMMAND } from '../../../../scripts/vscode/chromium.mjs';

test('the install command is the Debian one', () => {
  assert.equal(INSTALL_COMMAND, 'apt-get update && apt-get install -y chromium');
});

test('present: nothing to do, whoever runs', () => {
  for (const isRoot of [true, false])
    for (const hasApt of [true, false])
      assert.deepEqual(chromiumPlan({ isRoot, hasChromium: true, hasApt }), { action: 'none' });
});

test('missing, root, apt-get: install', () => {
  assert.deepEqual(chromiumPlan({ isRoot: true, hasChromium: false, hasApt: true }), {
    action: 'install',
    command: 'apt-get update && apt-get install -y chromium',
  });
});

test('missing, not root: the exact command to run as root', () => {
  assert.deepEqual(chromiumPlan({ isRoot: false, hasChromium: false, hasApt: true }), {
    action: 'message',
    message:
      'Chromium is missing (Debian package "chromium"). Run as root: sudo sh -c \'apt-get update && apt-get install -y chromium\' — then npm test again (or set EVAL_LENS_CHROMIUM to another Chromium).',
  });
});

test('missing, no apt-get (root or not): install Chromium and name it', () => {
  for (const isRoot of [true, false])
    assert.deepEqual(chromiumPlan({ isRoot, hasChromium: false, hasApt: false }), {
      action: 'message',
      message:
        'Chromium is missing and this system has no apt-get: install Chromium, then run EVAL_LENS_CHROMIUM=/path/to/chromium npm test.',
    });
});

test('a missing EVAL_LENS_CHROMIUM path is reported, not replaced by an install', () => {
  assert.deepEqual(
    chromiumPlan({ isRoot: true, hasChromium: false, hasApt: true, custom: true, path: '/opt/chrome/chrome' }),
    {
      action: 'message',
      message:
        "EVAL_LENS_CHROMIUM names /opt/chrome/chrome, which does not exist: point it at a Chromium binary, or unset it to use Debian's (apt-get update && apt-get install -y chromium).",
    },
  );
});
