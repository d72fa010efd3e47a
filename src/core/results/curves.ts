/**
 * Reading the curves of a results object by name, typed by {@link ResultCurves} (types.ts): the
 * names the writer (`ResultsBuilder.curve`), the readers and the JSON schema share. A reader asks
 * {@link curveOf} for a name the compiler knows (a fixed name, or `metricVsK.<metric>` for a
 * {@link MetricVsKMetric}) and never indexes the curves by an arbitrary string; curves a later
 * version wrote under other names are only read through {@link otherCurves}.
 */
import type { Curve, CurveName, MetricVsKCurveName, MetricVsKMetric, Results, ResultCurves } from './types';

type FixedCurveName = Exclude<CurveName, MetricVsKCurveName>;

/**
 * The fixed curve names, in report order. Typed as a record of the map's keys, so that a curve added
 * to {@link ResultCurves} without a name here (or the reverse) does not compile; the schema's
 * `curves.properties` is checked against {@link CURVE_NAMES} by a test.
 */
const FIXED: { readonly [K in FixedCurveName]: true } = {
  riskCoverage: true,
  riskCoverageGrid101: true,
  costSweep: true,
  reliability: true,
  pr: true,
  pr_unweighted: true,
  roc: true,
  roc_unweighted: true,
  shift: true,
};

/** The metrics drawn against K, in the order the ranking family writes (and the report draws) them. */
const METRIC_VS_K: { readonly [M in MetricVsKMetric]: true } = {
  recall: true,
  precision: true,
  ndcg: true,
  map: true,
  hit_rate: true,
  coverage: true,
};

/** The metrics of the metric-vs-K curves ({@link MetricVsKMetric}), in order. */
export const METRIC_VS_K_METRICS: readonly MetricVsKMetric[] = Object.keys(METRIC_VS_K) as MetricVsKMetric[];

const METRIC_VS_K_PREFIX = 'metricVsK.';

/** The metric-vs-K curve of `metric`. */
export function metricVsKCurve(metric: MetricVsKMetric): MetricVsKCurveName {
  return `metricVsK.${metric}`;
}

/** The names of the metric-vs-K curves, in {@link METRIC_VS_K_METRICS}'s order. */
export const METRIC_VS_K_CURVES: readonly MetricVsKCurveName[] = METRIC_VS_K_METRICS.map(metricVsKCurve);

/** The names of the curves the results may hold ({@link ResultCurves}): the fixed ones, then the metric-vs-K ones. */
export const CURVE_NAMES: readonly CurveName[] = [...(Object.keys(FIXED) as FixedCurveName[]), ...METRIC_VS_K_CURVES];

const KNOWN: ReadonlySet<string> = new Set(CURVE_NAMES);

/** Whether `name` is a curve of {@link ResultCurves}. */
export function isCurveName(name: string): name is CurveName {
  return KNOWN.has(name);
}

/** The curve `name` of the results, or undefined when the run did not produce it. */
export function curveOf<K extends CurveName>(results: Pick<Results, 'curves'>, name: K): ResultCurves[K] | undefined {
  return results.curves[name];
}

/**
 * The metric-vs-K curves the results hold, each with its metric, in the order the results hold them
 * (the writer's is {@link METRIC_VS_K_METRICS}'s); a `metricVsK.<metric>` of a metric a later
 * version added is among them (it is drawn with the rest, as a curve against K).
 */
export function metricVsKCurves(results: Pick<Results, 'curves'>): [string, Curve][] {
  const out: [string, Curve][] = [];
  for (const [name, c] of Object.entries(results.curves))
    if (c && name.startsWith(METRIC_VS_K_PREFIX)) out.push([name.slice(METRIC_VS_K_PREFIX.length), c]);
  return out;
}

/**
 * Curves a later version wrote under names this one does not know (the schema lets them through
 * with the shape of a curve), as they are: a reader may only show them generically.
 */
export function otherCurves(results: Pick<Results, 'curves'>): [string, Curve][] {
  return Object.entries(results.curves).filter((e): e is [string, Curve] => !isCurveName(e[0]) && e[1] !== undefined);
}
