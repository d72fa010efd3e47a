/// <reference types="mocha" />
/**
 * Compare Runs…, Open Report, Export Report (HTML / Markdown / CSV) and Create Evaluation Config,
 * through their commands. Where a command asks (the baseline, the config's questions), the test
 * answers with the default item, as a person pressing Enter would.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import Ajv from 'ajv';
import * as vscode from 'vscode';
import compareSchema from '../../schemas/eval-lens.compare.schema.json';
import configSchema from '../../schemas/eval-lens.config.schema.json';
import {
  activate,
  closeAllEditors,
  evaluate,
  makeFolder,
  mtime,
  readJson,
  reportTabs,
  runAccepting,
  uri,
  waitFor,
  ws,
} from './helpers';

interface Compare {
  schema: string;
  runs: string[];
  baseline: string;
  metrics: string[];
  table: Record<string, Record<string, number | null>>;
  marks: Record<string, Record<string, number>>;
}

describe('compare, report, export, config', function () {
  this.timeout(240_000);
  before(async () => {
    await activate();
    // Two runs of the same held-out rows (the compare needs results; the evaluate suite may have
    // run first, but each file of tests stands alone).
    if (!existsSync(ws('digits-lt/logreg.eval.json')))
      await evaluate('digits-lt/logreg.csv', 'digits-lt/logreg.eval.json');
    await evaluate('digits-lt/svc_rbf.csv', 'digits-lt/svc_rbf.eval.json');
  });
  after(closeAllEditors);

  it("compares two runs → logreg-vs-svc_rbf.compare.json, schema-valid, with the runs' own accuracies", async () => {
    const out = ws('digits-lt/logreg-vs-svc_rbf.compare.json');
    const a = uri('digits-lt/logreg.eval.json');
    const b = uri('digits-lt/svc_rbf.eval.json');
    // As from the explorer with both selected: (clicked, allSelected). The baseline pick defaults to the first.
    await runAccepting('evalLens.compare', [a, [a, b]], () => existsSync(out));
    const c = await waitFor('the comparison file', () => (existsSync(out) ? readJson<Compare>(out) : undefined));
    const ajv = new Ajv({ allErrors: true, strict: false });
    ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT/);
    const valid = ajv.validate(compareSchema, c);
    assert.ok(valid, JSON.stringify(ajv.errors?.slice(0, 5)));
    assert.equal(c.runs.length, 2);
    assert.match(c.baseline, /logreg/);
    assert.ok(c.metrics.includes('accuracy'));
    const acc = Object.fromEntries(
      Object.entries(c.table).map(([run, row]) => [run.replace(/^.*\//, ''), row.accuracy]),
    );
    // examples/README.md: on the 150 test rows logreg 0.7400 (111), svc_rbf 0.8133 (122).
    assert.equal(acc['logreg.eval.json'] ?? acc['logreg.csv'] ?? acc.logreg, 111 / 150);
    assert.equal(acc['svc_rbf.eval.json'] ?? acc['svc_rbf.csv'] ?? acc.svc_rbf, 122 / 150);
    // svc_rbf is the more accurate: it carries the best mark (1) for accuracy.
    const best = Object.entries(c.marks.accuracy ?? {}).find(([, m]) => m === 1)?.[0];
    assert.match(best ?? '', /svc_rbf/);
    const ctx = await activate();
    await waitFor(
      "the comparison's report panel to be the active one",
      () => ctx.panels.activeUri()?.fsPath === out,
      30_000,
    );
    assert.ok(reportTabs().length >= 1);
    // Two runs: only the better one is marked.
    assert.deepEqual(Object.values(c.marks.accuracy ?? {}), [1]);
  });

  it('the same runs in the other order (the other baseline) replace the same comparison file', async () => {
    const out = ws('digits-lt/logreg-vs-svc_rbf.compare.json');
    const before = mtime(out);
    const a = uri('digits-lt/logreg.eval.json');
    const b = uri('digits-lt/svc_rbf.eval.json');
    await runAccepting('evalLens.compare', [b, [b, a]], () => existsSync(out) && mtime(out) > before);
    const c = await waitFor('the rewritten comparison', () =>
      mtime(out) > before ? readJson<Compare>(out) : undefined,
    );
    assert.match(c.baseline, /svc_rbf/);
    assert.ok(!readdirSync(ws('digits-lt')).includes('svc_rbf-vs-logreg.compare.json'));
  });

  it('Open Report opens one report panel per results file (no duplicate when opened twice)', async () => {
    await closeAllEditors();
    await vscode.commands.executeCommand('evalLens.openReport', uri('digits-lt/svc_rbf.eval.json'));
    await waitFor('a report tab', () => reportTabs().length === 1, 30_000);
    await vscode.commands.executeCommand('evalLens.openReport', uri('digits-lt/svc_rbf.eval.json'));
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(reportTabs().length, 1);
    assert.match(reportTabs()[0]!.label, /svc_rbf/);
  });

  it("exports HTML, Markdown and CSV with the file's accuracy in each", async () => {
    const src = uri('digits-lt/svc_rbf.eval.json');
    const html = (await vscode.commands.executeCommand<vscode.Uri>(
      'evalLens.exportReport',
      src,
      'html',
      uri('exports/svc.html'),
    ))!;
    const md = (await vscode.commands.executeCommand<vscode.Uri>(
      'evalLens.exportReport',
      src,
      'md',
      uri('exports/svc.md'),
    ))!;
    const csv = (await vscode.commands.executeCommand<vscode.Uri>(
      'evalLens.exportReport',
      src,
      'csv',
      uri('exports/svc.csv'),
    ))!;
    assert.equal(html.fsPath, ws('exports/svc.html'));
    const h = readFileSync(ws('exports/svc.html'), 'utf8');
    assert.match(h, /^<!doctype html>/i);
    assert.doesNotMatch(h, /<script[^>]+src=["']https?:/i, 'self-contained: no remote scripts');
    // The accuracy on the file's test rows (its split column), counted from the file.
    const test = readFileSync(ws('digits-lt/svc_rbf.csv'), 'utf8')
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((l) => l.split(','))
      .filter((c) => c[3] === 'test');
    const acc = test.filter((c) => c[1] === c[2]).length / test.length;
    assert.ok(h.includes(acc.toFixed(4)), `the HTML shows ${acc.toFixed(4)}`);
    assert.ok(
      readFileSync(md.fsPath, 'utf8')
        .split('\n')
        .some((l) => /\|[^|]*accuracy[^|]*\|/.test(l) && l.includes(acc.toFixed(4))),
      `the Markdown shows accuracy ${acc.toFixed(4)}`,
    );
    const lines = readFileSync(csv.fsPath, 'utf8').trim().split(/\r?\n/);
    const header = lines[0]!.split(',');
    const accRow = lines.find((l) => l.split(',')[header.indexOf('metric')] === 'accuracy');
    assert.ok(accRow, `a CSV row for accuracy; header ${lines[0]}`);
    assert.ok(Math.abs(Number(accRow.split(',')[header.indexOf('value')]) - acc) < 1e-12, accRow);
    const tex = (await vscode.commands.executeCommand<vscode.Uri>(
      'evalLens.exportReport',
      src,
      'latex',
      uri('exports/svc.tex'),
    ))!;
    const t = readFileSync(tex.fsPath, 'utf8');
    // columns headed by the metrics' short headings, mapped back to their keys by the comment line above
    assert.match(t, /^% Columns: Accuracy = accuracy; /);
    assert.match(t, /\\toprule[\s\S]*Accuracy \$\\uparrow\$[\s\S]*\\midrule[\s\S]*\\bottomrule/);
    assert.ok(t.includes(`svc\\_rbf & ${acc.toFixed(4)} &`), 'the LaTeX row starts with the test-row accuracy');
  });

  it('Create Evaluation Config writes a schema-valid eval-lens.json from the detected columns', async () => {
    const dir = makeFolder('config-check', {}, { 'preds.csv': 'digits-lt/logreg.csv' });
    const target = `${dir}/eval-lens.json`;
    await runAccepting('evalLens.createConfig', [uri('config-check/preds.csv')], () => existsSync(target));
    const cfg = await waitFor('eval-lens.json', () =>
      existsSync(target) ? readJson<Record<string, unknown>>(target) : undefined,
    );
    const ajv = new Ajv({ allErrors: true, strict: false });
    assert.ok(ajv.validate(configSchema, cfg), JSON.stringify(ajv.errors?.slice(0, 5)));
    assert.equal(cfg.task, 'classification');
    // The detected label column is "label": either written or left to detection.
    const cols = cfg.columns as { label?: string } | undefined;
    assert.ok(cols?.label === undefined || cols.label === 'label');
    // The config it wrote is usable: evaluating with it works.
    const r = await evaluate('config-check/preds.csv', 'config-check/preds.eval.json');
    assert.equal(r.metrics.accuracy!.value, 111 / 150); // the test rows of its split column
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
