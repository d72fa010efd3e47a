import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatCsv,
  formatMarkdown,
  formatTable,
  metricSections,
  sharedClauses,
} from '../../../../src/core/results/format';
import { classificationResults, rankingResults, selectiveResults } from '../../helpers/sampleResults';

test('sections follow results.families; unlisted metrics come last under Other', () => {
  const r = classificationResults();
  r.metrics.mystery = { value: 2, direction: 'higher' };
  const s = metricSections(r);
  assert.deepEqual(
    s.map((x) => x.title),
    ['Classification', 'Long tail', 'Evolving test distributions', 'Selective classification', 'Calibration', 'Other'],
  );
  assert.deepEqual(
    s[0]!.rows.map((x) => x.key),
    ['accuracy', 'balanced_accuracy', 'top5_accuracy', 'nll'],
  );
  assert.deepEqual(
    s[5]!.rows.map((x) => x.key),
    ['mystery'],
  );
  const all = s.flatMap((x) => x.rows.map((y) => y.key)).sort();
  assert.deepEqual(all, Object.keys(r.metrics).sort(), 'every metric exactly once');
});

test('formatTable: source line, aligned rows with value, CI, direction, note; warnings', () => {
  const t = formatTable(classificationResults());
  const lines = t.split('\n');
  assert.equal(lines[0], 'Eval Lens 0.1.0 results');
  assert.equal(lines[1], '  preds.csv · task classification · 5 rows · csv · sha256 abababababab');
  assert.equal(lines[2], '  config /w/eval-lens.json · bootstrap 1000 resamples, 95% CI, seed = 0');
  assert.ok(lines.includes('Classification'));
  const acc = lines.find((l) => l.startsWith('  accuracy '))!;
  // the CI column is as wide as its widest cell, worst_error's "[0.5200, 0.6000] ‡" (its interval excludes 0.5)
  assert.match(acc, /^ {2}accuracy +0\.8000 {2}\[0\.7000, 0\.9000\] {4}↑ +Accuracy$/, 'the note is the glossary name');
  assert.match(
    lines.find((l) => l.startsWith('  worst_error'))!,
    / 0\.5000 {2}\[0\.5200, 0\.6000\] ‡ {2}↓ /,
  );
  assert.ok(t.includes('\n  ‡ the interval excludes the value'), 'the mark is explained under the tables');
  assert.match(
    lines.find((l) => l.startsWith('  top5_accuracy'))!,
    / 1\.0000 /,
    'a rate of 1 keeps its decimals',
  );
  assert.match(
    lines.find((l) => l.startsWith('  nll'))!,
    /0\.4321 +↓ +Negative log-likelihood$/,
  );
  assert.match(
    lines.find((l) => l.startsWith('  acc_few'))!,
    /— +↑ +Few-shot accuracy — no few-shot class has test rows$/,
    'an undefined value keeps the reason',
  );
  assert.match(
    lines.find((l) => l.startsWith('  ece'))!,
    /5\.00e-5/,
    'tiny values are not shown as 0.0000',
  );
  const header = lines.find((l) => l.startsWith('  metric'))!;
  assert.equal(
    header.indexOf('value') + 'value'.length,
    acc.indexOf('0.8000') + '0.8000'.length,
    'values are right-aligned under their header',
  );
  assert.ok(t.includes('Warnings (1)\n  ! empty-class: class b has no test rows (preds.csv:2; count 1)\n'));
  assert.ok(t.endsWith('\n'));
});

test('formatTable: percentages only when asked, and only for rates', () => {
  const plain = formatTable(rankingResults());
  assert.match(plain, /recall@10 +0\.3100 +0\.1200 +0\.0100 +\[0\.2800, 0\.3400\]/);
  assert.ok(!/\d%/.test(plain.replaceAll('95% CI', '')), 'no percentage besides the CI title');
  const pct = formatTable(rankingResults(), { percent: true });
  assert.match(pct, /recall@10 +31\.00% +12\.00% +1\.00% +\[28\.00%, 34\.00%\]/);
  assert.match(pct, /novelty@10 +7\.5000/);
  assert.match(pct, /users_evaluated +900 /);
  assert.match(pct, /metric +value +popularity +random +95% CI +better +note/);
});

test('formatTable: no intervals when the bootstrap is off; no warnings section without warnings', () => {
  const t = formatTable(selectiveResults());
  assert.ok(t.includes('config /w/eval-lens.json · no bootstrap intervals'));
  const r = rankingResults();
  assert.ok(!formatTable(r).includes('Warnings'));
});

test('formatMarkdown: heading, one table per family, escaped cells, baselines, warnings', () => {
  const md = formatMarkdown(classificationResults());
  assert.ok(
    md.startsWith(
      '## Eval Lens results: preds.csv\n\npreds.csv · task classification · 5 rows · csv · sha256 abababababab  \n',
    ),
  );
  assert.ok(
    md.includes(
      '### Classification\n\n| Metric | Key | Value | 95% CI | Better | Note |\n|---|---|---:|---|:-:|---|\n| Accuracy | accuracy | 0.8000 | [0.7000, 0.9000] | ↑ |  |\n',
    ),
  );
  assert.ok(
    md.includes(
      '| Worst class-group selective error | worst\\_error | 0.5000 | [0.5200, 0.6000] ‡ | ↓ | percentile interval of a max \\| may miss the estimate |',
    ),
  );
  assert.ok(md.includes('### Warnings (1)\n\n- empty-class: class b has no test rows (preds.csv:2; count 1)\n'));
  const rk = formatMarkdown(rankingResults());
  assert.ok(
    rk.includes(
      '| Metric | Key | Value | popularity | random | 95% CI | Better | Note |\n|---|---|---:|---:|---:|---|:-:|---|\n| Recall at 10 | recall@10 | 0.3100 | 0.1200 | 0.0100 | [0.2800, 0.3400] | ↑ |  |',
    ),
  );
  assert.ok(rk.includes('| NDCG at 10 | ndcg@10 | 0.2200 | 0.0800 | — |  | ↑ |  |'));
});

test('formatCsv: one row per metric, full precision, quoted where needed, baselines as columns', () => {
  const csv = formatCsv(classificationResults()).split('\n');
  assert.equal(csv[0], 'family,metric,value,ci_lower,ci_upper,direction,note');
  assert.equal(csv[1], 'classification,accuracy,0.8,0.7,0.9,higher,');
  assert.ok(csv.includes('longtail,acc_few,,,,higher,no few-shot class has test rows'));
  assert.ok(csv.includes('evolving,shift_std,0.01234,,,lower,'));
  assert.ok(csv.includes('calibration,ece,0.00005,,,lower,'));
  assert.equal(csv.length, 1 + 10 + 1, 'header, ten metrics, final newline');
  const r = classificationResults();
  r.metrics.accuracy!.note = 'said "hi", twice';
  assert.equal(formatCsv(r).split('\n')[1], 'classification,accuracy,0.8,0.7,0.9,higher,"said ""hi"", twice"');
  const rk = formatCsv(rankingResults()).split('\n');
  assert.equal(rk[0], 'family,metric,value,ci_lower,ci_upper,direction,note,baseline_popularity,baseline_random');
  assert.equal(rk[1], 'ranking,recall@10,0.31,0.28,0.34,higher,,0.12,0.01');
  assert.equal(rk[2], 'ranking,ndcg@10,0.22,,,higher,,0.08,');
  assert.equal(rk[3], 'ranking,mrr,0.4,,,higher,,,');
});

test('formatTable: maxWidth cuts long notes with an ellipsis, keeping at least 20 characters', () => {
  const r = classificationResults();
  r.metrics.mystery = { value: 1, direction: 'higher', note: 'x'.repeat(200) };
  const full = formatTable(r);
  assert.ok(full.includes('x'.repeat(200)), 'a key the glossary does not know keeps its note');
  const cut = formatTable(r, { maxWidth: 80 });
  const acc = cut.split('\n').find((l) => l.startsWith('  mystery '))!;
  assert.equal(acc.length, 80);
  assert.ok(acc.endsWith('x…'));
  const narrow = formatTable(r, { maxWidth: 10 })
    .split('\n')
    .find((l) => l.startsWith('  mystery '))!;
  assert.ok(narrow.endsWith(`${'x'.repeat(19)}…`));
});

test('formatTable: what the notes of a family share is stated once, under its title; the rows keep only the name', () => {
  const r = selectiveResults();
  const op = 'accept score ≥ 0.5 (acceptThreshold)';
  r.metrics.coverage = { value: 0.8, direction: 'higher', note: `Σw·A / Σw; ${op}; all 10 rows` };
  r.metrics.selective_risk = { value: 0.125, direction: 'lower', note: `Σw·A·1[ŷ≠y] / Σw·A; ${op}; all 10 rows` };
  r.metrics.aurc_grid101 = { value: null, direction: 'lower', note: '101 evenly spaced coverages, trapezoid rule' };
  r.metrics.aurc_worst_grid101 = {
    value: null,
    direction: 'lower',
    note: '101 evenly spaced coverages, trapezoid rule',
  };
  r.families.selective = ['coverage', 'selective_risk', 'aurc_grid101', 'aurc_worst_grid101'];
  const lines = formatTable(r).split('\n');
  const title = lines.indexOf('Selective classification');
  assert.equal(lines[title + 1], `  Common to these rows: ${op}; all 10 rows`);
  assert.match(
    lines.find((l) => l.startsWith('  coverage '))!,
    /↑ +Coverage$/,
  );
  assert.match(
    lines.find((l) => l.startsWith('  selective_risk '))!,
    /↓ +Selective risk$/,
  );
  assert.equal(lines.filter((l) => l.includes(op)).length, 1, 'the operating point appears once');
  // The grid AURCs are one kind of metric (one glossary formula): their shared definition is not hoisted.
  assert.match(
    lines.find((l) => l.startsWith('  aurc_grid101 '))!,
    /AURC, 101-point grid — 101 evenly spaced coverages, trapezoid rule$/,
  );
  assert.ok(formatTable(r).includes('Definitions and references: eval-lens explain KEY.'));
});

test('sharedClauses: clauses shared by two kinds of metric; two cutoffs of one metric are one kind', () => {
  const m = (note: string) => ({ value: 1, direction: 'higher' as const, note });
  assert.deepEqual(
    sharedClauses([
      { key: 'recall@5', m: m('a; all users') },
      { key: 'recall@10', m: m('a; all users') },
    ]),
    [],
  );
  assert.deepEqual(
    sharedClauses([
      { key: 'recall@5', m: m('a; all users') },
      { key: 'ndcg@5', m: m('b; all users') },
    ]),
    ['all users'],
  );
  assert.deepEqual(
    sharedClauses([
      { key: 'worst_error', m: m('max; t = 0.5. A max is biased') },
      { key: 'coverage', m: m('Σ; t = 0.5') },
    ]),
    ['t = 0.5'],
  );
});

test('a spread over users and a count show no better direction ("–") in the text and Markdown tables', () => {
  const r = rankingResults();
  // The results file stores higher/lower for every key; the glossary says these have none.
  r.metrics['ndcg_std@10'] = { value: 0.25, direction: 'higher' };
  r.metrics['diversity_std@10'] = { value: 0.1, direction: 'higher' };
  (r.families.ranking ??= []).push('ndcg_std@10', 'diversity_std@10');
  const cell = (line: string | undefined): string[] => line!.trim().split(/\s{2,}/);
  const lines = formatTable(r).split('\n');
  for (const key of ['ndcg_std@10', 'diversity_std@10', 'users_evaluated'])
    assert.ok(cell(lines.find((l) => l.startsWith(`  ${key} `))).includes('–'), key);
  assert.ok(cell(lines.find((l) => l.startsWith('  ndcg@10 '))).includes('↑'));
  const md = formatMarkdown(r);
  assert.match(md, /\| ndcg\\_std@10 \| 0\.2500 \|[^\n]*\| – \|/);
  assert.match(md, /\| ndcg@10 \| 0\.2200 \|[^\n]*\| ↑ \|/);
  // the CSV keeps the stored value (data, not a display)
  assert.ok(formatCsv(r).includes('ranking,ndcg_std@10,0.25,,,higher,'));
});
