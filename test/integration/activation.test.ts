/// <reference types="mocha" />
/**
 * Activation and contributions: the extension activates in a real VS Code, every command of its
 * manifest is registered, and its activate() returns the context the other tests observe.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activate, EXTENSION_ID } from './helpers';

describe('activation', () => {
  it('activates and returns its context (results index, diagnostics, report panels)', async () => {
    const ctx = await activate();
    assert.ok(vscode.extensions.getExtension(EXTENSION_ID)?.isActive);
    assert.equal(typeof ctx.index.all, 'function');
    assert.equal(typeof ctx.panels.open, 'function');
    assert.ok(ctx.diagnostics);
  });

  it('registers every command of package.json contributes.commands', async () => {
    await activate();
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      contributes: { commands: { command: string }[] };
    };
    const declared = pkg.contributes.commands.map((c) => c.command);
    assert.ok(declared.length >= 6, `only ${declared.length} commands declared`);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `declared but not registered: ${missing.join(', ')}`);
    for (const id of [
      'evalLens.evaluate',
      'evalLens.compare',
      'evalLens.openReport',
      'evalLens.reevaluate',
      'evalLens.exportReport',
      'evalLens.createConfig',
    ]) {
      assert.ok(registered.has(id), `${id} not registered`);
    }
  });
});
