/**
 * Which metrics are "headline" numbers: shown in CodeLens, the status bar, the report's first
 * cards. Chosen per task from the results' metric keys, first present wins; ranking takes the
 * smallest cutoff K ≥ 10 that was evaluated (else the largest).
 */
import type { Results } from '../core/results/types';

const CLASSIFICATION = ['accuracy', 'balanced_accuracy', 'macro_f1', 'acc_few', 'shift_auc', 'aurc', 'ece'];
const IW_BINARY = ['average_precision', 'aupr_trapz', 'f1', 'roc_auc', 'precision', 'recall'];
const RANKING_AT_K = ['ndcg', 'recall', 'map', 'precision', 'hit_rate'];

/** The ranking cutoffs present in `metrics` keys like `ndcg@10`, ascending. */
export function cutoffsOf(metrics: Record<string, unknown>): number[] {
  const ks = new Set<number>();
  for (const key of Object.keys(metrics)) {
    const m = /@(\d+)$/.exec(key);
    if (m) ks.add(Number(m[1]));
  }
  return [...ks].sort((a, b) => a - b);
}

/** Headline metric keys present in `results.metrics`, most important first, at most `max`. */
export function headlineKeys(results: Pick<Results, 'task' | 'metrics'>, max = 4): string[] {
  const has = (k: string): boolean => k in results.metrics;
  let wanted: string[];
  if (results.task === 'ranking') {
    const ks = cutoffsOf(results.metrics);
    const k = ks.find((x) => x >= 10) ?? ks[ks.length - 1];
    wanted = [...RANKING_AT_K.map((m) => `${m}@${k}`), 'mrr'];
  } else if (results.task === 'iw-binary') {
    wanted = IW_BINARY;
  } else {
    wanted = CLASSIFICATION;
  }
  const keys = wanted.filter(has);
  if (keys.length === 0) keys.push(...Object.keys(results.metrics));
  return keys.slice(0, max);
}

/**
 * The report's headline cards: few. Ranking: NDCG, recall and MAP at the headline K, MRR and the
 * number of users (the rest is in the metric × K table); other tasks: {@link headlineKeys}.
 */
export function reportHeadlineKeys(results: Pick<Results, 'task' | 'metrics'>): string[] {
  if (results.task !== 'ranking') return headlineKeys(results, 6);
  const ks = cutoffsOf(results.metrics);
  const k = ks.find((x) => x >= 10) ?? ks[ks.length - 1];
  const keys = [`ndcg@${k}`, `recall@${k}`, `map@${k}`, 'mrr', 'users_evaluated'].filter((x) => x in results.metrics);
  return keys.length > 0 ? keys : headlineKeys(results, 6);
}
