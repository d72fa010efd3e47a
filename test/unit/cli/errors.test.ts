import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CommanderError } from 'commander';
import { CancelledError, EvalLensError } from '../../../src/core/diagnostics';
import { EXIT, UsageError, reportError } from '../../../src/cli/errors';

function report(err: unknown, debug = false): { code: number; text: string } {
  let text = '';
  const code = reportError(err, (s) => (text += s), debug);
  return { code, text };
}

test('exit codes: 1 bad input, 2 usage, 3 a broken comparison gate, 130 cancelled, 0 for help/version', () => {
  assert.deepEqual(EXIT, { ok: 0, badInput: 1, usage: 2, gate: 3, cancelled: 130 });
  let r = report(new EvalLensError('missing-column', 'preds.csv:1: no label column'));
  assert.deepEqual(r, { code: 1, text: 'eval-lens: preds.csv:1: no label column\n' });
  r = report(new UsageError('--out x is an input'));
  assert.equal(r.code, 2);
  assert.match(r.text, /^eval-lens: --out x is an input\n/);
  assert.deepEqual(report(new CancelledError()), { code: 130, text: 'eval-lens: cancelled.\n' });
  assert.equal(report(new CommanderError(1, 'commander.unknownOption', 'x')).code, 2);
  assert.equal(report(new CommanderError(0, 'commander.helpDisplayed', '')).code, 0);
  assert.equal(report(new CommanderError(0, 'commander.version', '')).code, 0);
});

test('an unexpected error says it is a bug; the stack only with --debug', () => {
  const err = new TypeError("Cannot read properties of undefined (reading 'x')");
  let r = report(err);
  assert.equal(r.code, 1);
  assert.match(
    r.text,
    /^eval-lens: unexpected error: Cannot read properties of undefined \(reading 'x'\)\nThis is a bug in Eval Lens; please report it with the command you ran and the output of the same command with --debug\.\n$/,
  );
  assert.doesNotMatch(r.text, /\n\s+at /);
  r = report(err, true);
  assert.match(r.text, /\n\s+at /);
  r = report('a string was thrown');
  assert.match(r.text, /unexpected error: a string was thrown/);
});
