/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The slice finder in the report's Slices tab, as a person uses it in code-server driven by
 * Debian's Chromium: evaluate the bundled digits example, press Find weak slices, see the found
 * slices (the weakest one checked against a count made here from the CSV), and Enter on it lists
 * exactly its rows. A screenshot of the found slices goes to test-artifacts/screenshots/.
 *
 * Run: npm run build && node --import tsx --test test/ui/foundSlices.ui.test.ts
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { findSlicesBetween } from '../../src/core/compare/sliceFinderRuns';
import { findSlicesInFile } from '../../src/core/inspect/sliceFinderFiles';
import { copyExamples, root, type CodeServer } from '../../scripts/vscode/codeServer.mjs';
import {
  clickMenuItem,
  closeWorkbench,
  evaluateFromExplorer,
  explorerRow,
  openMenuWith,
  reportFrame,
  runCommand,
  screenshot,
  startWorkbench,
  waitForFile,
  type Workbench,
} from './workbench';
import { writeComparison } from './fixtures';

const SHOTS = join(root, 'test-artifacts/screenshots');

let server: CodeServer;
let wb: Workbench;
let page: Page;
let ws: string;

describe('the slice finder in the Slices tab (code-server + Chromium)', { timeout: 600_000 }, () => {
  before(async () => {
    ws = copyExamples();
    // Every row of digits-lt (metricsOn: all): its 150 test rows alone hold no class of the
    // finder's minimum support (30), and the tests below check slices counted over the 300 rows.
    const config = join(ws, 'digits-lt/eval-lens.json');
    writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), metricsOn: 'all' }, null, 2));
    writeComparison(ws);
    ({ server, wb } = await startWorkbench(ws));
    page = wb.page;
    await evaluateFromExplorer(page, 'digits-lt', 'logreg.csv');
    await waitForFile(join(ws, 'digits-lt/logreg.eval.json'));
  });

  after(() => closeWorkbench(server, wb));

  it('Find weak slices lists the weakest class first; Enter on it lists exactly its rows', async () => {
    // By hand from the CSV: the accuracy of each true class with at least 30 rows (the default
    // minimum support, max(30, 1% of 300 rows)); the weakest is the top slice.
    const csv = join(ws, 'digits-lt/logreg.csv');
    const rows = readFileSync(csv, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    assert.equal(rows.length, 300);
    const byLabel = new Map<string, { n: number; right: number }>();
    for (const c of rows) {
      const s = byLabel.get(c[1]!) ?? { n: 0, right: 0 };
      s.n++;
      if (c[1] === c[2]) s.right++;
      byLabel.set(c[1]!, s);
    }
    const weakest = [...byLabel]
      .filter(([, s]) => s.n >= 30)
      .sort((a, b) => a[1].right / a[1].n - b[1].right / b[1].n)[0]!;
    const [label, { n, right }] = weakest;
    // The number of slices listed, from the finder run here on the same file.
    const expected = await findSlicesInFile(csv);
    assert.equal(expected.slices[0]!.slice, `label = ${label}`);

    const frame = await reportFrame(page, /^logreg\.csv$/);
    await frame.locator('vscode-tab-header', { hasText: 'Slices' }).click();
    const button = frame.locator('.found-slices vscode-button[data-act="find-slices"]');
    await button.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await frame.locator('.found-slices .found-limit').inputValue(), '20');
    await button.click();
    await frame.waitForSelector('.found-slices[data-state="done"]', { timeout: 120_000 });
    const shown = await frame.evaluate(() => ({
      names: [...document.querySelectorAll<HTMLElement>('.found-slices-table tbody tr')].map((tr) => tr.dataset.slice),
      first: [...document.querySelectorAll('.found-slices-table tbody tr:first-child td')].map((td) => td.textContent),
      note: document.querySelector('.found-slices-note')?.textContent ?? '',
    }));
    assert.equal(shown.names.length, expected.slices.length);
    assert.equal(shown.names[0], `label = ${label}`);
    assert.equal(shown.first[0], String(n));
    assert.ok(shown.first[1]!.startsWith((right / n).toFixed(4)), shown.first[1]);
    assert.equal(shown.first[6], 'significant at q ≤ 0.05');
    assert.match(
      shown.note,
      new RegExp(`^Slice Finder \\(Chung et al\\., ICDE 2019\\): ${expected.tried} slices tried`),
    );
    await frame.evaluate(() => document.querySelector('.found-slices')?.scrollIntoView({ block: 'start' }));
    await screenshot(page, join(SHOTS, 'found-slices-light.png'));

    // Keyboard: Enter on the weakest slice lists its rows.
    await frame.locator('.found-slices-table tbody tr').first().focus();
    await page.keyboard.press('Enter');
    await frame.waitForFunction(
      () => {
        const p = document.querySelector('.rows-panel');
        return !!p && p.getAttribute('aria-busy') === 'false' && !!p.querySelector('.page-info[data-total]');
      },
      undefined,
      { timeout: 60_000 },
    );
    const total = await frame.evaluate(() =>
      Number(document.querySelector<HTMLElement>('.rows-panel .page-info')!.dataset.total),
    );
    assert.equal(total, n);
    await screenshot(page, join(SHOTS, 'found-slices-rows-light.png'));
  });
  it('a comparison: Where B loses lists the class where knn loses most to logreg, with its lost and gained rows', async () => {
    // By hand from the two CSVs, paired by id: per true class, the rows logreg gets right and knn
    // wrong (lost) and back (gained); the class with the most negative Δ = (gained − lost)/n on top.
    const read = (f: string): Map<string, { label: string; right: boolean }> =>
      new Map(
        readFileSync(join(ws, f), 'utf8')
          .trimEnd()
          .split('\n')
          .slice(1)
          .map((l) => l.split(','))
          .map((c) => [c[0]!, { label: c[1]!, right: c[1] === c[2] }]),
      );
    const A = read('digits-lt/logreg.csv');
    const B = read('digits-lt/knn.csv');
    const byLabel = new Map<string, { n: number; lost: number; gained: number }>();
    for (const [id, a] of A) {
      const b = B.get(id)!;
      const s = byLabel.get(a.label) ?? { n: 0, lost: 0, gained: 0 };
      s.n++;
      if (a.right && !b.right) s.lost++;
      if (!a.right && b.right) s.gained++;
      byLabel.set(a.label, s);
    }
    const delta = (s: { n: number; lost: number; gained: number }): number => (s.gained - s.lost) / s.n;
    const [label, top] = [...byLabel].filter(([, s]) => s.n >= 30).sort((x, y) => delta(x[1]) - delta(y[1]))[0]!;
    const expected = await findSlicesBetween(join(ws, 'digits-lt/logreg.csv'), join(ws, 'digits-lt/knn.csv'));
    assert.equal(expected.slices[0]!.slice, `label = ${label}`);

    await runCommand(page, 'View: Close All Editors');
    await openMenuWith(page, explorerRow(page, 'logreg-vs-knn.compare.json'), 'Open Report');
    await clickMenuItem(page, 'Open Report');
    const frame = await reportFrame(page, /^Comparison of 2 runs$/);
    await frame.locator('vscode-tab-header[data-tab="slices"]').click();
    const button = frame.locator('.found-slices vscode-button[data-act="find-slices"]');
    await button.waitFor({ state: 'visible', timeout: 30_000 });
    await button.click();
    await frame.waitForSelector('.found-slices[data-state="done"]', { timeout: 120_000 });
    const shown = await frame.evaluate(() => ({
      names: [...document.querySelectorAll<HTMLElement>('.found-slices-table tbody tr')].map((tr) => tr.dataset.slice),
      first: [...document.querySelectorAll('.found-slices-table tbody tr:first-child td')].map((td) => td.textContent),
      note: document.querySelector('.found-slices-note')?.textContent ?? '',
    }));
    assert.equal(shown.names.length, expected.slices.length);
    assert.equal(shown.names[0], `label = ${label}`);
    // rows, accuracy A, accuracy B, lost, gained, Δ [interval]
    assert.equal(shown.first[0], String(top.n));
    assert.equal(shown.first[3], String(top.lost));
    assert.equal(shown.first[4], String(top.gained));
    assert.ok(shown.first[5]!.startsWith(delta(top).toFixed(4).replace('-', '−')), shown.first[5]);
    assert.match(shown.note, /McNemar's exact test/);
    await frame.evaluate(() => document.querySelector('.found-slices')?.scrollIntoView({ block: 'start' }));
    await screenshot(page, join(SHOTS, 'found-slices-compare-light.png'));
  });
});
