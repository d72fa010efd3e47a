/**
 * The slice finder's answer as the panel shows it (the Slices tab's "Find weak slices" and the
 * comparison's "Where B loses"): one line of text cells per found slice, the column headings, and
 * the one-line note naming the method and the number of slices tried. Pure: the webview renders it
 * as text, a unit test reads it.
 */
import type { FilterTerm } from '../core/rows/types';
import type { FileSliceFinderResult } from '../core/inspect/sliceFinderTypes';
import { formatCount, formatP } from './format';

export interface FoundSliceLine {
  /** `label = 8`, `split = test and confidence in [0.2, 0.5)`. */
  name: string;
  where: FilterTerm[];
  /** The cells after the name, aligned with `FoundSlicesView.columns` (from the second on). */
  cells: string[];
  /** q ≤ alpha and Δ < 0 (every listed slice is; marked as such). */
  significant: boolean;
}

export interface FoundSlicesView {
  mode: FileSliceFinderResult['mode'];
  columns: string[];
  lines: FoundSliceLine[];
  /** The method, the whole, the number of slices tried and flagged. */
  note: string;
  /** Shown instead of the table when nothing is flagged. */
  empty?: string;
}

const fixed = (x: number): string => x.toFixed(4).replace('-', '−');
const signed = (x: number): string =>
  Number(x.toFixed(4)) === 0 ? '0.0000' : x > 0 ? `+${x.toFixed(4)}` : x.toFixed(4).replace('-', '−');
const interval = (ci: [number, number], f: (x: number) => string): string => `[${f(ci[0])}, ${f(ci[1])}]`;
const percent = (x: number): string => `${Math.round(x * 1000) / 10}%`;

/** The view of a slice finder result. */
export function foundSlicesView(r: FileSliceFinderResult): FoundSlicesView {
  const level = percent(r.confidence);
  const two = r.mode === 'two-runs';
  const whole = r.whole;
  const columns = two
    ? ['slice', 'rows', 'accuracy A', 'accuracy B', 'lost', 'gained', `Δ B − A [${level}]`, 'p', 'q (BH)', '']
    : [
        'slice',
        'rows',
        `accuracy [${level}]`,
        r.measured ? 'test rows' : 'whole file',
        `Δ vs whole [${level}]`,
        'p',
        'q (BH)',
        '',
      ];
  const lines = r.slices.map((s): FoundSliceLine => {
    const significant = s.q <= r.alpha && s.delta < 0;
    const tail = [
      `${signed(s.delta)} ${interval(s.deltaCi, signed)}`,
      formatP(s.p),
      formatP(s.q),
      significant ? `significant at q ≤ ${r.alpha}` : '',
    ];
    const cells = two
      ? [formatCount(s.n), fixed(s.accuracyA!), fixed(s.accuracyB!), formatCount(s.lost!), formatCount(s.gained!)]
      : [
          formatCount(s.n),
          `${fixed(s.accuracy!)} ${interval(s.ci!, fixed)}`,
          'accuracy' in whole ? fixed(whole.accuracy) : '',
        ];
    return { name: s.slice, where: s.where, cells: [...cells, ...tail], significant };
  });
  const method = two
    ? `p: McNemar's exact test of the rows lost and gained; ${level} Agresti–Min interval of Δ`
    : `p: Fisher's exact test of the slice against the rest; ${level} Wilson interval of the accuracy, Newcombe interval of Δ`;
  // with a split, the rows searched are the test rows (those the metrics cover)
  const m = r.measured;
  const rowsText =
    `${formatCount(r.n)}${'accuracyA' in whole ? ' paired' : ''} rows` +
    (m ? ` (the split's test rows: ${formatCount(m.testRows)} of ${formatCount(m.rowsInFile)})` : '');
  const wholeText =
    'accuracyA' in whole
      ? `accuracy ${fixed(whole.accuracyB)} (B) vs ${fixed(whole.accuracyA)} (A), Δ = ${signed(whole.delta)} over ${rowsText}`
      : `accuracy ${fixed(whole.accuracy)} over ${rowsText}`;
  const refined = r.subsumed > 0 ? `; ${r.subsumed} of them refine a flagged slice and are not listed` : '';
  const note =
    `Slice Finder (Chung et al., ICDE 2019): ${formatCount(r.tried)} slices tried — single values, quantile bins and pairs of ` +
    `${r.columns.length > 0 ? r.columns.join(', ') : 'no column'} with at least ${formatCount(r.minSupport)} rows; ` +
    `${formatCount(r.flagged)} flagged at q ≤ ${r.alpha} (Benjamini–Hochberg over the slices tried)${refined}. ` +
    `Whole: ${wholeText}. ${method}.`;
  return {
    mode: r.mode,
    columns,
    lines,
    note,
    ...(lines.length === 0
      ? {
          empty: two ? 'No slice where B is significantly below A.' : 'No slice is significantly below the whole file.',
        }
      : {}),
  };
}
