/// <reference types="mocha" />
/**
 * The threshold explorer's "Use this operating point" in the extension host: the key is written
 * into the folder's eval-lens.json through the config writer (the other keys and their layout
 * kept, the competing acceptance key removed), the file is evaluated again, and the new results
 * are exactly the chosen stored point of the curve.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useOperatingPoint } from '../../src/extension/report/operatingPointWriter';
import { activate, closeAllEditors, evaluate, readJson, uri, waitFor, ws } from './helpers';
import type { Results } from '../../src/core/results/types';

describe('threshold explorer: use this operating point', function () {
  this.timeout(240_000);
  after(closeAllEditors);

  it('writes acceptThreshold, then targetCoverage, each time re-evaluating to the chosen point', async () => {
    const ctx = await activate();
    const cfgFile = ws('cifar100-lt-like/eval-lens.json');
    const originalText = readFileSync(cfgFile, 'utf8');
    const original = JSON.parse(originalText) as Record<string, unknown>;
    const r = await evaluate('cifar100-lt-like/logreg.csv', 'cifar100-lt-like/logreg.eval.json', 60_000);
    const c = r.curves.riskCoverage!;
    const th = c.extra!.threshold as number[];
    const resultsFile = ws('cifar100-lt-like/logreg.eval.json');
    // a point near half coverage
    const k = c.xs.findIndex((x) => x >= 0.5);
    const written = r.createdAt;
    const a = await useOperatingPoint(ctx, uri('cifar100-lt-like/logreg.eval.json'), 'acceptThreshold', th[k]!);
    assert.ok(a.ok, a.message);
    assert.match(a.message, /Wrote acceptThreshold .* to cifar100-lt-like\/eval-lens\.json \(targetCoverage removed/);
    const cfgText = readFileSync(cfgFile, 'utf8');
    const expected: Record<string, unknown> = { ...original, acceptThreshold: th[k] };
    delete expected.targetCoverage;
    assert.deepEqual(JSON.parse(cfgText), expected);
    // the layout is kept: the long one-line class list is byte for byte the same line
    const classesLine = originalText.split('\n').find((l) => l.includes('"classes"'))!;
    assert.ok(cfgText.split('\n').includes(classesLine));
    const again = await waitFor('the results of the re-evaluation', () => {
      const x = readJson<Results>(resultsFile);
      return x.createdAt !== written ? x : undefined;
    });
    assert.equal(again.config.acceptThreshold, th[k]);
    assert.equal(again.metrics.coverage!.value, c.xs[k]);
    assert.equal(again.metrics.selective_risk!.value, c.ys[k]);
    assert.equal(again.metrics['error_group.tail']!.value, c.extra!['error_group.tail']![k]);

    // the coverage mode: targetCoverage = a stored point's coverage selects exactly that point
    const j = c.xs.findIndex((x) => x >= 0.8);
    const b = await useOperatingPoint(ctx, uri('cifar100-lt-like/logreg.eval.json'), 'targetCoverage', c.xs[j]!);
    assert.ok(b.ok, b.message);
    const cfg2 = readJson<Record<string, unknown>>(cfgFile);
    assert.equal(cfg2.acceptThreshold, undefined);
    assert.equal(cfg2.targetCoverage, c.xs[j]);
    const third = await waitFor('the second re-evaluation', () => {
      const x = readJson<Results>(resultsFile);
      return x.createdAt !== again.createdAt ? x : undefined;
    });
    assert.equal(third.metrics.coverage!.value, c.xs[j]);
    assert.equal(third.metrics.selective_risk!.value, c.ys[j]);
  });
});
