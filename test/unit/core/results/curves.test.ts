/**
 * The names of the curves (ResultCurves) are the ones the schema knows: the compiler refuses a name
 * outside the map (a literal or one made from a metric), every declared name passes the schema with
 * the shape of a curve and is refused without it, a name of a later version passes as it always
 * has (with the shape of a curve) and is read only through otherCurves, each curve's extra columns
 * are named by its entry of the map, and the lint keeps readers from casting the curves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import resultsSchema from '../../../../schemas/eval-lens.results.schema.json';
import {
  CURVE_NAMES,
  curveOf,
  isCurveName,
  METRIC_VS_K_CURVES,
  METRIC_VS_K_METRICS,
  metricVsKCurve,
  metricVsKCurves,
  otherCurves,
} from '../../../../src/core/results/curves';
import { ResultsBuilder } from '../../../../src/core/results/builder';
import type { Curve, MetricVsKMetric, ResultCurves } from '../../../../src/core/results/types';
import { validateResults } from '../../../../src/core/results/validate';
import { classificationResults, rankingResults } from '../../helpers/sampleResults';
import { restrictedLines } from '../../helpers/restrictedSyntax';

const line = (y: string): Curve => ({ x: 'K', y, xs: [1, 2], ys: [0.5, 0.25] });

test('every curve of the typed map is a curve the schema names, and the reverse', () => {
  const curves = (
    resultsSchema as unknown as {
      properties: { curves: { properties: Record<string, unknown>; additionalProperties: unknown } };
    }
  ).properties.curves;
  assert.deepEqual([...CURVE_NAMES].sort(), Object.keys(curves.properties).sort());
  assert.equal(CURVE_NAMES.length, 15);
  // every named curve, and any other name, has the shape of a curve
  for (const shape of [...Object.values(curves.properties), curves.additionalProperties])
    assert.deepEqual(shape, { $ref: '#/definitions/curve' });
  assert.deepEqual(METRIC_VS_K_METRICS, ['recall', 'precision', 'ndcg', 'map', 'hit_rate', 'coverage']);
  assert.deepEqual(
    METRIC_VS_K_CURVES,
    METRIC_VS_K_METRICS.map((m) => `metricVsK.${m}`),
  );
  assert.ok(isCurveName('riskCoverage') && isCurveName('roc_unweighted') && isCurveName('metricVsK.hit_rate'));
  for (const name of ['metricVsK', 'metricVsK.mrr', 'riskcoverage', 'toString', '__proto__'])
    assert.ok(!isCurveName(name), name);
});

test('the compiler refuses a curve name outside the map, literal or made from a metric', () => {
  const b = new ResultsBuilder();
  b.curve('riskCoverage', line('risk'));
  const m: MetricVsKMetric = 'ndcg';
  b.curve(metricVsKCurve(m), line('ndcg'));
  b.curve(`metricVsK.${m}`, line('ndcg'));
  // @ts-expect-error — not a curve of ResultCurves (a typo)
  b.curve('riskcoverage', line('risk'));
  // @ts-expect-error — `mrr` is no metric drawn against K
  b.curve('metricVsK.mrr', line('mrr'));
  // @ts-expect-error — a name made from any string is refused
  b.curve(`metricVsK.${String(m)}`, line('ndcg'));
  // @ts-expect-error — `mrr` is no MetricVsKMetric
  metricVsKCurve('mrr');
  const r = { curves: b.curves };
  // @ts-expect-error — a reader cannot ask for a curve the map does not name
  assert.equal(curveOf(r, 'oddCurve'), undefined);
  // @ts-expect-error — nor index the curves by an arbitrary string
  assert.equal(r.curves[String('pr')], undefined);
  // Typed: a declared curve reads as Curve | undefined with no cast.
  const ys: number[] | undefined = curveOf(r, 'metricVsK.ndcg')?.ys;
  assert.deepEqual(ys, [0.5, 0.25]);
  const wanted: (keyof ResultCurves)[] = ['riskCoverage', 'metricVsK.ndcg'];
  assert.deepEqual(Object.keys(b.curves), [...wanted, 'riskcoverage', 'metricVsK.mrr']);
});

test('each curve names its extra columns: the compiler checks a writer and a reader of a column', () => {
  const b = new ResultsBuilder();
  b.curve('riskCoverage', {
    ...line('risk'),
    extra: { threshold: [0.9, 0.1], accepted: [1, 2], 'error_group.tail': [0, 1] },
  });
  b.curve('reliability', { ...line('accuracy'), extra: { count: [3, 4], lo: [0, 0.5], hi: [0.5, 1] } });
  b.curve('metricVsK.ndcg', { ...line('ndcg'), extra: { popularity: [0.1, 0.2], random: [0, 0.1] } });
  // @ts-expect-error — `f1` is a column of the PR and ROC curves, not of the risk–coverage curve
  b.curve('costSweep', { ...line('coverage'), extra: { f1: [0, 1] } });
  // @ts-expect-error — a misspelt column
  b.curve('shift', { ...line('accuracy'), extra: { alfa: [0, 1] } });
  const r = { curves: b.curves };
  // Typed: a reader gets a column by its name, absent when the run did not write it.
  const threshold: (number | null)[] | undefined = curveOf(r, 'riskCoverage')?.extra?.threshold;
  assert.deepEqual(threshold, [0.9, 0.1]);
  assert.deepEqual(curveOf(r, 'riskCoverage')?.extra?.['error_group.tail'], [0, 1]);
  assert.equal(curveOf(r, 'riskCoverage')?.extra?.risk_balanced, undefined);
  assert.deepEqual(curveOf(r, 'metricVsK.ndcg')?.extra?.random, [0, 0.1]);
  // @ts-expect-error — a reader cannot ask for a column its curve does not have
  const none = curveOf(r, 'reliability')?.extra?.threshold;
  assert.equal(none, undefined);
  // Read generically (a later version's curve), a curve has any column.
  const generic: Curve = { ...line('y'), extra: { anything: [1, 2] } };
  assert.deepEqual(generic.extra?.anything, [1, 2]);
});

test('every declared curve passes the schema with the shape of a curve and is refused without it', () => {
  const r = classificationResults();
  for (const name of CURVE_NAMES) Object.assign(r.curves, { [name]: line(name) });
  assert.deepEqual(validateResults(r), []);
  for (const name of CURVE_NAMES) {
    const bad = classificationResults();
    Object.assign(bad.curves, { [name]: { x: 'K', y: 'v', xs: [1, 2] } });
    assert.ok(
      validateResults(bad).includes(`results.curves.${name}: missing \`ys\``),
      `${name}: ${JSON.stringify(validateResults(bad))}`,
    );
    Object.assign(bad.curves, { [name]: { ...line(name), xs: ['1', 2] } });
    assert.ok(
      validateResults(bad).includes(`results.curves.${name}.xs[0]: expected a number or null, got "1"`),
      `${name}: ${JSON.stringify(validateResults(bad))}`,
    );
  }
});

test("a later version's curve passes with the shape of a curve, is refused without it, and is read only as another curve", () => {
  const r = rankingResults();
  Object.assign(r.curves, { 'metricVsK.ndcg': line('ndcg'), somethingNew: line('v') });
  assert.deepEqual(validateResults(r), []);
  // rankingResults carries an earlier version's single `metricVsK` curve
  assert.deepEqual(
    otherCurves(r).map(([name]) => name),
    ['metricVsK', 'somethingNew'],
  );
  assert.deepEqual(otherCurves(classificationResults()), []);
  assert.deepEqual(
    metricVsKCurves(r).map(([metric]) => metric),
    ['ndcg'],
  );
  Object.assign(r.curves, { somethingNew: { x: 'K', y: 'v', xs: [1], ys: [1], extra: { a: 'no' } } });
  assert.ok(
    validateResults(r).some((p) => p.startsWith('results.curves.somethingNew.extra.a:')),
    JSON.stringify(validateResults(r)),
  );
});

test('the lint stops a reader that casts the curves', async () => {
  const problems = (code: string): Promise<string[]> => restrictedLines(code, 'src/shared/plantedCurveReader.ts');
  const head = [
    "import type { Curve, Results } from '../core/results/types';",
    "import { curveOf } from '../core/results/curves';",
    'declare const r: Results;',
  ];
  const casts = [
    'export const a = r.curves as Record<string, Curve>;',
    'export const b = r.curves.pr as Curve;',
    'export const c = r.curves?.roc as Curve;',
    'export const d = r.curves.shift! as Curve;',
    "export const e = curveOf(r, 'pr') as Curve;",
    "export const f = <Curve>r.curves['pr'];",
  ];
  assert.deepEqual(await problems([...head, ...casts].join('\n')), casts);
  const reads = ["export const g = curveOf(r, 'metricVsK.ndcg')?.xs;", 'export const h = r.curves.pr?.xs.length;'];
  assert.deepEqual(await problems([...head, ...reads].join('\n')), []);
});

test('a task cannot write a curve typed as the generic Curve (any column): the lint refuses the type there', async () => {
  const planted = (file: string, code: string[]): Promise<string[]> =>
    restrictedLines(['import type { Curve, ResultCurves } from "../results/types";', ...code].join('\n'), file);
  const generic = [
    'export const a: Curve = { x: "K", y: "ndcg", xs: [], ys: [] };',
    'export function b(): Curve | null { return null; }',
    'export const c: Curve[] = [];',
  ];
  const named = [
    'export const d: ResultCurves["shift"] = { x: "t", y: "accuracy", xs: [], ys: [] };',
    'export const e: Curve<"threshold" | "f1"> | null = null;',
  ];
  assert.deepEqual(await planted('src/core/tasks/plantedCurveWriter.ts', [...generic, ...named]), generic);
  // a reader of any curve (a chart, a later version's results) still takes the generic type
  assert.deepEqual(await planted('src/core/compare/plantedCurveReader.ts', generic), []);
});
