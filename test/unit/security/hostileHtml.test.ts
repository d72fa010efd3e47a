// A hostile results file and a hostile comparison file exported as HTML: parsed with a real HTML
// parser (parse5, WHATWG), the page holds only elements, attributes and class names the project
// writes, and the hostile text shows up as text. The marks are fed to the renderer directly as
// well (as if a file had skipped validation): only 1, 2, 3 become a class name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCompareModel } from '../../../src/shared/compareModel';
import { reportToHtml, tableHtml } from '../../../src/shared/exportHtml';
import { buildReportModel } from '../../../src/shared/report';
import type { CompareResults } from '../../../src/core/compare/types';
import { parseEvalLensJson } from '../../../src/core/compare/evalLensFile';
import { classificationResults, compareResults } from '../helpers/reportFixtures';
import { EVIL, foreign, textOf } from './htmlCheck';
import { exportReport, reportInputFromJson } from '../../../src/shared/exportReport';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function hostileResults() {
  const r = classificationResults();
  r.source.path = `runs/${EVIL}.csv`;
  r.metrics[EVIL] = { value: 0.5, direction: 'higher', note: EVIL };
  r.families.classification!.push(EVIL);
  r.tables.perClass![0]!.class = EVIL;
  r.tables.confusion!.labels[0] = EVIL;
  r.warnings.push({ code: EVIL, message: EVIL, file: EVIL, line: 2 });
  return r;
}

function hostileCompare(): CompareResults {
  const c = compareResults();
  c.runs[1] = EVIL;
  c.names[1] = EVIL;
  c.table[EVIL] = c.table['b.csv']!;
  c.metrics[0] = EVIL;
  c.directions[EVIL] = 'higher';
  c.table['a.csv']![EVIL] = 0.7;
  c.table[EVIL]![EVIL] = 0.8;
  c.marks[EVIL] = { [EVIL]: 1, 'a.csv': 2 };
  c.tests[0]!.run = EVIL;
  c.tests[0]!.metric = EVIL;
  c.warnings.push({ code: 'x', message: EVIL });
  return c;
}

test('the hostile files are valid against their schemas (free text is allowed), so the export must escape them', () => {
  assert.equal(parseEvalLensJson('r.eval.json', JSON.stringify(hostileResults())).kind, 'results');
  assert.equal(parseEvalLensJson('c.compare.json', JSON.stringify(hostileCompare())).kind, 'compare');
});

test("exported HTML of a hostile results file: only the project's elements and attributes; the text shown as text", () => {
  const html = reportToHtml(buildReportModel(hostileResults()), { generator: EVIL });
  assert.deepEqual(foreign(html), []);
  assert.ok(textOf(html).includes(EVIL), 'the hostile text is shown, as text');
});

test("exported HTML of a hostile comparison file: only the project's elements and attributes", () => {
  const html = reportToHtml(buildCompareModel(hostileCompare()));
  assert.deepEqual(foreign(html), []);
  assert.ok(textOf(html).includes(EVIL));
});

test("the CLI's HTML (eval-lens report, evaluate --html) of the hostile files: only the project's elements and attributes", () => {
  for (const obj of [hostileResults(), hostileCompare()]) {
    const html = exportReport(reportInputFromJson(JSON.parse(JSON.stringify(obj)), EVIL), 'html', { generator: EVIL });
    assert.deepEqual(foreign(html), []);
    assert.ok(textOf(html).includes(EVIL));
  }
});

test('evaluate --html on a prediction file whose labels and file name are markup: only generated markup', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-hostile-'));
  try {
    const cell = `"${EVIL.replace(/"/g, '""')}"`;
    const name = '<b onclick=x>.csv';
    writeFileSync(join(dir, name), `label,pred\n${cell},${cell}\nb,${cell}\n${cell},b\n`);
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(process.cwd(), 'src/cli/main.ts'),
        'evaluate',
        join(dir, name),
        '--bootstrap-n',
        '0',
        '--html',
        join(dir, 'r.html'),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    const html = readFileSync(join(dir, 'r.html'), 'utf8');
    assert.deepEqual(foreign(html), []);
    assert.ok(textOf(html).includes(EVIL), 'the label is shown, as text');
    assert.ok(textOf(html).includes(name), 'the file name is shown, as text');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a mark that is not 1, 2 or 3 never becomes a class name (allow-list), even past validation', () => {
  const c = hostileCompare();
  (c.marks as Record<string, Record<string, unknown>>)['nll'] = {
    'a.csv': `1" onmouseover="alert(1)`,
    'c.csv': 'p1 x',
  };
  const html = reportToHtml(buildCompareModel(c));
  assert.deepEqual(foreign(html), []);
  const t = tableHtml({
    id: 't',
    title: 't',
    columns: ['a'],
    kinds: ['num'],
    rows: [[1]],
    marks: [[`3"><script>x</script>` as unknown as 1]],
  });
  assert.deepEqual(foreign(`<table>${t}</table>`), []);
  assert.equal(t.includes('class="n"'), true);
});
