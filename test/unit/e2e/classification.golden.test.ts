/**
 * Golden values from scikit-learn 1.2.1 (scripts/golden/classification.py → test/golden/classification.json).
 * Random cases: the script's own CSVs (test/fixtures/golden/classification_*.csv), read here with a
 * minimal parser so that these tests check the metrics alone. Example files (examples/*\/*.csv): read
 * with the real loader, when it is present, so they check the input rules and the metrics together.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  aggregateClassification,
  confusionMatrix,
  prepareClassification,
  type ClassificationData,
} from '../helpers/classificationMetrics';
import { close, makeData } from '../helpers/classification';

const ROOT = join(__dirname, '..', '..', '..');
const golden = JSON.parse(readFileSync(join(ROOT, 'test', 'golden', 'classification.json'), 'utf8')) as {
  random: GoldenCase[];
  examples: GoldenCase[];
};

interface GoldenCase {
  name: string;
  file: string;
  classes: string[];
  weighted: boolean;
  probs: boolean;
  topK: number[];
  values: Record<string, number | number[][]>;
}

function readFixture(c: GoldenCase): ClassificationData {
  const lines = readFileSync(join(ROOT, c.file), 'utf8').trim().split(/\r?\n/);
  const head = lines[0].split(',');
  const at = (name: string) => head.indexOf(name);
  const index = new Map(c.classes.map((k, i) => [k, i]));
  const rows = lines.slice(1).map((l) => l.split(','));
  return makeData({
    classes: c.classes,
    labels: rows.map((r) => index.get(r[at('label')])!),
    preds: rows.map((r) => index.get(r[at('pred')])!),
    probs: c.probs ? rows.map((r) => c.classes.map((k) => Number(r[at(`prob_${k}`)]))) : null,
    weights: c.weighted ? rows.map((r) => Number(r[at('weight')])) : null,
  });
}

function check(c: GoldenCase, data: ClassificationData, tol: number): void {
  const prep = prepareClassification(data, { topK: c.topK });
  const { values } = aggregateClassification(prep);
  const g = c.values as Record<string, number>;
  for (const k of ['accuracy', 'balanced_accuracy', 'macro_f1', 'matthews_corrcoef'])
    close(values[k], g[k], tol, `${c.name} ${k}`);
  if (c.probs) {
    close(values.nll, g.nll, tol, `${c.name} nll`);
    close(values.brier, g.brier, tol, `${c.name} brier`);
    if (g.log_loss_sklearn !== undefined) close(values.nll, g.log_loss_sklearn, 1e-9, `${c.name} sklearn log_loss`);
    for (const k of c.topK) {
      // Eval Lens counts ties as hits; scikit-learn breaks ties by class index: equal when no ties.
      close(
        values[`top${k}_accuracy`],
        g[`top${k}_accuracy_ties_as_hits`],
        tol,
        `${c.name} top${k} (ties as hits, numpy)`,
      );
      if (g.topk_tie_rows === 0 && g[`top${k}_accuracy`] !== undefined)
        close(values[`top${k}_accuracy`], g[`top${k}_accuracy`], tol, `${c.name} top${k} (sklearn)`);
    }
  }
  const cm = confusionMatrix(prep);
  const gcm = c.values.confusion as number[][];
  assert.equal(cm.length, gcm.length);
  cm.forEach((row, i) => row.forEach((x, j) => close(x, gcm[i][j], 1e-9, `${c.name} confusion[${i}][${j}]`)));
}

test('golden random cases (scikit-learn): accuracy, balanced accuracy, macro F1, top-k, log loss, Brier, confusion', () => {
  assert.ok(golden.random.length >= 5);
  for (const c of golden.random) check(c, readFixture(c), 1e-12);
});

test('golden example files (scikit-learn), read with the real loader', async (t) => {
  const loaderPath = join(ROOT, 'src', 'core', 'io', 'loadClassification.ts');
  if (!existsSync(loaderPath) || golden.examples.length === 0) {
    t.skip('io/loadClassification.ts or the examples are not present yet');
    return;
  }
  const { loadClassification } =
    (await import('../../../src/core/io/loadClassification')) as typeof import('../../../src/core/io/loadClassification');
  const { resolveConfig, loadConfigFile } = await import('../../../src/core/config/load');
  const { Warnings } = await import('../../../src/core/diagnostics');
  for (const c of golden.examples) {
    const file = join(ROOT, c.file);
    const cfgPath = join(file, '..', 'eval-lens.json');
    const cfg = resolveConfig(
      [existsSync(cfgPath) ? await loadConfigFile(cfgPath) : {}],
      existsSync(cfgPath) ? cfgPath : undefined,
    );
    const { data } = await loadClassification(file, cfg, new Warnings());
    assert.deepEqual(data.classes, c.classes, c.name);
    // the example files hold probabilities rounded to 6 digits: compare to 1e-9 relative
    check(c, data, 1e-9);
  }
});
