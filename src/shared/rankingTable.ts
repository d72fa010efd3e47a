/**
 * The ranking results as one metric × K table (rows: a metric, with the baselines as sub-rows
 * under it; columns: the cutoffs K), the way ranking papers print them, instead of one card per
 * `metric@K` key. Metrics without a cutoff (`mrr`, user counts) stay cards.
 */
import type { Results } from '../core/results/types';
import { formatCi } from './format';
import { rankingConventionNotes } from '../core/results/rankingConventions';
import { cutoffsOf } from './headline';
import type { CellValue, ColumnKind, TableModel } from './model';

/**
 * Accuracy metrics first, in the order papers print them; beyond-accuracy ones after; others last,
 * by name. A spread over users (`ndcg_std`, `diversity_std`) comes right after its metric, as the
 * results list it.
 */
const ORDER = [
  'recall',
  'precision',
  'ndcg',
  'map',
  'hit_rate',
  'coverage',
  'cold_start_coverage',
  'novelty',
  'diversity',
  'alignment',
];

/** A name's place in {@link ORDER}: `<m>_std` just after `<m>`; a name of neither kind after all of them. */
function rank(name: string): number {
  const metric = name.endsWith('_std') ? name.slice(0, -'_std'.length) : name;
  const at = ORDER.indexOf(metric);
  return at < 0 ? ORDER.length : at + (metric === name ? 0 : 0.5);
}

/** The metric names that appear with a cutoff (`name@K`), in {@link ORDER}. */
export function metricsAtK(metrics: Record<string, unknown>): string[] {
  const names = new Set<string>();
  for (const key of Object.keys(metrics)) {
    const m = /^(.+)@\d+$/.exec(key);
    if (m) names.add(m[1]!);
  }
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * The table: columns `metric`, `ranking` (the run, or a baseline's name), then one column per K.
 * The run's cells carry their interval as a suffix; baselines have none. Undefined when the
 * results have no `name@K` key.
 */
export function rankingTable(
  results: Pick<Results, 'metrics' | 'baselines'> & Partial<Pick<Results, 'task' | 'config'>>,
): TableModel | undefined {
  const ks = cutoffsOf(results.metrics).filter((k) =>
    Object.keys(results.metrics).some((key) => key.endsWith(`@${k}`)),
  );
  const names = metricsAtK(results.metrics);
  if (ks.length === 0 || names.length === 0) return undefined;
  const rows: CellValue[][] = [];
  const suffixes: string[][] = [];
  const baselines = Object.entries(results.baselines ?? {});
  for (const name of names) {
    rows.push([name, 'run', ...ks.map((k) => results.metrics[`${name}@${k}`]?.value ?? null)]);
    suffixes.push([
      '',
      '',
      ...ks.map((k) => {
        const ci = results.metrics[`${name}@${k}`]?.ci;
        return ci ? ` ${formatCi(ci, name)}` : '';
      }),
    ]);
    for (const [b, m] of baselines) {
      if (!ks.some((k) => m[`${name}@${k}`] !== undefined)) continue;
      rows.push(['', b, ...ks.map((k) => m[`${name}@${k}`]?.value ?? null)]);
      suffixes.push(ks.map(() => '').concat(['', '']));
    }
  }
  const columns = ['metric', 'ranking', ...ks.map((k) => `@${k}`)];
  const kinds: ColumnKind[] = ['text', 'text', ...ks.map(() => 'num' as const)];
  const withCi = suffixes.some((r) => r.some(Boolean));
  // The conventions that differ from a common alternative (MAP's normaliser, the popularity baseline).
  const conventions = rankingConventionNotes({ task: 'ranking', ...results })
    .map((c) => ` Convention: ${c}`)
    .join('');
  const catalog = names.some((n) => /coverage/.test(n))
    ? ' Coverage is a share of the catalog, not a mean over users.'
    : '';
  return {
    id: 'rankingByK',
    title: 'Ranking metrics by cutoff K',
    columns,
    kinds,
    rows,
    suffixes,
    note: `Mean over evaluated users at each cutoff K${withCi ? '; brackets: the run\u2019s percentile bootstrap interval over users' : ''}${baselines.length > 0 ? `; sub-rows: the ${baselines.map(([b]) => b).join(' and ')} baseline${baselines.length > 1 ? 's' : ''} on the same users` : ''}.${catalog}${conventions}`,
  };
}

/** Keys shown in {@link rankingTable}: their cards are left out of the ranking tab. */
export function inRankingTable(key: string): boolean {
  return /@\d+$/.test(key);
}
