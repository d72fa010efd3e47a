/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * Row inspection as a person uses it, in code-server driven by Debian's Chromium: click a cell of
 * the confusion matrix → the rows panel lists exactly that cell's count of rows, with the filter
 * as chips; Enter on a row of the grid opens the prediction file at that row's line; the keyboard
 * path (the chart's table, Enter on a row) opens the same panel; a metric of the side panel and a
 * CodeLens of the results file open their rows; the Slices tab. Screenshots of the
 * rows panel and the slices in light and dark go to test-artifacts/screenshots/.
 *
 * Run: npm run test:ui (node's test runner; this file starts and always stops its own server).
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import type { Results, SliceMetricValue } from '../../src/core/results/types';
import { tableOf } from '../../src/core/results/tables';
import { copyExamples, root, sleep, type CodeServer } from '../../scripts/vscode/codeServer.mjs';
import {
  clickMenuItem,
  DARK,
  expandFolder,
  explorerRow,
  LIGHT,
  closeWorkbench,
  evalLensActivity,
  openMenuWith,
  startWorkbench,
  reportFrame,
  runCommand,
  screenshot,
  setTheme,
  waitForFile,
  type Workbench,
  quickOpenFile,
} from './workbench';
import { metricName } from '../../src/core/glossary';

const SHOTS = join(root, 'test-artifacts/screenshots');
const README_SHOTS = join(root, 'media/screenshots');

let server: CodeServer;
let wb: Workbench;
let page: Page;
let ws: string;

async function shootBothThemes(name: string, frame: Frame): Promise<void> {
  await setTheme(page, LIGHT, frame);
  await screenshot(page, join(SHOTS, `${name}-light.png`));
  await setTheme(page, DARK, frame);
  await screenshot(page, join(SHOTS, `${name}-dark.png`));
  await setTheme(page, LIGHT, frame);
  if (process.env.EVAL_LENS_README_SHOTS === '1') {
    mkdirSync(README_SHOTS, { recursive: true });
    for (const t of ['light', 'dark'])
      copyFileSync(join(SHOTS, `${name}-${t}.png`), join(README_SHOTS, `${name}-${t}.png`));
  }
}

/** The rows panel's total and the rows it lists, once loaded. */
/**
 * The filter every drill-down starts with: with a validation/test split the metrics (and so the
 * counts the tests compare with) cover the test rows only.
 */
function measuredChips(r: Results): string[] {
  return r.source.split?.metricsOn === 'test' ? ['split_role = test'] : [];
}

async function rowsPanel(frame: Frame): Promise<{ total: number; rows: number; chips: string[]; title: string }> {
  await frame.waitForFunction(
    () => {
      const p = document.querySelector('.rows-panel');
      return !!p && p.getAttribute('aria-busy') === 'false' && !!p.querySelector('.page-info[data-total]');
    },
    undefined,
    { timeout: 60_000 },
  );
  return frame.evaluate(() => {
    const p = document.querySelector('.rows-panel')!;
    return {
      total: Number(p.querySelector<HTMLElement>('.page-info')!.dataset.total),
      rows: p.querySelectorAll('[role="grid"] tbody tr').length,
      chips: [...p.querySelectorAll('.chip-text')].map((c) => c.textContent ?? ''),
      title: p.querySelector('.rows-title')?.textContent ?? '',
    };
  });
}

describe('row inspection in the browser (code-server + Chromium)', { timeout: 900_000 }, () => {
  before(async () => {
    ws = copyExamples();
    // A file with a slice column: the digits predictions with a (made-up) scanner per row, sliced by split and scanner.
    mkdirSync(join(ws, 'slices-demo'));
    const lines = readFileSync(join(ws, 'digits-lt/logreg.csv'), 'utf8').trimEnd().split('\n');
    writeFileSync(
      join(ws, 'slices-demo/preds.csv'),
      lines.map((l, i) => `${l},${i === 0 ? 'scanner' : ['north', 'south', 'east'][i % 3]}`).join('\n') + '\n',
    );
    const config = JSON.parse(readFileSync(join(ws, 'digits-lt/eval-lens.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(
      join(ws, 'slices-demo/eval-lens.json'),
      // metricsOn "all": the slices by split show the validation and the test rows side by side (by
      // default every metric and slice covers the test rows only).
      JSON.stringify({ ...config, slices: ['split', 'scanner'], metricsOn: 'all' }, null, 2),
    );
    ({ server, wb } = await startWorkbench(ws));
    page = wb.page;
    await expandFolder(page, 'digits-lt');
    await openMenuWith(page, explorerRow(page, 'logreg.csv'), 'Evaluate Prediction File…');
    await clickMenuItem(page, 'Evaluate Prediction File…');
    await waitForFile(join(ws, 'digits-lt/logreg.eval.json'));
  });

  after(() => closeWorkbench(server, wb));

  it("a click on a confusion cell lists exactly that cell's rows; Enter on a row opens its line", async () => {
    const r = JSON.parse(readFileSync(join(ws, 'digits-lt/logreg.eval.json'), 'utf8')) as Results;
    const c = r.tables.confusion!;
    // The largest off-diagonal cell.
    let best: [number, number] = [0, 1];
    c.matrix.forEach((row, i) =>
      row.forEach((v, j) => {
        if (i !== j && v > c.matrix[best[0]]![best[1]]!) best = [i, j];
      }),
    );
    const [ti, pj] = best;
    const count = c.matrix[ti]![pj]!;
    const frame = await reportFrame(page, /^logreg\.csv$/);
    // The confusion matrix is an HTML grid: each cell names its true and predicted class.
    const cell = frame.locator(
      `figure[data-chart="confusion"] td.cm-cell[data-true="${c.labels[ti]}"][data-pred="${c.labels[pj]}"]`,
    );
    await cell.scrollIntoViewIfNeeded();
    assert.equal(Number(await cell.getAttribute('data-count')), count);
    await cell.click();
    const panel = await rowsPanel(frame);
    assert.equal(panel.total, count, `true ${c.labels[ti]}, predicted ${c.labels[pj]}`);
    assert.equal(panel.rows, Math.min(count, 50));
    assert.deepEqual(panel.chips, [...measuredChips(r), `label = ${c.labels[ti]}`, `pred = ${c.labels[pj]}`]);
    const labels = await frame.evaluate(() =>
      [...document.querySelectorAll('.rows-panel tbody tr')].map((tr) => [
        tr.children[3]?.textContent,
        tr.children[4]?.textContent,
      ]),
    );
    for (const l of labels) assert.deepEqual(l, [c.labels[ti], c.labels[pj]]);
    await frame.locator('.rows-panel').scrollIntoViewIfNeeded();
    await shootBothThemes('inspect-rows', frame);

    // Keyboard: the grid has focus on its first row; ArrowDown then Enter opens the second row's line.
    const line = Number(
      await frame
        .locator('.rows-panel tbody tr')
        .nth(count > 1 ? 1 : 0)
        .getAttribute('data-line'),
    );
    await frame.locator('.rows-panel tbody tr').first().locator('button.open-line').focus();
    if (count > 1) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    // The editor beside the report shows logreg.csv with that line selected (status bar: Ln N, Col 1 (… selected)).
    const tab = page.locator('.tabs-container .tab', { hasText: 'logreg.csv' }).filter({ hasNotText: 'eval' });
    await tab.first().waitFor({ timeout: 30_000 });
    const status = page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+/ }).first();
    await page
      .waitForFunction(
        (want) =>
          [...document.querySelectorAll('.statusbar-item')].some((e) =>
            new RegExp(`Ln ${want}, Col \\d+ \\(\\d+ selected\\)`).test(e.textContent ?? ''),
          ),
        line,
        { timeout: 30_000 },
      )
      .catch(async (err: Error) => {
        throw new Error(
          `status bar shows "${await status.textContent()}", expected line ${line} selected: ${err.message}`,
        );
      });
    await screenshot(page, join(SHOTS, 'inspect-open-line.png'));
  });

  it("keyboard: Enter on a row of a chart's table opens the same rows panel", async () => {
    const r = JSON.parse(readFileSync(join(ws, 'digits-lt/logreg.eval.json'), 'utf8')) as Results;
    const frame = await reportFrame(page, /^logreg\.csv$/);
    const perClass = r.tables.perClass!;
    const row = frame.locator('[data-table="perClass"] [data-drill-row="0"]');
    await row.scrollIntoViewIfNeeded();
    await row.focus();
    await page.keyboard.press('Enter');
    const panel = await rowsPanel(frame);
    assert.equal(panel.total, perClass[0]!.support, `class ${perClass[0]!.class}`);
    assert.deepEqual(panel.chips, [...measuredChips(r), `label = ${perClass[0]!.class}`]);
  });

  it('Mistakes lists the wrong rows, most confident first', async () => {
    const r = JSON.parse(readFileSync(join(ws, 'digits-lt/logreg.eval.json'), 'utf8')) as Results;
    const frame = await reportFrame(page, /^logreg\.csv$/);
    await frame.locator('vscode-button[data-act="mistakes"]').click();
    const panel = await rowsPanel(frame);
    assert.equal(panel.total, Math.round((1 - r.metrics.accuracy!.value!) * r.source.rowsUsed));
    const conf = await frame.evaluate(() =>
      [...document.querySelectorAll('.rows-panel tbody tr')].map((tr) => Number(tr.children[6]?.textContent)),
    );
    for (let i = 1; i < conf.length; i++)
      assert.ok(conf[i - 1]! >= conf[i]!, `sorted by confidence at ${i}: ${conf.join(', ')}`);
  });

  it('a class-group card lists its rows as class_group, in a grid column apart from the file’s group', async () => {
    const r = JSON.parse(readFileSync(join(ws, 'digits-lt/logreg.eval.json'), 'utf8')) as Results;
    // the rows of the tail classes: the support of the per-class rows in group tail
    const tail = r.tables.perClass!.filter((c) => c.group === 'tail').reduce((a, c) => a + c.support, 0);
    assert.ok(tail > 0);
    const frame = await reportFrame(page, /^logreg\.csv$/);
    await frame.locator('vscode-tab-header', { hasText: 'Long tail' }).click();
    const card = frame.locator('.card[data-metric="acc_group.tail"]');
    await card.waitFor({ state: 'visible', timeout: 30_000 });
    await card.click();
    const panel = await rowsPanel(frame);
    assert.equal(panel.total, tail);
    assert.deepEqual(panel.chips, [...measuredChips(r), 'class_group = tail']);
    const headers = await frame.evaluate(() =>
      [...document.querySelectorAll('.rows-panel [role="grid"] thead th')].map((th) => th.textContent?.trim() ?? ''),
    );
    assert.ok(
      headers.some((h) => h.startsWith('class group (train frequency)')),
      `grid headers: ${headers.join(' | ')}`,
    );
    // digits-lt has no group column of its own: no column is titled plain "group"
    assert.ok(!headers.some((h) => /^group\b/.test(h)), `grid headers: ${headers.join(' | ')}`);
    await frame.locator('.rows-panel').scrollIntoViewIfNeeded();
    await screenshot(page, join(SHOTS, 'inspect-class-group-rows.png'));
  });

  it("the Slices tab lists the slices worst first; a click shows the report of the slice's rows", async () => {
    // One report on screen (the screenshots show it alone).
    await runCommand(page, 'View: Close All Editors');
    await expandFolder(page, 'slices-demo');
    await openMenuWith(page, explorerRow(page, 'preds.csv'), 'Evaluate Prediction File…');
    await clickMenuItem(page, 'Evaluate Prediction File…');
    const r = JSON.parse(await waitForFile(join(ws, 'slices-demo/preds.eval.json'))) as Results;
    const slices = tableOf(r, 'slices')!;
    assert.equal(slices.length, 5);
    const frame = await reportFrame(page, /^preds\.csv$/);
    await frame.locator('vscode-tab-header', { hasText: 'Slices' }).click();
    await frame.waitForFunction(() => document.querySelectorAll('.slice-table tbody tr').length > 0, undefined, {
      timeout: 30_000,
    });
    // Worst first: the table's accuracy column ascends.
    const shown = await frame.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.slice-table tbody tr')].map(
        (tr) =>
          [tr.dataset.slice, Number(tr.querySelector<HTMLElement>('td[data-value]')?.dataset.value)] as [
            string,
            number,
          ],
      ),
    );
    assert.equal(shown.length, 5);
    for (let i = 1; i < shown.length; i++)
      assert.ok(shown[i - 1]![1] <= shown[i]![1], `worst first: ${JSON.stringify(shown)}`);
    for (const [name, v] of shown)
      assert.equal(v, (slices.find((x) => `${x.slice}=${x.value}` === name)!.accuracy as SliceMetricValue).value, name);
    // The table says its intervals come from the whole file's bootstrap (a slice's report differs).
    assert.match(
      (await frame.locator('[data-note="slice-intervals"]').textContent()) ?? '',
      /^Intervals: one bootstrap of the whole file\./,
    );
    await frame.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLCanvasElement>('vscode-tab-panel[data-tab="slices"] canvas')].some(
          (c) => c.width > 0,
        ),
      undefined,
      { timeout: 30_000 },
    );
    await frame.evaluate(() => document.querySelector('.slice-controls')?.scrollIntoView({ block: 'start' }));
    await shootBothThemes('inspect-slices', frame);

    // Keyboard: Enter on the slice split = test → the report of those rows; its accuracy counted here.
    const lines = readFileSync(join(ws, 'slices-demo/preds.csv'), 'utf8')
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    const test = lines.filter((c) => c[3] === 'test');
    const accuracy = test.filter((c) => c[1] === c[2]).length / test.length;
    await frame.locator('.slice-table tr[data-slice="split=test"]').focus();
    await page.keyboard.press('Enter');
    await frame.waitForSelector('.subset-bar', { timeout: 120_000 });
    const bar = await frame.locator('.subset-bar').getAttribute('data-subset');
    assert.equal(bar, 'split = test');
    // …and the slice's report says its intervals resample the slice's rows alone.
    assert.match(
      (await frame.locator('.subset-bar [data-note="subset-intervals"]').textContent()) ?? '',
      /^Intervals: a bootstrap of these rows alone\./,
    );
    const acc = await frame.locator('.headline .card[data-metric="accuracy"]').getAttribute('data-value');
    assert.equal(Number(acc), accuracy);
    await frame.evaluate(() => window.scrollTo(0, 0));
    await sleep(500);
    await screenshot(page, join(SHOTS, 'inspect-subset-light.png'));
    await frame.locator('vscode-button[data-act="clear-subset"]').click();
    await frame.waitForFunction(() => !document.querySelector('.subset-bar'), undefined, { timeout: 60_000 });
    assert.equal(
      Number(await frame.locator('.headline .card[data-metric="accuracy"]').getAttribute('data-value')),
      r.metrics.accuracy!.value,
    );
  });

  it('the side panel: a click on acc_few opens the report with the few-shot rows listed', async () => {
    await runCommand(page, 'View: Close All Editors');
    const r = JSON.parse(readFileSync(join(ws, 'digits-lt/logreg.eval.json'), 'utf8')) as Results;
    const few = r.tables.perClass!.filter((c) => c.shot === 'few').reduce((a, c) => a + c.support, 0);
    await evalLensActivity(page).click();
    const tree = page.locator('.pane-body .monaco-list').first();
    const row = (text: string): ReturnType<Page['locator']> =>
      tree
        .locator('.monaco-list-row', {
          has: page.locator('.label-name', { hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
        })
        .first();
    // Expand by the twisties (a click on the results file's label opens its report and takes the focus).
    const expand = async (name: string): Promise<void> => {
      const r = row(name);
      await r.waitFor({ timeout: 30_000 });
      if ((await r.getAttribute('aria-expanded')) !== 'true') await r.locator('.monaco-tl-twistie').click();
    };
    await expand('logreg.eval.json');
    await expand('Long tail');
    await screenshot(page, join(SHOTS, 'inspect-tree.png'));
    // The tree shows the metric's name (the key is in its tooltip).
    await row(metricName('acc_few')).click();
    const frame = await reportFrame(page, /^logreg\.csv$/);
    const panel = await rowsPanel(frame);
    assert.deepEqual(panel.chips, [...measuredChips(r), 'shot = few']);
    assert.equal(panel.total, few);
    assert.match(panel.title, /few-shot rows/);
  });

  it("CodeLens: a click on the accuracy lens of the results file opens the report's mistakes", async () => {
    await runCommand(page, 'View: Close All Editors');
    const r = JSON.parse(readFileSync(join(ws, 'digits-lt/logreg.eval.json'), 'utf8')) as Results;
    const m = r.tables.confusion!.matrix;
    const wrong = m.reduce((a, row, i) => a + row.reduce((b, x, j) => b + (i === j ? 0 : x), 0), 0);
    await quickOpenFile(page, 'digits-lt/logreg.eval.json', 'logreg.eval.json');
    const lens = page.locator('.codelens-decoration a', { hasText: new RegExp(`^${metricName('accuracy')} \\d`) });
    await lens.first().waitFor({ timeout: 60_000 });
    await lens.first().click();
    const frame = await reportFrame(page, /^logreg\.csv$/);
    const panel = await rowsPanel(frame);
    assert.deepEqual(panel.chips, [...measuredChips(r), 'correct = false']);
    assert.equal(panel.total, wrong);
    assert.match(panel.title, /mistakes/i);
  });

  it('ranking: Enter on a per-user histogram bin lists that many users, with their top-K and hits', async () => {
    await runCommand(page, 'View: Close All Editors');
    await page
      .locator('.activitybar .action-item a[aria-label^="Explorer"], .activitybar .action-item[aria-label^="Explorer"]')
      .first()
      .click();
    await expandFolder(page, 'ranking-debian-deps');
    await openMenuWith(page, explorerRow(page, 'popularity.jsonl'), 'Evaluate Prediction File…');
    await clickMenuItem(page, 'Evaluate Prediction File…');
    const r = JSON.parse(await waitForFile(join(ws, 'ranking-debian-deps/popularity.eval.json'))) as Results;
    const hist = r.tables.perUserHistograms!['recall@5']!;
    const frame = await reportFrame(page, /^popularity\.jsonl$/);
    const fig = frame.locator('figure[data-chart="perUser.recall@5"]');
    const last = hist.counts.length - 1;
    const row = fig.locator(`[data-table="perUser.recall@5.table"] [data-drill-row="${last}"]`);
    // The report is drawn again when the final intervals replace the provisional ones: an element
    // found before that is detached, so the steps are tried again on the new drawing.
    for (let attempt = 1; ; attempt++) {
      try {
        await fig.scrollIntoViewIfNeeded();
        await fig.locator('vscode-button[data-act="toggle"]').click();
        await row.focus();
        break;
      } catch (e) {
        if (attempt >= 4) throw e;
        await sleep(1000);
      }
    }
    await page.keyboard.press('Enter');
    const panel = await rowsPanel(frame);
    assert.equal(panel.total, hist.counts[last]);
    assert.equal(panel.chips.length, 2);
    assert.match(panel.chips[0]!, /^recall@5 >= /);
    const hits = await frame.evaluate(() =>
      [...document.querySelectorAll('.rows-panel tbody tr')].map((tr) => Number(tr.children[3]?.textContent)),
    );
    assert.ok(
      hits.every((h) => h >= 1),
      'users with recall@5 in the top bin have a hit',
    );
    await frame.locator('.rows-panel').scrollIntoViewIfNeeded();
    await screenshot(page, join(SHOTS, 'inspect-ranking-rows-light.png'));
  });
  it("ranking: the Slices tab cuts users by train interactions in the Ranking tab's activity bins, counted as users", async () => {
    const file = join(ws, 'ranking-debian-deps/popularity.eval.json');
    if (!existsSync(file)) {
      await runCommand(page, 'View: Close All Editors');
      await expandFolder(page, 'ranking-debian-deps');
      await openMenuWith(page, explorerRow(page, 'popularity.jsonl'), 'Evaluate Prediction File…');
      await clickMenuItem(page, 'Evaluate Prediction File…');
      await waitForFile(file);
    }
    const r = JSON.parse(readFileSync(file, 'utf8')) as Results;
    const activity = r.tables.activityBins!.filter((a) => a.users > 0);
    assert.ok(activity.length >= 2, JSON.stringify(r.tables.activityBins));
    const frame = await reportFrame(page, /^popularity\.jsonl$/);
    // The Ranking tab's activity chart: its bins are its category axis.
    await frame.locator('vscode-tab-header[data-tab="ranking"]').click();
    await frame.locator('figure[data-chart="activityBins"]').scrollIntoViewIfNeeded();
    const ticksHandle = await frame.waitForFunction(
      () => document.querySelector<HTMLCanvasElement>('figure[data-chart="activityBins"] canvas')?.dataset.ticks,
      undefined,
      { timeout: 30_000 },
    );
    const ranking = JSON.parse((await ticksHandle.jsonValue()) as string) as string[];
    // The Slices tab: the run was not sliced, so slice it by trainCount from the picker.
    await frame.locator('vscode-tab-header[data-tab="slices"]').click();
    const select = frame.locator('select.slice-column');
    await select.waitFor({ timeout: 60_000 });
    assert.match(
      (await select.locator('option[value="trainCount"]').textContent()) ?? '',
      /activity bins, as on the Ranking tab/,
    );
    await select.selectOption('trainCount');
    await frame.locator('vscode-button[data-act="compute-slices"]').click();
    await frame.waitForFunction(() => document.querySelectorAll('.slice-table tbody tr').length > 0, undefined, {
      timeout: 180_000,
    });
    const shown = await frame.evaluate(() => ({
      head: [...document.querySelectorAll('.slice-table thead th')].map((th) => th.textContent ?? ''),
      info: document.querySelector('.slices-body > p.note')?.textContent ?? '',
      rows: [...document.querySelectorAll<HTMLElement>('.slice-table tbody tr')].map((tr) => ({
        value: tr.children[1]!.textContent ?? '',
        n: Number((tr.children[2]!.textContent ?? '').replace(/\D/g, '')),
      })),
    }));
    // A ranking run's slices are users: the size column says so, and the text under the controls.
    assert.ok(
      shown.head.some((h) => /^users/.test(h)),
      shown.head.join(' | '),
    );
    assert.ok(!shown.head.some((h) => /^rows/.test(h)), shown.head.join(' | '));
    assert.match(shown.info, /the report of its users\./);
    // One binning: the same bins, with the same users, as the Ranking tab's chart and table.
    assert.deepEqual(shown.rows.map((x) => x.value).sort(), activity.map((a) => a.bin).sort());
    // The chart's categories are "bin (n users)".
    const drawn = ranking.map((t) => /^(.*) \((\d+) users?\)$/.exec(t)).filter((m) => m !== null);
    assert.deepEqual(
      drawn.filter((m) => Number(m[2]) > 0).map((m) => [m[1], Number(m[2])]),
      activity.map((a) => [a.bin, a.users]),
      ranking.join(' | '),
    );
    for (const a of activity) assert.equal(shown.rows.find((x) => x.value === a.bin)?.n, a.users, a.bin);
    await frame.evaluate(() => document.querySelector('.slice-controls')?.scrollIntoView({ block: 'start' }));
    await frame.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLCanvasElement>('vscode-tab-panel[data-tab="slices"] canvas')].some(
          (c) => c.width > 0,
        ),
      undefined,
      { timeout: 30_000 },
    );
    await screenshot(page, join(SHOTS, 'inspect-ranking-slices-light.png'));
  });
});
