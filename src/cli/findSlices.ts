/**
 * `--find-slices` of `eval-lens evaluate` and `eval-lens diff`: the slice finder's options and its
 * table (the conventions are those of src/core/inspect/sliceFinder.ts, docs/comparisons.md).
 */
import type { Command } from 'commander';
import { escapeControlLine } from '../core';
import { formatP } from '../core';
import type { FileSliceFinderResult } from '../core';
import type { SliceFinderOptions } from '../core';
import { csvLine } from '../core';
import { alignColumns } from '../core';
import { UsageError } from './errors';

export interface FindSlicesFlags {
  findSlices?: boolean;
  minSupport?: string;
  maxSlices?: string;
}

/** Adds `--find-slices`, `--min-support` and `--max-slices` to a command. */
export function addFindSlicesOptions(cmd: Command, what: string): Command {
  return cmd
    .option('--find-slices', what)
    .option(
      '--min-support <n>',
      'with --find-slices: rows a slice needs to be tried (default: the larger of 30 and 1% of the rows)',
    )
    .option('--max-slices <n>', 'with --find-slices: slices listed at most', '20');
}

function wholeNumber(flag: string, text: string, min: number): number {
  const n = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(n) || n < min)
    throw new UsageError(`${flag} expects a whole number ≥ ${min}, got "${text}".`);
  return n;
}

/**
 * The finder's options from the flags, or null without `--find-slices` (a usage error for a value
 * that does not fit, checked before anything is read).
 */
export function finderOptions(flags: FindSlicesFlags): SliceFinderOptions | null {
  if (!flags.findSlices) return null;
  const out: SliceFinderOptions = {};
  if (flags.minSupport !== undefined) out.minSupport = wholeNumber('--min-support', flags.minSupport, 1);
  if (flags.maxSlices !== undefined) out.limit = wholeNumber('--max-slices', flags.maxSlices, 0);
  return out;
}

const fixed = (x: number): string => x.toFixed(4).replace('-', '−');
const signed = (x: number): string => (x > 0 ? `+${x.toFixed(4)}` : Number(x.toFixed(4)) === 0 ? '0.0000' : fixed(x));
const interval = (ci: [number, number], f: (x: number) => string): string => `[${f(ci[0])}, ${f(ci[1])}]`;

/** A shell word for a `--where` expression (single quotes). */
function shellWord(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Standard output of a command with `--find-slices` in a text format (JSON is the command's own):
 * CSV is the found slices alone, one row each; any other format is the command's own text
 * (`own`), then the slice finder's table. Without found slices, the command's own text.
 */
export function withFoundSlices(found: FileSliceFinderResult | null, format: string, own: () => string): string {
  if (!found) return own();
  return format === 'csv' ? foundSlicesCsv(found) : own() + formatFoundSlices(found);
}

/** The slice finder's table (terminal). */
export function formatFoundSlices(r: FileSliceFinderResult): string {
  const level = `${Math.round(r.confidence * 1000) / 10}%`;
  const pair = r.mode === 'two-runs';
  const runs = r.runs.map(escapeControlLine);
  const lines: string[] = [''];
  // with a split, the rows searched are the test rows (those the metrics cover): say so first
  const m = r.measured;
  const over = `over ${r.n} rows${m ? ` (the split's test rows: ${m.testRows} of ${m.rowsInFile})` : ''}`;
  const whole = m ? 'the test rows' : 'the whole file';
  if ('accuracyA' in r.whole)
    lines.push(
      `Slices where ${runs[1]} is below ${runs[0]} (accuracy ${fixed(r.whole.accuracyB)} vs ${fixed(r.whole.accuracyA)}, Δ = ${signed(r.whole.delta)} ${over})`,
    );
  else lines.push(`Slices below ${whole} (accuracy ${fixed(r.whole.accuracy)} ${over})`);
  lines.push(
    `${r.flagged} of ${r.tried} slices tried flagged at q ≤ ${r.alpha} (Benjamini–Hochberg)${r.subsumed > 0 ? `, ${r.subsumed} of them refinements of a flagged slice, not listed` : ''}; ` +
      `min support ${r.minSupport}; by ${r.columns.map(escapeControlLine).join(', ') || 'no column'}.`,
  );
  lines.push(
    pair
      ? `Δ = B − A on the slice's rows; p: McNemar's exact test of the rows lost and gained; ${level} Agresti–Min interval.`
      : `Δ = slice − ${whole}; p: Fisher's exact test of the slice against the rest; ${level} Wilson interval of the accuracy, Newcombe interval of Δ.`,
  );
  if (r.slices.length === 0) return `${lines.join('\n')}\nNo slice is flagged.\n`;
  const head = pair
    ? ['slice', 'n', 'accuracy A', 'accuracy B', 'lost', 'gained', `Δ [${level}]`, 'p', 'q']
    : ['slice', 'n', `accuracy [${level}]`, `Δ vs whole [${level}]`, 'p', 'q'];
  const body = r.slices.map((s) =>
    pair
      ? [
          escapeControlLine(s.slice),
          String(s.n),
          fixed(s.accuracyA!),
          fixed(s.accuracyB!),
          String(s.lost),
          String(s.gained),
          `${signed(s.delta)} ${interval(s.deltaCi, signed)}`,
          formatP(s.p),
          formatP(s.q),
        ]
      : [
          escapeControlLine(s.slice),
          String(s.n),
          `${fixed(s.accuracy!)} ${interval(s.ci!, fixed)}`,
          `${signed(s.delta)} ${interval(s.deltaCi, signed)}`,
          formatP(s.p),
          formatP(s.q),
        ],
  );
  const width = head.map((h, j) => Math.max(h.length, ...body.map((b) => b[j].length)));
  lines.push(...alignColumns([head, width.map((w) => '-'.repeat(w)), ...body]));
  lines.push(
    `Rows of the first: eval-lens ${pair ? 'diff' : 'rows'} ${r.runs.map((f) => shellWord(escapeControlLine(f))).join(' ')} --where ${shellWord(escapeControlLine(r.slices[0].whereText))}`,
  );
  return `${lines.join('\n')}\n`;
}

/** One CSV row per listed slice, every number at full precision. */
function foundSlicesCsv(r: FileSliceFinderResult): string {
  const head = [
    'slice',
    'where',
    'n',
    'accuracy',
    'accuracy_lo',
    'accuracy_hi',
    'accuracy_a',
    'accuracy_b',
    'lost',
    'gained',
    'delta',
    'delta_lo',
    'delta_hi',
    'p',
    'q',
  ];
  const num = (x: number | undefined): string => (x === undefined ? '' : String(x));
  const rows = r.slices.map((s) =>
    [
      s.slice,
      s.whereText,
      String(s.n),
      num(s.accuracy),
      num(s.ci?.[0]),
      num(s.ci?.[1]),
      num(s.accuracyA),
      num(s.accuracyB),
      num(s.lost),
      num(s.gained),
      String(s.delta),
      String(s.deltaCi[0]),
      String(s.deltaCi[1]),
      String(s.p),
      String(s.q),
    ].map(String),
  );
  return [csvLine(head), ...rows.map(csvLine)].join('\n') + '\n';
}
