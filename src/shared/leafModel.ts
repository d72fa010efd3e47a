/**
 * Foreign results JSON (another tool's `metrics.json`): every numeric leaf with its JSON path. Used by
 * CodeLens ("12 numbers: acc 0.91, …") and by "Open as Table".
 */
import type { ReportModel } from './model';

export interface NumericLeaf {
  /** Dotted path, array indices in brackets: `test.acc`, `runs[2].f1`. */
  path: string;
  value: number;
}

/** Numeric leaves in document order, at most `max` (default 10,000). */
export function numericLeaves(value: unknown, max = 10_000): NumericLeaf[] {
  const out: NumericLeaf[] = [];
  const walk = (v: unknown, path: string): void => {
    if (out.length >= max) return;
    if (typeof v === 'number' && Number.isFinite(v)) out.push({ path, value: v });
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k);
  };
  walk(value, '');
  return out;
}

/** A one-line summary: `5 numbers · acc 0.9100 · loss 0.3000 …`, preferring short paths. */
export function leafSummary(leaves: NumericLeaf[], show = 3): string {
  const fmt = (v: number): string =>
    Number.isInteger(v) ? String(v) : Math.abs(v) < 1e-3 ? v.toExponential(2) : v.toFixed(4);
  const picked = [...leaves].sort((a, b) => a.path.split(/[.[]/).length - b.path.split(/[.[]/).length).slice(0, show);
  const parts = picked.map((l) => `${l.path || '(value)'} ${fmt(l.value)}`);
  return `${leaves.length} number${leaves.length === 1 ? '' : 's'}${parts.length ? ` · ${parts.join(' · ')}` : ''}${leaves.length > show ? ' …' : ''}`;
}

export function buildLeafModel(name: string, value: unknown): ReportModel {
  const leaves = numericLeaves(value);
  return {
    kind: 'table',
    title: name,
    header: {
      title: name,
      lines: [{ label: 'Numbers', value: `${leaves.length} numeric values (every numeric leaf of the JSON)` }],
      warnings: [],
    },
    headline: [],
    tabs: [
      {
        id: 'values',
        title: 'Values',
        cards: [],
        charts: [],
        tables: [
          {
            id: 'leaves',
            title: 'Numeric values',
            columns: ['path', 'value'],
            kinds: ['text', 'num'],
            rows: leaves.map((l) => [l.path, l.value]),
          },
        ],
        notes: [],
      },
    ],
    targets: {},
  };
}
