/**
 * The `eval-lens.json` written by "Create Evaluation Config": built from the answers to the quick
 * picks, writing only what differs from detection and defaults, so the file stays short and says
 * what was decided.
 */
import type { EvalConfig, Task } from '../core/config/types';

export interface ConfigAnswers {
  task: Task;
  /** The label column chosen, and the one detection would find (written only when they differ). */
  label?: string;
  detectedLabel?: string;
  /** Chosen score column (confidence) when not detected. */
  score?: string;
  detectedScore?: string;
  scoreType?: 'msp' | 'margin' | 'entropy';
  /** Path of the train counts file, relative to the config. */
  trainCounts?: string;
  /** Group boundaries on the train rank (e.g. `[6]`: the 6 most frequent classes are the head). */
  groups?: number[];
  groupNames?: string[];
  k?: number[];
  /** Ranking ground truth file, relative to the config. */
  relevant?: string;
  bootstrapN?: number;
}

export function draftConfig(a: ConfigAnswers): EvalConfig {
  const c: EvalConfig = { task: a.task };
  const columns: NonNullable<EvalConfig['columns']> = {};
  if (a.label && a.label !== a.detectedLabel) columns.label = a.label;
  if (a.score && a.score !== a.detectedScore) columns.score = a.score;
  if (Object.keys(columns).length > 0) c.columns = columns;
  if (a.task === 'classification') {
    if (a.scoreType && a.scoreType !== 'msp') c.score = a.scoreType;
    if (a.trainCounts) c.trainCounts = a.trainCounts;
    if (a.groups && a.groups.length > 0) {
      c.groups = a.groups;
      if (a.groupNames && a.groupNames.length === a.groups.length + 1) c.groupNames = a.groupNames;
    }
  }
  if (a.task === 'ranking') {
    if (a.k && a.k.length > 0) c.k = a.k;
    if (a.relevant) c.relevant = a.relevant;
  }
  if (a.bootstrapN !== undefined) c.bootstrap = { n: a.bootstrapN };
  return c;
}

/** "5, 10, 20" → [5, 10, 20]; undefined when any entry is not a positive integer. */
export function parseIntList(text: string): number[] | undefined {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (parts.length === 0) return [];
  const xs = parts.map(Number);
  return xs.every((x) => Number.isInteger(x) && x > 0) ? xs : undefined;
}
