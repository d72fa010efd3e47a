/**
 * The slice table printed by `eval-lens evaluate` after the metrics (`--slice-by`, or `slices` in
 * the config): one line per slice value, worst first, each headline metric with its interval and
 * its difference to the whole file.
 */
import { escapeControlLine } from '../core';
import type { SliceMetricValue } from '../core';
import { tableOf } from '../core';
import type { Results } from '../core';

function fmt(x: number | null | undefined, digits: number, signed = false): string {
  if (x === null || x === undefined) return '—';
  const s = x.toFixed(digits);
  return signed && x >= 0 ? `+${s}` : s.replace('-', '−');
}

function cell(m: SliceMetricValue | undefined, digits: number, signed = false): string {
  if (!m) return '';
  const v = fmt(m.value, digits, signed);
  return m.ci ? `${v} [${fmt(m.ci[0], digits, signed)}, ${fmt(m.ci[1], digits, signed)}]` : v;
}

export function formatSliceTable(results: Results, digits = 4): string {
  const rows = tableOf(results, 'slices');
  if (!rows) return '';
  if (rows.length === 0) return '\nSlices: no slice value has enough rows (minSliceSize).\n';
  const keys = Object.keys(rows[0].diff);
  const head = ['slice', 'value', 'n', ...keys.flatMap((k) => [k, `Δ ${k}`])];
  const body = rows.map((r) => [
    escapeControlLine(r.slice),
    escapeControlLine(r.value),
    String(r.n),
    ...keys.flatMap((k) => [cell(r[k] as SliceMetricValue, digits), cell(r.diff[k], digits, true)]),
  ]);
  const width = head.map((h, j) => Math.max(h.length, ...body.map((b) => b[j].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, j) => (j === 2 ? c.padStart(width[j]) : c.padEnd(width[j])))
      .join('  ')
      .trimEnd();
  const level = Math.round(results.config.bootstrap.confidence * 100);
  const title = `Slices (worst first by ${keys[0]}; Δ = slice − whole file${results.config.bootstrap.n > 0 ? `; ${level}% bootstrap intervals, paired for Δ` : ''})`;
  return `\n${title}\n${line(head)}\n${line(width.map((w) => '-'.repeat(w)))}\n${body.map(line).join('\n')}\n`;
}
