/**
 * The threshold explorer's model: the exact operating points stored in a results object (the
 * risk–coverage curve of the selective family with its operating-point columns, or the weighted
 * PR curve of the importance-weighted family), laid out as aligned columns that the webview only
 * reads — moving the slider picks a stored point and shows its values; nothing is computed.
 */
import type { Curve, Results } from '../core/results/types';

/** One column of the readout: a value per point. */
export interface OperatingColumn {
  key: string;
  label: string;
  /** `int` counts, `num` 4 decimals. */
  kind: 'int' | 'num';
  values: (number | null)[];
}

/** A vertical marker drawn on a chart at the current point. */
export interface OperatingMarker {
  /** Chart id (`riskCoverage`, `reliability`, `pr`). */
  chart: string;
  /** x of the marker per point (in the chart's x units). */
  x: (number | null)[];
  /** What the marker's label says before the value, e.g. `coverage`; `accept ≥` marks a threshold. */
  label: string;
}

export interface OperatingPointModel {
  family: 'selective' | 'importance';
  /** Tab that shows the explorer. */
  tab: string;
  /** Score threshold per point (accept / predict positive when score ≥ threshold), decreasing. */
  threshold: number[];
  /** Coverage per point (selective only), increasing. */
  coverage?: number[];
  columns: OperatingColumn[];
  markers: OperatingMarker[];
  /** Index of the evaluated operating point, or -1 when it is not a stored point. */
  current: number;
  /** Points stored / points of the exact curve (equal when every distinct score is stored). */
  stored: number;
  total: number;
  /** Config keys the "use this point" button can write, for the threshold and coverage modes. */
  keys: { threshold: 'acceptThreshold' | 'threshold'; coverage?: 'targetCoverage' };
  /** Why the button cannot change the evaluation (an `accept` column decides), or undefined. */
  locked?: string;
  /** Caveats shown under the readout. */
  notes: string[];
}

const finite = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** Number of exact points of a thinned curve, from its note (`N of its M points are stored`). */
function totalPoints(c: Curve): number {
  const m = /(\d+) of its (\d+) points are stored/.exec(c.note ?? '');
  return m ? Number(m[2]) : c.xs.length;
}

/** Index of the point whose acceptance is "score ≥ t": the smallest stored threshold ≥ t; -1 for none. */
export function pointAtThreshold(thresholds: readonly number[], t: number): number {
  // thresholds decrease along the curve: the last index whose threshold is ≥ t
  let lo = 0;
  let hi = thresholds.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (thresholds[mid]! >= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** Index of the stored point nearest to `v` in `values` (sorted either way); ties: the first. */
export function nearestPoint(values: readonly number[], v: number): number {
  let best = -1;
  let d = Infinity;
  values.forEach((x, i) => {
    const e = Math.abs(x - v);
    if (e < d) {
      d = e;
      best = i;
    }
  });
  return best;
}

function selectiveModel(results: Results): OperatingPointModel | undefined {
  const c = results.curves.riskCoverage;
  const th = c?.extra?.threshold;
  if (!c || !th || !c.extra?.accepted || th.length !== c.xs.length || !th.every(finite)) return undefined;
  const ex = c.extra;
  const columns: OperatingColumn[] = [
    { key: 'accepted', label: 'accepted rows', kind: 'int', values: ex.accepted! },
    { key: 'coverage', label: 'coverage', kind: 'num', values: c.xs },
    { key: 'selective_risk', label: 'selective risk', kind: 'num', values: c.ys },
  ];
  if (ex.risk_balanced)
    columns.push({ key: 'balanced_error', label: 'balanced error', kind: 'num', values: ex.risk_balanced });
  if (ex.risk_worst)
    columns.push({ key: 'worst_error', label: 'worst class-group error', kind: 'num', values: ex.risk_worst });
  for (const [k, v] of Object.entries(ex))
    if (k.startsWith('error_group.'))
      columns.push({ key: k, label: `error of class group ${k.slice('error_group.'.length)}`, kind: 'num', values: v });
  if (ex.ece_accepted)
    columns.push({ key: 'ece_accepted', label: 'ECE of the accepted rows', kind: 'num', values: ex.ece_accepted });
  const cov = results.metrics.coverage?.value;
  const risk = results.metrics.selective_risk?.value;
  let current = c.xs.findIndex((x, i) => x === cov && c.ys[i] === risk);
  if (current < 0 && finite(cov)) current = nearestPoint(c.xs, cov);
  const markers: OperatingMarker[] = [{ chart: 'riskCoverage', x: c.xs, label: 'coverage' }];
  if (ex.ece_accepted) markers.push({ chart: 'reliability', x: th, label: 'accept ≥' });
  const notes: string[] = [];
  const accept = results.source.columns?.accept;
  const locked = accept
    ? `The file's \`${String(accept)}\` column decides which rows are accepted, so acceptThreshold and targetCoverage have no effect on the evaluation.`
    : undefined;
  if (results.source.columns?.split)
    notes.push(
      'With a split column, targetCoverage picks its threshold on the validation rows and the metrics are measured on the test rows; the points here are those of the rows the curve was measured on.',
    );
  if (results.config?.reweight)
    notes.push(
      'The group errors here are plain error rates; the error_group metrics above are train-frequency reweighted (reweight is on).',
    );
  return {
    family: 'selective',
    tab: 'selective',
    threshold: th as number[],
    coverage: c.xs,
    columns,
    markers,
    current,
    stored: c.xs.length,
    total: totalPoints(c),
    keys: { threshold: 'acceptThreshold', coverage: 'targetCoverage' },
    ...(locked ? { locked } : {}),
    notes,
  };
}

function importanceModel(results: Results): OperatingPointModel | undefined {
  const c = results.curves.pr;
  const th = c?.extra?.threshold;
  const f1 = c?.extra?.f1;
  if (!c || !th || !f1) return undefined;
  // the start point (recall 0, precision 1) has no threshold: not an operating point
  const idx = th.map((t, i) => (finite(t) ? i : -1)).filter((i) => i >= 0);
  if (idx.length === 0) return undefined;
  const pick = <T>(xs: readonly T[]): T[] => idx.map((i) => xs[i]!);
  const thresholds = pick(th) as number[];
  const t = results.config?.threshold ?? 0.5;
  return {
    family: 'importance',
    tab: 'importance',
    threshold: thresholds,
    columns: [
      { key: 'precision', label: 'precision (weighted)', kind: 'num', values: pick(c.ys) },
      { key: 'recall', label: 'recall (weighted)', kind: 'num', values: pick(c.xs) },
      { key: 'f1', label: 'F1 (weighted)', kind: 'num', values: pick(f1) },
    ],
    markers: [{ chart: 'pr', x: pick(c.xs), label: 'recall' }],
    current: pointAtThreshold(thresholds, t),
    stored: thresholds.length,
    total: thresholds.length,
    keys: { threshold: 'threshold' },
    notes: [],
  };
}

/**
 * Why a report that has a risk–coverage or PR curve has no explorer: results written before the
 * curves carried their operating-point columns. Undefined when there is nothing to say.
 */
export function explorerMissingNote(results: Results): string | undefined {
  if (operatingPointModel(results)) return undefined;
  const c = results.task === 'iw-binary' ? results.curves.pr : results.curves.riskCoverage;
  if (!c || !c.extra?.threshold) return undefined;
  return 'These results were written without the operating-point columns the threshold explorer reads; Re-evaluate to explore thresholds.';
}

/** The explorer of a results object, or undefined when it has no curve with exact operating points. */
export function operatingPointModel(results: Results): OperatingPointModel | undefined {
  if (results.task === 'iw-binary') return importanceModel(results);
  return selectiveModel(results);
}
