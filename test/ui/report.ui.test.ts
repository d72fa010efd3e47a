/// <reference lib="dom" />
/**
 * UI tests in a real VS Code (code-server) driven by Debian's Chromium: what a person does and
 * sees. The extension is installed the way a user's is (in the extensions folder), the workspace
 * is a temp copy of examples/. Screenshots of the reports, light and dark, go to
 * test-artifacts/screenshots/ (git-ignored); `--update-readme-shots` (env EVAL_LENS_README_SHOTS=1)
 * copies the chosen ones into media/screenshots/.
 *
 * Run: npm run test:ui (node's test runner; this file starts and always stops its own server).
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import type { CompareResults } from '../../src/core/compare/types';
import type { Results } from '../../src/core/results/types';
import { formatNumber } from '../../src/shared/format';
import { copyExamples, root, sleep, startCodeServer, updateSettings, type CodeServer } from '../../scripts/vscode/codeServer.mjs';
import {
  acceptQuickPick, clickMenuItem, contextMenu, expandFolder, explorerRow, openWorkbench, reportCards, reportFrame, screenshot,
  waitForFile, type Workbench,
} from './workbench';

const SHOTS = join(root, 'test-artifacts/screenshots');
const README_SHOTS = join(root, 'media/screenshots');
// Theme ids of VS Code 1.139 (code-server 4.139.1): "Light Modern" / "Dark Modern" (older VS Code
// called them "Default Light Modern" / "Default Dark Modern"; an unknown id silently falls back).
const LIGHT = 'Light Modern';
const DARK = 'Dark Modern';
const THEME_CLASS: Record<string, string> = { [LIGHT]: 'vscode-theme-defaults-themes-light_modern-json', [DARK]: 'vscode-theme-defaults-themes-dark_modern-json' };

let server: CodeServer;
let wb: Workbench;
let page: Page;
let ws: string;

async function setTheme(theme: string, frame?: Frame): Promise<void> {
  updateSettings(server, { 'workbench.colorTheme': theme });
  const dark = theme === DARK;
  // The workbench applies the settings file live (in about 3 s): wait for the theme's class on
  // the workbench, then for the webview's body class.
  await page.waitForFunction((c) => document.querySelector('.monaco-workbench')?.classList.contains(c) ?? false, THEME_CLASS[theme]!, { timeout: 30_000 });
  if (frame) await frame.waitForFunction((d) => document.body.classList.contains(d ? 'vscode-dark' : 'vscode-light'), dark, { timeout: 30_000 });
  await sleep(1500); // charts redraw on the theme change
}

/** Screenshots in both themes, ending in the light theme. */
async function shootBothThemes(name: string, frame: Frame): Promise<void> {
  await setTheme(LIGHT, frame);
  await screenshot(page, join(SHOTS, `${name}-light.png`));
  await setTheme(DARK, frame);
  await screenshot(page, join(SHOTS, `${name}-dark.png`));
  await setTheme(LIGHT, frame);
}

/** Every card's carried value equals the results file's; its text is that value formatted. */
async function assertCardsMatch(frame: Frame, r: Results): Promise<number> {
  const cards = await reportCards(frame);
  const ours = cards.filter((c) => c.key in r.metrics);
  assert.ok(ours.filter((c) => c.headline).length >= 3, `headline cards: ${cards.filter((c) => c.headline).map((c) => c.key).join(', ')}`);
  for (const c of ours) {
    const m = r.metrics[c.key]!;
    assert.equal(c.value, m.value === null ? 'null' : String(m.value), `card ${c.key} carries the file's value`);
    assert.equal(c.text, formatNumber(m.value, c.key), `card ${c.key} shows the file's value`);
  }
  return ours.length;
}

/** Evaluates an explorer file through its context menu, as a person does. */
async function evaluateFromExplorer(folder: string, file: string): Promise<void> {
  await expandFolder(page, folder);
  const row = explorerRow(page, file);
  const labels = await contextMenu(page, row);
  assert.ok(labels.includes('Evaluate Prediction File…'), `menu: ${labels.join(' | ')}`);
  await clickMenuItem(page, 'Evaluate Prediction File…');
}

describe('Eval Lens in the browser (code-server + Chromium)', { timeout: 900_000 }, () => {
  before(async () => {
    ws = copyExamples();
    server = await startCodeServer({ installExtension: true, settings: { 'workbench.colorTheme': LIGHT } });
    wb = await openWorkbench(server, ws);
    page = wb.page;
  });

  after(async () => {
    await wb?.browser.close().catch(() => undefined);
    await server?.stop();
  });

  it('explorer menu: Evaluate on a prediction file, not on a folder', async () => {
    const folderMenu = await contextMenu(page, explorerRow(page, 'digits-lt'));
    assert.ok(!folderMenu.includes('Evaluate Prediction File…'), `folder menu: ${folderMenu.join(' | ')}`);
    await page.keyboard.press('Escape');
    await evaluateFromExplorer('digits-lt', 'logreg.csv');
    await waitForFile(join(ws, 'digits-lt/logreg.eval.json'));
  });

  it('the classification report shows the values of the results file (light and dark)', async () => {
    const frame = await reportFrame(page, /^logreg\.csv$/);
    const r = JSON.parse(readFileSync(join(ws, 'digits-lt/logreg.eval.json'), 'utf8')) as Results;
    const n = await assertCardsMatch(frame, r);
    assert.ok(n >= 6, `${n} cards checked`);
    // The headline accuracy is the README's 0.75.
    const acc = (await reportCards(frame)).find((c) => c.key === 'accuracy' && c.headline);
    assert.equal(acc?.value, '0.75');
    // Charts are drawn (canvas with pixels) in the first tab.
    await frame.waitForFunction(() => [...document.querySelectorAll('canvas')].some((c) => c.width > 0 && c.height > 0), undefined, { timeout: 30_000 });
    await shootBothThemes('report-classification', frame);
  });

  it('the ranking report shows the values of its results file (light and dark)', async () => {
    await evaluateFromExplorer('ranking-debian-deps', 'popularity.jsonl');
    await waitForFile(join(ws, 'ranking-debian-deps/popularity.eval.json'));
    const frame = await reportFrame(page, /^popularity\.jsonl$/);
    const r = JSON.parse(readFileSync(join(ws, 'ranking-debian-deps/popularity.eval.json'), 'utf8')) as Results;
    assert.equal(r.task, 'ranking');
    await assertCardsMatch(frame, r);
    await shootBothThemes('report-ranking', frame);
  });

  it('Compare Runs… on two selected files writes a comparison and shows both runs\' accuracy', async () => {
    await page.keyboard.press('Escape');
    await expandFolder(page, 'digits-lt');
    await explorerRow(page, 'logreg.csv').click();
    await explorerRow(page, 'svc_rbf.csv').click({ modifiers: ['Control'] });
    const labels = await contextMenu(page, explorerRow(page, 'svc_rbf.csv'));
    assert.ok(labels.includes('Compare Runs…'), `menu: ${labels.join(' | ')}`);
    await clickMenuItem(page, 'Compare Runs…');
    await acceptQuickPick(page); // the baseline: the default item
    const end = Date.now() + 180_000;
    let file: string | undefined;
    while (!file && Date.now() < end) {
      file = readdirSync(join(ws, 'digits-lt')).find((f) => f.endsWith('.compare.json'));
      if (!file) await sleep(250);
    }
    assert.ok(file, 'a .compare.json in digits-lt');
    const c = JSON.parse(await waitForFile(join(ws, 'digits-lt', file))) as CompareResults;
    const frame = await reportFrame(page, /^Comparison of 2 runs$/);
    const cells = await frame.evaluate(() => [...document.querySelectorAll('vscode-table-cell, td, th')].map((e) => e.textContent?.trim() ?? ''));
    for (const run of c.runs) {
      const acc = c.table[run]?.accuracy ?? null;
      assert.ok(cells.includes(formatNumber(acc, 'accuracy')), `${run}: accuracy ${formatNumber(acc, 'accuracy')} shown`);
    }
    assert.deepEqual(new Set(c.runs.map((run) => c.table[run]?.accuracy)), new Set([0.75, 0.84]));
    await shootBothThemes('report-compare', frame);
  });

  it('the side panel lists the results files with their headline metric', async () => {
    await page.locator('.activitybar .action-item a[aria-label^="Eval Lens"], .activitybar .action-item[aria-label^="Eval Lens"]').first().click();
    const row = page.locator('.monaco-list-row', { hasText: 'logreg.eval.json' }).first();
    await row.waitFor({ timeout: 30_000 });
    await page.locator('.monaco-list-row', { hasText: 'popularity.eval.json' }).first().waitFor({ timeout: 30_000 });
    const text = await row.innerText();
    assert.match(text, /0\.75|75(\.0)?\s*%/, `row: ${text}`);
    await screenshot(page, join(SHOTS, 'side-panel-light.png'));
  });

  it('CodeLens on the results file shows its headline metrics and Open Report', async () => {
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill('digits-lt/logreg.eval.json');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'logreg.eval.json' }).first().waitFor();
    await page.keyboard.press('Enter');
    const lens = page.locator('.codelens-decoration');
    await lens.first().waitFor({ timeout: 60_000 });
    const text = (await lens.allInnerTexts()).join(' | ');
    assert.match(text, /Open Report/, text);
    assert.match(text, new RegExp(`accuracy[^|]*${formatNumber(0.75, 'accuracy').replace('.', '\\.')}`), text);
    await screenshot(page, join(SHOTS, 'codelens-light.png'));
  });

  after(() => {
    if (process.env.EVAL_LENS_README_SHOTS !== '1') return;
    mkdirSync(README_SHOTS, { recursive: true });
    for (const f of ['report-classification-light.png', 'report-classification-dark.png', 'report-ranking-light.png', 'report-ranking-dark.png', 'report-compare-light.png', 'report-compare-dark.png']) {
      copyFileSync(join(SHOTS, f), join(README_SHOTS, f));
    }
  });
});
