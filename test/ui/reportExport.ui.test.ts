/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The HTML that `eval-lens report` writes, opened in Debian's Chromium (no VS Code needed): on a
 * results file and on a comparison, in light and dark, it runs no script, loads nothing, and
 * every chart is drawn at its own size with nothing outside it; a hostile comparison and a hostile
 * results file (markup and quotes in run, metric and class names, crafted marks) give a page with
 * only the elements, attributes and classes the exporter writes. Screenshots go to
 * test-artifacts/report-export/.
 *
 * Run: node --import tsx --test test/ui/reportExport.ui.test.ts (also part of npm run test:ui).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { compareRuns } from '../../src/core/compare/compareRuns';
import { evaluateFile } from '../../src/core/evaluate';
import type { Results } from '../../src/core/results/types';
import { launchChromium, root } from '../../scripts/vscode/codeServer.mjs';
import { foreign } from '../unit/security/htmlCheck';

const SHOTS = join(root, 'test-artifacts/report-export');
const dir = mkdtempSync(join(tmpdir(), 'eval-lens-report-html-'));

function cli(args: string[]): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `eval-lens ${args.join(' ')}: ${r.stderr}`);
}

interface PageFacts {
  scripts: number;
  styles: number;
  text: string;
  charts: { id: string; width: number; height: number; attrWidth: number; drawn: number; outside: string[] }[];
  colours: { fg: string; bg: string; svgText: string; series: string[] };
}

/** Collects {@link PageFacts} in the page (plain JavaScript). */
const PAGE_FACTS = `() => {
    const rgb = (el, prop) => getComputedStyle(el).getPropertyValue(prop);
    const charts = [...document.querySelectorAll('figure > svg')].map((svg) => {
      const box = svg.getBoundingClientRect();
      const s = svg;
      const W = Number(s.getAttribute('width'));
      const H = Number(s.getAttribute('height'));
      const drawn = [...svg.querySelectorAll('path, rect, circle')].filter((e) => {
        const b = e.getBoundingClientRect();
        return b.width > 0 || b.height > 0;
      }).length;
      // Text outside the drawing area would be clipped: compare each label's box with the svg's.
      const outside = [...svg.querySelectorAll('text')].filter((t) => {
        const b = t.getBoundingClientRect();
        return b.width > 0 && (b.left < box.left - 1 || b.right > box.right + 1 || b.top < box.top - 1 || b.bottom > box.bottom + 1);
      }).map((t) => t.textContent ?? '');
      return { id: svg.parentElement?.id ?? '', width: box.width, height: box.height, attrWidth: W || H, drawn, outside };
    });
    const series = [...document.querySelectorAll('svg path.line')].slice(0, 6).map((p) => getComputedStyle(p).stroke);
    return {
      scripts: document.scripts.length,
      styles: document.querySelectorAll('style').length,
      text: document.body.textContent ?? '',
      charts,
      colours: { fg: rgb(document.body, 'color'), bg: rgb(document.body, 'background-color'), svgText: rgb(document.querySelector('svg text.axis-label') ?? document.body, 'fill'), series },
    };
  }`;

let browser: BrowserContext;

async function facts(
  file: string,
  colorScheme: 'light' | 'dark',
  shot: string,
): Promise<{ facts: PageFacts; requests: string[]; dialogs: number }> {
  const page = await browser.newPage();
  await page.emulateMedia({ colorScheme });
  const requests: string[] = [];
  let dialogs = 0;
  page.on('request', (r) => requests.push(r.url()));
  page.on('dialog', (d) => {
    dialogs++;
    void d.dismiss();
  });
  const url = pathToFileURL(file).href;
  await page.goto(url);
  await page.setViewportSize({ width: 1100, height: 900 });
  // Sent as source text: the test file's compiled functions carry helpers the page does not have.
  const f = (await page.evaluate(`(${PAGE_FACTS})()`)) as PageFacts;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${shot}-${colorScheme}.png`), fullPage: false });
  // A chart on its own, as a reader sees it.
  const firstChart = page.locator('figure > svg').first();
  if ((await firstChart.count()) > 0)
    await firstChart.screenshot({ path: join(SHOTS, `${shot}-${colorScheme}-chart.png`) });
  const overlays = page.locator('figure[id^="overlay."] > svg');
  for (let i = 0; i < Math.min(3, await overlays.count()); i++)
    await overlays.nth(i).screenshot({ path: join(SHOTS, `${shot}-${colorScheme}-overlay${i + 1}.png`) });
  await page.close();
  return { facts: f, requests: requests.filter((r) => r !== url), dialogs };
}

function luminance(css: string): number {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? ['0', '0', '0'])
    .slice(0, 3)
    .map((v) => Number(v) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

/** No script, our one stylesheet, and only the elements, attributes and classes the exporter writes (the shared allow-list). */
function checkGenerated(f: PageFacts, file: string): void {
  assert.equal(f.scripts, 0, `${file}: no script`);
  assert.equal(f.styles, 1, `${file}: one style element, ours`);
  assert.deepEqual(foreign(readFileSync(file, 'utf8')), [], `${file}: only what the exporter writes`);
}

describe('eval-lens report → HTML in Chromium', { timeout: 300_000 }, () => {
  const files: Record<string, string> = {};

  before(async () => {
    browser = await launchChromium({ viewport: { width: 1100, height: 900 } });
    // A results file and a comparison of three runs, written by the CLI as a CI job would.
    for (const run of ['logreg', 'knn', 'random_forest'])
      cli([
        'evaluate',
        `examples/digits-lt/${run}.csv`,
        '--bootstrap-n',
        '100',
        '--out',
        join(dir, `${run}.eval.json`),
        '--format',
        'json',
      ]);
    files.results = join(dir, 'logreg.html');
    cli(['report', join(dir, 'logreg.eval.json'), '--out', files.results]);
    const compare = join(dir, 'runs.compare.json');
    cli([
      'compare',
      ...['logreg', 'knn', 'random_forest'].map((r) => join(dir, `${r}.eval.json`)),
      '--out',
      compare,
      '--format',
      'json',
    ]);
    files.compare = join(dir, 'compare.html');
    cli(['report', compare, '--out', files.compare]);
    files.evaluate = join(dir, 'evaluate.html');
    cli([
      'evaluate',
      'examples/iw-breast-cancer/logreg.csv',
      '--bootstrap-n',
      '50',
      '--html',
      files.evaluate,
      '--format',
      'json',
    ]);
  });
  after(async () => {
    await browser?.close();
  });

  for (const kind of ['results', 'compare', 'evaluate'] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`${kind} report, ${scheme}: no script, nothing loaded, every chart drawn at its size with nothing outside it, readable colours`, async () => {
        const { facts: f, requests, dialogs } = await facts(files[kind]!, scheme, kind);
        assert.deepEqual(requests, [], 'no resource is requested');
        assert.equal(dialogs, 0);
        checkGenerated(f, files[kind]!);
        assert.ok(f.charts.length >= (kind === 'compare' ? 4 : 2), `${kind}: ${f.charts.length} charts`);
        for (const c of f.charts) {
          assert.ok(c.width > 0 && c.height > 0, `${c.id}: visible`);
          assert.ok(c.drawn > 0, `${c.id}: draws something`);
          assert.equal(Math.round(c.width), c.attrWidth, `${c.id}: drawn at its own width, not scaled with the page`);
          assert.deepEqual(c.outside, [], `${c.id}: labels inside the chart`);
        }
        assert.ok(contrast(f.colours.fg, f.colours.bg) >= 7, `text ${f.colours.fg} on ${f.colours.bg}`);
        assert.ok(
          contrast(f.colours.svgText, f.colours.bg) >= 4.5,
          `chart text ${f.colours.svgText} on ${f.colours.bg}`,
        );
        for (const s of f.colours.series) assert.ok(contrast(s, f.colours.bg) >= 3, `series ${s} on ${f.colours.bg}`);
        if (scheme === 'dark')
          assert.ok(luminance(f.colours.bg) < 0.05, 'dark background when the reader prefers dark');
        if (kind === 'compare') {
          for (const id of ['overlay.riskCoverage', 'overlay.reliability'])
            assert.ok(
              f.charts.some((c) => c.id === id),
              `${id} overlay`,
            );
          assert.match(f.text, /Δ against logreg/);
        }
      });
    }
  }

  it('a hostile comparison (markup and quotes in names, crafted marks) and a hostile results file: only generated markup', async () => {
    const evil = [
      '<img src=x onerror=alert(1)>.csv',
      '" onmouseover="alert(2)" x=".csv',
      "'><svg onload=alert(3)>.csv",
    ];
    const metric = 'acc"><script>alert(4)<';
    // A results file holds no per-row values: the runs' per-row correctness as a comparison has it
    // in memory (evaluated from the prediction file), so that the hostile metric gets per-item tests.
    const { perItem } = await evaluateFile(join(root, 'examples/digits-lt/logreg.csv'), {
      overrides: { bootstrap: { n: 0 } },
    });
    const base = { ...(JSON.parse(readFileSync(join(dir, 'logreg.eval.json'), 'utf8')) as Results), perItem };
    const { perItem: _inMemoryOnly, ...written } = base;
    const runs = evil.map((_, i) => {
      // The per-item values are shared, not cloned: structuredClone would turn their row ids into a plain object.
      const r: Results = { ...structuredClone(written), perItem };
      r.metrics = {
        accuracy: { ...r.metrics.accuracy!, value: 0.5 + i / 10 },
        [metric]: { value: 0.2 + i / 10, direction: 'higher' },
      };
      r.families = { classification: ['accuracy', metric] };
      r.perItem!.values = { accuracy: r.perItem!.values.accuracy!, [metric]: r.perItem!.values.accuracy! };
      // a curve name no version writes (the schema lets any name through)
      r.curves = Object.assign(
        { riskCoverage: r.curves.riskCoverage! },
        { [`metricVsK.<b onclick=alert(5)>`]: { x: 'K', y: 'v', xs: [1, 2], ys: [0.1 * i, 0.2] } },
      );
      return r;
    });
    const c = await compareRuns(runs, { runs: evil, bootstrap: { n: 20, confidence: 0.95, seed: 0 } });
    // Crafted marks: the worst run marked best, a mark for a run and a metric that do not exist.
    c.marks.accuracy = { [evil[0]!]: 1, [evil[2]!]: 3, 'no such run': 2 };
    c.marks['<i>ghost</i>'] = { [evil[1]!]: 1 };
    c.warnings.push({ code: 'x"><script>alert(6)</script>', message: '<iframe src="https://example.com"></iframe>' });
    c.settings.holm = '<a href="https://example.com">link</a>';
    const comparePath = join(dir, 'evil.compare.json');
    writeFileSync(comparePath, JSON.stringify(c));
    const compareHtml = join(dir, 'evil-compare.html');
    cli(['report', comparePath, '--out', compareHtml]);

    // A results file as the product writes it: no per-item values (structuredClone would also turn
    // their row ids into a plain object, which a results file cannot hold).
    const r: Results = structuredClone(written);
    r.source.path = '<script>alert(7)</script>.csv';
    r.tables.perClass = r.tables.perClass!.map((row, i) => ({
      ...row,
      class: i === 0 ? '<img src=x onerror=alert(8)>' : i === 1 ? '" onfocus="alert(9)' : row.class,
    }));
    r.tables.confusion!.labels[0] = '<svg><script>alert(10)</script></svg>';
    r.metrics.accuracy!.note = '<b style="x">bold</b>';
    r.warnings.push({ code: 'w', message: '</td></tr></table><script>alert(11)</script>' });
    (r.tables as Record<string, unknown>).slices = [
      {
        slice: '<u>',
        value: '"><img src=x>',
        n: 1,
        where: [{ key: '<u>', op: '=', value: '"><img src=x>' }],
        accuracy: { value: 1 },
        diff: { accuracy: { value: 0.25 } },
      },
    ];
    const resultsPath = join(dir, 'evil.eval.json');
    writeFileSync(resultsPath, JSON.stringify(r));
    const resultsHtml = join(dir, 'evil-results.html');
    cli(['report', resultsPath, '--out', resultsHtml]);

    for (const [file, shown] of [
      [
        compareHtml,
        [...evil.map((e) => e.slice(0, -4)), metric, '<iframe src="https://example.com"></iframe>', 'ghost'],
      ],
      [
        resultsHtml,
        [
          '<script>alert(7)</script>.csv',
          '<img src=x onerror=alert(8)>',
          '" onfocus="alert(9)',
          '</td></tr></table><script>alert(11)</script>',
          '"><img src=x>',
        ],
      ],
    ] as const) {
      const html = readFileSync(file, 'utf8');
      assert.doesNotMatch(html, /<script|<img|<iframe|<a /i, file);
      const {
        facts: f,
        requests,
        dialogs,
      } = await facts(file, 'light', file.endsWith('evil-compare.html') ? 'hostile-compare' : 'hostile-results');
      assert.deepEqual(requests, []);
      assert.equal(dialogs, 0);
      checkGenerated(f, file);
      // The hostile names are shown, as text.
      for (const s of shown) if (s !== 'ghost') assert.ok(f.text.includes(s), `${file}: shows ${s} as text`);
    }
    // The crafted mark of a run that does not exist marks nothing; a mark on the worst run is only a class on its cell.
    assert.doesNotMatch(readFileSync(compareHtml, 'utf8'), /ghost/);
  });
});
