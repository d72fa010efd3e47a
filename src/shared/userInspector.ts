/**
 * The user inspector's model (ranking reports): the user ids to suggest while typing, and the
 * population's value of every per-user metric (the mean over evaluated users, as in the results)
 * to show beside one user's own values. The user's list itself is fetched from the host by the
 * row query (`user=<id>`); nothing here is computed from the data.
 */
import type { Results } from '../core/results/types';
import { tableOf } from '../core/results/tables';

export interface UserInspectorModel {
  /** User ids offered as suggestions (the evaluated users, in file order; at most {@link MAX_SUGGESTIONS}). */
  users: string[];
  /** Evaluated users in the results (suggestions may be fewer). */
  totalUsers: number;
  /** Per-user metric key → the population's value (mean over evaluated users), in results order. */
  population: { key: string; value: number | null }[];
  /** An item is cold when 1 ≤ its train count < this. */
  coldThreshold: number;
}

/** Suggestions beyond this many are left out (any user id can still be typed in full). */
export const MAX_SUGGESTIONS = 5000;

/**
 * A results file holds no per-user values (core/results/resultsFile.ts): the users are counted
 * from `tables.rankingSummary`, the suggestions are its `sampleUsers` (the first 5,000 evaluated
 * users), and the per-user metrics are those of `tables.perUserHistograms`; any user id typed in
 * full is shown. Results in memory with `perItem` (or a file of an earlier version) use its ids.
 */
export function userInspectorModel(results: Results): UserInspectorModel | undefined {
  if (results.task !== 'ranking') return undefined;
  const p = results.perItem;
  const perUser = p && p.kind === 'user' ? p : undefined;
  const summary = tableOf(results, 'rankingSummary');
  const ids = perUser?.ids ?? summary?.sampleUsers ?? [];
  const histograms = tableOf(results, 'perUserHistograms');
  const keys = perUser ? Object.keys(perUser.values) : histograms ? Object.keys(histograms) : [];
  return {
    users: ids.slice(0, MAX_SUGGESTIONS),
    totalUsers: perUser
      ? (perUser.ids?.length ?? 0)
      : (summary?.usersEvaluated ?? results.metrics.users_evaluated?.value ?? 0),
    population: keys.map((key) => ({ key, value: results.metrics[key]?.value ?? null })),
    coldThreshold: results.config?.coldThreshold ?? 5,
  };
}
