/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
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
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import type { CompareResults } from '../../src/core/compare/types';
import type { Results } from '../../src/core/results/types';
import { formatCi, formatNumber } from '../../src/shared/format';
import { copyExamples, root, sleep, type CodeServer } from '../../scripts/vscode/codeServer.mjs';
import { LONG_CLASS_NAME, writeUiFixtures } from './fixtures';
import {
  acceptQuickPick,
  clickExplorerRow,
  clickMenuItem,
  contextMenu,
  DARK,
  expandFolder,
  explorerRow,
  HC,
  LIGHT,
  closeWorkbench,
  evalLensActivity,
  openMenuWith,
  startWorkbench,
  reportCards,
  reportFrame,
  revealExplorerRow,
  runCommand,
  screenshot,
  setTheme,
  waitForFile,
  type Workbench,
  quickOpenFile,
} from './workbench';

const SHOTS = join(root, 'test-artifacts/screenshots');
const README_SHOTS = join(root, 'media/screenshots');
let server: CodeServer;
let wb: Workbench;
let page: Page;
let ws: string;

/**
 * Screenshots in the light and dark themes (and high contrast with `hc`), ending in the light
 * theme; `before` runs before each shot (scrolling the part to show into view).
 */
async function shootBothThemes(
  name: string,
  frame: Frame,
  opts: { hc?: boolean; before?: () => Promise<void> } = {},
): Promise<void> {
  // The report's editor group (the active one: a report opens focused) fills the window, as a
  // person reading it would arrange it; restored afterwards.
  // With one editor group the command is not offered (nothing to maximize over).
  const maximized = await runCommand(page, 'View: Toggle Maximize Editor Group', 2).then(
    () => true,
    async () => {
      await page.keyboard.press('Escape');
      return false;
    },
  );
  await sleep(1000);
  const themes: [string, string][] = [
    [LIGHT, 'light'],
    [DARK, 'dark'],
    ...(opts.hc ? [[HC, 'hc'] as [string, string]] : []),
  ];
  // The pointer on the empty middle of the status bar: off every control whose hover would cover
  // the report (the workbench does not see the pointer leave a tab for the webview's frame).
  await page.mouse.move(720, 889);
  await sleep(300);
  for (const [theme, suffix] of themes) {
    await setTheme(page, theme, frame);
    await opts.before?.();
    await screenshot(page, join(SHOTS, `${name}-${suffix}.png`));
  }
  await setTheme(page, LIGHT, frame);
  if (maximized) await runCommand(page, 'View: Toggle Maximize Editor Group');
}

/**
 * Width, height and the first pixel of a PNG (8-bit RGB or RGBA): the first pixel of the first
 * scanline is stored as is under every PNG filter (its left and upper neighbours count as 0).
 */
function pngFacts(buf: Buffer): { width: number; height: number; firstPixel: number[] } {
  assert.equal(buf.subarray(1, 4).toString('latin1'), 'PNG', 'a PNG file');
  const width = buf.readUInt32BE(16);
  const height = buf.readUInt32BE(20);
  const [depth, colourType] = [buf[24], buf[25]];
  assert.equal(depth, 8, 'bit depth');
  const channels = colourType === 6 ? 4 : colourType === 2 ? 3 : 0;
  assert.ok(channels > 0, `colour type ${colourType}`);
  const idat: Buffer[] = [];
  for (let at = 8; at < buf.length;) {
    const len = buf.readUInt32BE(at);
    if (buf.subarray(at + 4, at + 8).toString('latin1') === 'IDAT') idat.push(buf.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  return { width, height, firstPixel: [...raw.subarray(1, 1 + channels)] };
}

/** Scrolls the report so that the element with `id` is at the top. */
async function scrollTo(frame: Frame, id: string): Promise<void> {
  await frame.evaluate((i) => document.getElementById(i)?.scrollIntoView({ block: 'start' }), id);
  await sleep(300);
}

/** What the confusion grid shows: cell texts fit, labels, captions, data attributes. */
async function confusionFacts(frame: Frame): Promise<{
  cells: number;
  rows: number;
  cols: number;
  overflowing: string[];
  truncated: { text: string; title: string }[];
  captions: { text: string; clipped: boolean; w: number; h: number }[];
  attrs: boolean;
}> {
  return frame.evaluate(() => {
    const grid = document.querySelector('#chart-confusion table.cm-grid')!;
    const cells = [...grid.querySelectorAll<HTMLElement>('td.cm-cell')];
    const labels = [...grid.querySelectorAll<HTMLElement>('.cm-label')];
    const captions = [...grid.querySelectorAll<HTMLElement>('th.cm-axis')].map((th) => {
      const inner = th.querySelector('span') ?? th;
      const r = inner.getBoundingClientRect();
      return {
        text: inner.textContent ?? '',
        clipped: inner.scrollWidth > inner.clientWidth + 1 || inner.scrollHeight > inner.clientHeight + 1,
        w: r.width,
        h: r.height,
      };
    });
    return {
      cells: cells.length,
      rows: grid.querySelectorAll('th.cm-row').length,
      cols: grid.querySelectorAll('th.cm-col').length,
      overflowing: cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent ?? ''),
      truncated: labels
        .filter((l) => (l.textContent ?? '').endsWith('…'))
        .map((l) => ({ text: l.textContent ?? '', title: l.title })),
      captions,
      attrs: cells.every(
        (c) =>
          c.dataset.true !== undefined &&
          c.dataset.pred !== undefined &&
          c.dataset.count !== undefined &&
          c.getAttribute('role') === 'gridcell',
      ),
    };
  });
}

/** Switches the grid's cell values (counts / true / pred) and returns the shown numbers. */
async function confusionValues(frame: Frame, norm: string): Promise<(number | null)[][]> {
  return frame.evaluate((n) => {
    const select = document.querySelector('#chart-confusion vscode-single-select.cm-norm') as unknown as HTMLElement & {
      value: string;
    };
    select.value = n;
    select.dispatchEvent(new Event('change'));
    const rows = [...document.querySelectorAll('#chart-confusion table.cm-grid tbody tr')];
    return rows.map((r) =>
      [...r.querySelectorAll<HTMLElement>('td.cm-cell')].map((c) =>
        c.textContent === '—' ? null : Number((c.textContent ?? '').replace(/,/g, '')),
      ),
    );
  }, norm);
}

/** Every card's carried value equals the results file's; its text is that value formatted. */
async function assertCardsMatch(frame: Frame, r: Results): Promise<number> {
  const cards = await reportCards(frame);
  const ours = cards.filter((c) => c.key in r.metrics);
  assert.ok(
    ours.filter((c) => c.headline).length >= 3,
    `headline cards: ${cards
      .filter((c) => c.headline)
      .map((c) => c.key)
      .join(', ')}`,
  );
  for (const c of ours) {
    const m = r.metrics[c.key]!;
    assert.equal(c.value, m.value === null ? 'null' : String(m.value), `card ${c.key} carries the file's value`);
    assert.equal(c.text, formatNumber(m.value, c.key), `card ${c.key} shows the file's value`);
  }
  return ours.length;
}

/** Collapses an explorer folder (no-op when closed). */
async function collapseFolder(name: string): Promise<void> {
  const row = explorerRow(page, name);
  await revealExplorerRow(page, row);
  if ((await row.getAttribute('aria-expanded')) === 'true') await row.click();
  await page.waitForFunction(
    (n) =>
      document
        .querySelector(`.explorer-folders-view .monaco-list-row[aria-label="${n}"]`)
        ?.getAttribute('aria-expanded') !== 'true',
    name,
  );
}

/** Closes every editor (the next report opens in a single group, as the first did). */
async function closeReports(): Promise<void> {
  await runCommand(page, 'View: Close All Editors');
  await sleep(500);
}

/** Evaluates an explorer file through its context menu, as a person does. */
async function evaluateFromExplorer(folder: string, file: string): Promise<void> {
  await expandFolder(page, folder);
  await openMenuWith(page, explorerRow(page, file), 'Evaluate Prediction File…');
  await clickMenuItem(page, 'Evaluate Prediction File…');
}

describe('Eval Lens in the browser (code-server + Chromium)', { timeout: 900_000 }, () => {
  before(async () => {
    ws = copyExamples();
    writeUiFixtures(ws);
    mkdirSync(join(ws, 'json-kinds'), { recursive: true });
    writeFileSync(join(ws, 'json-kinds/metrics.json'), '{"accuracy": 0.91, "f1": 0.88}\n');
    writeFileSync(
      join(ws, 'json-kinds/preds.json'),
      JSON.stringify([
        { label: 'a', pred: 'a' },
        { label: 'b', pred: 'a' },
        { label: 'b', pred: 'b' },
      ]) + '\n',
    );
    ({ server, wb } = await startWorkbench(ws));
    page = wb.page;
  });

  after(() => closeWorkbench(server, wb));

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
    // The headline accuracy is the README's test-row accuracy, 0.74 (the file's split column).
    const acc = (await reportCards(frame)).find((c) => c.key === 'accuracy' && c.headline);
    assert.equal(acc?.value, '0.74');
    // Charts are drawn (canvas with pixels) in the first tab.
    await frame.waitForFunction(
      () => [...document.querySelectorAll('canvas')].some((c) => c.width > 0 && c.height > 0),
      undefined,
      { timeout: 30_000 },
    );
    await shootBothThemes('report-classification', frame, { hc: true });
  });

  it('the Calibration tab names the basic bootstrap interval beside each calibration error and flags an interval that excludes its value', async () => {
    const frame = await reportFrame(page, /^logreg\.csv$/);
    const r = JSON.parse(readFileSync(join(ws, 'digits-lt/logreg.eval.json'), 'utf8')) as Results;
    await frame.locator('vscode-tab-header[data-tab="calibration"]').click();
    await frame.waitForFunction(
      () =>
        !!document.querySelector('vscode-tab-panel[data-tab="calibration"]')?.checkVisibility() &&
        document.querySelectorAll('vscode-tab-panel[data-tab="calibration"] .card[data-metric]').length >= 3,
      undefined,
      { timeout: 30_000 },
    );
    const cards = await frame.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.card[data-metric]')].map((c) => ({
        key: c.dataset.metric ?? '',
        ci: c.querySelector('.card-ci')?.textContent ?? '',
        caveat: c.querySelector('.card-caveat')?.textContent ?? '',
        title: c.title,
      })),
    );
    for (const key of ['ece', 'mce', 'ece_adaptive']) {
      const m = r.metrics[key]!;
      assert.equal(m.ci_method, 'basic', key);
      const c = cards.find((x) => x.key === key)!;
      assert.equal(c.ci, `${formatCi(m.ci, key)} basic bootstrap`, key);
      assert.match(c.title, /basic bootstrap.*Davison & Hinkley 1997/, key);
    }
    // Every card, whatever its key: the caveat is there exactly when the interval misses the value.
    for (const c of cards) {
      const m = r.metrics[c.key];
      if (!m?.ci || m.value === null) continue;
      const misses = m.value < m.ci[0] || m.value > m.ci[1];
      assert.equal(c.caveat === 'Interval excludes the point (see note)', misses, `${c.key}: ${c.caveat}`);
    }
    await screenshot(page, join(SHOTS, 'report-calibration-intervals.png'));
  });

  it('the shot-group band labels and the AVG/MIN/MAX labels cover no data point', async () => {
    if (!existsSync(join(ws, 'digits-lt/logreg.eval.json'))) {
      await evaluateFromExplorer('digits-lt', 'logreg.csv');
      await waitForFile(join(ws, 'digits-lt/logreg.eval.json'));
    }
    const frame = await reportFrame(page, /^logreg\.csv$/);
    const r = JSON.parse(readFileSync(join(ws, 'digits-lt/logreg.eval.json'), 'utf8')) as Results;
    type Facts = {
      labels: { text: string; x: number; y: number; w: number; h: number }[];
      points: [number, number, number, number][];
      area: [number, number, number, number];
    };
    /** The chart `id` on its tab, drawn: where its labels went and its points' boxes. */
    const facts = async (tab: string, id: string): Promise<Facts> => {
      await frame.locator(`vscode-tab-header[data-tab="${tab}"]`).click();
      const fig = frame.locator(`figure[data-chart="${id}"]`);
      await fig.scrollIntoViewIfNeeded();
      const h = await frame
        .waitForFunction(
          (i) => {
            const c = document.querySelector<HTMLCanvasElement>(`figure[data-chart="${i}"] canvas`);
            return c && c.width > 0 && c.dataset.annotations && c.dataset.pointBoxes && c.dataset.plotArea
              ? { labels: c.dataset.annotations, points: c.dataset.pointBoxes, area: c.dataset.plotArea }
              : null;
          },
          id,
          { timeout: 30_000 },
        )
        .catch(async (err: Error) => {
          const seen = await frame.evaluate(
            (i) => ({
              tabs: [...document.querySelectorAll<HTMLElement>('vscode-tab-header')].map((t) => t.dataset.tab),
              charts: [...document.querySelectorAll<HTMLElement>('figure[data-chart]')].map((f) => f.dataset.chart),
              canvas: { ...document.querySelector<HTMLCanvasElement>(`figure[data-chart="${i}"] canvas`)?.dataset },
            }),
            id,
          );
          throw new Error(`${id}: ${err.message}; shown: ${JSON.stringify(seen).slice(0, 1500)}`);
        });
      const raw = (await h.jsonValue()) as Record<keyof Facts, string>;
      await fig.screenshot({ path: join(SHOTS, `report-labels-${id}-light.png`) });
      return { labels: JSON.parse(raw.labels), points: JSON.parse(raw.points), area: JSON.parse(raw.area) };
    };
    const clear = (f: Facts): void => {
      for (const l of f.labels)
        for (const [x, y, w, h] of f.points)
          assert.ok(
            !(l.x < x + w && x < l.x + l.w && l.y < y + h && y < l.y + l.h),
            `"${l.text}" [${l.x}, ${l.y}, ${l.w}, ${l.h}] covers the point [${x}, ${y}, ${w}, ${h}]`,
          );
    };
    // Accuracy against the shift: one point per test distribution, the three lines' labels apart from them.
    const shift = await facts('evolving', 'shift');
    const ys = r.curves.shift!.ys;
    assert.equal(shift.points.length, ys.filter((y) => y !== null).length);
    assert.deepEqual(shift.labels.map((l) => l.text.split(' ')[0]).sort(), ['AVG', 'MAX', 'MIN']);
    clear(shift);
    // Per-class accuracy against train count: the bands' labels above the plot, one point per class with train rows.
    const perClass = await facts(r.families.longtail ? 'longtail' : 'classification', 'perClassVsTrain');
    assert.equal(perClass.points.length, r.tables.perClass!.filter((c) => (c.trainCount ?? 0) > 0).length);
    assert.ok(perClass.labels.length >= 2, JSON.stringify(perClass.labels));
    for (const l of perClass.labels) assert.ok(l.y + l.h <= perClass.area[1], `"${l.text}" above the plot area`);
    clear(perClass);
  });

  it('table headers are whole when there is room; in a narrow panel text wraps between words', async () => {
    const frame = await reportFrame(page, /^logreg\.csv$/);
    await frame.evaluate(() => window.scrollTo(0, 0));
    // The window as the previous test left it (1440 px, explorer open): the report is about 1000 px wide.
    const wide = await frame.evaluate(() => document.documentElement.clientWidth);
    assert.ok(wide >= 900, `report width ${wide}`);
    // Every tab in turn: the header cells of its tables (component tables and plain ones) show whole.
    const cut: { tab: string; text: string; cut: boolean }[] = [];
    const tabs = frame.locator('vscode-tab-header');
    const nTabs = await tabs.count();
    assert.ok(nTabs >= 4, `${nTabs} tabs`);
    for (let i = 0; i < nTabs; i++) {
      const tab = (await tabs.nth(i).textContent())?.trim() ?? '';
      await tabs.nth(i).click();
      await sleep(400);
      cut.push(
        ...(await frame.evaluate((t) => {
          const component = [...document.querySelectorAll<HTMLElement>('vscode-table-header-cell')].map((h) => ({
            h,
            box: h.shadowRoot?.querySelector<HTMLElement>('.wrapper') ?? h,
          }));
          const plain = [...document.querySelectorAll<HTMLElement>('table.plain thead th')].map((h) => ({ h, box: h }));
          return [...component, ...plain]
            .filter(({ h }) => h.getClientRects().length > 0 && h.getBoundingClientRect().width > 0)
            .map(({ h, box }) => ({
              tab: t,
              text: h.textContent?.trim() ?? '',
              cut: box.scrollWidth > box.clientWidth + 1,
            }));
        }, tab)),
      );
    }
    await tabs.nth(0).click();
    assert.ok(cut.length >= 20, `visible header cells: ${cut.map((c) => c.text).join(', ')}`);
    assert.deepEqual(
      cut.filter((c) => c.cut).map((c) => `${c.tab}: ${c.text}`),
      [],
      'header cells cut',
    );
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: 760, height: size.height });
    try {
      await frame.waitForFunction(() => document.documentElement.clientWidth < 500, undefined, { timeout: 10_000 });
      await sleep(500);
      // Prose words (letters, a trailing punctuation mark) drawn on more than one line; `force`
      // breaks words anywhere first, to show that the check sees a word split across lines.
      const measure = (force: boolean) =>
        frame.evaluate((breakAll) => {
          // Through the CSSOM: the webview's content security policy drops a new <style> element.
          if (breakAll) document.body.style.setProperty('word-break', 'break-all');
          const broken: string[] = [];
          let words = 0;
          const sel = 'p, li, dd, figcaption, h1, h3, summary, .card-name, .card-extra, .card-caveat';
          for (const el of document.querySelectorAll<HTMLElement>(sel)) {
            if (el.offsetParent === null) continue;
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              for (const m of (n.textContent ?? '').matchAll(/\S+/g)) {
                if (!/^[A-Za-z][a-z]{2,14}[,.;:)]?$/.test(m[0])) continue;
                words++;
                const r = document.createRange();
                r.setStart(n, m.index);
                r.setEnd(n, m.index + m[0].length);
                const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
                if (tops.size > 1) broken.push(m[0]);
              }
            }
          }
          const doc = document.documentElement;
          document.body.style.removeProperty('word-break');
          // The outermost elements that reach past the right edge (what makes the page scroll sideways).
          // (No named functions in here: the bundler's name helper does not exist in the page.)
          const edge = doc.clientWidth + 1;
          const wide: string[] = [];
          for (const e of document.body.querySelectorAll('*')) {
            if (wide.length >= 8 || e.getClientRects().length === 0) continue;
            const r = e.getBoundingClientRect();
            const p = e.parentElement?.getBoundingClientRect();
            // Inside a box that scrolls or clips sideways it does not widen the page.
            let clipped = false;
            for (let a = e.parentElement; a && !clipped; a = a.parentElement)
              clipped = getComputedStyle(a).overflowX !== 'visible';
            if (r.right > edge && !(p && p.right > edge) && !clipped)
              wide.push(`${e.tagName.toLowerCase()}.${[...e.classList].join('.')} (${Math.round(r.width)} px)`);
          }
          return { width: doc.clientWidth, words, broken, overflow: doc.scrollWidth - doc.clientWidth, wide };
        }, force);
      const forced = await measure(true);
      assert.ok(forced.broken.length > 0, `with words broken anywhere the check finds ${forced.broken.length}`);
      const facts = await measure(false);
      // The screenshot shows the family tabs (wrapped onto two rows) and the first charts.
      await frame.evaluate(() => document.querySelector('vscode-tabs')?.scrollIntoView({ block: 'start' }));
      await sleep(300);
      await screenshot(page, join(SHOTS, 'report-narrow-light.png'));
      assert.deepEqual(facts.broken, [], `words broken across lines at ${facts.width} px`);
      assert.ok(facts.overflow <= 1, `the page scrolls sideways by ${facts.overflow} px: ${facts.wide.join(', ')}`);
      assert.ok(facts.words >= 40, `${facts.words} prose words checked at ${facts.width} px`);
    } finally {
      await page.setViewportSize(size);
    }
  });

  it('Save PNG in the dark theme writes <report>-<chart>.png at 960 × 540 (twice the density) on white', async () => {
    const frame = await reportFrame(page, /^logreg\.csv$/);
    const target = join(ws, 'digits-lt', 'logreg-per-class-accuracy.png');
    await setTheme(page, DARK, frame);
    try {
      const button = frame.locator('figure[data-chart="perClassAccuracy"] vscode-button[data-act="png"]');
      await button.scrollIntoViewIfNeeded();
      await button.click();
      // The save dialog (code-server's path input) proposes <report folder>/<name>: Enter accepts it.
      const input = page.locator('.quick-input-widget input').first();
      await input.waitFor({ timeout: 20_000 });
      await page.waitForFunction(
        () =>
          /logreg-per-class-accuracy\.png$/.test(
            document.querySelector<HTMLInputElement>('.quick-input-widget input')?.value ?? '',
          ),
        undefined,
        { timeout: 10_000 },
      );
      await page.keyboard.press('Enter');
      const end = Date.now() + 30_000;
      while (!(existsSync(target) && statSync(target).size > 0) && Date.now() < end) await sleep(250);
      await sleep(300);
      copyFileSync(target, join(SHOTS, 'saved-png-per-class-accuracy.png'));
      const png = pngFacts(readFileSync(target));
      assert.deepEqual([png.width, png.height], [1920, 1080]);
      assert.deepEqual(png.firstPixel.slice(0, 3), [255, 255, 255], 'the top-left pixel is white');
      if (png.firstPixel.length === 4) assert.equal(png.firstPixel[3], 255, 'opaque');
    } finally {
      await setTheme(page, LIGHT, frame);
    }
  });

  it('the ranking report shows the values of its results file (light and dark)', async () => {
    await evaluateFromExplorer('ranking-debian-deps', 'popularity.jsonl');
    await waitForFile(join(ws, 'ranking-debian-deps/popularity.eval.json'));
    const frame = await reportFrame(page, /^popularity\.jsonl$/);
    const r = JSON.parse(readFileSync(join(ws, 'ranking-debian-deps/popularity.eval.json'), 'utf8')) as Results;
    assert.equal(r.task, 'ranking');
    await assertCardsMatch(frame, r);
    // Few headline cards; the metric@K values are in one metric x K table, with the file's values.
    const head = (await reportCards(frame)).filter((c) => c.headline).map((c) => c.key);
    assert.deepEqual(head, ['ndcg@10', 'recall@10', 'map@10', 'mrr', 'users_evaluated']);
    const table = await frame.evaluate(() =>
      [...document.querySelectorAll('[data-table="rankingByK"] tr')].map((tr) =>
        [...tr.querySelectorAll('th, td')].map((c) => c.textContent?.trim() ?? ''),
      ),
    );
    assert.deepEqual(table[0], ['metric', 'ranking', '@5', '@10', '@20']);
    const recall = table.find((row) => row[0] === 'recall' && row[1] === 'run')!;
    assert.ok(recall[3]!.startsWith(formatNumber(r.metrics['recall@10']!.value)), recall.join(' | '));
    const users = (await reportCards(frame)).find((c) => c.key === 'users_evaluated' && c.headline)!;
    assert.match(users.text, /^\d{1,3}(,\d{3})*$/, 'users print as an integer');
    // Coverage and recall by item category: one row per category of the results file, in its
    // order, values formatted like the other tables; an undefined recall is a dash with its reason on hover.
    const breakdown = r.tables.categoryBreakdown!;
    assert.ok(breakdown.rows.length > 1, 'the example has item categories');
    const cats = await frame.evaluate(() =>
      [...document.querySelectorAll('[data-table="categoryBreakdown"] tr')].map((tr) =>
        [...tr.querySelectorAll('th, td, vscode-table-header-cell, vscode-table-cell')].map((c) => ({
          text: c.textContent?.trim() ?? '',
          title: c.getAttribute('title') ?? '',
        })),
      ),
    );
    assert.deepEqual(
      cats[0]!.map((c) => c.text),
      [
        'category',
        'catalogue items',
        'recommended',
        'coverage',
        'share of recommendations',
        'recall',
        'hits',
        'relevant',
      ],
    );
    assert.deepEqual(
      cats.slice(1).map((row) => row[0]!.text),
      breakdown.rows.map((b) => b.category),
    );
    breakdown.rows.forEach((b, i) => {
      const row = cats[i + 1]!;
      assert.equal(row[3]!.text, formatNumber(b.coverage), `coverage of ${b.category}`);
      assert.equal(row[5]!.text, b.recall === null ? '—' : formatNumber(b.recall), `recall of ${b.category}`);
      if (b.recall === null) assert.match(row[5]!.title, /no evaluated user has a relevant item/);
    });
    await frame.waitForSelector('[data-chart="categoryBreakdown.chart"] canvas');
    await shootBothThemes('report-ranking', frame, { hc: true });
  });

  for (const [n, folder, file, title] of [
    [3, 'ui-fixtures', 'three-classes.csv', /^three-classes\.csv$/],
    [20, 'ui-fixtures', 'twenty-classes.csv', /^twenty-classes\.csv$/],
    [100, 'cifar100-lt-like', 'mlp.csv', /^mlp\.csv$/],
  ] as const) {
    it(`confusion matrix of ${n} classes: cells fit their counts, labels cut with the full name on hover, normalisations, keyboard (light, dark, high contrast)`, async () => {
      await page.keyboard.press('Escape');
      await closeReports();
      await evaluateFromExplorer(folder, file);
      const out = join(ws, folder, file.replace(/\.csv$/, '.eval.json'));
      await waitForFile(out);
      const frame = await reportFrame(page, title);
      await frame.waitForSelector('#chart-confusion td.cm-cell', { timeout: 30_000 });
      const r = JSON.parse(readFileSync(out, 'utf8')) as Results;
      const cm = r.tables.confusion!;
      const f = await confusionFacts(frame);
      const shown = Math.min(n, 20);
      assert.equal(f.rows, shown);
      assert.equal(f.cols, shown);
      assert.equal(f.cells, shown * shown);
      assert.ok(f.attrs, 'every cell carries data-true, data-pred, data-count and role gridcell');
      assert.deepEqual(f.overflowing, [], 'every cell text fits its cell');
      for (const c of f.captions) assert.ok(!c.clipped && c.w > 0 && c.h > 0, `caption "${c.text}" shown whole`);
      if (n === 20)
        assert.deepEqual(
          f.truncated.map((t) => t.title),
          [LONG_CLASS_NAME, LONG_CLASS_NAME],
          'the 60-character name is cut in both axes, whole in the tooltip',
        );
      if (n === 3) {
        // Five-digit counts, as in the file.
        const counts = await confusionValues(frame, 'counts');
        assert.deepEqual(counts, cm.matrix);
        assert.ok(cm.matrix.flat().some((v) => v >= 10000));
      }
      if (n <= 20) {
        // Shares of the true class: rows sum to 1 (2 decimals each); of the predicted class: columns.
        const rows = await confusionValues(frame, 'true');
        rows.forEach((row, i) =>
          assert.ok(
            Math.abs(row.reduce<number>((a, b) => a + (b ?? 0), 0) - 1) <= 0.005 * shown + 1e-9,
            `row ${i} sums to 1`,
          ),
        );
        const cols = await confusionValues(frame, 'pred');
        for (let j = 0; j < shown; j++)
          assert.ok(
            Math.abs(cols.reduce((a, row) => a + (row[j] ?? 0), 0) - 1) <= 0.005 * shown + 1e-9,
            `column ${j} sums to 1`,
          );
        await confusionValues(frame, 'counts');
      } else {
        // Many classes: the largest confusions are listed.
        assert.ok((await frame.locator('#chart-confusion li.cm-top').count()) >= 10);
      }
      // Keyboard: one tab stop, arrows move, Enter is a click (what drill-down handlers listen to).
      const activated = await frame.evaluate(async () => {
        const first = document.querySelector<HTMLElement>('#chart-confusion td.cm-cell[tabindex="0"]')!;
        let clicked = '';
        document.querySelector('#chart-confusion table.cm-grid')!.addEventListener('click', (e) => {
          const td = (e.target as HTMLElement).closest<HTMLElement>('td.cm-cell');
          if (td) clicked = `${td.dataset.row},${td.dataset.col}`;
        });
        first.focus();
        first.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
        const now = document.activeElement as HTMLElement;
        now.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
        (document.activeElement as HTMLElement).dispatchEvent(
          new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }),
        );
        return clicked;
      });
      assert.equal(activated, '1,1');
      const name = `confusion-${n}-classes`;
      await shootBothThemes(name, frame, { hc: true, before: () => scrollTo(frame, 'chart-confusion') });
      await closeReports();
      // Later tests find files by name in the explorer (cifar100-lt-like has a logreg.csv too).
      await collapseFolder(folder);
    });
  }

  it('explorer menu: Evaluate on a JSON of rows, not on another tool\u2019s metrics.json nor on a config', async () => {
    await page.keyboard.press('Escape');
    await expandFolder(page, 'json-kinds');
    await openMenuWith(page, explorerRow(page, 'preds.json'), 'Evaluate Prediction File…', 60_000);
    await page.keyboard.press('Escape');
    const metrics = await contextMenu(page, explorerRow(page, 'metrics.json'));
    await page.keyboard.press('Escape');
    assert.ok(!metrics.includes('Evaluate Prediction File…'), `metrics.json menu: ${metrics.join(' | ')}`);
    await expandFolder(page, 'cifar100-lt-like');
    for (const f of ['train_counts.json', 'eval-lens.json']) {
      const labels = await contextMenu(page, explorerRow(page, f));
      await page.keyboard.press('Escape');
      assert.ok(!labels.includes('Evaluate Prediction File…'), `${f} menu: ${labels.join(' | ')}`);
    }
    await collapseFolder('cifar100-lt-like');
    await collapseFolder('json-kinds');
  });

  it("Compare Runs… on two selected files writes a comparison and shows both runs' accuracy", async () => {
    await page.keyboard.press('Escape');
    await expandFolder(page, 'digits-lt');
    await clickExplorerRow(page, 'logreg.csv');
    await clickExplorerRow(page, 'svc_rbf.csv', { add: true });
    await openMenuWith(page, explorerRow(page, 'svc_rbf.csv'), 'Compare Runs…');
    await clickMenuItem(page, 'Compare Runs…');
    await screenshot(page, join(SHOTS, 'compare-baseline-pick.png'));
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
    const cells = await frame.evaluate(() =>
      [...document.querySelectorAll('vscode-table-cell, td, th')].map((e) => e.textContent?.trim() ?? ''),
    );
    for (const run of c.runs) {
      const acc = c.table[run]?.accuracy ?? null;
      assert.ok(
        cells.includes(formatNumber(acc, 'accuracy')),
        `${run}: accuracy ${formatNumber(acc, 'accuracy')} shown`,
      );
    }
    // the test rows of the split column: logreg 111/150, svc_rbf 122/150
    assert.deepEqual(new Set(c.runs.map((run) => c.table[run]?.accuracy)), new Set([111 / 150, 122 / 150]));
    await shootBothThemes('report-compare', frame);
  });

  it('Compare Runs… on three runs with a tie: both tied runs best, the last unmarked (light and dark)', async () => {
    await page.keyboard.press('Escape');
    await expandFolder(page, 'digits-lt');
    // logreg.csv and logreg_logits.csv are the same model (probabilities vs logits): equal accuracy.
    await clickExplorerRow(page, 'logreg.csv');
    await clickExplorerRow(page, 'logreg_logits.csv', { add: true });
    await clickExplorerRow(page, 'knn.csv', { add: true });
    await openMenuWith(page, explorerRow(page, 'knn.csv'), 'Compare Runs…');
    await clickMenuItem(page, 'Compare Runs…');
    await acceptQuickPick(page);
    const path = join(ws, 'digits-lt', 'knn-vs-logreg-vs-logreg_logits.compare.json');
    const c = JSON.parse(await waitForFile(path, 180_000)) as CompareResults;
    const name = (run: string): string => run.replace(/^.*\//, '');
    const accMarks = Object.fromEntries(Object.entries(c.marks.accuracy ?? {}).map(([run, p]) => [name(run), p]));
    assert.deepEqual(accMarks, { 'logreg.csv': 1, 'logreg_logits.csv': 1 });
    const frame = await reportFrame(page, /^Comparison of 3 runs$/);
    // The accuracy row (test rows): 0.7400 twice (both bold), 0.7133 unmarked.
    const row = await frame.evaluate(() => {
      const rows = [...document.querySelectorAll('vscode-table-row, tr')];
      // Cells may carry significance stars after the value.
      const r = rows.find((x) => {
        const t = [...x.children].map((c) => c.textContent?.trim() ?? '');
        return t.filter((v) => /^0\.7400\**$/.test(v)).length === 2 && t.some((v) => /^0\.7133\**$/.test(v));
      });
      return r
        ? [...r.children].map((c) => ({ text: c.textContent?.trim() ?? '', cls: c.getAttribute('class') ?? '' }))
        : null;
    });
    assert.ok(row, 'the accuracy row');
    assert.deepEqual(
      row.filter((c) => /place-1/.test(c.cls)).map((c) => c.text.replace(/\*+$/, '')),
      ['0.7400', '0.7400'],
    );
    assert.ok(!row.some((c) => c.text.startsWith('0.7133') && /place-/.test(c.cls)), 'the last run is not marked');
    // The headline card names both tied runs, not one of them.
    const accCard = await frame.evaluate(
      () => document.querySelector<HTMLElement>('.headline .card[data-metric="accuracy"]')?.textContent ?? '',
    );
    assert.match(accCard, /best: logreg, logreg_logits \(tied\)/, accCard);
    await shootBothThemes('report-compare-tie', frame);
  });

  it('the side panel lists the results files with their headline metric', async () => {
    await evalLensActivity(page).click();
    const row = page.locator('.monaco-list-row', { hasText: 'logreg.eval.json' }).first();
    await row.waitFor({ timeout: 30_000 });
    await page.locator('.monaco-list-row', { hasText: 'popularity.eval.json' }).first().waitFor({ timeout: 30_000 });
    const text = await row.innerText();
    // digits-lt's logreg: accuracy on its test rows, as the results file holds it
    const r = JSON.parse(readFileSync(join(ws, 'digits-lt/logreg.eval.json'), 'utf8')) as Results;
    assert.ok(text.includes(r.metrics.accuracy!.value!.toFixed(4)), `row: ${text}`);
    await screenshot(page, join(SHOTS, 'side-panel-light.png'));
  });

  it('Compare With… on a classification result offers classification runs only and says how many files it leaves out', async () => {
    const row = page.locator('.monaco-list-row', { hasText: 'logreg.eval.json' }).first();
    // the side panel may be open already (the activity's icon toggles it)
    if (!(await row.isVisible())) await evalLensActivity(page).click();
    await row.waitFor({ timeout: 30_000 });
    await row.hover();
    await row.locator('.action-label[aria-label="Compare With…"]').click();
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    const list = page.locator('.quick-input-list');
    const rows = list.locator('.monaco-list-row');
    // the prediction files' heading counts the files of other tasks it leaves out (ranking, importance-weighted)
    const heading = list.getByText(/^Prediction files \(evaluated first; \d+ of other tasks not shown\)$/);
    await heading.waitFor({ timeout: 30_000 });
    await screenshot(page, join(SHOTS, 'compare-with-pick.png'));
    await input.fill('svc_rbf');
    await rows.filter({ hasText: 'svc_rbf.csv' }).first().waitFor({ timeout: 10_000 });
    // a ranking run is not offered, neither its prediction file nor its results
    await input.fill('popularity');
    await page.waitForFunction(
      () => !/popularity/.test(document.querySelector('.quick-input-list')?.textContent ?? ''),
      undefined,
      { timeout: 10_000 },
    );
    // a JSON that holds no rows (the train counts of an example) is no run
    await input.fill('train_counts');
    await page.waitForFunction(
      () => !/train_counts/.test(document.querySelector('.quick-input-list')?.textContent ?? ''),
      undefined,
      { timeout: 10_000 },
    );
    // the importance-weighted file is not offered either; another classification file is
    await input.fill('knn.csv');
    await rows.filter({ hasText: 'knn.csv' }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
  });

  it('CodeLens on the results file shows its headline metrics and Open Report', async () => {
    await quickOpenFile(page, 'digits-lt/logreg.eval.json', 'logreg.eval.json');
    const lens = page.locator('.codelens-decoration');
    await lens.first().waitFor({ timeout: 60_000 });
    const text = (await lens.allInnerTexts()).join(' | ');
    assert.match(text, /Open Report/, text);
    assert.match(text, new RegExp(`accuracy[^|]*${formatNumber(0.74, 'accuracy').replace('.', '\\.')}`), text);
    await screenshot(page, join(SHOTS, 'codelens-light.png'));
  });

  after(() => {
    if (process.env.EVAL_LENS_README_SHOTS !== '1') return;
    mkdirSync(README_SHOTS, { recursive: true });
    for (const f of [
      'report-classification-light.png',
      'report-classification-dark.png',
      'report-ranking-light.png',
      'report-ranking-dark.png',
      'report-ranking-hc.png',
      'report-compare-light.png',
      'report-compare-dark.png',
      'report-compare-tie-light.png',
      'report-compare-tie-dark.png',
      'confusion-20-classes-light.png',
      'confusion-20-classes-dark.png',
      'confusion-3-classes-hc.png',
      'confusion-100-classes-dark.png',
    ]) {
      copyFileSync(join(SHOTS, f), join(README_SHOTS, f));
    }
  });
});
