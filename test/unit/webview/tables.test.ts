/// <reference lib="dom" />
// A report table in a DOM (happy-dom) declares its own drill-down targets: on the classification
// report of examples/digits-lt/logreg.csv with the host's drill-down builder, the per-class table's
// rows and the confusion table's count cells are its targets — each focusable with its hint and the
// filter of its rows (the row's class; the cell's true and predicted class) —, a click (on a cell:
// the cell's rows before its row's) and Enter open them after the figure that holds the table, other
// keys do not, and a table without a drill-down has no targets.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DrillSpec, DrillTargets } from '../../../src/shared/drillSpec';
import type { ReportModel, TableModel } from '../../../src/shared/model';
import { logregReport } from './classificationExample';
import { installDom, type TestDom } from './happyDom';

let dom: TestDom;
let model: ReportModel;
let drill: DrillTargets;
let tables: typeof import('../../../webview/tables');

before(async () => {
  ({ model, drill } = await logregReport());
  dom = installDom();
  tables = await import('../../../webview/tables');
});
after(() => dom.close());

function table(id: string): TableModel {
  const all = model.tabs.flatMap((t) => [...t.tables, ...(t.leadTables ?? []), ...t.charts.map((c) => c.table)]);
  return all.find((t) => t.id === id)!;
}

function render(id: string, inFigure = false) {
  const opened: { spec: DrillSpec; anchor: HTMLElement; origin: HTMLElement }[] = [];
  const block = tables.renderTable(table(id), () => undefined, {
    drill: drill.tables[id]!,
    open: (spec, anchor, origin) => void opened.push({ spec, anchor, origin }),
  });
  const holder = inFigure ? document.createElement('figure') : document.createElement('div');
  holder.className = inFigure ? 'chart' : '';
  holder.append(block);
  document.body.append(holder);
  return { block, opened, holder };
}

const enter = (e: HTMLElement, key = 'Enter'): void =>
  void e.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));

test("the per-class table's rows are its targets, each with its class's rows", () => {
  const t = table('perClass');
  const { block, opened, holder } = render('perClass');
  const rows = [...block.querySelectorAll<HTMLElement>('vscode-table-row, tbody tr')];
  assert.equal(rows.length, 10);
  assert.equal(t.rows.length, 10);
  const targets = block.drillTargets;
  assert.deepEqual(
    targets.map((x) => x.element),
    rows,
  );
  targets.forEach((x, i) => {
    const cls = String(t.rows[i]![0]);
    assert.deepEqual(x.spec, drill.tables.perClass!.rows![i]);
    assert.ok(
      x.spec.where.some((w) => w.key === 'label' && w.op === '=' && w.value === cls),
      JSON.stringify(x.spec),
    );
    assert.equal(x.element.tabIndex, 0);
    assert.ok(x.element.classList.contains('drillable'));
    assert.equal(
      x.element.getAttribute('aria-description'),
      `${x.spec.title}. Press Enter (or click) to list the rows behind it.`,
    );
    assert.equal(x.anchor, block);
  });
  (rows[3]!.children[1] as HTMLElement).click();
  enter(rows[7]!);
  enter(rows[7]!, 'a');
  assert.deepEqual(
    opened.map((o) => [o.spec, o.anchor, o.origin]),
    [
      [targets[3]!.spec, block, rows[3]],
      [targets[7]!.spec, block, rows[7]],
    ],
  );
  holder.remove();
});

test("the confusion table's count cells are its targets; the rows panel opens after the figure", () => {
  const t = table('confusion.table');
  const d = drill.tables['confusion.table']!;
  const { block, opened, holder } = render('confusion.table', true);
  const targets = block.drillTargets;
  // ten classes: the table is the matrix (true class, then one count per predicted class)
  assert.ok(d.cells && !d.rows);
  assert.deepEqual(t.columns.slice(1), ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
  // one target per count cell (the first column names the true class)
  assert.equal(targets.length, t.rows.length * (t.columns.length - 1));
  const cell = targets.find((x) => x.element.dataset.drillCell === '2,3')!;
  assert.deepEqual(cell.spec, d.cells[2]![3]);
  assert.deepEqual(
    cell.spec.where.filter((w) => w.key === 'label' || w.key === 'pred'),
    [
      { key: 'label', op: '=', value: String(t.rows[2]![0]) },
      { key: 'pred', op: '=', value: '2' },
    ],
  );
  cell.element.click();
  assert.deepEqual(opened.at(-1), { spec: d.cells[2]![3], anchor: holder, origin: cell.element });
  assert.ok(targets.every((x) => x.anchor === holder));
  holder.remove();
});

test('a table without a drill-down has no targets and nothing focusable', () => {
  const block = tables.renderTable(table('perClass'), () => undefined);
  document.body.append(block);
  assert.equal(block.drillTargets.length, 0);
  assert.equal(block.querySelectorAll('[tabindex], .drillable').length, 0);
  block.remove();
});
