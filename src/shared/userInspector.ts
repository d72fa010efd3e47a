/**
 * The user inspector's model (ranking reports): the user ids to suggest while typing, and the
 * population's value of every per-user metric (the mean over evaluated users, as in the results)
 * to show beside one user's own values. The user's list itself is fetched from the host by the
 * row query (`user=<id>`); nothing here is computed from the data.
 */
import type { Results } from '../core/results/types';

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

export function userInspectorModel(results: Results): UserInspectorModel | undefined {
  if (results.task !== 'ranking') return undefined;
  const p = results.perItem;
  const ids = p && p.kind === 'user' ? (p.ids ?? []) : [];
  const keys = p && p.kind === 'user' ? Object.keys(p.values) : [];
  return {
    users: ids.slice(0, MAX_SUGGESTIONS),
    totalUsers: ids.length,
    population: keys.map((key) => ({ key, value: results.metrics[key]?.value ?? null })),
    coldThreshold: results.config?.coldThreshold ?? 5,
  };
}
