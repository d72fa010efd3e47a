/** Tables as text: what the report's "Copy as Markdown / CSV" buttons put on the clipboard. */
import { formatCount, formatNumber, formatP } from './format';
import { csvCell } from '../core/text/csvCell';
import { escapeMarkdown } from '../core/text/markdownText';
import type { CellValue, ColumnKind, TableModel } from './model';

/** A cell as shown on screen. */
export function formatCell(v: CellValue, kind: ColumnKind = 'num'): string {
  if (v === null) return '—';
  if (typeof v === 'string') return v;
  // Integers print as integers: grouped in count columns (14,000, as on cards and in the confusion
  // matrix), as written in mixed (text) columns such as key/value tables (a year stays 2019).
  if (kind === 'int' && Number.isInteger(v)) return formatCount(v);
  if (kind === 'text' && Number.isInteger(v)) return String(v);
  if (kind === 'p') return formatP(v);
  return formatNumber(v);
}

/** GitHub Markdown; best bold, second underlined (`<u>`), third italic; numbers right-aligned. */
export function tableToMarkdown(t: TableModel): string {
  const head = `| ${t.columns.map(escapeMarkdown).join(' | ')} |`;
  const rule = `|${t.kinds.map((k) => (k === 'text' ? '---|' : '---:|')).join('')}`;
  const body = t.rows.map((r, i) => {
    const cells = r.map((v, j) => {
      let s = escapeMarkdown(formatCell(v, t.kinds[j]) + (t.suffixes?.[i]?.[j] ?? ''));
      const place = t.marks?.[i]?.[j];
      if (place === 1) s = `**${s}**`;
      else if (place === 2) s = `<u>${s}</u>`;
      else if (place === 3) s = `*${s}*`;
      return s;
    });
    return `| ${cells.join(' | ')} |`;
  });
  return [head, rule, ...body].join('\n') + '\n';
}

/** RFC 4180 CSV with full-precision numbers and empty cells for missing values. */
export function tableToCsv(t: TableModel): string {
  const rows = [t.columns, ...t.rows.map((r) => r.map((v) => (v === null ? '' : String(v))))];
  return rows.map((r) => r.map(csvCell).join(',')).join('\n') + '\n';
}
