// Renderings of a run × metric table: markers, bold/underline/italic, escaping, CSV places.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  escapeLatex,
  formatP,
  formatValue,
  renderCsvTable,
  renderLatexTable,
  renderMarkdownTable,
  renderTextTable,
} from '../../../../src/core/compare/render';
import { markTable } from '../../../../src/core/compare/marks';
import type { RunTable } from '../../../../src/core/compare/types';

function table(): RunTable {
  const t = {
    runs: ['runs/a_1.csv', 'runs/b.csv', 'runs/c.csv', 'runs/d.csv'],
    names: ['a_1', 'b', 'c', 'd'],
    metrics: ['accuracy', 'ece'],
    directions: { accuracy: 'higher', ece: 'lower' } as RunTable['directions'],
    table: {
      'runs/a_1.csv': { accuracy: 0.9, ece: 0.05 },
      'runs/b.csv': { accuracy: 0.9, ece: 0.02 },
      'runs/c.csv': { accuracy: 0.8, ece: null },
      'runs/d.csv': { accuracy: 0.7, ece: 0.1 },
    },
  };
  return { ...t, marks: markTable(t) };
}

test('text: [1]/[2]/[3] markers, tie for best then third, the last unmarked, baseline named, empty cell as –', () => {
  const s = renderTextTable(table(), { baseline: 'runs/d.csv' });
  const lines = s.split('\n');
  assert.match(lines[0], /^run\s+accuracy ↑\s+ece ↓$/);
  assert.match(lines[1], /^a_1\s+0\.9000 \[1\]\s+0\.0500 \[2\]$/);
  assert.match(lines[2], /^b\s+0\.9000 \[1\]\s+0\.0200 \[1\]$/);
  assert.match(lines[3], /^c\s+0\.8000 \[3\]\s+–$/);
  // ece: 0.1 is the last of three values, so unmarked.
  assert.match(lines[4], /^d \(baseline\)\s+0\.7000\s+0\.1000$/);
  assert.match(lines[5], /best \/ second \/ third/);
});

test('text: a table wider than maxWidth puts metrics in rows', () => {
  const s = renderTextTable(table(), { maxWidth: 20 });
  const lines = s.split('\n');
  assert.match(lines[0], /^metric\s+a_1\s+b\s+c\s+d$/);
  assert.match(lines[1], /^accuracy ↑\s+0\.9000 \[1\]\s+0\.9000 \[1\]\s+0\.8000 \[3\]\s+0\.7000$/);
});

test('markdown: **best**, <u>second</u>, *third*', () => {
  const s = renderMarkdownTable(table());
  assert.ok(
    s.includes('| a\\_1 | **0.9000** | <u>0.0500</u> |'),
    'the underscore of the run name is escaped, the marks are not',
  );
  assert.ok(s.includes('| b | **0.9000** | **0.0200** |'));
  assert.ok(s.includes('| c | *0.8000* | – |'));
  assert.ok(s.includes('| d | 0.7000 | 0.1000 |'));
});

test('latex: booktabs rules, \\textbf best, \\underline second, third plain, special characters escaped', () => {
  const s = renderLatexTable(table());
  const lines = s.split('\n');
  assert.deepEqual(
    lines.filter((l) => /^\\(top|mid|bottom)rule$/.test(l)),
    ['\\toprule', '\\midrule', '\\bottomrule'],
  );
  assert.ok(!s.includes('\\hline'));
  // the headings are the metrics' short column names; a comment line above the table maps them to the keys
  assert.ok(lines.indexOf('\\toprule') < lines.indexOf('Run & Accuracy $\\uparrow$ & ECE $\\downarrow$ \\\\'));
  assert.equal(lines[0], '% Columns: Accuracy = accuracy; ECE = ece');
  assert.ok(s.includes('a\\_1 & \\textbf{0.9000} & \\underline{0.0500} \\\\'));
  assert.ok(s.includes('c & 0.8000 & -- \\\\'));
  assert.ok(!s.includes('\\textit'));
  assert.equal(
    escapeLatex('48.8% & DR_1 #2 {x} ~ ^ \\ $'),
    '48.8\\% \\& DR\\_1 \\#2 \\{x\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{} \\$',
  );
});

test('latex: a chosen subset of metrics in the given order, ± half the interval width, hostile names escaped', () => {
  const t = table();
  t.names[1] = 'b_$\\input{/etc/passwd}%';
  const s = renderLatexTable(t, {
    metrics: ['ece', 'accuracy'],
    intervals: { 'runs/b.csv': { accuracy: [0.85, 0.93] } },
    confidence: 0.95,
  });
  assert.ok(s.includes('Run & ECE $\\downarrow$ & Accuracy $\\uparrow$ \\\\'));
  // (0.93 − 0.85)/2 = 0.04
  assert.ok(
    s.includes(
      'b\\_\\$\\textbackslash{}input\\{/etc/passwd\\}\\% & \\textbf{0.0200} & \\textbf{0.9000}\\,{\\scriptsize$\\pm$0.0400} \\\\',
    ),
    s,
  );
  assert.match(s, /half the width of each run's 95\\% bootstrap percentile interval\./);
  assert.ok(!s.includes('basic bootstrap'), 'no calibration error with an interval: no word of the basic interval');
  // ECE with an interval: the caption says its interval is the basic one
  const withEce = renderLatexTable(t, {
    metrics: ['ece', 'accuracy'],
    intervals: { 'runs/b.csv': { accuracy: [0.85, 0.93], ece: [0.01, 0.03] } },
    confidence: 0.95,
  });
  assert.match(
    withEce,
    /bootstrap percentile interval \(for the calibration errors the basic bootstrap interval, Davison \\& Hinkley 1997\)\./,
  );
  assert.ok(!s.includes('\\input{'));
  assert.equal(s.match(/\\begin\{tabular\}\{l(r*)\}/)![1], 'rr');
});

test('latex: a metric the glossary does not know keeps its key as heading; a line break in it cannot end the comment line', () => {
  // a table of runs × metrics read from a user's CSV: its column names are untrusted text
  const key = 'my_metric\n\\input{/etc/passwd}\r\u2028x';
  const t = {
    runs: ['a', 'b'],
    names: ['a', 'b'],
    metrics: [key],
    directions: {} as RunTable['directions'],
    table: { a: { [key]: 0.5 }, b: { [key]: 0.25 } },
  };
  const s = renderLatexTable({ ...t, marks: markTable(t) });
  const lines = s.split('\n');
  assert.equal(lines[0], '% Columns: my_metric \\input{/etc/passwd}  x = my_metric \\input{/etc/passwd}  x');
  assert.equal(lines[1], '\\begin{table}[t]');
  // in the table itself the key is escaped (the line break is a space to LaTeX)
  assert.ok(s.includes('Run & my\\_metric\n\\textbackslash{}input\\{/etc/passwd\\}'));
  assert.ok(!lines.some((l) => l.startsWith('\\input')));
});

test('csv: values as numbers and a place column per metric; quoting', () => {
  const t = table();
  t.names[0] = 'a, "one"';
  const s = renderCsvTable(t);
  assert.equal(
    s,
    [
      'run,accuracy,accuracy_place,ece,ece_place',
      '"a, ""one""",0.9,1,0.05,2',
      'b,0.9,1,0.02,1',
      'c,0.8,3,,',
      'd,0.7,,0.1,',
      '',
    ].join('\n'),
  );
});

test('inspected tables keep the source text', () => {
  const t = { ...table(), display: { 'runs/b.csv': { accuracy: '90.0%' } } };
  assert.ok(renderMarkdownTable(t).includes('| b | **90.0%** |'));
});

test('number formats', () => {
  assert.equal(formatValue(0.123456), '0.1235');
  assert.equal(formatValue(0), '0.0000');
  assert.equal(formatValue(1), '1.0000');
  assert.equal(formatValue(1000), '1000');
  assert.equal(formatValue(1824.5), '1824.50');
  assert.equal(formatValue(null), '–');
  // the one p-value format (core/text/pValue.ts), as the report writes it
  assert.equal(formatP(0.0123), '0.0123');
  assert.equal(formatP(0.00001234), '1.2e-5');
  assert.equal(formatP(0), '< 2.2e-16');
  assert.equal(formatP(null), '—');
});

test('counts print as integers and carry no mark', () => {
  const t: RunTable = {
    runs: ['a', 'b'],
    names: ['a', 'b'],
    metrics: ['users_evaluated', 'users_skipped'],
    directions: { users_evaluated: 'higher', users_skipped: 'lower' },
    table: { a: { users_evaluated: 200, users_skipped: 0 }, b: { users_evaluated: 199, users_skipped: 1 } },
    marks: {},
  };
  t.marks = markTable(t);
  assert.deepEqual(t.marks, {});
  const s = renderTextTable(t);
  assert.match(s, /\na\s+200\s+0\n/);
  assert.match(s, /\nb\s+199\s+1\n/);
  assert.ok(renderMarkdownTable(t).includes('| a | 200 | 0 |'));
});
