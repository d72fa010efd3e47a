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
  runCommand,
  screenshot,
  startWorkbench,
  type Workbench,
} from './workbench';
import { writeComparison } from './fixtures';

/** The workbench (server, window, page) and the copied examples folder it shows. */
let server: CodeServer, wb: Workbench, page: Page, ws: string;
const SHOTS = join(root, 'test-artifacts/screenshots');

/** The data lines of a digits CSV (id,label,pred,…): id, label, pred, 1-based line, the line's text. */
function csv(rel: string): { id: string; label: string; pred: string; split: string; line: number; text: string }[] {
  return readFileSync(join(ws, rel), 'utf8')
    .split('\n')
    .map((text, i) => {
      const [id, label, pred, split] = text.split(',');
      return { id: id!, label: label!, pred: pred!, split: split!, line: i + 1, text };
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
    writeComparison(ws);
    ({ server, wb } = await startWorkbench(ws));
    page = wb.page;
  });

  after(() => closeWorkbench(server, wb));

  it('lists the flipped rows worst for B first; Enter opens both files side by side at that row', async () => {
    // Independently of the code under test: the rows right in logreg and wrong in knn (lost), and
    // back, among logreg's test rows (its split column), the rows the comparison's metrics cover.
    const A = csv('digits-lt/logreg.csv').filter((r) => r.split === 'test');
    assert.equal(A.length, 150, "digits-lt's header is id,label,pred,split,… with 150 test rows");
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
      counts: document.querySelector('.changed-rows .diff-counts')?.textContent ?? '',
      first: [...document.querySelectorAll('.changed-rows tr.diff-row')].slice(0, 3).map((tr) => ({
        a: (tr as HTMLElement).dataset.lineA,
        b: (tr as HTMLElement).dataset.lineB,
        id: tr.children[1]?.textContent ?? '',
      })),
    }));
    assert.equal(shown.lost, String(lost.length));
    assert.equal(shown.gained, String(gained.length));
    assert.equal(shown.changed, String(lost.length + gained.length));
    assert.match(shown.counts, /^The split's test rows, as the metrics: 150 of 300; 150 matched rows; /);
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
  it('the paired-difference chart ticks its value axis at even steps only, around zero and every interval', async () => {
    // Three runs with intervals (a bootstrap of the matched rows): each run's Δ against logreg.
    const rel = writeComparison(ws, {
      runs: ['logreg', 'knn', 'random_forest'],
      bootstrapN: 200,
      out: 'digits-lt/three-runs.compare.json',
    });
    const c = JSON.parse(readFileSync(join(ws, rel), 'utf8')) as {
      tests: { metric: string; ci_diff?: [number, number] }[];
    };
    await runCommand(page, 'View: Close All Editors');
    await expandFolder(page, 'digits-lt');
    await openMenuWith(page, explorerRow(page, 'three-runs.compare.json'), 'Open Report');
    await clickMenuItem(page, 'Open Report');
    const frame = await reportFrame(page, /^Comparison of 3 runs$/);
    await frame.locator('vscode-tab-header[data-tab="tests"]').click();
    const fig = frame.locator('figure[data-chart^="diff."]').first();
    await fig.scrollIntoViewIfNeeded();
    const handle = await frame.waitForFunction(
      () => {
        const f = document.querySelector<HTMLElement>('figure[data-chart^="diff."]');
        const canvas = f?.querySelector('canvas');
        return canvas?.dataset.valueTicks && canvas.width > 0
          ? { id: f!.dataset.chart!, ticks: canvas.dataset.valueTicks, range: canvas.dataset.valueRange! }
          : null;
      },
      undefined,
      { timeout: 60_000 },
    );
    const shown = (await handle.jsonValue()) as { id: string; ticks: string; range: string };
    const ticks = JSON.parse(shown.ticks) as number[];
    const [lo, hi] = JSON.parse(shown.range) as [number, number];
    // Every tick one step from the next: no tick at the axis's padded ends beside the even ones.
    assert.ok(ticks.length >= 3, shown.ticks);
    const step = ticks[1]! - ticks[0]!;
    for (let i = 1; i < ticks.length; i++)
      assert.ok(Math.abs(ticks[i]! - ticks[i - 1]! - step) < 1e-9 * Math.max(1, Math.abs(step)), shown.ticks);
    // Zero (no difference) is a tick, and the axis spans every interval of the metric shown.
    assert.ok(
      ticks.some((t) => Math.abs(t) < 1e-12),
      shown.ticks,
    );
    const metric = shown.id.slice('diff.'.length);
    const ends = c.tests.filter((t) => t.metric === metric && t.ci_diff).flatMap((t) => t.ci_diff!);
    assert.ok(ends.length >= 4, `intervals of ${metric}`);
    for (const e of ends) assert.ok(lo <= e && e <= hi, `${e} in [${lo}, ${hi}]`);
    await screenshot(page, join(SHOTS, 'compare-paired-difference-light.png'));
  });
});
