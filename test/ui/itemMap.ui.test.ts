/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * UI test of the item map in a real VS Code (code-server) driven by Debian's Chromium, on a temp
 * copy of examples/: the factor-model example (ranking-factors) is evaluated from the explorer, its
 * report shows the item map (a chart and its table), and a user typed in the map's picker has their
 * top-K items highlighted — as many as K, hits equal to a direct count from the generated top-K
 * lists (the CLI's --write-run) and the held-out items. The user inspector's user is highlighted
 * too. Screenshots, light and dark, go to test-artifacts/screenshots/ (and, with
 * EVAL_LENS_README_SHOTS=1, to media/screenshots/ for the docs). Text-encoder-sized embeddings
 * (384 dimensions, above those whose whole covariance is decomposed) get their map as well.
 *
 * Run: npm run test:ui (this file starts and always stops its own server).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Locator, Page } from 'playwright-core';
import type { Results } from '../../src/core/results/types';
import { validateResults } from '../../src/core/results/validate';
import { npyFloat64 } from '../unit/helpers/factors';
import { copyExamples, root, sleep, type CodeServer } from '../../scripts/vscode/codeServer.mjs';
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

interface Picked {
  user: string;
  top: string[];
  hits: string[];
  /** The user's relevant items not in the top K (relevant \ top-K), from the files. */
  missed: string[];
}

/** A user whose top-K list (from the CLI's own --write-run) holds at least two held-out items. */
function pickUser(k: number, onMap: readonly string[]): Picked {
  const out = join(mkdtempSync(join(tmpdir(), 'eval-lens-itemmap-')), 'run.jsonl');
  const r = spawnSync(
    process.execPath,
    [join(root, 'dist/cli.js'), 'evaluate', 'ranking-factors/U.npy', '--write-run', out, '--format', 'json'],
    // The workspace is the working directory: config paths may lead to the sibling example's files.
    { cwd: ws, encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  assert.equal(r.status, 0, r.stderr);
  const relevant = new Map<string, Set<string>>();
  for (const line of readFileSync(join(ws, 'ranking-factors/_relevant.csv'), 'utf8').trim().split('\n').slice(1)) {
    const [u, i] = line.split(',');
    if (!relevant.has(u!)) relevant.set(u!, new Set());
    relevant.get(u!)!.add(i!);
  }
  for (const line of readFileSync(out, 'utf8').trim().split('\n')) {
    const { user, items } = JSON.parse(line) as { user: string; items: string[] };
    const top = items.slice(0, k);
    const hits = top.filter((i) => relevant.get(user)?.has(i));
    const missed = [...(relevant.get(user) ?? [])].filter((i) => !top.includes(i));
    if (top.length === k && hits.length >= 2 && missed.some((i) => onMap.includes(i)))
      return { user, top, hits, missed };
  }
  return assert.fail('no user with two hits and a missed relevant item on the map');
}

async function highlighted(
  frame: Frame,
  user: string,
): Promise<{
  n: number;
  hits: number;
  items: string[];
  hitItems: string[];
  missed: number;
  missedListed: { item: string; onMap: boolean }[];
  legend: { text: string; swatch: string; points: number }[];
}> {
  await frame.waitForFunction(
    (u) => document.querySelector<HTMLElement>('.item-map-picker')?.dataset.user === u,
    user,
    { timeout: 60_000 },
  );
  return frame.evaluate(() => {
    const box = document.querySelector<HTMLElement>('.item-map-picker')!;
    const li = [...box.querySelectorAll<HTMLElement>('.item-map-items li')];
    const canvas = document.querySelector<HTMLCanvasElement>('figure[data-chart="itemMap.chart"] canvas');
    return {
      n: Number(box.dataset.highlighted),
      hits: Number(box.dataset.hits),
      items: li.map((l) => l.dataset.item!),
      hitItems: li.filter((l) => l.dataset.hit === 'true').map((l) => l.dataset.item!),
      missed: Number(box.dataset.missed),
      missedListed: [...box.querySelectorAll<HTMLElement>('.item-map-missed li')].map((l) => ({
        item: l.dataset.item!,
        onMap: l.dataset.onMap === 'true',
      })),
      legend: JSON.parse(canvas?.dataset.legend ?? '[]') as { text: string; swatch: string; points: number }[],
    };
  });
}

/**
 * The report titled `title`, on its Ranking tab, with the item map's figure in view: one canvas, and
 * a table alternative listing every one of the map's `items`.
 */
async function openItemMap(title: RegExp, items: number): Promise<{ f: Frame; fig: Locator }> {
  const f = await reportFrame(page, title);
  await f.locator('vscode-tab-header[data-tab="ranking"]').click();
  const fig = f.locator('figure[data-chart="itemMap.chart"]');
  await fig.waitFor({ timeout: 60_000 });
  await fig.scrollIntoViewIfNeeded();
  assert.equal(await fig.locator('canvas').count(), 1);
  assert.equal(await fig.locator('.table-alt tbody tr').count(), items);
  return { f, fig };
}

describe('Item map (code-server + Chromium)', { timeout: 900_000 }, () => {
  before(async () => {
    ws = copyExamples();
    ({ server, wb } = await startWorkbench(ws));
    page = wb.page;
  });

  after(() => closeWorkbench(server, wb));

  it("highlights a user's top-K items on the map of the factor model's items", async () => {
    await expandFolder(page, 'ranking-factors');
    const row = explorerRow(page, 'U.npy');
    await openMenuWith(page, row, 'Evaluate Prediction File…', 40_000);
    await clickMenuItem(page, 'Evaluate Prediction File…');
    const text = await waitForFile(join(ws, 'ranking-factors/ranking-factors.eval.json')).catch(async (e: unknown) => {
      await screenshot(page, join(SHOTS, 'item-map-failure.png'));
      throw e;
    });
    const res = JSON.parse(text) as Results;
    const map = res.tables.itemMap!;
    assert.ok(map, 'the results hold the item map');
    assert.equal(map.source, 'itemFactors');
    assert.equal(map.ids.length, map.itemsWithVectors);
    const k = Math.max(...(res.config.k ?? []));
    assert.equal(map.k, k);
    const pick = pickUser(k, map.ids);

    const { f, fig } = await openItemMap(/^ranking-factors \(factor model\)$/, map.ids.length);

    // Keyboard only: focus the picker, type the user, Enter.
    const search = fig.locator('.item-map-picker .user-search');
    await search.focus();
    await page.keyboard.type(pick.user);
    await page.keyboard.press('Enter');
    const shown = await highlighted(f, pick.user);
    assert.equal(shown.n, k, 'every one of the K recommendations is on the map');
    assert.deepEqual(shown.items, pick.top);
    assert.equal(shown.hits, pick.hits.length);
    assert.deepEqual(shown.hitItems, pick.hits);
    // The relevant items missed (relevant \ top-K, counted from the files): every one listed, and
    // those on the map (an item without a vector is not) drawn as points of a legend entry of their
    // own, with a marker no other entry has.
    const missedOnMap = pick.missed.filter((i) => map.ids.includes(i));
    assert.deepEqual(
      shown.missedListed.map((m) => [m.item, m.onMap]).sort(),
      pick.missed.map((i) => [i, map.ids.includes(i)]).sort(),
    );
    assert.equal(shown.missed, missedOnMap.length);
    const missedEntry = shown.legend.find((e) => e.text.startsWith('missed:'));
    assert.ok(missedEntry, JSON.stringify(shown.legend));
    assert.equal(missedEntry.points, missedOnMap.length);
    assert.equal(missedEntry.swatch, 'cross');
    assert.equal(shown.legend.filter((e) => e.swatch === 'cross').length, 1, JSON.stringify(shown.legend));

    // Screenshots of the highlighted map, light and dark.
    const maximized = await runCommand(page, 'View: Toggle Maximize Editor Group', 2).then(
      () => true,
      async () => {
        await page.keyboard.press('Escape');
        return false;
      },
    );
    await sleep(1000);
    for (const theme of [LIGHT, DARK]) {
      await setTheme(page, theme, f);
      await f.evaluate(() =>
        document.querySelector('figure[data-chart="itemMap.chart"]')?.scrollIntoView({ block: 'start' }),
      );
      await sleep(800);
      const name = `item-map-${theme === DARK ? 'dark' : 'light'}.png`;
      await screenshot(page, join(SHOTS, name));
      if (process.env.EVAL_LENS_README_SHOTS === '1') {
        mkdirSync(README_SHOTS, { recursive: true });
        copyFileSync(join(SHOTS, name), join(README_SHOTS, name));
      }
    }
    await setTheme(page, LIGHT, f);
    if (maximized) await runCommand(page, 'View: Toggle Maximize Editor Group');

    // The user inspector's user is highlighted on the map too.
    // another user the inspector suggests (the results name the first evaluated users)
    const sample = res.tables.rankingSummary!.sampleUsers!;
    const other = sample.find((u) => u !== pick.user)!;
    const inspector = f.locator('.user-inspector .user-search');
    await inspector.fill(other);
    await inspector.press('Enter');
    const again = await highlighted(f, other);
    assert.equal(again.n, k);

    // Clear: back to the map alone.
    const clear = async (): Promise<void> => {
      await fig.locator('.item-map-clear').click();
      await f.waitForFunction(
        () => document.querySelector<HTMLElement>('.item-map-picker')?.dataset.highlighted === '0',
      );
    };
    await clear();

    // The buttons do what Enter does: the inspector's "Show user", then the picker's "Highlight user".
    await inspector.fill(pick.user);
    await f.locator('.user-inspector .user-show').click();
    assert.deepEqual((await highlighted(f, pick.user)).items, pick.top);
    assert.equal(await f.locator('.user-inspector .user-view').getAttribute('data-user'), pick.user);
    await clear();
    await search.fill(other);
    await fig.locator('.item-map-show').click();
    assert.equal((await highlighted(f, other)).n, k);
    await clear();
  });

  it('embeddings of 384 dimensions get their map too (the principal components without the whole covariance)', async () => {
    await runCommand(page, 'View: Close All Editors');
    // The ranking example's run, train file and items table, with 384-dimension item embeddings.
    const dir = join(ws, 'emb-384');
    mkdirSync(dir);
    const from = join(ws, 'ranking-debian-deps');
    for (const f of ['cooccurrence.jsonl', '_train.csv', 'items.csv', '_item_embeddings.ids.txt'])
      copyFileSync(join(from, f), join(dir, f));
    const ids = readFileSync(join(dir, '_item_embeddings.ids.txt'), 'utf8').trim().split('\n');
    const d = 384;
    const values: number[] = [];
    for (let i = 0; i < ids.length; i++)
      for (let j = 0; j < d; j++)
        values.push(Math.sin(i * 0.37 + j * 1.3) * (1 + (i % 5)) + Math.cos(i * 0.11) * (j % 3));
    writeFileSync(join(dir, '_item_embeddings.npy'), npyFloat64(values, [ids.length, d]));
    const config = JSON.parse(readFileSync(join(from, 'eval-lens.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'eval-lens.json'), JSON.stringify({ ...config, bootstrap: { n: 0 } }));

    await expandFolder(page, 'emb-384');
    await openMenuWith(page, explorerRow(page, 'cooccurrence.jsonl'), 'Evaluate Prediction File…', 40_000);
    await clickMenuItem(page, 'Evaluate Prediction File…');
    const res = JSON.parse(await waitForFile(join(dir, 'cooccurrence.eval.json'))) as Results;
    assert.deepEqual(validateResults(res), []);
    const map = res.tables.itemMap!;
    assert.ok(map, `the results hold the item map: ${res.warnings.map((w) => w.message).join(' | ')}`);
    assert.equal(map.dim, d);
    assert.equal(map.source, 'itemEmbeddings');

    const { fig } = await openItemMap(/^cooccurrence\.jsonl$/, map.ids.length);
    // The chart's accessible description names the vectors' dimension.
    const labels = await fig.locator('[aria-label]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    assert.ok(
      labels.some((l) => l?.includes('their 384-dimensional embeddings (_item_embeddings.npy)')),
      labels.join(' | '),
    );
    await screenshot(page, join(SHOTS, 'item-map-384-light.png'));
  });
});
