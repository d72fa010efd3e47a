/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * UI tests of the threshold explorer and the user inspector in a real VS Code (code-server) driven
 * by Debian's Chromium, on a temp copy of examples/: the slider and the number box move the
 * operating point and the readout equals the stored curve point of the results file; "Use this
 * operating point" writes the key into that copy's eval-lens.json and the report re-renders with
 * the new evaluation; the user inspector shows a user's hits, equal to a direct count from the
 * JSONL. Screenshots, light and dark, go to test-artifacts/screenshots/.
 *
 * Run: npm run test:ui (this file starts and always stops its own server).
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import type { Curve, Results } from '../../src/core/results/types';
import { pointAtThreshold } from '../../src/shared/operatingPoint';
import { copyExamples, root, sleep, type CodeServer } from '../../scripts/vscode/codeServer.mjs';
import {
  clickMenuItem,
  contextMenu,
  DARK,
  expandFolder,
  explorerRow,
  LIGHT,
  closeWorkbench,
  openReportTab,
  startWorkbench,
  reportFrame,
  runCommand,
  screenshot,
  setTheme,
  waitForFile,
  type Workbench,
} from './workbench';

const SHOTS = join(root, 'test-artifacts/screenshots');
const README_SHOTS = join(root, 'media/screenshots');

let server: CodeServer;
let wb: Workbench;
let page: Page;
let ws: string;

/** Screenshots of the report scrolled to `selector`, in both themes, ending in the light theme. */
async function shootBothThemes(name: string, frame: Frame, selector: string): Promise<void> {
  const maximized = await runCommand(page, 'View: Toggle Maximize Editor Group', 2).then(
    () => true,
    async () => {
      await page.keyboard.press('Escape');
      return false;
    },
  );
  await sleep(1000);
  for (const theme of [LIGHT, DARK]) {
    await setTheme(page, theme, frame);
    await frame.evaluate((s) => document.querySelector(s)?.scrollIntoView({ block: 'start' }), selector);
    await sleep(500);
    await screenshot(page, join(SHOTS, `${name}-${theme === DARK ? 'dark' : 'light'}.png`));
  }
  await setTheme(page, LIGHT, frame);
  if (maximized) await runCommand(page, 'View: Toggle Maximize Editor Group');
}

async function openMenuWith(row: ReturnType<Page['locator']>, label: string, timeout = 30_000): Promise<void> {
  const end = Date.now() + timeout;
  for (;;) {
    const labels = await contextMenu(page, row);
    if (labels.includes(label)) return;
    await page.keyboard.press('Escape');
    if (Date.now() > end) assert.fail(`no "${label}" in the menu: ${labels.join(' | ')}`);
    await sleep(1000);
  }
}

async function evaluateFromExplorer(folder: string, file: string): Promise<Results> {
  await page.keyboard.press('Escape');
  await expandFolder(page, folder);
  await openMenuWith(explorerRow(page, file), 'Evaluate Prediction File…');
  await clickMenuItem(page, 'Evaluate Prediction File…');
  const out = join(ws, folder, file.replace(/\.[^.]+$/, '.eval.json'));
  return JSON.parse(await waitForFile(out)) as Results;
}

async function openTab(frame: Frame, tab: string): Promise<void> {
  await openReportTab(frame, tab);
}

interface Readout {
  index: number;
  values: Record<string, string>;
  slider: string;
}

async function readout(frame: Frame, family: string): Promise<Readout> {
  return frame.evaluate((f) => {
    const s = document.querySelector<HTMLElement>(`.explorer[data-explorer="${f}"]`)!;
    const values: Record<string, string> = {};
    for (const dd of s.querySelectorAll<HTMLElement>('dd[data-key]')) values[dd.dataset.key!] = dd.dataset.value!;
    return {
      index: Number(s.dataset.index),
      values,
      slider: s.querySelector<HTMLInputElement>('.explorer-slider')!.value,
    };
  }, family);
}

/** The readout equals the stored point `k` of the curve, column by column (exact numbers). */
function assertSelectivePoint(r: Readout, c: Curve, k: number): void {
  assert.equal(r.index, k, 'the point shown');
  const s = (v: number | null | undefined): string => (v === null || v === undefined ? 'null' : String(v));
  assert.equal(r.values.threshold, s(c.extra!.threshold![k]), 'threshold');
  assert.equal(r.values.coverage, s(c.xs[k]), 'coverage');
  assert.equal(r.values.selective_risk, s(c.ys[k]), 'selective risk');
  for (const [key, col] of [
    ['accepted', 'accepted'],
    ['balanced_error', 'risk_balanced'],
    ['worst_error', 'risk_worst'],
    ['ece_accepted', 'ece_accepted'],
    ['error_group.head', 'error_group.head'],
    ['error_group.tail', 'error_group.tail'],
  ]) {
    assert.equal(r.values[key!], s(c.extra![col!]![k]), key);
  }
}

describe('Threshold explorer and user inspector (code-server + Chromium)', { timeout: 900_000 }, () => {
  before(async () => {
    ws = copyExamples();
    ({ server, wb } = await startWorkbench(ws));
    page = wb.page;
  });

  after(() => closeWorkbench(server, wb));

  let r: Results;
  let frame: Frame;

  it("the slider and the number box move the point; the readout is the curve's stored point", async () => {
    r = await evaluateFromExplorer('cifar100-lt-like', 'logreg.csv');
    frame = await reportFrame(page, /^logreg\.csv$/);
    await openTab(frame, 'selective');
    const c = r.curves.riskCoverage!;
    const th = c.extra!.threshold as number[];
    await frame.locator('.explorer[data-explorer="selective"] .explorer-slider').waitFor({ timeout: 30_000 });
    // at first: the evaluated point (targetCoverage 0.7)
    const first = await readout(frame, 'selective');
    assert.equal(first.values.coverage, String(r.metrics.coverage!.value));
    assertSelectivePoint(first, c, first.index);
    // keyboard: five points to a lower threshold
    const slider = frame.locator('.explorer[data-explorer="selective"] .explorer-slider');
    await slider.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft');
    assertSelectivePoint(await readout(frame, 'selective'), c, first.index + 5);
    // mouse: a click at a quarter of the slider's width
    const box = (await slider.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.25, box.y + box.height / 2);
    const clicked = await readout(frame, 'selective');
    assert.notEqual(clicked.index, first.index + 5, 'the click moved the point');
    assertSelectivePoint(clicked, c, clicked.index);
    assert.equal(Number(clicked.slider), th[clicked.index], 'the thumb sits on the stored point');
    // number box: threshold 0.5 → the smallest stored threshold ≥ 0.5
    const field = frame.locator('.explorer[data-explorer="selective"] vscode-textfield.explorer-value input').first();
    await field.fill('0.5');
    await field.press('Enter');
    assertSelectivePoint(await readout(frame, 'selective'), c, pointAtThreshold(th, 0.5));
    // coverage mode: coverage 0.9 → the first point that reaches it
    await frame.locator('.explorer[data-explorer="selective"] .explorer-mode[data-mode="coverage"]').click();
    await field.fill('0.9');
    await field.press('Enter');
    const k = c.xs.findIndex((x) => x >= 0.9 * (1 - 1e-12));
    assertSelectivePoint(await readout(frame, 'selective'), c, k);
    await frame.locator('.explorer[data-explorer="selective"] .explorer-mode[data-mode="threshold"]').click();
    await shootBothThemes('threshold-explorer', frame, '.explorer[data-explorer="selective"]');
    // the reliability diagram (Calibration tab) marks the same point's threshold
    await openTab(frame, 'calibration');
    await frame.waitForFunction(
      () => [...document.querySelectorAll<HTMLCanvasElement>('#chart-reliability canvas')].some((c) => c.width > 0),
      undefined,
      { timeout: 30_000 },
    );
    await frame.evaluate(() => document.getElementById('chart-reliability')?.scrollIntoView({ block: 'start' }));
    await sleep(500);
    await screenshot(page, join(SHOTS, 'threshold-explorer-reliability-light.png'));
    await openTab(frame, 'selective');
  });

  it('"Use this operating point" writes acceptThreshold into eval-lens.json and the report re-renders', async () => {
    const cfgFile = join(ws, 'cifar100-lt-like/eval-lens.json');
    const before = JSON.parse(readFileSync(cfgFile, 'utf8')) as Record<string, unknown>;
    const resultsFile = join(ws, 'cifar100-lt-like/logreg.eval.json');
    const mtime = statSync(resultsFile).mtimeMs;
    const c = r.curves.riskCoverage!;
    const k = (await readout(frame, 'selective')).index;
    const t = c.extra!.threshold![k]!;
    await frame.locator('.explorer[data-explorer="selective"] .explorer-use').click();
    // the config: acceptThreshold set to the point's threshold, targetCoverage gone, the rest kept
    const end = Date.now() + 60_000;
    let cfg = before;
    while (Date.now() < end) {
      cfg = JSON.parse(readFileSync(cfgFile, 'utf8')) as Record<string, unknown>;
      if (cfg.acceptThreshold !== undefined) break;
      await sleep(250);
    }
    const expected: Record<string, unknown> = { ...before, acceptThreshold: t };
    delete expected.targetCoverage;
    assert.deepEqual(cfg, expected);
    // evaluated again with it: the metrics are exactly the chosen point's
    while (statSync(resultsFile).mtimeMs === mtime) await sleep(250);
    const again = JSON.parse(await waitForFile(resultsFile)) as Results;
    assert.equal(again.config.acceptThreshold, t);
    assert.equal(again.metrics.coverage!.value, c.xs[k]);
    assert.equal(again.metrics.selective_risk!.value, c.ys[k]);
    // the report re-rendered: the coverage card carries the new value
    const f = await reportFrame(page, /^logreg\.csv$/);
    await f.waitForFunction(
      (v) => document.querySelector<HTMLElement>('.card[data-metric="coverage"]')?.dataset.value === v,
      String(c.xs[k]),
      { timeout: 60_000 },
    );
    r = again;
    frame = f;
  });

  it('importance-weighted PR: the slider reads weighted precision, recall and F1 from the PR curve', async () => {
    const res = await evaluateFromExplorer('iw-breast-cancer', 'gaussian_nb.csv');
    const f = await reportFrame(page, /^gaussian_nb\.csv$/);
    await openTab(f, 'importance');
    const slider = f.locator('.explorer[data-explorer="importance"] .explorer-slider');
    await slider.waitFor({ timeout: 30_000 });
    const pr = res.curves.pr!;
    const first = await readout(f, 'importance');
    // at first: the configured threshold's point, equal to the metrics
    assert.equal(first.values.precision, String(res.metrics.precision!.value));
    assert.equal(first.values.recall, String(res.metrics.recall!.value));
    await slider.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    const moved = await readout(f, 'importance');
    assert.notEqual(moved.index, first.index);
    // explorer point i is curve point i + 1 (the curve starts at recall 0, precision 1)
    const p = moved.index + 1;
    assert.equal(moved.values.threshold, String(pr.extra!.threshold![p]));
    assert.equal(moved.values.precision, String(pr.ys[p]));
    assert.equal(moved.values.recall, String(pr.xs[p]));
    assert.equal(moved.values.f1, String(pr.extra!.f1![p]));
    await shootBothThemes('threshold-explorer-pr', f, '.explorer[data-explorer="importance"]');
  });

  it("the user inspector shows a user's hits, equal to a direct count from the JSONL", async () => {
    const res = await evaluateFromExplorer('ranking-debian-deps', 'cooccurrence.jsonl');
    assert.equal(res.task, 'ranking');
    const f = await reportFrame(page, /^cooccurrence\.jsonl$/);
    await openTab(f, 'ranking');
    const lines = readFileSync(join(ws, 'ranking-debian-deps/cooccurrence.jsonl'), 'utf8').trim().split('\n');
    // a user with several hits, found in the file itself
    const rows = lines.map((l) => JSON.parse(l) as { user: string; items: string[]; relevant: string[] });
    const pick = rows.find((u) => u.items.slice(0, 20).filter((i) => u.relevant.includes(i)).length >= 2)!;
    const hits = pick.items.slice(0, 20).filter((i) => pick.relevant.includes(i));
    const search = f.locator('.user-inspector .user-search');
    await search.waitFor({ timeout: 30_000 });
    await search.fill(pick.user);
    await search.press('Enter');
    const view = f.locator(`.user-view[data-user="${pick.user}"]`);
    await view.waitFor({ timeout: 60_000 });
    const shown = await f.evaluate(() => ({
      hits: [...document.querySelectorAll<HTMLElement>('.user-items tr[data-hit="true"]')].map((t) => t.dataset.item),
      items: document.querySelectorAll('.user-items tbody tr').length,
      missed: [...document.querySelectorAll<HTMLElement>('.user-missed tbody tr')].map((t) => t.dataset.item),
      meta: [...document.querySelectorAll<HTMLElement>('.user-items tbody tr')].map((t) => [
        t.dataset.item,
        [...t.querySelectorAll('td.meta')].map((d) => d.textContent),
      ]),
      recall: document.querySelector<HTMLElement>('.user-metrics tr[data-metric="recall@20"]')?.dataset.value,
    }));
    assert.deepEqual(shown.hits, hits);
    assert.equal(shown.items, 20);
    assert.deepEqual(new Set(shown.missed), new Set(pick.relevant.filter((i) => !pick.items.slice(0, 20).includes(i))));
    assert.equal(Number(shown.recall), hits.length / pick.relevant.length);
    // the description column of items.csv beside the items (the loader's own test checks every cell)
    const desc = new Map(
      readFileSync(join(ws, 'ranking-debian-deps/items.csv'), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .filter((l) => !l.includes('"'))
        .map((l) => {
          const c = l.split(',');
          return [c[0]!, c[3]!] as const;
        }),
    );
    let checked = 0;
    for (const [item, cells] of shown.meta as [string, string[]][]) {
      if (!desc.has(item)) continue;
      assert.equal(cells[2], desc.get(item), item);
      checked++;
    }
    assert.ok(checked >= 5, `${checked} descriptions checked`);
    await shootBothThemes('user-inspector', f, '.user-inspector');
  });

  after(() => {
    if (process.env.EVAL_LENS_README_SHOTS !== '1') return;
    mkdirSync(README_SHOTS, { recursive: true });
    for (const f of [
      'threshold-explorer-light.png',
      'threshold-explorer-dark.png',
      'user-inspector-light.png',
      'user-inspector-dark.png',
    ])
      copyFileSync(join(SHOTS, f), join(README_SHOTS, f));
  });
});
