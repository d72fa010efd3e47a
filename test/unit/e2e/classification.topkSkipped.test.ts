// top-k accuracy with k not smaller than the number of classes is skipped, with one note for all such k.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../src/core/evaluate';
import { formatMarkdown, formatTable } from '../../../src/core/results/format';
import { buildReportModel } from '../../../src/shared/report';
import { reportToHtml } from '../../../src/shared/exportHtml';

test('top-k with k >= classes: no metric, one note naming every such k', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-topk-'));
  writeFileSync(join(dir, 'preds.csv'), 'label,prob_a,prob_b,prob_c\na,0.7,0.2,0.1\nb,0.5,0.3,0.2\nc,0.1,0.1,0.8\n');
  writeFileSync(join(dir, 'eval-lens.json'), JSON.stringify({ topK: [2, 3, 5], bootstrap: { n: 20 } }));
  const r = await evaluateFile(join(dir, 'preds.csv'));
  // Row b has rank 2 (0.5 > 0.3): a top-2 hit; all three rows are top-2 hits.
  assert.equal(r.metrics.top2_accuracy?.value, 1);
  assert.equal(r.metrics.top3_accuracy, undefined);
  assert.equal(r.metrics.top5_accuracy, undefined);
  const notes = r.warnings.filter((w) => w.code.startsWith('topk') || /top-k|top\d+_accuracy/.test(w.message));
  assert.equal(notes.length, 1, JSON.stringify(r.warnings));
  assert.equal(notes[0]!.code, 'topk-skipped');
  assert.match(notes[0]!.message, /k = 3, 5: with 3 classes/);
});

test('the skipped top-k is a note on every surface, not a warning: terminal, Markdown, report header, HTML', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-topk-'));
  // Row b's probabilities do not sum to 1, and 3 rows are too few for the 101-point grid: two real
  // warnings beside the note.
  writeFileSync(join(dir, 'preds.csv'), 'label,prob_a,prob_b,prob_c\na,0.7,0.2,0.1\nb,0.5,0.3,0.1\nc,0.1,0.1,0.8\n');
  writeFileSync(join(dir, 'eval-lens.json'), JSON.stringify({ topK: [2, 5], bootstrap: { n: 0 } }));
  const r = await evaluateFile(join(dir, 'preds.csv'));
  const codes = r.warnings.map((w) => w.code);
  assert.ok(codes.includes('topk-skipped') && codes.length === 3, codes.join(', '));
  const others = r.warnings.filter((w) => w.code !== 'topk-skipped').map((w) => w.code);

  const table = formatTable(r);
  assert.match(table, /\nNotes \(1\)\n {2}i topk-skipped: top-k accuracy not reported for k = 5/);
  assert.match(table, /\nWarnings \(2\)\n {2}! /);
  assert.ok(!/Warnings[^\n]*\n(?: {2}! [^\n]*\n)*[^\n]*topk-skipped/.test(table), 'the note is not among the warnings');

  const md = formatMarkdown(r);
  assert.match(md, /### Notes \(1\)\n\n- topk-skipped: /);
  assert.match(md, /### Warnings \(2\)\n\n- /);

  const m = buildReportModel(r);
  assert.equal(m.header.notes?.length, 1);
  assert.match(m.header.notes![0]!, /^topk-skipped: /);
  assert.deepEqual(
    m.header.warnings.map((w) => w.split(':')[0]),
    others,
  );
  const html = reportToHtml(m);
  assert.match(html, /<div class="note"><strong>Notes \(1\)<\/strong><ul><li>topk-skipped: /);
  assert.match(html, /<strong>Warnings \(2\)<\/strong>/);
});
