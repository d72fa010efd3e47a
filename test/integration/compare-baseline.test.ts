/// <reference types="mocha" />
/**
 * Compare With… → the Majority-class baseline item of the quick pick: the comparison of a run
 * against the baseline made from its input, written beside it and opened in the panel. The test
 * checks the first item (the baseline, listed first for a classification run) and accepts, as a
 * person pressing Home, Space and Enter would.
 */
import * as assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import * as vscode from 'vscode';
import { activate, closeAllEditors, readJson, sleep, uri, waitFor, ws } from './helpers';

interface Compare {
  runs: string[];
  baseline: string;
  names: string[];
  table: Record<string, Record<string, number | null>>;
  tests: { run: string; metric: string; delta?: number | null; mcnemar_b?: number; mcnemar_c?: number }[];
}

describe('compare against a baseline run', function () {
  this.timeout(240_000);
  before(activate);
  after(closeAllEditors);

  it('Compare With… offers the majority-class baseline; choosing it compares the run against it', async () => {
    const out = ws('digits-lt/logreg-vs-majority-baseline.compare.json');
    rmSync(out, { force: true });
    const end = Date.now() + 120_000;
    let settled = true;
    // Run the command (again, if an answer landed before its picker had opened and ended it).
    while (!existsSync(out)) {
      if (Date.now() > end) throw new Error('Compare With… did not write the comparison within 120 s');
      if (settled) {
        settled = false;
        void Promise.resolve(vscode.commands.executeCommand('evalLens.compareWith', uri('digits-lt/logreg.csv'))).then(
          () => (settled = true),
          () => (settled = true),
        );
        await sleep(1000);
      }
      // Home (a multi-select pick focuses no item at first), Space on the first item (the
      // majority-class baseline), then Enter.
      await vscode.commands.executeCommand('quickInput.first');
      await vscode.commands.executeCommand('workbench.action.quickPickManyToggle');
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await sleep(500);
    }
    const c = await waitFor('the comparison file', () => (existsSync(out) ? readJson<Compare>(out) : undefined));
    const base = 'baseline:majority (of digits-lt/logreg.csv)';
    assert.deepEqual(c.runs, [base, 'digits-lt/logreg.csv']);
    assert.equal(c.baseline, base);
    // The 150 test rows (the split column), 15 of each of the 10 classes: the majority (the first
    // class on the tie) is right on 15; logreg on 111.
    assert.equal(c.table[base]!.accuracy, 0.1);
    assert.equal(c.table['digits-lt/logreg.csv']!.accuracy, 111 / 150);
    const acc = c.tests.find((t) => t.metric === 'accuracy')!;
    assert.ok(Math.abs(acc.delta! - (111 / 150 - 0.1)) < 1e-12);
    const ctx = await activate();
    await waitFor('the comparison panel to be the active one', () => ctx.panels.activeUri()?.fsPath === out, 30_000);
  });
});
