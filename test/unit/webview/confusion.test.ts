/// <reference lib="dom" />
// The confusion matrix's component in a DOM (happy-dom). On examples/digits-lt/logreg.csv (10
// classes): the grid's counts (the largest confusion counted from the CSV by hand), its drill-down
// targets (every cell and every entry of the largest confusions, each with the filter the host's
// builder gives that cell, opened by click, Enter and Space after the figure), the keyboard's one
// tab stop, the cell values switched to shares of the true class, the shading through the CSSOM
// (a zero cell is the background, the largest the theme's blue), and the theme observer removed on
// disconnect; without rows to list, no targets. On examples/cifar100-lt-like/logreg.csv (100
// classes, 20 shown): the classes chosen by lowest recall and by hand, rows still adding up to
// each class's support through the "other" column.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { evaluateFile } from '../../../src/core/evaluate';
import type { Results } from '../../../src/core/results/types';
import { CONFUSION_NORMS, type ConfusionNorm } from '../../../src/shared/confusionView';
import type { DrillSpec, DrillTargets } from '../../../src/shared/drillSpec';
import type { ChartModel, HeatmapModel, ReportModel } from '../../../src/shared/model';
import { buildReportModel } from '../../../src/shared/report';
import { logregReport } from './classificationExample';
import { installDom, type TestDom } from './happyDom';
import { lightTheme } from './lightTheme';

const CSV = 'examples/digits-lt/logreg.csv';

let dom: TestDom;
let model: ReportModel;
let drill: DrillTargets;
let results: Results;
let many: { results: Results; model: ReportModel };
let cm: typeof import('../../../webview/confusion');

const legend = (n: ConfusionNorm): string => CONFUSION_NORMS.find((x) => x.id === n)!.legend;
const heatmapOf = (m: ReportModel): ChartModel => m.tabs.flatMap((t) => t.charts).find((c) => c.heatmap)!;

before(async () => {
  ({ model, drill, results } = await logregReport());
  const r = await evaluateFile('examples/cifar100-lt-like/logreg.csv', {
    overrides: { bootstrap: { n: 0 } },
    root: process.cwd(),
  });
  many = { results: r, model: buildReportModel(r) };
  dom = installDom();
  cm = await import('../../../webview/confusion');
});
after(() => dom.close());

/** The test rows (those the matrix counts) with true class `truth` and prediction `pred`, counted from the CSV. */
function cellByHand(truth: string, pred: string): number {
  let n = 0;
  for (const line of readFileSync(CSV, 'utf8').trimEnd().split('\n').slice(1)) {
    const c = line.split(',');
    if (c[3] === 'test' && c[1] === truth && c[2] === pred) n++;
  }
  return n;
}

/** The matrix in a figure, as the report draws it; `opened` records the rows it opens. */
async function mount(h: HeatmapModel, withRows = true) {
  const opened: { spec: DrillSpec; anchor: HTMLElement; origin: HTMLElement }[] = [];
  const norms: string[] = [];
  const fig = document.createElement('figure');
  fig.className = 'chart';
  fig.dataset.chart = 'confusion';
  const e = cm.confusionMatrix(
    h,
    'counts',
    { norm: (n) => void norms.push(n) },
    withRows
      ? { measured: drill.measured ?? [], open: (spec, anchor, origin) => void opened.push({ spec, anchor, origin }) }
      : undefined,
  );
  let painted = 0;
  e.theme = () => {
    painted++;
    return lightTheme();
  };
  fig.append(e);
  document.body.append(fig);
  await e.updateComplete;
  return { e, fig, opened, norms, painted: () => painted };
}

const cellAt = (e: HTMLElement, truth: string, pred: string): HTMLElement =>
  e.querySelector<HTMLElement>(`td.cm-cell[data-true="${truth}"][data-pred="${pred}"]`)!;
const key = (target: HTMLElement, k: string): boolean =>
  target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));

test('the grid: the counts of the results, the largest confusion counted from the CSV', async () => {
  const { e, fig } = await mount(heatmapOf(model).heatmap!);
  const c = results.tables.confusion!;
  const rows = [...e.querySelectorAll<HTMLElement>('th.cm-row')].map((th) => th.dataset.true);
  assert.deepEqual(rows, c.labels);
  assert.deepEqual(
    [...e.querySelectorAll<HTMLElement>('th.cm-col')].map((th) => th.dataset.pred),
    c.labels,
  );
  c.labels.forEach((t, i) =>
    c.labels.forEach((p, j) => {
      const td = cellAt(e, t, p);
      assert.equal(td.dataset.count, String(c.matrix[i]![j]), `${t} → ${p}`);
      assert.equal(td.textContent, String(c.matrix[i]![j]));
    }),
  );
  // The largest off-diagonal cell, by hand from the CSV.
  let best: [number, number] = [0, 1];
  c.matrix.forEach((row, i) =>
    row.forEach((v, j) => {
      if (i !== j && v > c.matrix[best[0]]![best[1]]!) best = [i, j];
    }),
  );
  const [t, p] = [c.labels[best[0]]!, c.labels[best[1]]!];
  const n = cellByHand(t, p);
  assert.ok(n > 1);
  assert.equal(cellAt(e, t, p).dataset.count, String(n));
  assert.equal(cellAt(e, t, p).getAttribute('aria-label'), `true ${t}, predicted ${p}: ${n} rows`);
  // The first entry of the largest confusions is that cell.
  const top = e.querySelector<HTMLElement>('li.cm-top')!;
  assert.deepEqual([top.dataset.true, top.dataset.pred, top.dataset.count], [t, p, String(n)]);
  assert.equal(e.querySelectorAll('td.cm-other').length, 0);
  fig.remove();
});

test('its drill-down targets: every cell and largest confusion, with the host builder’s filter; click, Enter and Space open them', async () => {
  const { e, fig, opened } = await mount(heatmapOf(model).heatmap!);
  const c = results.tables.confusion!;
  const cells = drill.charts.confusion!.cells!;
  const targets = e.drillTargets;
  const tds = [...e.querySelectorAll<HTMLElement>('td.cm-cell')];
  const tops = [...e.querySelectorAll<HTMLElement>('li.cm-top')];
  assert.equal(tds.length, 100);
  assert.equal(tops.length, 10);
  assert.deepEqual(
    targets.map((x) => x.element),
    [...tds, ...tops],
  );
  for (const x of targets) {
    assert.equal(x.anchor, fig);
    assert.ok(x.element.classList.contains('drillable'));
    assert.equal(
      x.element.getAttribute('aria-description'),
      `${x.spec.title}. Press Enter (or click) to list the rows behind it.`,
    );
    const i = c.labels.indexOf(x.element.dataset.true!);
    const j = c.labels.indexOf(x.element.dataset.pred!);
    // the same rows as the host's own drill-down of that cell: the test rows, label and pred
    assert.deepEqual(x.spec, cells[i]![j]);
  }
  assert.deepEqual(targets[1]!.spec.where, [
    { key: 'split_role', op: '=', value: 'test' },
    { key: 'label', op: '=', value: c.labels[0] },
    { key: 'pred', op: '=', value: c.labels[1] },
  ]);
  // A click opens the cell's rows after the figure and moves the tab stop to it.
  const a = cellAt(e, c.labels[2]!, c.labels[3]!);
  a.click();
  await e.updateComplete;
  assert.equal(a.tabIndex, 0);
  assert.equal(tds.filter((td) => td.tabIndex === 0).length, 1);
  // Enter and Space on a focused cell and on an entry of the largest confusions; other keys do not.
  key(a, 'Enter');
  key(a, ' ');
  key(a, 'x');
  key(tops[0]!, 'Enter');
  const specOf = (el: HTMLElement): DrillSpec => targets.find((x) => x.element === el)!.spec;
  assert.deepEqual(
    opened.map((o) => [o.spec, o.anchor, o.origin]),
    [
      [specOf(a), fig, a],
      [specOf(a), fig, a],
      [specOf(a), fig, a],
      [specOf(tops[0]!), fig, tops[0]],
    ],
  );
  fig.remove();
});

test('one tab stop: arrows, Home/End and Page keys move the focus between cells', async () => {
  const { e, fig } = await mount(heatmapOf(model).heatmap!);
  const focused = (): string => {
    const td = document.activeElement as HTMLElement;
    return `${td.dataset.row},${td.dataset.col}`;
  };
  const first = e.querySelector<HTMLElement>('td.cm-cell[tabindex="0"]')!;
  assert.deepEqual([first.dataset.row, first.dataset.col], ['0', '0']);
  first.focus();
  const press = async (k: string): Promise<string> => {
    assert.equal(key(document.activeElement as HTMLElement, k), false, `${k} is taken by the grid`);
    await e.updateComplete;
    return focused();
  };
  assert.equal(await press('ArrowRight'), '0,1');
  assert.equal(await press('ArrowDown'), '1,1');
  assert.equal(await press('End'), '1,9');
  assert.equal(await press('PageDown'), '9,9');
  assert.equal(await press('Home'), '9,0');
  assert.equal(await press('PageUp'), '0,0');
  assert.equal(await press('ArrowLeft'), '0,0');
  assert.equal(e.querySelectorAll('td.cm-cell[tabindex="0"]').length, 1);
  fig.remove();
});

test('shares of the true class: texts, the saved choice, the legend; the shading through the CSSOM', async () => {
  const h = heatmapOf(model).heatmap!;
  const { e, fig, norms } = await mount(h);
  const c = results.tables.confusion!;
  // Shading: a zero cell is the background; the largest count is the theme's blue.
  let zero: [number, number] | undefined;
  let top: [number, number] = [0, 0];
  c.matrix.forEach((row, i) =>
    row.forEach((v, j) => {
      if (v === 0 && !zero) zero = [i, j];
      if (v > c.matrix[top[0]]![top[1]]!) top = [i, j];
    }),
  );
  const colour = (td: HTMLElement): string => td.style.backgroundColor.replace(/\s+/g, '');
  assert.equal(colour(cellAt(e, c.labels[zero![0]]!, c.labels[zero![1]]!)), 'rgb(255,255,255)');
  assert.equal(colour(cellAt(e, c.labels[top[0]]!, c.labels[top[1]]!)), 'rgb(26,133,255)');
  assert.equal(e.querySelector<HTMLElement>('table.cm-grid')!.style.getPropertyValue('--cm-cell-ch'), '3');
  assert.equal(e.querySelector('.cm-legend-caption')!.textContent, `Shade: ${legend('counts')}`);

  const select = e.querySelector<HTMLElement & { value: string }>('vscode-single-select.cm-norm')!;
  select.value = 'true';
  // drawn at once: a reader of the grid right after the change event sees the shares
  select.dispatchEvent(new Event('change'));
  assert.deepEqual(norms, ['true']);
  assert.equal(e.querySelector<HTMLElement>('.confusion')!.dataset.norm, 'true');
  const [i, j] = [1, 8];
  const support = c.matrix[i]!.reduce((a, b) => a + b, 0);
  const td = cellAt(e, c.labels[i]!, c.labels[j]!);
  assert.equal(Number(td.dataset.value), c.matrix[i]![j]! / support);
  assert.equal(td.dataset.count, String(c.matrix[i]![j]));
  assert.match(td.getAttribute('aria-label')!, new RegExp(`of the true class ${c.labels[i]}$`));
  assert.equal(e.querySelector('.cm-legend-caption')!.textContent, `Shade: ${legend('true')}`);
  fig.remove();
});

test('without rows to list, the cells are no targets; the theme observer lives while the matrix is in the document', async () => {
  const { e, fig, opened, painted } = await mount(heatmapOf(model).heatmap!, false);
  assert.equal(e.drillTargets.length, 0);
  const td = e.querySelector<HTMLElement>('td.cm-cell')!;
  assert.equal(td.classList.contains('drillable'), false);
  assert.equal(td.hasAttribute('aria-description'), false);
  td.click();
  key(td, 'Enter');
  assert.equal(opened.length, 0);
  await e.updateComplete;
  // VS Code switches the body's theme class: painted again while connected, not after.
  const before = painted();
  document.body.className = 'vscode-dark';
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(painted(), before + 1);
  fig.remove();
  document.body.className = 'vscode-light';
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(painted(), before + 1);
});

test('100 classes, 20 shown: lowest recall, then classes picked by hand; rows add up to the supports', async () => {
  const h = heatmapOf(many.model).heatmap!;
  const { e, fig } = await mount(h, false);
  const c = many.results.tables.confusion!;
  const support = c.matrix.map((r) => r.reduce((a, b) => a + b, 0));
  const shownRows = (): string[] => [...e.querySelectorAll<HTMLElement>('th.cm-row')].map((th) => th.dataset.true!);
  /** Each shown class's cells plus its "other" cell: the class's support. */
  const addsUp = (): void => {
    for (const tr of e.querySelectorAll<HTMLElement>('tbody tr')) {
      const th = tr.querySelector<HTMLElement>('th.cm-row');
      if (!th) continue;
      const sum = [...tr.querySelectorAll<HTMLElement>('td.cm-cell, td.cm-other')].reduce(
        (a, td) => a + Number(td.dataset.count),
        0,
      );
      assert.equal(sum, support[c.labels.indexOf(th.dataset.true!)], th.dataset.true);
    }
  };
  assert.equal(shownRows().length, 20);
  assert.ok(e.querySelector('td.cm-other'));
  addsUp();
  // Lowest recall (diagonal / row total), ties by label order; shown in label order.
  const recall = c.labels.map((_, i) => (support[i]! > 0 ? c.matrix[i]![i]! / support[i]! : Infinity));
  const lowest = c.labels
    .map((_, i) => i)
    .sort((a, b) => recall[a]! - recall[b]! || a - b)
    .slice(0, 20)
    .sort((a, b) => a - b)
    .map((i) => c.labels[i]!);
  const classes = e.querySelector<HTMLElement & { value: string }>('vscode-single-select.cm-classes')!;
  classes.value = 'recall';
  classes.dispatchEvent(new Event('change'));
  await e.updateComplete;
  assert.deepEqual(shownRows(), lowest);
  addsUp();
  // By hand: the list starts from the classes shown, all 20 ticked (the others disabled).
  const pick = e.querySelector<HTMLElement>('fieldset.cm-pick')!;
  assert.equal(pick.hidden, true);
  classes.value = 'picked';
  classes.dispatchEvent(new Event('change'));
  await e.updateComplete;
  assert.equal(pick.hidden, false);
  const box = (l: string): HTMLInputElement =>
    e.querySelector<HTMLInputElement>(`fieldset.cm-pick input[type="checkbox"][value="${l}"]`)!;
  const add = c.labels.find((l) => !lowest.includes(l))!;
  assert.ok(box(lowest[0]!).checked);
  assert.equal(box(add).disabled, true);
  assert.equal(e.querySelector('.cm-pick-count')!.textContent, '20 of at most 20 classes chosen');
  box(lowest[0]!).checked = false;
  box(lowest[0]!).dispatchEvent(new Event('change', { bubbles: true }));
  await e.updateComplete;
  assert.equal(shownRows().includes(lowest[0]!), false);
  assert.equal(box(add).disabled, false);
  // The filter narrows the list.
  const filter = e.querySelector<HTMLInputElement>('.cm-pick-filter')!;
  filter.value = add;
  filter.dispatchEvent(new Event('input', { bubbles: true }));
  await e.updateComplete;
  assert.equal(box(add).closest('li')!.hidden, false);
  assert.ok([...e.querySelectorAll<HTMLElement>('ul.cm-pick-list li')].some((li) => li.hidden));
  box(add).checked = true;
  box(add).dispatchEvent(new Event('change', { bubbles: true }));
  await e.updateComplete;
  assert.deepEqual(
    shownRows(),
    c.labels.filter((l) => (lowest.includes(l) && l !== lowest[0]) || l === add),
  );
  addsUp();
  assert.deepEqual(e.shown.rows, shownRows());
  fig.remove();
});
