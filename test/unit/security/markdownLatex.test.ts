// Markdown and LaTeX exports escape the special characters of text that comes from files, so a
// run name or a class name cannot add HTML, links, emphasis or LaTeX commands to the export.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeMarkdown } from '../../../src/core/text/markdownText';
import { tableToMarkdown } from '../../../src/shared/tableText';
import { renderLatexTable, renderMarkdownTable } from '../../../src/core/compare/render';
import { renderLongLatex, renderLongMarkdown } from '../../../src/core/compare/longForm';
import { formatMarkdown } from '../../../src/core/results/format';
import { classificationResults, compareResults } from '../helpers/reportFixtures';

const EVIL_MD = '<img src=x onerror=alert(1)> [link](javascript:alert(1)) `code` *em* a|b\nnext \\';

test('escapeMarkdown: HTML, links, code, emphasis, table pipes and line breaks become plain text', () => {
  assert.equal(
    escapeMarkdown(EVIL_MD),
    '\\<img src=x onerror=alert(1)\\> \\[link\\](javascript:alert(1)) \\`code\\` \\*em\\* a\\|b next \\\\',
  );
  assert.equal(escapeMarkdown('a_b & c'), 'a\\_b \\& c');
});

test('report Copy Markdown escapes cells and column names', () => {
  const md = tableToMarkdown({ id: 't', title: 'T', columns: ['<b>run</b>'], kinds: ['text'], rows: [['[x](y)']] });
  assert.equal(md, '| \\<b\\>run\\</b\\> |\n|---|\n| \\[x\\](y) |\n');
});

test('results Markdown: the source path and metric notes are escaped (no raw HTML, no code span to break out of)', () => {
  const r = classificationResults();
  r.source.path = 'runs/`<script>x</script>`.csv';
  r.metrics.accuracy!.note = '<img src=x>';
  const md = formatMarkdown(r);
  assert.ok(!/(^|[^\\])<(script|img)/m.test(md), md);
  assert.ok(md.startsWith('## Eval Lens results: runs/\\`\\<script\\>x\\</script\\>\\`.csv\n'), md.split('\n')[0]);
});

test('compare Markdown and LaTeX escape run names, metric names and tests', () => {
  const c = compareResults();
  c.names[1] = '<b>x</b> $\\input{/etc/passwd}$';
  // A hostile metric name in the table, its tests and the long form.
  const old = c.tests[0]!.metric;
  c.metrics = c.metrics.map((m) => (m === old ? '<i>m</i>' : m));
  for (const t of c.tests) if (t.metric === old) t.metric = '<i>m</i>';
  for (const row of Object.values(c.table)) row['<i>m</i>'] = row[old] ?? null;
  const md = renderMarkdownTable(c, { baseline: c.baseline }) + renderLongMarkdown(c);
  assert.ok(md.includes('\\<i\\>m\\</i\\>'), md);
  assert.ok(!/(^|[^\\])<[bi]>/m.test(md), md);
  const tex = renderLatexTable(c) + renderLongLatex(c);
  assert.ok(!tex.includes('\\input'), tex);
  assert.ok(tex.includes('\\$\\textbackslash{}input\\{/etc/passwd\\}\\$'), tex);
});
