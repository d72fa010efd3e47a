/**
 * The curves of the compared runs, kept in the comparison so that a report can draw every run on
 * one chart: risk–coverage, reliability, precision–recall, accuracy against distribution shift and
 * the ranking metrics against K.
 *
 * A curve with more than {@link MAX_OVERLAY_POINTS} points (a risk–coverage curve has one point
 * per distinct score, so up to one per row) is thinned to that many points taken evenly by index,
 * first and last kept: enough for a chart of a few hundred pixels, and the comparison file stays
 * small. The exact curves remain in each run's results.
 */
import { METRIC_VS_K_CURVES } from '../results/curves';
import type { Curve, Results } from '../results/types';
import type { CompareResults, FixedOverlayCurveName, OverlayCurveName } from './types';

/** Points kept per run and curve. */
export const MAX_OVERLAY_POINTS = 400;

/** A record of the fixed overlays, so that a name added to the type without one here (or the reverse) does not compile. */
const FIXED_OVERLAYS: { readonly [K in FixedOverlayCurveName]: true } = {
  riskCoverage: true,
  reliability: true,
  pr: true,
  shift: true,
};
/**
 * Names of the curves drawn as overlays, in display order (ranking adds `metricVsK.<metric>`):
 * `shift` is accuracy against the shift of the test distribution (the evolving-distribution
 * protocol's main figure, one line per method).
 */
export const OVERLAY_CURVES: readonly FixedOverlayCurveName[] = Object.keys(FIXED_OVERLAYS) as FixedOverlayCurveName[];

/** Every curve a comparison may overlay, in display order: {@link OVERLAY_CURVES}, then the metric-vs-K curves. */
export const OVERLAY_CURVE_NAMES: readonly OverlayCurveName[] = [...OVERLAY_CURVES, ...METRIC_VS_K_CURVES];

/**
 * Indices `round(i·(n−1)/(m−1))`, i = 0…m−1, of a curve of n points thinned to m.
 *
 * @example thinIndices(5, 3) = [0, 2, 4]
 */
export function thinIndices(n: number, m: number): number[] {
  if (n <= m) return Array.from({ length: n }, (_, i) => i);
  if (m <= 1) return [0];
  const out: number[] = [];
  for (let i = 0; i < m; i++) out.push(Math.round((i * (n - 1)) / (m - 1)));
  return out;
}

function thin(c: Curve): Curve {
  const idx = thinIndices(c.xs.length, MAX_OVERLAY_POINTS);
  const out: Curve = { x: c.x, y: c.y, xs: idx.map((i) => c.xs[i]), ys: idx.map((i) => c.ys[i]) };
  if (c.note) out.note = c.note;
  return out;
}

/** Curve name → run → the run's curve (thinned), for the curves at least two runs have. */
export function overlayCurves(
  results: readonly Results[],
  runs: readonly string[],
): NonNullable<CompareResults['curves']> {
  const out: NonNullable<CompareResults['curves']> = {};
  for (const name of OVERLAY_CURVE_NAMES) {
    const byRun: Record<string, Curve> = {};
    results.forEach((r, i) => {
      const c = r.curves?.[name];
      if (c && Array.isArray(c.xs) && c.xs.length > 0 && c.xs.length === c.ys.length) byRun[runs[i]] = thin(c);
    });
    if (Object.keys(byRun).length >= 2) out[name] = byRun;
  }
  return out;
}

/**
 * The overlays of a comparison under names this version does not know (a later version's; the
 * schema lets them through), as they are: a reader may only draw them generically.
 */
export function otherOverlays(curves: CompareResults['curves']): [string, Record<string, Curve>][] {
  const known: ReadonlySet<string> = new Set(OVERLAY_CURVE_NAMES);
  return Object.entries(curves ?? {}).filter(
    (e): e is [string, Record<string, Curve>] => !known.has(e[0]) && e[1] !== undefined,
  );
}

/** The comparison's overlays with every run's name passed through `rename` (the curves themselves unchanged). */
export function renameOverlayRuns(
  curves: NonNullable<CompareResults['curves']>,
  rename: (byRun: Record<string, Curve>) => Record<string, Curve>,
): NonNullable<CompareResults['curves']> {
  const out: NonNullable<CompareResults['curves']> = {};
  for (const name of OVERLAY_CURVE_NAMES) {
    const byRun = curves[name];
    if (byRun) out[name] = rename(byRun);
  }
  for (const [name, byRun] of otherOverlays(curves)) Object.assign(out, { [name]: rename(byRun) });
  return out;
}
