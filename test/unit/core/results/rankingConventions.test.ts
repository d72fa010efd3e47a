// The ranking conventions that differ from a common alternative — MAP's normaliser and the
// popularity baseline's seen-item exclusion — are said next to the numbers: in the terminal table,
// the Markdown and HTML reports and the report panel's metric × K table, not only in the JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { evaluateFile } from '../../../../src/core/evaluate';
import { formatMarkdown, formatTable } from '../../../../src/core/results/format';
import { rankingConventionNotes } from '../../../../src/core/results/rankingConventions';
import { buildReportModel } from '../../../../src/shared/report';
import { exportReport } from '../../../../src/shared/exportReport';
import type { EvalConfig } from '../../../../src/core/config/types';

const SAME = join(__dirname, '../../../fixtures/ranking/same');
const ev = (o: EvalConfig) =>
  evaluateFile(join(SAME, 'run.jsonl'), { overrides: { task: 'ranking', k: [3], bootstrap: { n: 0 }, ...o } });
const flat = (s: string) => s.replace(/\s+/g, ' ');

test('the MAP normaliser and the popularity baseline are said where the numbers are shown', async () => {
  const r = await ev({ train: 'train.csv' });
  const notes = rankingConventionNotes(r);
  assert.equal(notes.length, 2);
  assert.match(
    notes[0]!,
    /^MAP: AP@K is divided by min\(\|R_u\|, K\) \(mapNormaliser "min", as RecBole\); trec_eval divides by \|R_u\|/,
  );
  assert.match(
    notes[1]!,
    /^Popularity baseline: the most frequent train items with each user's own train items excluded \(as the run is masked, maskSeen\)/,
  );

  // Terminal table: under the Ranking title, before the rows.
  const table = formatTable(r);
  const ranking = table.slice(table.indexOf('\nRanking\n'));
  const conv = flat(ranking.slice(0, ranking.indexOf('metric ')));
  for (const n of notes) assert.ok(conv.includes(`Convention: ${n}`), `table: ${n}`);
  // Markdown: under the Ranking table.
  const md = formatMarkdown(r);
  for (const n of notes) assert.ok(flat(md).includes(`Convention: ${n.replace(/([|*_])/g, '\\$1')}`), `markdown: ${n}`);
  // Report panel and HTML: the note of the metric × K table.
  const lead = buildReportModel(r).tabs.find((t) => t.id === 'ranking')!.leadTables![0]!;
  for (const n of notes) assert.ok(lead.note!.includes(`Convention: ${n}`), `panel: ${n}`);
  const html = exportReport({ kind: 'results', results: r }, 'html');
  assert.ok(html.includes('Convention: MAP: AP@K is divided by min(|R_u|, K)'), 'html');
  // Markdown export of the report (the CLI's `report --format md`).
  assert.ok(
    flat(exportReport({ kind: 'results', results: r }, 'md')).includes('Convention: MAP: AP@K is divided by min'),
  );
});

test('the notes follow the configuration: another normaliser, no masking, no baselines', async () => {
  const hits = rankingConventionNotes(await ev({ train: 'train.csv', mapNormaliser: 'hits', maskSeen: false }));
  assert.match(hits[0]!, /divided by the relevant items found in the top K \(mapNormaliser "hits", as torchmetrics\)/);
  assert.match(hits[1]!, /the run is not masked: maskSeen false/);
  const all = rankingConventionNotes(await ev({ mapNormaliser: 'all' }));
  assert.deepEqual(all.length, 1, 'no train: no baselines, no popularity note');
  assert.match(all[0]!, /divided by \|R_u\| \(mapNormaliser "all", as trec_eval\)/);
  assert.match(formatTable(await ev({ mapNormaliser: 'all' })), /Convention: MAP/);
  // Other tasks have none.
  assert.deepEqual(rankingConventionNotes({ task: 'classification', metrics: {}, baselines: undefined }), []);
});
