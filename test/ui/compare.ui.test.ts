/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The comparison panel's Changed rows tab as a person uses it, in code-server driven by Debian's
 * Chromium: a comparison of two bundled runs (digits: logreg as the baseline, knn) opened from the
 * explorer, the Changed rows tab lists the rows that flipped with the four cells, and Enter on a
 * flipped row opens both prediction files side by side, each with that row's line selected. The
 * expected rows and lines are read from the CSV files here. Screenshots go to
 * test-artifacts/screenshots/.
 *
 * Run: node --import tsx --test test/ui/compare.ui.test.ts (also part of npm run test:ui).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { copyExamples, root, type CodeServer } from '../../scripts/vscode/codeServer.mjs';
import {
  clickMenuItem,
  closeWorkbench,
  expandFolder,
  explorerRow,
  openMenuWith,
  reportFrame,
  screenshot,
  startWorkbench,
  type Workbench,
} from './workbench';

/** The workbench (server, window, page) and the copied examples folder it shows. */
let server: CodeServer, wb: Workbench, page: Page, ws: string;
const SHOTS = join(root, 'test-artifacts/screenshots');

/** The data lines of a digits CSV (id,label,pred,…): id, label, pred, 1-based line, the line's text. */
function csv(rel: string): { id: string; label: string; pred: string; line: number; text: string }[] {
  return readFileSync(join(ws, rel), 'utf8')
    .split('\n')
    .map((text, i) => {
      const [id, label, pred] = text.split(',');
      return { id: id!, label: label!, pred: pred!, line: i + 1, text };
    })
    .filter((r) => r.line > 1 && r.text.trim() !== '');
}

/** Waits until the status bar shows line `line` with `chars` characters selected (the active editor). */
async function selectedInStatusBar(line: number, chars: number): Promise<void> {
  // The cursor ends the selection (the line's end): "Ln 80, Col 39 (38 selected)".
  const want = `^Ln ${line}, Col \\d+ \\(${chars} selected\\)$`;
  await page
    .waitForFunction(
      (w) =>
        [...document.querySelectorAll('.statusbar-item')].some((e) => new RegExp(w).test((e.textContent ?? '').trim())),
      want,
      { timeout: 30_000 },
    )
    .catch(async (err: Error) => {
      const seen = await page
        .locator('.statusbar-item', { hasText: /Ln \d+, Col \d+/ })
        .first()
        .textContent()
        .catch(() => '');
      throw new Error(`status bar shows "${seen}", expected /${want}/: ${err.message}`);
    });
}

/** The editor tab of a file (not the report's tab). */
function fileTab(name: string): ReturnType<Page['locator']> {
  return page.locator('.tabs-container .tab', { hasText: name }).filter({ hasNotText: 'Report' }).first();
}

describe('comparison: Changed rows in the browser (code-server + Chromium)', { timeout: 900_000 }, () => {
  before(async () => {
    ws = copyExamples();
    // The comparison file, written by the built CLI in the workspace (runs named workspace-relative, baseline first).
    const r = spawnSync(
      process.execPath,
      [
        join(root, 'bin/eval-lens.js'),
        'compare',
        'digits-lt/logreg.csv',
        'digits-lt/knn.csv',
        '--bootstrap-n',
        '0',
        '--out',
        'digits-lt/logreg-vs-knn.compare.json',
      ],
      { cwd: ws, encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    ({ server, wb } = await startWorkbench(ws));
    page = wb.page;
  });

  after(() => closeWorkbench(server, wb));

  it('lists the flipped rows worst for B first; Enter opens both files side by side at that row', async () => {
    // Independently of the code under test: the rows right in logreg and wrong in knn (lost), and back.
    const A = csv('digits-lt/logreg.csv');
    const B = new Map(csv('digits-lt/knn.csv').map((r) => [r.id, r]));
    const right = (r: { label: string; pred: string }): boolean => r.label === r.pred;
    const lost = A.filter((a) => right(a) && !right(B.get(a.id)!));
    const gained = A.filter((a) => !right(a) && right(B.get(a.id)!));
    assert.ok(lost.length > 0, 'knn loses some rows logreg gets right');

    await expandFolder(page, 'digits-lt');
    await openMenuWith(page, explorerRow(page, 'logreg-vs-knn.compare.json'), 'Open Report');
    await clickMenuItem(page, 'Open Report');
    const frame = await reportFrame(page, /^Comparison of 2 runs$/);
    await frame.locator('vscode-tab-header[data-tab="changed"]').click();
    const rows = frame.locator('.changed-rows[aria-busy="false"] tr.diff-row');
    await rows.first().waitFor({ timeout: 60_000 });
    const shown = await frame.evaluate(() => ({
      lost: document.querySelector('.changed-rows [data-cell="lost"]')?.textContent ?? '',
      gained: document.querySelector('.changed-rows [data-cell="gained"]')?.textContent ?? '',
      changed: document.querySelector<HTMLElement>('.changed-rows .diff-counts')?.dataset.changed ?? '',
      first: [...document.querySelectorAll('.changed-rows tr.diff-row')].slice(0, 3).map((tr) => ({
        a: (tr as HTMLElement).dataset.lineA,
        b: (tr as HTMLElement).dataset.lineB,
        id: tr.children[1]?.textContent ?? '',
      })),
    }));
    assert.equal(shown.lost, String(lost.length));
    assert.equal(shown.gained, String(gained.length));
    assert.equal(shown.changed, String(lost.length + gained.length));
    // Worst for B first: the lost rows, in the baseline's file order.
    assert.deepEqual(
      shown.first,
      lost.slice(0, 3).map((a) => ({ a: String(a.line), b: String(B.get(a.id)!.line), id: a.id })),
    );
    await frame.locator('.changed-rows').scrollIntoViewIfNeeded();
    await screenshot(page, join(SHOTS, 'compare-changed-rows.png'));

    // Keyboard: the second flipped row (ArrowDown from the first), Enter.
    const target = lost[1] ?? lost[0]!;
    const targetB = B.get(target.id)!;
    await rows.first().focus();
    if (lost.length > 1) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    // Both files are shown at once, in two editor groups.
    const tabA = fileTab('logreg.csv');
    const tabB = fileTab('knn.csv');
    await Promise.all([tabA.waitFor({ timeout: 30_000 }), tabB.waitFor({ timeout: 30_000 })]).catch(
      async (err: Error) => {
        await screenshot(page, join(SHOTS, 'compare-changed-rows-failed.png'));
        throw err;
      },
    );
    const groups = await page.evaluate(() =>
      [...document.querySelectorAll('.editor-group-container')].map((g) =>
        [...g.querySelectorAll('.tab')].map((t) => t.getAttribute('aria-label') ?? t.textContent ?? ''),
      ),
    );
    const holds = (name: string): number => groups.findIndex((g) => g.some((t) => t.startsWith(name)));
    const gA = holds('logreg.csv');
    const gB = holds('knn.csv');
    assert.ok(gA >= 0 && gB >= 0 && gA !== gB, `two groups: ${JSON.stringify(groups)}`);
    // Run B's editor has focus: its line is selected, the whole line.
    await selectedInStatusBar(targetB.line, targetB.text.replace(/\r$/, '').length);
    await screenshot(page, join(SHOTS, 'compare-changed-rows-open.png'));
    // Run A's editor, focused by its tab (a click on a tab keeps the editor's selection).
    await tabA.click();
    await selectedInStatusBar(target.line, target.text.replace(/\r$/, '').length);
  });
});
