/**
 * The group analysis in `evaluate`'s table, Markdown and CSV and in `report --format csv`, and the
 * single tables of `report --format csv --table rc_grid|rc_exact|cost_sweep|groups`, compared with
 * the values of the results JSON.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../src/core/evaluate';
import { renderReportFile } from '../../../src/cli/report';
import { trapz } from '../../../src/core/metrics/riskCoverage';
import { formatGroupAnalysisTable, groupAnalysisCsv } from '../../../src/core/results/groupAnalysisText';
import type { Curve, Results } from '../../../src/core/results/types';

const ROOT = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'eval-lens-groups-'));

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** RFC 4180 CSV without quoted line breaks (enough for these files). */
function parseCsv(text: string): string[][] {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => {
      const cells: string[] = [];
      let cur = '';
      let quoted = false;
      for (let i = 0; i < line.length; i++) {
        const ch = line[i]!;
        if (quoted) {
          if (ch === '"' && line[i + 1] === '"') {
            cur += '"';
            i++;
          } else if (ch === '"') quoted = false;
          else cur += ch;
        } else if (ch === '"') quoted = true;
        else if (ch === ',') {
          cells.push(cur);
          cur = '';
        } else cur += ch;
      }
      cells.push(cur);
      return cells;
    });
}

const num = (s: string): number | null => (s === '' ? null : Number(s));

// No score in the file, an accept column: classes 0, 1 (head), 2 (tail by train count).
const NO_SCORE = ['label,pred,accept', '0,0,1', '0,1,1', '1,1,0', '1,1,1', '2,2,1', '2,0,0'].join('\n');
const noScoreFile = join(dir, 'noscore.csv');
writeFileSync(noScoreFile, NO_SCORE);
writeFileSync(
  join(dir, 'eval-lens.json'),
  JSON.stringify({ trainCounts: [50, 30, 5], groups: [2], groupNames: ['head', '=HYPERLINK("x")'] }),
);

test('no score: the group analysis keeps sizes and rates, and its score statistics are null, shown as — and empty cells', async () => {
  const r = await evaluateFile(noScoreFile, { overrides: { bootstrap: { n: 0 } } });
  const t = r.tables.groupAnalysis!;
  assert.equal(t.length, 2);
  // head: rows 0,0 / 0,1 / 1,1 (rejected) / 1,1 → size 4, accepted 3 (one wrong): coverage 3/4, error 1/3
  assert.equal(t[0].size, 4);
  assert.equal(t[0].coverage, 3 / 4);
  assert.equal(t[0].error, 1 / 3);
  for (const row of t)
    for (const k of [
      'scoreMean',
      'scoreStd',
      'scoreMin',
      'scoreMax',
      'scoreMeanAccepted',
      'scoreMeanRejected',
      'scoreGap',
    ] as const)
      assert.equal(row[k], null, `${row.group}.${k}`);
  const table = cli(['evaluate', noScoreFile, '--bootstrap-n', '0']);
  assert.equal(table.status, 0, table.stderr);
  const head = table.stdout.split('\n').find((l) => /^ {2}head /.test(l))!;
  assert.ok(head, table.stdout);
  // size, coverage, error, TPR (2/3), FPR (1/1), then seven undefined score statistics
  assert.deepEqual(head.trim().split(/\s+/), [
    'head',
    '4',
    '0.7500',
    '0.3333',
    '0.6667',
    '1.0000',
    ...Array(7).fill('—'),
  ]);
  const csv = cli(['evaluate', noScoreFile, '--bootstrap-n', '0', '--format', 'csv']);
  const rows = parseCsv(csv.stdout);
  const cell = (metric: string) => rows.find((x) => x[0] === 'groupAnalysis' && x[1] === metric);
  assert.deepEqual(cell('size [group: head]')!.slice(2, 3), ['4']);
  assert.equal(num(cell('coverage [group: head]')![2]!), 0.75);
  assert.equal(cell('scoreMean [group: head]')![2], '');
  assert.equal(cell('scoreGap [group: head]')![2], '');
  // a cell with quotes is quoted (RFC 4180) and reads back as written
  assert.ok(rows.some((x) => x[1] === `size [group: =HYPERLINK("x")]`));
  const md = cli(['evaluate', noScoreFile, '--bootstrap-n', '0', '--format', 'markdown']);
  assert.match(md.stdout, /\n\| group \| size \| coverage \| error \| TPR \| FPR \| score mean \|/);
  assert.match(md.stdout, /\| head \| 4 \| 0\.7500 \| 0\.3333 \| 0\.6667 \| 1\.0000 \| — \| — \|/);
});

async function digits(): Promise<{ file: string; r: Results }> {
  const r = await evaluateFile('examples/digits-lt/logreg.csv', { overrides: { bootstrap: { n: 0 } } });
  const file = join(dir, 'logreg.eval.json');
  writeFileSync(file, JSON.stringify(r));
  return { file, r };
}
const made = digits();

function assertCurveCsv(text: string, c: Curve): void {
  const rows = parseCsv(text);
  const extra = Object.keys(c.extra ?? {});
  assert.deepEqual(rows[0], [c.x, c.y, ...extra]);
  assert.equal(rows.length - 1, c.xs.length);
  c.xs.forEach((x, i) => {
    const row = rows[i + 1]!;
    assert.equal(num(row[0]!), x);
    assert.equal(num(row[1]!), c.ys[i] ?? null);
    extra.forEach((k, j) => assert.equal(num(row[2 + j]!), c.extra![k]![i] ?? null, `${k}[${i}]`));
  });
}

test('report --table rc_grid: the 101 grid points, whose trapezoid is aurc_grid101', async () => {
  const { file, r } = await made;
  const g = r.curves.riskCoverageGrid101!;
  assert.equal(g.xs.length, 101);
  const text = await renderReportFile(file, 'logreg.eval.json', 'csv', { table: 'rc_grid' });
  assertCurveCsv(text, g);
  const rows = parseCsv(text).slice(1);
  // n rows (the last point accepts all): point i accepts ⌊n·i/101⌋ rows, x = accepted / n (no weights)
  const n = Number(rows[100]![2]);
  assert.ok(n >= 101 && n <= r.source.rowsUsed, String(n));
  assert.equal(
    n,
    r.tables.groupAnalysis!.reduce((a, g) => a + g.size, 0),
  );
  rows.forEach((row, i) => {
    assert.equal(Number(row[2]), Math.floor(n * ((i + 1) / 101)));
    assert.equal(Number(row[0]), Number(row[2]) / n);
  });
  const xs = rows.map((x) => Number(x[0]));
  const risk = rows.map((x) => Number(x[1]));
  assert.equal(xs[100], 1);
  assert.ok(Math.abs(trapz(risk, xs, 0) - r.metrics.aurc_grid101!.value!) < 1e-15);
  const bal = rows.map((x) => Number(x[3]));
  assert.ok(Math.abs(trapz(bal, xs, 0) - r.metrics.aurc_balanced_grid101!.value!) < 1e-15);
});

test('report --table rc_exact, cost_sweep and groups: the results values, column for column', async () => {
  const { file, r } = await made;
  assertCurveCsv(
    await renderReportFile(file, 'logreg.eval.json', 'csv', { table: 'rc_exact' }),
    r.curves.riskCoverage!,
  );
  assertCurveCsv(await renderReportFile(file, 'logreg.eval.json', 'csv', { table: 'cost_sweep' }), r.curves.costSweep!);
  const rows = parseCsv(await renderReportFile(file, 'logreg.eval.json', 'csv', { table: 'groups' }));
  const fields = rows[0]!;
  assert.deepEqual(fields.slice(0, 4), ['group', 'size', 'coverage', 'error']);
  assert.ok(fields.includes('scoreGap'));
  const t = r.tables.groupAnalysis!;
  assert.equal(rows.length - 1, t.length);
  t.forEach((g, i) => {
    assert.equal(rows[i + 1]![0], g.group);
    fields
      .slice(1)
      .forEach((f, j) =>
        assert.equal(num(rows[i + 1]![j + 1]!), (g as unknown as Record<string, number | null>)[f], f),
      );
  });
  // error is error_group.<g>
  assert.equal(t[0]!.error, r.metrics['error_group.head']!.value);
  // and the metrics CSV of `report` carries the same rows
  const all = parseCsv(await renderReportFile(file, 'logreg.eval.json', 'csv'));
  assert.equal(num(all.find((x) => x[1] === 'scoreGap [group: tail]')![2]!), t[1]!.scoreGap);
});

test('report --table: CSV only, a missing table names what the results hold', async () => {
  const { file } = await made;
  const bad = cli(['report', file, '--format', 'md', '--table', 'groups']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--table groups writes CSV/);
  const r = await evaluateFile(noScoreFile, { overrides: { bootstrap: { n: 0 } } });
  const f = join(dir, 'noscore.eval.json');
  writeFileSync(f, JSON.stringify(r));
  const miss = cli(['report', f, '--format', 'csv', '--table', 'rc_grid']);
  assert.equal(miss.status, 1);
  assert.match(miss.stderr, /no curves\.riskCoverageGrid101 .* Tables present: groups\./);
  const ok = cli(['report', f, '--format', 'csv', '--table', 'groups']);
  assert.equal(ok.status, 0, ok.stderr);
  // the formula-like group name gets a leading quote inside its quoted cell
  assert.ok(ok.stdout.includes(`"'=HYPERLINK(""x"")",`), ok.stdout);
});

test('with reweight: the uniform and reweighted group errors are columns of the group table, as in the JSON', async () => {
  const r = await evaluateFile(noScoreFile, { overrides: { bootstrap: { n: 0 }, reweight: true } });
  const t = r.tables.groupAnalysis!;
  assert.ok(t.every((g) => g.errorUniform !== undefined && g.errorReweighted !== undefined));
  const rows = parseCsv(groupAnalysisCsv(r)!);
  const at = (f: string) => rows[0]!.indexOf(f);
  assert.ok(at('errorUniform') > 0 && at('errorReweighted') > 0);
  t.forEach((g, i) => {
    assert.equal(num(rows[i + 1]![at('errorUniform')]!), g.errorUniform);
    assert.equal(num(rows[i + 1]![at('errorReweighted')]!), g.errorReweighted);
  });
  // head: uniform error 1/3 (one wrong of 3 accepted, as without reweight)
  assert.equal(t[0]!.errorUniform, 1 / 3);
  assert.match(formatGroupAnalysisTable(r), /error \(uniform\) +error \(reweighted\)/);
});
