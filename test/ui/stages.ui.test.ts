/// <reference lib="dom" />
/**
 * The staged report in the browser: a predictions file whose bootstrap takes a while (100,000 rows ×
 * 20 classes, 40,000 resamples) is evaluated from the explorer menu; the report
 * opens on the point estimates with a banner that says which stage it shows (a status region, read
 * by screen readers), and the banner is gone once the final intervals are in. Screenshots of the
 * banner in light and dark go to test-artifacts/screenshots/.
 *
 * The bootstrap must outlast the workbench's own steps up to the report (expand the folder, open the
 * menu, load the webview: about 14 s on two idle cores, more when they are busy). With 3,000
 * resamples the whole evaluation took about 5 s on two idle cores, so on an idle machine the final
 * report came before the banner could be seen; 40,000 resamples take about 50 s there, and a busy
 * machine slows the bootstrap and the workbench alike.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { copyExamples, root, type CodeServer } from '../../scripts/vscode/codeServer.mjs';
import { writeLargePredictions } from '../fixtures/largePredictions';
import {
  clickMenuItem,
  DARK,
  expandFolder,
  explorerRow,
  LIGHT,
  closeWorkbench,
  openMenuWith,
  startWorkbench,
  reportFrame,
  screenshot,
  setTheme,
  waitForFile,
  type Workbench,
} from './workbench';

const SHOTS = join(root, 'test-artifacts/screenshots');

let server: CodeServer;
let wb: Workbench;
let page: Page;
let ws: string;

describe('the staged report in the browser (code-server + Chromium)', { timeout: 900_000 }, () => {
  before(async () => {
    ws = copyExamples();
    mkdirSync(join(ws, 'staged'));
    writeLargePredictions(join(ws, 'staged/staged-run.csv'), 100_000, 20);
    writeFileSync(join(ws, 'staged/eval-lens.json'), JSON.stringify({ bootstrap: { n: 40_000 } }, null, 2));
    ({ server, wb } = await startWorkbench(ws));
    page = wb.page;
  });

  after(() => closeWorkbench(server, wb));

  it('a banner names the stage shown until the final intervals replace it', async () => {
    await expandFolder(page, 'staged');
    await openMenuWith(page, explorerRow(page, 'staged-run.csv'), 'Evaluate Prediction File…', 40_000);
    await clickMenuItem(page, 'Evaluate Prediction File…');
    const frame = await reportFrame(page, /^staged-run\.csv$/, 120_000);
    const banner = await frame.waitForSelector('.stage-banner', { timeout: 60_000 });
    assert.equal(await banner.getAttribute('role'), 'status');
    assert.match(
      (await banner.textContent()) ?? '',
      /^Showing (point estimates, intervals pending|provisional intervals) — this report updates by itself when the bootstrap intervals are ready\.$/,
    );
    // While staged, the cards hold no interval yet, or provisional ones.
    await screenshot(page, join(SHOTS, 'report-stage-banner-light.png'));
    await setTheme(page, DARK, frame);
    if (await frame.$('.stage-banner')) await screenshot(page, join(SHOTS, 'report-stage-banner-dark.png'));
    await setTheme(page, LIGHT, frame);
    await waitForFile(join(ws, 'staged/staged-run.eval.json'), 600_000);
    await frame.waitForFunction(() => !document.querySelector('.stage-banner'), undefined, { timeout: 60_000 });
  });
});
