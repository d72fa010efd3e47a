/**
 * Entry of the integration suite inside a real VS Code extension host: the `run()` that VS Code
 * calls for `extensionTestsPath` (code-server through the smoke-test driver, or VS Code desktop
 * through @vscode/test-electron). It runs every compiled `*.test.js` beside it with mocha.
 *
 * Output: the spec reporter's lines go to the extension host's console, each prefixed with
 * {@link MARK} so that a runner can pick them out of the workbench's own log lines. When
 * `EVAL_LENS_TEST_RESULTS` names a file, the counts are also written there as JSON (the runners
 * read them for the summary line; the exit status alone does not carry counts).
 */
import Mocha from 'mocha';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

/** Prefix of every line this suite prints (runners filter on it). */
export const MARK = '[eval-lens-it]';

/** The order the test files run in (compiled names). */
const ORDER = [
  'activation.test.js',
  'evaluate.test.js',
  'compare-report-export.test.js',
  'tree-codelens-diagnostics.test.js',
  'settings-cancellation.test.js',
  'tree-actions-auto-reevaluate.test.js',
  'row-inspection-slices.test.js',
  'untrusted-results.test.js',
  'walkthrough.test.js',
  'threshold-explorer.test.js',
  'first-report-time.test.js',
];

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  failures: { title: string; error: string }[];
}

export function run(): Promise<void> {
  const grep = process.env.EVAL_LENS_TEST_GREP;
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec', ...(grep ? { grep } : {}) });
  // The spec reporter writes through Mocha.reporters.Base.consoleLog: prefix each of its lines.
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...a: unknown[]) => void };
  const log = console.log.bind(console);
  base.consoleLog = (...a: unknown[]): void => {
    const text = a.map((x) => (typeof x === 'string' ? x : String(x))).join(' ');
    // printf-style spec output: substitute %s/%d the way console.log would.
    let i = 1;
    const line =
      typeof a[0] === 'string' ? a[0].replace(/%[sd]/g, () => String(a[i++] ?? '')) + ' ' + a.slice(i).join(' ') : text;
    for (const l of line.replace(/\s+$/, '').split('\n')) log(`${MARK} ${l}`);
  };
  const dir = __dirname;
  // A window on a `.code-workspace` with several folders runs the multi-root files only; a window
  // on one folder (the examples) runs every other file. The runner opens one window of each.
  // Activation first (later files rely on the activated extension), then the order below; a test
  // file not in the list runs after them, alphabetically.
  const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  const present = readdirSync(dir).filter((n) => n.endsWith('.test.js') && n.startsWith('multiroot') === multiRoot);
  const ordered = ORDER.filter((n) => present.includes(n));
  for (const f of [...ordered, ...present.filter((n) => !ORDER.includes(n)).sort()]) mocha.addFile(join(dir, f));
  return new Promise((resolve, reject) => {
    const counts: Counts = { passed: 0, failed: 0, skipped: 0, failures: [] };
    const runner = mocha.run((failures) => {
      const out = process.env.EVAL_LENS_TEST_RESULTS;
      if (out) writeFileSync(out, JSON.stringify(counts, null, 2));
      log(`${MARK} summary: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
      if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
      else resolve();
    });
    runner.on('pass', () => {
      counts.passed++;
    });
    runner.on('pending', () => {
      counts.skipped++;
    });
    runner.on('fail', (t, err: Error) => {
      counts.failed++;
      counts.failures.push({ title: t.fullTitle(), error: String(err?.stack ?? err) });
    });
  });
}
