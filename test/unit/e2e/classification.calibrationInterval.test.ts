// A classification file evaluated with a bootstrap: the binned calibration errors get the basic
// bootstrap interval (recorded as ci_method), the other metrics keep the percentile one, and every
// surface (report cards, terminal table, Markdown) names the interval's kind and flags any interval
// that excludes its point.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../src/core/evaluate';
import { formatMarkdown, formatTable } from '../../../src/core/results/format';
import { validateResults } from '../../../src/core/results/validate';
import { buildReportModel } from '../../../src/shared/report';
import { BASIC_CI_LABEL, EXCLUDES_CAVEAT } from '../../../src/shared/report/common';
import { createRng } from '../../../src/core/stats/rng';
import type { Results } from '../../../src/core/results/types';

/** 600 rows, two classes; the top-label confidence uniform on (0.5, 1), accuracy 0.05 below it in every bin. */
function miscalibratedCsv(): string {
  const rng = createRng(31);
  const lines = ['label,prob_a,prob_b'];
  for (let i = 0; i < 600; i++) {
    const conf = 0.5 + 0.5 * rng.next();
    const pred = rng.next() < 0.5 ? 'a' : 'b';
    const correct = rng.next() < conf - 0.05;
    const label = correct ? pred : pred === 'a' ? 'b' : 'a';
    const pa = pred === 'a' ? conf : 1 - conf;
    lines.push(`${label},${pa.toFixed(6)},${(1 - pa).toFixed(6)}`);
  }
  return lines.join('\n') + '\n';
}

async function evaluated(): Promise<Results> {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-calci-'));
  writeFileSync(join(dir, 'preds.csv'), miscalibratedCsv());
  writeFileSync(join(dir, 'eval-lens.json'), JSON.stringify({ bootstrap: { n: 400, seed: 5 } }));
  return evaluateFile(join(dir, 'preds.csv'));
}

test('ece, mce, ece_adaptive: basic bootstrap intervals, below the biased percentile ones, covering the true 0.05', async () => {
  const r = await evaluated();
  assert.deepEqual(validateResults(r), []);
  for (const key of ['ece', 'mce', 'ece_adaptive']) {
    const m = r.metrics[key]!;
    assert.equal(m.ci_method, 'basic', key);
    const [lo, hi] = m.ci!;
    // the basic interval is the percentile one reflected about the point: resampling pushes the
    // resamples' values above the point, so the basic interval's centre lies below it
    assert.ok((lo + hi) / 2 < m.value!, `${key} ${m.value} [${lo}, ${hi}]`);
    assert.ok(lo >= 0 && hi <= 1);
  }
  // the population's ECE and MCE (15 bins) are 0.05: both intervals cover it on this sample
  for (const key of ['ece', 'mce']) {
    const [lo, hi] = r.metrics[key]!.ci!;
    assert.ok(lo <= 0.05 && 0.05 <= hi, `${key} [${lo}, ${hi}]`);
  }
  for (const key of ['accuracy', 'nll', 'aurc']) {
    assert.ok(r.metrics[key]?.ci, key);
    assert.equal(r.metrics[key]!.ci_method, undefined, key);
  }
});

test('the report and the text tables name the basic interval and flag every interval that excludes its point', async () => {
  const r = await evaluated();
  const model = buildReportModel(r);
  assert.match(
    model.header.lines.find((l) => l.label === 'Intervals')!.value,
    /^percentile bootstrap \(basic bootstrap for the calibration errors\), 400 resamples/,
  );
  const cards = model.tabs.flatMap((t) => t.cards);
  const ece = cards.find((c) => c.key === 'ece')!;
  assert.match(ece.ci, new RegExp(`^\\[[0-9.]+, [0-9.]+\\] ${BASIC_CI_LABEL}$`));
  assert.match(ece.note!, /basic bootstrap.*Davison & Hinkley 1997/);
  assert.doesNotMatch(cards.find((c) => c.key === 'accuracy')!.ci, /basic/);
  const table = formatTable(r);
  assert.match(table, /\n {2}ece +[0-9.]+ +\[[0-9.]+, [0-9.]+\] basic/);
  assert.match(table, /basic: a basic bootstrap interval/);

  // An interval that excludes its point, on keys that no rule flagged before (ece, accuracy): the
  // card's caveat, the ‡ in the terminal table and in Markdown, and its legend.
  const ecePoint = r.metrics.ece!.value!;
  r.metrics.ece!.ci = [ecePoint + 0.01, ecePoint + 0.02];
  r.metrics.accuracy!.ci = [r.metrics.accuracy!.value! - 0.05, r.metrics.accuracy!.value! - 0.01];
  const flagged = buildReportModel(r).tabs.flatMap((t) => t.cards);
  for (const key of ['ece', 'accuracy']) {
    const c = flagged.find((x) => x.key === key)!;
    assert.equal(c.caveat, EXCLUDES_CAVEAT, key);
    assert.match(c.note!, /does not contain the point estimate/, key);
  }
  assert.equal(flagged.find((x) => x.key === 'nll')!.caveat, undefined);
  const t2 = formatTable(r);
  assert.match(t2, /\n {2}ece +[0-9.]+ +\[[0-9.]+, [0-9.]+\] basic ‡/);
  assert.match(t2, /\n {2}accuracy +[0-9.]+ +\[[0-9.]+, [0-9.]+\] ‡/);
  assert.match(t2, /‡ the interval excludes the value/);
  assert.doesNotMatch(t2, /\n {2}nll .*‡/);
  const md = formatMarkdown(r);
  assert.match(md, /\| accuracy \| [0-9.]+ \| \[[0-9.]+, [0-9.]+\] ‡ \|/);
  assert.match(md, /‡ the interval excludes the value/);
});
