/**
 * The ranking conventions that differ from a common alternative, as short lines shown next to the
 * numbers they change — under the Ranking section of the terminal table and of the Markdown
 * report, and under the metric × K table of the report panel and the HTML report — not only in each
 * metric's note in the results JSON. Built from the results alone (their config, keys and
 * baselines), so every surface says the same.
 *
 * - MAP's normaliser D of AP@K = Σ_{k≤K} P@k·rel_k / D: `min` = min(|R_u|, K) (the default, as
 *   RecBole: Zhao et al. 2021), `all` = |R_u| (trec_eval's AP), `hits` = the relevant items found in
 *   the top K (torchmetrics' `retrieval_average_precision`: Detlefsen et al. 2022). A list that finds
 *   one of many relevant items scores far higher with `hits`.
 * - The popularity baseline excludes each user's own train items (as the run's lists are masked with
 *   `maskSeen`); the unpersonalised alternative gives every user the same top-K list, seen items
 *   included.
 * - With `itemPopularity`, item popularity is a numeric column of the `items` table (e.g. units
 *   sold) instead of the train interactions: novelty@K and the popularity baseline's order use it;
 *   cold-start coverage and activity bins keep the train counts.
 *
 * References:
 * - W. X. Zhao et al. (2021). RecBole: towards a unified, comprehensive and efficient framework for
 *   recommendation algorithms. Proc. 30th ACM CIKM, 4653–4664. https://doi.org/10.1145/3459637.3482016
 * - N. S. Detlefsen et al. (2022). TorchMetrics — measuring reproducibility in PyTorch. Journal of Open
 *   Source Software 7(70):4101. https://doi.org/10.21105/joss.04101
 * - NIST (2006). trec_eval: the standard evaluation tool of the Text REtrieval Conference.
 *   https://github.com/usnistgov/trec_eval
 */
import type { Results } from './types';

const MAP_TEXT = {
  min: 'divided by min(|R_u|, K) (mapNormaliser "min", as RecBole)',
  all: 'divided by |R_u| (mapNormaliser "all", as trec_eval)',
  hits: 'divided by the relevant items found in the top K (mapNormaliser "hits", as torchmetrics)',
} as const;

const MAP_OTHERS = {
  min: 'trec_eval divides by |R_u| ("all") and torchmetrics by the hits in the top K ("hits", higher when a list finds few of many relevant items)',
  all: 'RecBole divides by min(|R_u|, K) ("min") and torchmetrics by the hits in the top K ("hits")',
  hits: 'RecBole divides by min(|R_u|, K) ("min") and trec_eval by |R_u| ("all"); both are lower when a list finds few of many relevant items',
} as const;

/** The convention lines of a ranking results object (none for another task). */
export function rankingConventionNotes(
  results: Pick<Results, 'task' | 'metrics' | 'baselines'> & { config?: Partial<Results['config']> },
): string[] {
  if (results.task !== 'ranking') return [];
  const out: string[] = [];
  if (Object.keys(results.metrics).some((k) => /^map@\d+$/.test(k))) {
    const raw = results.config?.mapNormaliser;
    const norm = raw === 'all' || raw === 'hits' ? raw : 'min';
    out.push(`MAP: AP@K is ${MAP_TEXT[norm]}; ${MAP_OTHERS[norm]}.`);
  }
  const column = results.config?.itemPopularity;
  if (results.baselines?.popularity) {
    const masked = results.config?.maskSeen !== false;
    const order =
      typeof column === 'string'
        ? `the train items with the largest "${column}" in the item table`
        : 'the most frequent train items';
    out.push(
      `Popularity baseline: ${order} with each user's own train items excluded${masked ? ' (as the run is masked, maskSeen)' : ' (the run is not masked: maskSeen false)'}; the unpersonalised alternative, one top-K list for every user with seen items included, scores differently.`,
    );
  }
  if (typeof column === 'string')
    out.push(
      `Popularity: novelty and the popularity baseline use "${column}" from the item table (itemPopularity), not the train interactions; cold-start coverage and activity bins keep the train counts.`,
    );
  return out;
}
