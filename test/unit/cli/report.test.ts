/**
 * `eval-lens report` and the shared export: results and comparison files to HTML, Markdown, CSV
 * and LaTeX; the input checked against its schema first; spreadsheet-safe CSV; Markdown with the
 * per-class and slice tables. (The HTML opened in Chromium: test/ui/reportExport.ui.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareFiles } from '../../../src/core/compare/files';
import { evaluateFile } from '../../../src/core/evaluate';
import { renderReportFile, reportFormat } from '../../../src/cli/report';
import { slicesTable } from '../../../src/shared/exportReport';

const ROOT = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'eval-lens-report-'));

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Slice rows in the results' shape (the filter of the rows, each metric, its difference to the whole file).
const slices = [
  {
    slice: 'split',
    value: 'test',
    n: 300,
    where: [{ key: 'split', op: '=', value: 'test' }],
    accuracy: { value: 0.75, ci: [0.7, 0.8] },
    diff: { accuracy: { value: 0, ci: [-0.01, 0.01] } },
  },
  {
    slice: 'label',
    value: 'a|b <img src=x onerror=alert(1)>',
    n: 12,
    where: [{ key: 'label', op: '=', value: 'a|b <img src=x onerror=alert(1)>' }],
    accuracy: { value: 0.5 },
    diff: { accuracy: { value: -0.25 } },
  },
];

async function files(): Promise<{ results: string; compare: string }> {
  // metricsOn "all": the whole-file numbers of the split file, which the expected values below are
  const r = await evaluateFile('examples/digits-lt/logreg.csv', {
    overrides: { bootstrap: { n: 50 }, metricsOn: 'all' },
  });
  (r.tables as Record<string, unknown>).slices = slices;
  const results = join(dir, 'logreg.eval.json');
  writeFileSync(results, JSON.stringify(r));
  const c = await compareFiles(['examples/digits-lt/logreg.csv', 'examples/digits-lt/knn.csv'], {
    overrides: { bootstrap: { n: 50 }, metricsOn: 'all' },
    bootstrap: { n: 50, confidence: 0.95, seed: 0 },
  });
  const compare = join(dir, 'runs.compare.json');
  writeFileSync(compare, JSON.stringify(c));
  return { results, compare };
}
const made = files();

test('the format comes from --format, else from the extension of --out, else HTML', () => {
  assert.equal(reportFormat(undefined, 'r.tex'), 'latex');
  assert.equal(reportFormat(undefined, 'R.MD'), 'md');
  assert.equal(reportFormat(undefined, 'x.csv'), 'csv');
  assert.equal(reportFormat(undefined, 'x.htm'), 'html');
  assert.equal(reportFormat(undefined, undefined), 'html');
  assert.equal(reportFormat('csv', 'x.html'), 'csv');
});

test('Markdown of a results file: the metric tables, the per-class table and the slice table, escaped', async () => {
  const { results } = await made;
  const md = await renderReportFile(results, 'logreg.eval.json', 'md');
  assert.match(md, /\| accuracy \| 0\.7500 \|/);
  assert.match(md, /### Per-class[^\n]*\n\n\| class \|/i);
  assert.match(md, /### Metrics per slice\n\n\| slice \| value \| n \| accuracy \| accuracy interval \|/);
  assert.ok(md.includes('| split | test | 300 | 0.7500 | \\[0.7000, 0.8000\\] |'));
  assert.ok(
    md.includes('| label | a\\|b \\<img src=x onerror=alert(1)\\> | 12 | 0.5000 |  |'),
    md
      .split('\n')
      .filter((l) => l.startsWith('| label'))
      .join('\n'),
  );
});

test('slices: rows of {slice, value, n, <metric>: {value, ci}}, metrics in order of appearance; not rows: none', () => {
  const t = slicesTable([
    { slice: 's', value: 1, n: 3, nll: { value: 0.2 }, accuracy: { value: 0.5, ci: [0.4, 0.6] } },
    { slice: 's', value: 2, n: 4, accuracy: { value: 1 } },
  ])!;
  assert.deepEqual(t.columns, ['slice', 'value', 'n', 'nll', 'accuracy', 'accuracy interval']);
  assert.deepEqual(t.rows[1], ['s', 2, 4, null, 1, '']);
  assert.equal(slicesTable({ not: 'rows' }), undefined);
  assert.equal(slicesTable([]), undefined);
});

test('Markdown and LaTeX of a comparison: one row per metric with Δ, its interval, better by, p and its test', async () => {
  const { compare } = await made;
  const md = await renderReportFile(compare, 'runs.compare.json', 'md');
  assert.match(md, /## Comparison of 2 runs against logreg/);
  assert.match(md, /^\| metric \| logreg \(baseline\) \| knn \| Δ \\\[95% CI\\\] \| better by \| p \| p Holm \|$/m);
  // Markdown escapes the brackets of the interval (rendered as written); nll is lower-is-better,
  // so a higher nll is "better by" a negative percentage; its p is the paired t-test's.
  assert.match(
    md,
    /^\| nll ↓ \| \*\*0\.7795\*\* \| 2\.6768 \| \+\d\.\d{4} \\\[\+\d\.\d{4}, \+\d\.\d{4}\\\] \| −\d+\.\d% \\\[.*\\\] \| [\d.e-]+ t \|/m,
  );
  // Every metric, per-row or not, has its paired test: McNemar for accuracy, the bootstrap for AURC.
  assert.match(md, /^\| accuracy ↑ \|.*\| [\d.e-]+ M \| [\d.e-]+ \|$/m);
  assert.match(md, /^\| aurc ↓ \|.*\| [\d.e-]+ b \| [\d.e-]+ \|$/m);
  assert.ok(!md.includes('Not tested'), md);
  const tex = await renderReportFile(compare, 'runs.compare.json', 'latex', { ci: true });
  // Default columns: the headline metrics.
  assert.match(
    tex,
    /Run & Accuracy \$\\uparrow\$ & Bal\. acc\. \$\\uparrow\$ & Macro F1 \$\\uparrow\$ & Few-shot \$\\uparrow\$ & Shift AUC \$\\uparrow\$ & AURC \$\\downarrow\$ \\\\/,
  );
  assert.match(tex, /logreg \(baseline\) & \\textbf\{0\.7500\}\\,\{\\scriptsize\$\\pm\$0\.\d{4}\}/);
  const chosen = await renderReportFile(compare, 'runs.compare.json', 'latex', { metrics: ['nll', 'accuracy'] });
  assert.match(chosen, /Run & NLL \$\\downarrow\$ & Accuracy \$\\uparrow\$ \\\\/);
  assert.ok(!chosen.includes('\\pm'));
  await assert.rejects(
    renderReportFile(compare, 'runs.compare.json', 'latex', { metrics: ['nope'] }),
    /"nope" is not among them/,
  );
});

test('CSV cells that a spreadsheet would run as a formula get a leading quote', async () => {
  const { compare } = await made;
  const c = JSON.parse(readFileSync(compare, 'utf8'));
  c.names = ['=HYPERLINK("http://x","y")', '@SUM(A1)'];
  const path = join(dir, 'evil.compare.json');
  writeFileSync(path, JSON.stringify(c));
  // Long CSV: metric, direction, run, baseline, value, …; the run names are cells 3 and 4.
  const csv = (await renderReportFile(path, 'evil.compare.json', 'csv')).split('\n');
  assert.ok(
    csv[1]!.startsWith(`accuracy,higher,"'=HYPERLINK(""http://x"",""y"")","'=HYPERLINK(""http://x"",""y"")",0.75,`),
    csv[1],
  );
  assert.ok(csv[2]!.startsWith(`accuracy,higher,'@SUM(A1),"'=HYPERLINK(""http://x"",""y"")",0.7066`), csv[2]);
});

test('eval-lens report: HTML to --out, themes; a file that does not match its schema exits 1 naming the field', async () => {
  const { results, compare } = await made;
  const out = join(dir, 'r.html');
  const r = cli(['report', results, '--out', out, '--theme', 'dark']);
  assert.equal(r.status, 0, r.stderr);
  const html = readFileSync(out, 'utf8');
  assert.match(html, /^<!DOCTYPE html>/);
  assert.match(html, /:root\{color-scheme:dark;--fg:#e6edf3/);
  assert.doesNotMatch(html, /prefers-color-scheme/);
  assert.doesNotMatch(html, /<script/i);

  const bad = JSON.parse(readFileSync(compare, 'utf8'));
  bad.marks.accuracy = { [bad.runs[0]]: 7 };
  bad.tests[0].p_t = 'small';
  const badPath = join(dir, 'bad.compare.json');
  writeFileSync(badPath, JSON.stringify(bad));
  const e = cli(['report', badPath, '--format', 'md']);
  assert.equal(e.status, 1);
  assert.match(e.stderr, /bad\.compare\.json: not a valid eval-lens\/compare@1 comparison file/);
  assert.match(e.stderr, /compare\.marks\.accuracy\.[^:]+: expected one of 1, 2, 3, got 7/);
  assert.match(e.stderr, /compare\.tests\[0\]\.p_t: expected a number or null, got "small"/);
  assert.equal(e.stdout, '');

  const badResults = JSON.parse(readFileSync(results, 'utf8'));
  badResults.metrics.accuracy.value = 'high';
  const badResultsPath = join(dir, 'bad.eval.json');
  writeFileSync(badResultsPath, JSON.stringify(badResults));
  const e2 = cli(['report', badResultsPath]);
  assert.equal(e2.status, 1);
  assert.match(e2.stderr, /results\.metrics\.accuracy\.value: expected a number or null, got "high"/);

  writeFileSync(join(dir, 'other.json'), '{"accuracy": 0.9}');
  const e3 = cli(['report', join(dir, 'other.json')]);
  assert.equal(e3.status, 1);
  assert.match(e3.stderr, /not an Eval Lens results or comparison file/);
});
