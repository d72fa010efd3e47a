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
import type { Curve, Results } from '../results/types';

/** Points kept per run and curve. */
export const MAX_OVERLAY_POINTS = 400;

/**
 * Names of the curves drawn as overlays, in display order (ranking adds `metricVsK.<metric>`):
 * `shift` is accuracy against the shift of the test distribution (the evolving-distribution
 * protocol's main figure, one line per method).
 */
export const OVERLAY_CURVES = ['riskCoverage', 'reliability', 'pr', 'shift'] as const;

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
): Record<string, Record<string, Curve>> {
  const names = new Set<string>(OVERLAY_CURVES);
  for (const r of results) for (const n of Object.keys(r.curves ?? {})) if (n.startsWith('metricVsK.')) names.add(n);
  const out: Record<string, Record<string, Curve>> = {};
  for (const name of names) {
    const byRun: Record<string, Curve> = {};
    results.forEach((r, i) => {
      const c = r.curves?.[name];
      if (c && Array.isArray(c.xs) && c.xs.length > 0 && c.xs.length === c.ys.length) byRun[runs[i]] = thin(c);
    });
    if (Object.keys(byRun).length >= 2) out[name] = byRun;
  }
  return out;
}
