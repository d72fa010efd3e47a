/// <reference lib="dom" />
/**
 * UI tests of where things open, in a real VS Code (code-server) driven by Debian's Chromium:
 * - the error pop-up: a prediction file with a non-numeric probability is evaluated from the
 *   explorer; the pop-up names the file and line, and its *Open* button selects the bad cell itself
 *   — the status bar shows the line, the column where the cell ends and the cell's length selected
 *   — not column 1 of the line (the expected position is computed here from the file's text);
 * - a second report opens as a tab beside the first, in the same editor group, not as a new split
 *   halving both (evaluated from the explorer with no editor open, the case that used to split).
 *
 * Run: npm run test:ui (this file starts and always stops its own server).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { copyExamples, root, type CodeServer } from '../../scripts/vscode/codeServer.mjs';
import {
  closeWorkbench,
  evaluateFromExplorer,
  reportFrame,
  runCommand,
  screenshot,
  startWorkbench,
  type Workbench,
} from './workbench';

const SHOTS = join(root, 'test-artifacts/screenshots');
const BAD_CELL = 'abc';
const LINES = [
  'id,label,pred,prob_cat,prob_dog,prob_bird',
  'a1,cat,cat,0.7,0.2,0.1',
  'a2,dog,cat,0.5,0.4,0.1',
  `a3,bird,bird,0.1,${BAD_CELL},0.7`,
  'a4,dog,dog,0.2,0.6,0.2',
];

let server: CodeServer | undefined;
let wb: Workbench | undefined;
let page: Page;

describe(
  'where the error pop-up and reports open, in the browser (code-server + Chromium)',
  { timeout: 600_000 },
  () => {
    before(async () => {
      const ws = copyExamples();
      mkdirSync(join(ws, 'broken'), { recursive: true });
      writeFileSync(join(ws, 'broken/non-numeric.csv'), LINES.join('\n') + '\n');
      ({ server, wb } = await startWorkbench(ws));
      page = wb.page;
    });
    after(async () => closeWorkbench(server, wb));

    it('names the bad line, and Open selects the bad cell', async () => {
      await evaluateFromExplorer(page, 'broken', 'non-numeric.csv');
      const toast = page.locator('.notification-toast', { hasText: 'Cannot evaluate' }).first();
      await toast.waitFor({ state: 'visible', timeout: 180_000 });
      const text = await toast.innerText();
      assert.match(text, /line 4|:4\b/, text);
      assert.match(text, /prob_dog/, text);
      await screenshot(page, join(SHOTS, 'error-popup.png'));
      await toast.locator('.monaco-button', { hasText: 'Open non-numeric.csv:4' }).first().click();

      // 1-based line and column where the selection ends (the cursor sits at the cell's end).
      const line = 4;
      const start = LINES[line - 1]!.indexOf(`,${BAD_CELL},`) + 1;
      const expected = `Ln ${line}, Col ${start + BAD_CELL.length + 1} (${BAD_CELL.length} selected)`;
      const status = page.locator('.statusbar-item', { hasText: /^Ln \d+, Col \d+/ }).first();
      await page
        .waitForFunction(
          (want) => [...document.querySelectorAll('.statusbar-item')].some((e) => e.textContent?.trim() === want),
          expected,
          { timeout: 60_000 },
        )
        .catch(async () => {
          assert.fail(
            `the status bar shows "${(await status.innerText().catch(() => '?')).trim()}", expected "${expected}"`,
          );
        });
      await screenshot(page, join(SHOTS, 'error-popup-open-cell.png'));
    });
    it('a second report opens as a tab in the group of the first, not as a new split', async () => {
      await runCommand(page, 'View: Close All Editor Groups');
      await page.waitForFunction(() => document.querySelectorAll('.editor-group-container .tab').length === 0, null, {
        timeout: 30_000,
      });
      await evaluateFromExplorer(page, 'digits-lt', 'logreg.csv');
      await reportFrame(page, /^logreg\.csv$/, 240_000);
      await evaluateFromExplorer(page, 'digits-lt', 'knn.csv');
      await reportFrame(page, /^knn\.csv$/, 240_000);
      // The groups that hold tabs, and the tabs of each.
      const groups = await page.evaluate(() =>
        [...document.querySelectorAll('.editor-group-container')]
          .map((g) => [...g.querySelectorAll('.tab .label-name')].map((t) => t.textContent?.trim() ?? ''))
          .filter((tabs) => tabs.length > 0),
      );
      await screenshot(page, join(SHOTS, 'second-report-tab.png'));
      const withReports = groups.filter((tabs) => tabs.some((t) => t.startsWith('Report: ')));
      assert.equal(withReports.length, 1, `reports in one group, got ${JSON.stringify(groups)}`);
      const tabs = withReports[0]!;
      assert.ok(
        tabs.some((t) => /^Report: logreg\b/.test(t)) && tabs.some((t) => /^Report: knn\b/.test(t)),
        `both reports are tabs of that group: ${JSON.stringify(groups)}`,
      );
      assert.equal(groups.length, 1, `no other group was split off: ${JSON.stringify(groups)}`);
    });
  },
);
