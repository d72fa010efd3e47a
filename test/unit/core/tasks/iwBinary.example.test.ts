// The real-data example (examples/iw-breast-cancer, made by its _make_example.py): the runner with
// the folder's eval-lens.json reproduces scikit-learn's weighted and unweighted values recorded by
// the script, and the bootstrap gives intervals around them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { IW_KEYS } from '../../../../src/core/metrics/importance';
import { runIw } from '../../helpers/iwBinary';

const dir = 'examples/iw-breast-cancer';
const cfg = JSON.parse(readFileSync(`${dir}/eval-lens.json`, 'utf8')) as {
  populationSize: number;
  biasedSize: number;
  threshold: number;
};
const truth = JSON.parse(readFileSync(`${dir}/_population_truth.json`, 'utf8')) as {
  models: Record<string, { weighted_estimate: Record<string, number>; unweighted: Record<string, number> }>;
};

for (const model of Object.keys(truth.models)) {
  test(`example ${model}: weighted and unweighted values = scikit-learn's`, async () => {
    const { results, source } = await runIw(`${dir}/${model}.csv`, { ...cfg, task: 'iw-binary', bootstrapN: 200 });
    assert.equal(source.rowsUsed, 187);
    for (const k of IW_KEYS) {
      const m = results.metrics[k];
      assert.ok(
        Math.abs(m.value! - truth.models[model].weighted_estimate[k]) < 1e-12,
        `${k}: ${m.value} vs ${truth.models[model].weighted_estimate[k]}`,
      );
      assert.ok(
        Math.abs(results.baselines!.unweighted[k].value! - truth.models[model].unweighted[k]) < 1e-12,
        `unweighted ${k}`,
      );
      assert.ok(m.ci && 0 <= m.ci[0] && m.ci[0] <= m.ci[1] && m.ci[1] <= 1, `${k} interval ${m.ci}`);
    }
  });
}
