/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * Driving the VS Code workbench (code-server) in Debian's Chromium the way a person does: the
 * explorer, its context menu, the command palette, quick picks, the side panel, and the report
 * webview (two iframes deep). Selectors are VS Code's own DOM classes; each helper waits for what
 * it needs rather than sleeping a fixed time where it can.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BrowserContext, Frame, Locator, Page } from 'playwright-core';
import {
  launchChromium,
  sleep,
  startCodeServer,
  workbenchUrl,
  type CodeServer,
} from '../../scripts/vscode/codeServer.mjs';

export interface Workbench {
  browser: BrowserContext;
  page: Page;
  folder: string;
}

/** Opens `folder` in the workbench and waits for the explorer to show it. */
export async function openWorkbench(server: CodeServer, folder: string): Promise<Workbench> {
  const browser = await launchChromium({ viewport: { width: 1440, height: 900 } });
  const page = browser.pages()[0] ?? (await browser.newPage());
  // The workbench's own state says when it is ready (the explorer lists the folder), not the page's
  // load event: on a loaded machine that event came after Playwright's 30 s default and the goto
  // failed while the workbench was still starting. So wait only for the navigation to commit.
  await page.goto(workbenchUrl(server, folder), { waitUntil: 'commit', timeout: 120_000 });
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 180_000 });
  return { browser, page, folder };
}

/** The activity-bar entry of Eval Lens: once it shows, the extension's menus and views are loaded. */
export function evalLensActivity(page: Page): Locator {
  return page
    .locator('.activitybar .action-item a[aria-label^="Eval Lens"], .activitybar .action-item[aria-label^="Eval Lens"]')
    .first();
}

/**
 * A code-server with the extension installed (light theme) and a workbench on `folder`, returned
 * once the extension's activity-bar entry shows. {@link closeWorkbench} ends both.
 */
export async function startWorkbench(folder: string): Promise<{ server: CodeServer; wb: Workbench }> {
  const server = await startCodeServer({ installExtension: true, settings: { 'workbench.colorTheme': LIGHT } });
  const wb = await openWorkbench(server, folder);
  await evalLensActivity(wb.page).waitFor({ timeout: 90_000 });
  return { server, wb };
}

export async function closeWorkbench(server: CodeServer | undefined, wb: Workbench | undefined): Promise<void> {
  await wb?.browser.close().catch(() => undefined);
  await server?.stop();
}

/**
 * Opens the context menu of `row` until it lists `label` (menus contributed by the extension
 * appear once the workbench has read its manifest), leaving the menu open; fails with the labels seen.
 */
export async function openMenuWith(page: Page, row: Locator, label: string, timeout = 30_000): Promise<void> {
  const end = Date.now() + timeout;
  for (;;) {
    const labels = await contextMenu(page, row);
    if (labels.includes(label)) return;
    await page.keyboard.press('Escape');
    if (Date.now() > end) throw new Error(`no "${label}" in the menu: ${labels.join(' | ')}`);
    await sleep(1000);
  }
}

/** The explorer row of a file or folder (by its name, optionally its depth: 1 = top level). */
export function explorerRow(page: Page, name: string, level?: number): Locator {
  const sel = `.explorer-folders-view .monaco-list-row[aria-label="${name}"]${level ? `[aria-level="${level + 1}"]` : ''}`;
  return page.locator(sel).first();
}

/**
 * Scrolls the explorer until `row` is rendered. The explorer is a virtual list: a row scrolled out
 * of view is not in the DOM at all, so waiting for it never ends once folders above it are open.
 * Wheels from the top down, a few rows at a time, then, if the row is still not there, moves the
 * keyboard focus down the tree from its first row; a row that never appears is left to the
 * caller's own wait to report.
 */
export async function revealExplorerRow(page: Page, row: Locator): Promise<void> {
  if ((await row.count()) > 0) {
    await row.scrollIntoViewIfNeeded().catch(() => undefined);
    return;
  }
  const list = page.locator('.explorer-folders-view .monaco-list').first();
  if ((await list.count()) === 0) return;
  const box = await list.boundingBox();
  if (!box) return;
  await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 200));
  await page.mouse.wheel(0, -100_000);
  await sleep(150);
  for (let i = 0; i < 60 && (await row.count()) === 0; i++) {
    await page.mouse.wheel(0, 110);
    await sleep(120);
  }
  // Wheel events can miss the list (a hover or a late layout under the pointer); the keyboard
  // cannot: focus walks the tree from its first row and the list renders whatever has focus.
  // Arrow keys move the focus only, so no file is opened on the way.
  if ((await row.count()) === 0) {
    await list.focus().catch(() => undefined);
    await page.keyboard.press('Home');
    for (let i = 0; i < 400 && (await row.count()) === 0; i++) {
      const before = await focusedExplorerLabel(page);
      await page.keyboard.press('ArrowDown');
      if ((await focusedExplorerLabel(page)) === before) break; // the last row
    }
  }
  if ((await row.count()) > 0) await row.scrollIntoViewIfNeeded().catch(() => undefined);
}

/** The label of the explorer row that has the keyboard focus ('' when none has). */
async function focusedExplorerLabel(page: Page): Promise<string> {
  return page
    .locator('.explorer-folders-view .monaco-list-row.focused')
    .first()
    .getAttribute('aria-label', { timeout: 1000 })
    .then((l) => l ?? '')
    .catch(() => '');
}

/** Clicks an explorer row by name (Control held to add it to the selection), scrolling to it first. */
export async function clickExplorerRow(page: Page, name: string, opts: { add?: boolean } = {}): Promise<void> {
  const row = explorerRow(page, name);
  await revealExplorerRow(page, row);
  await row.click(opts.add ? { modifiers: ['Control'] } : {});
}

/** Expands a folder of the explorer (no-op when open). */
export async function expandFolder(page: Page, name: string): Promise<void> {
  const row = explorerRow(page, name);
  await revealExplorerRow(page, row);
  await row.waitFor({ timeout: 30_000 });
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
  await page.waitForFunction(
    (n) =>
      document
        .querySelector(`.explorer-folders-view .monaco-list-row[aria-label="${n}"]`)
        ?.getAttribute('aria-expanded') === 'true',
    name,
  );
}

/** Evaluates `folder/file` from its explorer context menu (Evaluate Prediction File…). */
export async function evaluateFromExplorer(page: Page, folder: string, file: string): Promise<void> {
  await expandFolder(page, folder);
  const row = explorerRow(page, file);
  // The folder is expanded again while its file is missing: on a loaded machine its children were
  // listed late, or a refresh of the tree collapsed it (CI: the row never rendered in 30 s).
  await showExplorerRow(page, row, 90_000, () => expandFolder(page, folder));
  await openMenuWith(page, row, 'Evaluate Prediction File…');
  await clickMenuItem(page, 'Evaluate Prediction File…');
}

/**
 * Reveals an explorer row until it is visible, in a bounded wait on the tree's own state: each
 * round scrolls (or walks the focus) to it and, when it is still absent, runs `whenMissing` (say,
 * expanding its folder again) and polls. Fails naming the rows the explorer shows.
 */
export async function showExplorerRow(
  page: Page,
  row: Locator,
  timeout = 60_000,
  whenMissing?: () => Promise<void>,
): Promise<void> {
  const end = Date.now() + timeout;
  for (;;) {
    await revealExplorerRow(page, row);
    if (await row.isVisible().catch(() => false)) return;
    if (Date.now() > end) {
      const shown = await page
        .locator('.explorer-folders-view .monaco-list-row')
        .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('aria-label')}@${r.getAttribute('aria-level')}`));
      throw new Error(`the explorer never showed ${String(row)}; it shows: ${shown.join(', ')}`);
    }
    await whenMissing?.().catch(() => undefined);
    await row.waitFor({ state: 'visible', timeout: 2000 }).catch(() => undefined);
  }
}

/** Right-clicks `target` and returns the labels of its context menu. */
export async function contextMenu(page: Page, target: Locator): Promise<string[]> {
  await showExplorerRow(page, target);
  await target.click({ button: 'right' });
  const items = page.locator('.monaco-menu .action-item .action-label');
  await items.first().waitFor({ timeout: 15_000 });
  return (await items.allInnerTexts()).map((s) => s.trim()).filter(Boolean);
}

/** Clicks an item of the open context menu by its label. */
export async function clickMenuItem(page: Page, label: string): Promise<void> {
  const item = page.locator('.monaco-menu .action-item .action-label', { hasText: label }).first();
  const menu = page.locator('.context-view .monaco-menu').first();
  await item.hover();
  await item.click();
  // A click that lands while the menu is still laying out is lost: the item is focused by the
  // hover, so Enter runs it.
  if (await menu.isVisible().catch(() => false)) {
    await sleep(300);
    if (await menu.isVisible().catch(() => false)) {
      await item.hover();
      await page.keyboard.press('Enter');
    }
  }
  await menu.waitFor({ state: 'hidden', timeout: 10_000 });
}

/**
 * Opens a file with Quick Open (Ctrl+P): types `query`, waits for the row holding `rowText`, and
 * presses Enter. On a busy machine the picker can close between its appearing and the typing (a
 * notification or a view taking focus: "element is not visible"); then it is opened again, each
 * step waiting on the picker's own state, never on a fixed delay.
 */
export async function quickOpenFile(page: Page, query: string, rowText: string, attempts = 5): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: rowText }).first();
  for (let i = 0; i < attempts; i++) {
    await page.keyboard.press('Control+P');
    const shown = await input
      .waitFor({ state: 'visible', timeout: 15_000 })
      .then(() => input.fill(query, { timeout: 10_000 }))
      .then(() => row.waitFor({ state: 'visible', timeout: 30_000 }))
      .then(
        () => true,
        () => false,
      );
    if (shown && (await input.isVisible())) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('Escape');
  }
  throw new Error(`Quick Open did not offer "${rowText}" for "${query}" in ${attempts} attempts`);
}

/** Presses Enter in the open quick pick / input box (the default item), once it is shown. */
export async function acceptQuickPick(page: Page, timeout = 30_000): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await widget.waitFor({ state: 'visible', timeout });
  await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout });
  await page.keyboard.press('Enter');
}

/**
 * Runs a command from the palette by its title. The palette can open before the extension has
 * registered its commands: on "No matching commands", Escape and try again.
 */
export async function runCommand(page: Page, title: string, attempts = 10): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    // The row whose label is exactly the title (fuzzy matching ranks others too).
    const row = page
      .locator('.quick-input-list .monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }) })
      .first();
    // On a busy machine the palette can close (or turn inert) between its appearing and the click —
    // a notification or a restored editor taking focus: then it is opened again, each step waiting
    // on the palette's own state with a bounded wait, never one long wait on a closed palette.
    const ran = await input
      .waitFor({ state: 'visible', timeout: 15_000 })
      .then(() => input.fill(`>${title}`, { timeout: 10_000 }))
      .then(() => row.waitFor({ state: 'visible', timeout: 3000 }))
      .then(() => row.click({ timeout: 5000 }))
      .then(
        () => true,
        () => false,
      );
    if (ran) return;
    await page.keyboard.press('Escape');
    await sleep(1000);
  }
  throw new Error(`command "${title}" not found in the palette`);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Waits for a file to exist (and parse, for JSON) and returns its text. */
export async function waitForFile(file: string, timeout = 180_000): Promise<string> {
  const end = Date.now() + timeout;
  for (;;) {
    if (existsSync(file)) {
      const text = readFileSync(file, 'utf8');
      try {
        if (file.endsWith('.json')) JSON.parse(text);
        return text;
      } catch {
        // being written
      }
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${file}`);
    await sleep(250);
  }
}

/**
 * The frame of the report webview showing `title` (its `h1`), found by scanning every frame: a
 * webview's content is two iframes deep (`…/webview/browser/pre/fake.html`).
 */
export async function reportFrame(page: Page, title: RegExp, timeout = 60_000): Promise<Frame> {
  const end = Date.now() + timeout;
  for (;;) {
    for (const f of page.frames()) {
      try {
        const h1 = await f.evaluate(() => document.querySelector('.report-header h1')?.textContent ?? null);
        if (h1 && title.test(h1)) return f;
      } catch {
        // detached or cross-origin during load
      }
    }
    if (Date.now() > end) throw new Error(`no report webview titled ${title} within ${timeout} ms`);
    await sleep(300);
  }
}

/**
 * Shows the report tab `tab` and waits until its panel is visible. The report is rebuilt when a new
 * stage or the results file arrives, which detaches the tab headers; on a loaded machine a click
 * then waited on a header that was gone. So each attempt clicks the header present now, for a
 * bounded time, and the loop ends on the panel's own visibility.
 */
export async function openReportTab(frame: Frame, tab: string, timeout = 90_000): Promise<void> {
  const end = Date.now() + timeout;
  const shown = () =>
    frame.evaluate((t) => !!document.querySelector(`vscode-tab-panel[data-tab="${t}"]`)?.checkVisibility(), tab);
  for (;;) {
    await frame
      .locator(`vscode-tab-header[data-tab="${tab}"]`)
      .click({ timeout: 10_000 })
      .catch(() => undefined);
    try {
      await frame.waitForFunction(
        (t) => !!document.querySelector(`vscode-tab-panel[data-tab="${t}"]`)?.checkVisibility(),
        tab,
        { timeout: 10_000 },
      );
      return;
    } catch {
      if (await shown().catch(() => false)) return;
      if (Date.now() > end) throw new Error(`the report's "${tab}" tab did not show within ${timeout} ms`);
    }
  }
}

/** Every metric card of a report: key, the value it carries, and the text it shows. */
export async function reportCards(
  frame: Frame,
): Promise<{ key: string; value: string; text: string; headline: boolean }[]> {
  return frame.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.card[data-metric]')].map((c) => ({
      key: c.dataset.metric ?? '',
      value: c.dataset.value ?? '',
      text: c.querySelector('.card-value')?.textContent?.trim() ?? '',
      headline: !!c.closest('.headline'),
    })),
  );
}

/** Saves a screenshot of the page under `file` (folders made as needed). */
export async function screenshot(page: Page, file: string): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  await page.screenshot({ path: file });
}

// Theme ids of VS Code 1.139 (code-server 4.139.1): "Light Modern" / "Dark Modern" (older VS Code
// called them "Default Light Modern" / "Default Dark Modern"; an unknown id silently falls back).
export const LIGHT = 'Light Modern';
export const DARK = 'Dark Modern';
export const HC = 'Dark High Contrast';
/** Each theme's workbench class and the webview body class VS Code sets for it. */
const THEME_CLASSES: Record<string, { workbench: string; body: string }> = {
  [LIGHT]: { workbench: 'vs', body: 'vscode-light' },
  [DARK]: { workbench: 'vs-dark', body: 'vscode-dark' },
  [HC]: { workbench: 'hc-black', body: 'vscode-high-contrast' },
};

/**
 * Switches the colour theme as a person does (Preferences: Color Theme, pick by name), then waits
 * for the workbench's theme class (vs / vs-dark / hc-black) and the webview's body class. Rewriting
 * settings.json also works but depends on the server's file watcher, which under load can take
 * longer than a test should wait.
 */
export async function setTheme(page: Page, theme: string, frame?: Frame): Promise<void> {
  const want = THEME_CLASSES[theme]!;
  const current = (): Promise<string> =>
    page.evaluate(() => {
      const c = document.querySelector('.monaco-workbench')?.classList;
      return !c
        ? ''
        : c.contains('hc-black')
          ? 'hc-black'
          : c.contains('hc-light')
            ? 'hc-light'
            : c.contains('vs-dark')
              ? 'vs-dark'
              : c.contains('vs')
                ? 'vs'
                : '';
    });
  // The theme picker closes when the workbench loses focus to something else (seen in CI while a
  // staged report refreshed itself): pick again from a fresh palette instead of waiting on a closed one.
  for (let attempt = 1; (await current()) !== want.workbench; attempt++) {
    try {
      await runCommand(page, 'Preferences: Color Theme');
      await page.locator('.quick-input-widget input').fill(theme, { timeout: 10_000 });
      const row = page
        .locator('.quick-input-list .monaco-list-row')
        .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${theme}$`) }) })
        .first();
      await row.waitFor({ timeout: 10_000 });
      await row.click({ timeout: 10_000 });
      break;
    } catch (err) {
      if (attempt >= 3) throw err;
      console.log(`# the theme picker closed before "${theme}" was picked (attempt ${attempt}); again`);
      await page.keyboard.press('Escape');
      await sleep(1000);
    }
  }
  await page.waitForFunction(
    (w) => {
      const c = document.querySelector('.monaco-workbench')?.classList;
      if (!c) return false;
      const now = c.contains('hc-black')
        ? 'hc-black'
        : c.contains('hc-light')
          ? 'hc-light'
          : c.contains('vs-dark')
            ? 'vs-dark'
            : 'vs';
      return now === w;
    },
    want.workbench,
    { timeout: 30_000 },
  );
  if (frame) {
    await frame
      .waitForFunction((w) => document.body.classList.contains(w), want.body, { timeout: 30_000 })
      .catch(async (err: Error) => {
        const has = await frame.evaluate(() => document.body.className).catch(() => '(frame gone)');
        throw new Error(`webview body class is "${has}", expected ${want.body}: ${err.message}`);
      });
  }
  await sleep(1500); // charts redraw on the theme change
}
