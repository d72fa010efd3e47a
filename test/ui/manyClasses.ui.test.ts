/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * UI tests of charts with many classes and many series, in a real VS Code (code-server) driven by
 * Chromium: 30 per-class bars each with its label, a 30-class confusion matrix whose rows add up
 * to the class supports (an "other" column) with the classes chosen by the user, and the metric × K
 * legend drawing each baseline's dash. Screenshots go to test-artifacts/screenshots/.
 *
 * Run: npm run build && node --import tsx --test --test-reporter=spec test/ui/manyClasses.ui.test.ts
 */
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { metricVsKCurves } from '../../src/core/results/curves';
import type { Results } from '../../src/core/results/types';
import { copyExamples, root, type CodeServer } from '../../scripts/vscode/codeServer.mjs';
import { THIRTY_CLASS_NAMES, writeThirtyClasses } from './fixtures';
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
  waitForFile,
  type Workbench,
} from './workbench';

const SHOTS = join(root, 'test-artifacts/screenshots');
let server: CodeServer;
let wb: Workbench;
let page: Page;
let ws: string;

async function evaluateFromExplorer(folder: string, file: string): Promise<void> {
  await expandFolder(page, folder);
  await openMenuWith(page, explorerRow(page, file), 'Evaluate Prediction File…');
  await clickMenuItem(page, 'Evaluate Prediction File…');
}

/** Scrolls the report so that the element with `id` is at the top, and waits until it is there. */
async function scrollTo(frame: Frame, id: string): Promise<void> {
  await frame.evaluate((i) => document.getElementById(i)?.scrollIntoView({ block: 'start' }), id);
  await frame.waitForFunction((i) => {
    const r = document.getElementById(i)?.getBoundingClientRect();
    return !!r && Math.abs(r.top) < 2;
  }, id);
}

/** The confusion grid as shown: class rows (name, counts, other cell) and the other row. */
async function grid(
  frame: Frame,
): Promise<{ rows: { name: string; counts: number[]; other: number }[]; cols: string[]; otherRow: number[] }> {
  return frame.evaluate(() => {
    const g = document.querySelector('#chart-confusion table.cm-grid')!;
    const trs = [...g.querySelectorAll('tbody tr')];
    const rows = trs
      .filter((tr) => tr.querySelector('th.cm-row'))
      .map((tr) => ({
        name: (tr.querySelector('th.cm-row') as HTMLElement).dataset.true ?? '',
        counts: [...tr.querySelectorAll<HTMLElement>('td.cm-cell')].map((c) => Number(c.dataset.count)),
        other: Number(tr.querySelector<HTMLElement>('td.cm-other')?.dataset.count ?? NaN),
      }));
    const otherTr = g.querySelector('tbody tr.cm-other-row');
    return {
      rows,
      cols: [...g.querySelectorAll<HTMLElement>('th.cm-col[data-pred]')].map((c) => c.dataset.pred ?? ''),
      otherRow: [...(otherTr?.querySelectorAll<HTMLElement>('td.cm-other') ?? [])].map((c) => Number(c.dataset.count)),
    };
  });
}

describe('charts with many classes and many series (code-server + Chromium)', { timeout: 900_000 }, () => {
  before(async () => {
    ws = copyExamples();
    writeThirtyClasses(ws);
    ({ server, wb } = await startWorkbench(ws));
    page = wb.page;
  });

  after(() => closeWorkbench(server, wb));

  let frame: Frame;
  let results: Results;

  it('30 classes: the per-class chart is horizontal bars with every class labelled (the chart\u2019s own ticks)', async () => {
    await evaluateFromExplorer('ui-fixtures', 'thirty-classes.csv');
    const out = join(ws, 'ui-fixtures/thirty-classes.eval.json');
    await waitForFile(out);
    results = JSON.parse(readFileSync(out, 'utf8')) as Results;
    frame = await reportFrame(page, /^thirty-classes\.csv$/);
    await frame.waitForSelector('#chart-perClassAccuracy canvas[data-ticks]', { state: 'attached', timeout: 60_000 });
    const state = await frame.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('#chart-perClassAccuracy canvas')!;
      return { ticks: JSON.parse(canvas.dataset.ticks!) as string[], height: canvas.getBoundingClientRect().height };
    });
    const classes = results.tables.perClass!.map((r) => r.class);
    assert.equal(classes.length, 30);
    assert.deepEqual([...classes].sort(), [...THIRTY_CLASS_NAMES].sort());
    assert.deepEqual(state.ticks, classes, 'every class has its tick label, in the chart\u2019s order');
    // A row of about 28 px per class: the labels (11–13 px high) cannot overlap.
    assert.ok(state.height >= 28 * 30, `canvas ${state.height} px high`);
    await scrollTo(frame, 'chart-perClassAccuracy');
    await screenshot(page, join(SHOTS, 'per-class-30-horizontal.png'));
    // Save PNG: 960 px wide and 28 px a class (60 + 28 × 30 = 900), at twice the density.
    await frame.locator('figure[data-chart="perClassAccuracy"] vscode-button[data-act="png"]').click();
    const target = join(ws, 'ui-fixtures', 'thirty-classes-per-class-accuracy.png');
    await page.locator('.quick-input-widget input').first().waitFor({ timeout: 20_000 });
    await page.waitForFunction(
      () =>
        /thirty-classes-per-class-accuracy\.png$/.test(
          document.querySelector<HTMLInputElement>('.quick-input-widget input')?.value ?? '',
        ),
      undefined,
      { timeout: 10_000 },
    );
    await page.keyboard.press('Enter');
    await waitForFile(target, 30_000);
    // The file's header is what is read: written whole by the host.
    let png = readFileSync(target);
    for (const end = Date.now() + 30_000; png.length < 24 && Date.now() < end;) png = readFileSync(target);
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1920, 1800]);
    copyFileSync(target, join(SHOTS, 'saved-png-per-class-30.png'));
  });

  it('30 classes: the confusion matrix has an "other" column and row; every row adds up to the class support', async () => {
    await frame.waitForSelector('#chart-confusion td.cm-other', { timeout: 30_000 });
    const cm = results.tables.confusion!;
    const support = new Map(cm.labels.map((l, i) => [l, cm.matrix[i]!.reduce((a, b) => a + b, 0)]));
    const g = await grid(frame);
    assert.equal(g.rows.length, 20);
    for (const r of g.rows)
      assert.equal(
        r.counts.reduce((a, b) => a + b, 0) + r.other,
        support.get(r.name),
        `row ${r.name}: shown cells + other = its support`,
      );
    // The other row: the 10 hidden classes' rows, so the whole grid holds every row of the file.
    const all = cm.matrix.flat().reduce((a, b) => a + b, 0);
    const shown = g.rows.reduce((a, r) => a + r.counts.reduce((x, y) => x + y, 0) + r.other, 0);
    assert.equal(shown + g.otherRow.reduce((a, b) => a + b, 0), all);
    // The grid's bottom-right corner in view: the "other" column and row (row names stay, sticky).
    await frame.evaluate(() =>
      [...document.querySelectorAll('#chart-confusion td.cm-other')]
        .pop()!
        .scrollIntoView({ block: 'end', inline: 'end' }),
    );
    await frame.waitForFunction(() => {
      const r = [...document.querySelectorAll('#chart-confusion td.cm-other')].pop()!.getBoundingClientRect();
      return r.bottom <= window.innerHeight + 1 && r.right <= window.innerWidth + 1;
    });
    await screenshot(page, join(SHOTS, 'confusion-30-classes-other.png'));
  });

  it('30 classes: choosing "Lowest recall", then picking classes with the keyboard, redraws the grid; rows still add up', async () => {
    const cm = results.tables.confusion!;
    const support = cm.matrix.map((r) => r.reduce((a, b) => a + b, 0));
    // Lowest recall (diagonal / row total), ties by label order; shown in label order.
    const recall = cm.labels.map((_, i) => (support[i]! > 0 ? cm.matrix[i]![i]! / support[i]! : Infinity));
    const lowest = cm.labels
      .map((_, i) => i)
      .sort((a, b) => recall[a]! - recall[b]! || a - b)
      .slice(0, 20)
      .sort((a, b) => a - b)
      .map((i) => cm.labels[i]!);
    await frame.evaluate(() => {
      const s = document.querySelector('#chart-confusion vscode-single-select.cm-classes') as unknown as HTMLElement & {
        value: string;
      };
      s.value = 'recall';
      s.dispatchEvent(new Event('change'));
    });
    await frame.waitForFunction(
      (want) =>
        [...document.querySelectorAll<HTMLElement>('#chart-confusion th.cm-row')]
          .map((t) => t.dataset.true)
          .join('\n') === want.join('\n'),
      lowest,
    );
    // Picked: the list starts from the shown classes; with the keyboard, drop the first, add a hidden one.
    await frame.evaluate(() => {
      const s = document.querySelector('#chart-confusion vscode-single-select.cm-classes') as unknown as HTMLElement & {
        value: string;
      };
      s.value = 'picked';
      s.dispatchEvent(new Event('change'));
    });
    await frame.waitForSelector('#chart-confusion fieldset.cm-pick:not([hidden])');
    const drop = lowest[0]!;
    const add = cm.labels.find((l) => !lowest.includes(l))!;
    const box = (l: string) => frame.locator(`#chart-confusion fieldset.cm-pick input[type="checkbox"][value="${l}"]`);
    await box(drop).focus();
    await page.keyboard.press('Space');
    await frame.waitForFunction(
      (d) =>
        ![...document.querySelectorAll<HTMLElement>('#chart-confusion th.cm-row')].some((t) => t.dataset.true === d),
      drop,
    );
    // Typing in the filter narrows the list; the added class is reached by keyboard.
    await frame.locator('#chart-confusion .cm-pick-filter').fill(add);
    await box(add).focus();
    await page.keyboard.press('Space');
    await frame.waitForFunction(
      (a) =>
        [...document.querySelectorAll<HTMLElement>('#chart-confusion th.cm-row')].some((t) => t.dataset.true === a),
      add,
    );
    const g = await grid(frame);
    const want = cm.labels.filter((l) => (lowest.includes(l) && l !== drop) || l === add);
    assert.deepEqual(
      g.rows.map((r) => r.name),
      want,
    );
    assert.deepEqual(g.cols, want);
    for (const r of g.rows)
      assert.equal(r.counts.reduce((a, b) => a + b, 0) + r.other, support[cm.labels.indexOf(r.name)]);
    await scrollTo(frame, 'chart-confusion');
    await screenshot(page, join(SHOTS, 'confusion-30-classes-picked.png'));
  });

  it('metric × K: the legend draws each baseline\u2019s dash in its metric\u2019s colour (the chart\u2019s own legend)', async () => {
    await runCommand(page, 'View: Close All Editors');
    await evaluateFromExplorer('ranking-debian-deps', 'popularity.jsonl');
    const out = join(ws, 'ranking-debian-deps/popularity.eval.json');
    await waitForFile(out);
    const r = JSON.parse(readFileSync(out, 'utf8')) as Results;
    const f = await reportFrame(page, /^popularity\.jsonl$/);
    await f.waitForSelector('#chart-metricVsK canvas[data-legend]', { state: 'attached', timeout: 60_000 });
    const legend = await f.evaluate(
      () =>
        JSON.parse(document.querySelector<HTMLCanvasElement>('#chart-metricVsK canvas')!.dataset.legend!) as {
          text: string;
          dash: number[];
          colour: string;
          swatch: string;
        }[],
    );
    const dense = metricVsKCurves(r);
    const baselines = [...new Set(dense.flatMap(([, c]) => Object.keys(c.extra ?? {})))];
    assert.ok(baselines.length >= 1, 'the example has baselines');
    assert.equal(legend.length, dense.length * (1 + baselines.length));
    for (const e of legend) assert.equal(e.swatch, 'line', `${e.text}: a line swatch`);
    const runs = legend.filter((e) => e.dash.length === 0);
    assert.equal(runs.length, dense.length);
    assert.equal(new Set(runs.map((e) => e.colour)).size, Math.min(dense.length, 6), 'a colour per metric');
    baselines.forEach((b, bi) => {
      const entries = legend.filter((e) => e.text.endsWith(`(${b})`));
      assert.equal(entries.length, dense.length);
      for (const e of entries) {
        const run = runs.find((x) => e.text.startsWith(`${x.text} (`))!;
        assert.equal(e.colour, run.colour, `${e.text} in ${run.text}'s colour`);
        assert.deepEqual(
          e.dash,
          [
            [6, 4],
            [2, 3],
            [8, 3, 2, 3],
            [14, 4],
            [8, 3, 2, 3, 2, 3],
          ][bi],
        );
      }
    });
    await scrollTo(f, 'chart-metricVsK');
    await screenshot(page, join(SHOTS, 'metric-vs-k-legend.png'));
  });
});
