/**
 * Column detection (docs/inputs.md): each role is found by name, case-insensitively, from a
 * list of aliases in order of preference; `columns` in eval-lens.json names a column explicitly and
 * wins over detection. What was found is returned so it can be shown and stored in the results.
 *
 * Wide class-score columns are `<prefix><class>`: probability prefixes `prob_`, `probs_`, `proba_`,
 * `p_`; logit prefixes `logit_`, `logits_`. A set needs at least two columns with one prefix (a
 * lone `p_value` is not a class set). When several prefixes match, the first in that order wins;
 * when both probability and logit columns exist, the probabilities are used.
 */
import { basename } from 'node:path';
import { EvalLensError } from '../diagnostics';
import type { ColumnsConfig } from '../config/types';

/** Roles of single columns. `probsArray`/`logitsArray` are array-valued class-score columns. */
export type ColumnRole =
  | 'label'
  | 'pred'
  | 'score'
  | 'accept'
  | 'group'
  | 'weight'
  | 'split'
  | 'fold'
  | 'id'
  | 'stratum'
  | 'user'
  | 'item'
  | 'rank'
  | 'rel'
  | 'probsArray'
  | 'logitsArray';

/** Accepted names per role, lower-case, in order of preference. */
export const COLUMN_ALIASES: Readonly<Record<ColumnRole, readonly string[]>> = {
  label: ['label', 'y_true', 'target', 'gt', 'labels'],
  pred: ['pred', 'y_pred', 'prediction'],
  score: ['confidence', 'score', 'margin'],
  accept: ['accept'],
  group: ['group'],
  weight: ['weight'],
  split: ['split'],
  fold: ['fold'],
  id: ['id'],
  stratum: ['stratum'],
  user: ['user'],
  item: ['item'],
  rank: ['rank'],
  rel: ['rel'],
  // `scores` holds class scores that are read as probabilities (checked for summing to 1).
  probsArray: ['probs', 'scores'],
  logitsArray: ['logits'],
};

/** Prefixes of wide class-score columns, lower-case, in order of preference. */
export const WIDE_PREFIXES = {
  probs: ['prob_', 'probs_', 'proba_', 'p_'],
  logits: ['logit_', 'logits_'],
} as const;

/** Config access: anything with an optional `columns` (EvalConfig, ResolvedConfig). */
export interface HasColumns {
  columns?: ColumnsConfig;
}

function lowerIndex(names: readonly string[], wanted: string): number {
  const exact = names.indexOf(wanted);
  if (exact >= 0) return exact;
  const w = wanted.toLowerCase();
  return names.findIndex((n) => n.toLowerCase() === w);
}

/** "id, y, p0, … (12 more)" for messages. */
export function listNames(names: readonly string[], max = 8): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')}, … (${names.length - max} more)`;
}

/**
 * Index of the column playing `role`, or -1. An explicit `config.columns[role]` must exist in
 * `names` (exact, else case-insensitive): when it does not, an {@link EvalLensError}
 * (`column-not-found`) names it and the columns found. `aliases` replaces the default list.
 */
export function findColumn(
  names: readonly string[],
  role: ColumnRole,
  config?: HasColumns,
  file = 'the file',
  aliases: readonly string[] = COLUMN_ALIASES[role],
): number {
  const explicit = config?.columns?.[role as keyof ColumnsConfig];
  if (typeof explicit === 'string') {
    const j = lowerIndex(names, explicit);
    if (j < 0) {
      throw new EvalLensError(
        'column-not-found',
        `Cannot evaluate ${basename(file)}: the ${role} column "${explicit}" set in \`columns.${role}\` is not in the file. Found: ${listNames(names)}.`,
        { file, line: 1, column: explicit },
      );
    }
    return j;
  }
  const lower = names.map((n) => n.toLowerCase());
  for (const a of aliases) {
    const j = lower.indexOf(a);
    if (j >= 0) return j;
  }
  return -1;
}

/**
 * "Cannot evaluate preds.csv: no label column. Found: … Accepted: … Set `columns.label` in
 * eval-lens.json.": the error of a required column that {@link findColumn} did not find.
 */
export function missingColumn(
  names: readonly string[],
  role: ColumnRole | string,
  file: string,
  aliases: readonly string[] = COLUMN_ALIASES[role as ColumnRole] ?? [],
): EvalLensError {
  return new EvalLensError(
    'missing-column',
    `Cannot evaluate ${basename(file)}: no ${role} column. Found: ${listNames(names)}. Accepted: ${aliases.join(', ')}. Set \`columns.${role}\` in eval-lens.json.`,
    { file, line: 1 },
  );
}

/** Wide class-score columns: their indices in `names` and the class suffixes, in column order. */
export interface WideColumns {
  kind: 'probs' | 'logits';
  indices: number[];
  /** Class names taken from the suffixes (`prob_cat` → `cat`), or the explicit column names. */
  suffixes: string[];
  /** The prefix matched, or null for columns given in config. */
  prefix: string | null;
}

/**
 * Finds wide probability (else logit) columns. `columns.probs` / `columns.logits` in the config
 * give them explicitly, in class order (their suffixes are then the part after the first `_` when
 * every name has one with a common prefix, else the whole names). Columns in `exclude` (already
 * taken by another role) are never part of a set.
 */
export function findWideColumns(
  names: readonly string[],
  config?: HasColumns,
  file = 'the file',
  exclude: ReadonlySet<number> = new Set(),
): WideColumns | null {
  for (const kind of ['probs', 'logits'] as const) {
    const explicit = config?.columns?.[kind];
    if (explicit && explicit.length > 0) {
      const indices = explicit.map((c) => {
        const j = lowerIndex(names, c);
        if (j < 0) {
          throw new EvalLensError(
            'column-not-found',
            `Cannot evaluate ${basename(file)}: column "${c}" listed in \`columns.${kind}\` is not in the file. Found: ${listNames(names)}.`,
            { file, line: 1, column: c },
          );
        }
        return j;
      });
      return { kind, indices, suffixes: explicitSuffixes(explicit), prefix: null };
    }
  }
  const lower = names.map((n) => n.toLowerCase());
  for (const kind of ['probs', 'logits'] as const) {
    for (const prefix of WIDE_PREFIXES[kind]) {
      const indices: number[] = [];
      for (let j = 0; j < lower.length; j++) {
        if (!exclude.has(j) && lower[j].startsWith(prefix) && lower[j].length > prefix.length) indices.push(j);
      }
      if (indices.length >= 2)
        return { kind, indices, suffixes: indices.map((j) => names[j].slice(prefix.length)), prefix };
    }
  }
  return null;
}

function explicitSuffixes(cols: readonly string[]): string[] {
  const us = cols.map((c) => c.indexOf('_'));
  if (us.every((u) => u > 0)) {
    const pre = cols[0].slice(0, us[0] + 1).toLowerCase();
    if (cols.every((c) => c.toLowerCase().startsWith(pre) && c.length > pre.length))
      return cols.map((c) => c.slice(pre.length));
  }
  return [...cols];
}
