/**
 * The column plan of a classification file: which column holds the label, the prediction, the
 * class scores (wide `prob_<class>` columns or one array column), the score, weight, accept, group,
 * split and id, and which columns are kept as text. Decided once from the header; the row readers
 * then look up each column's kind by index.
 *
 * With config `classes` and wide columns, the columns are matched to classes by suffix; when the
 * suffixes are not class names but there are as many columns as classes, by position (a warning).
 */
import { basename } from 'node:path';
import { EvalLensError, fail, type Warnings } from '../diagnostics';
import type { ResolvedConfig } from '../config/types';
import { ClassSet } from './classSet';
import { COLUMN_ALIASES, findColumn, findWideColumns, listNames, missingColumn, type ColumnRole } from './columns';

export interface LoadClassificationOptions {
  /**
   * Columns to keep as written (dictionary-encoded text) by name, for slicing and row filters; a
   * role column keeps its role too. A name not in the file is an error naming the columns there are.
   */
  keepText?: string[];
  /** Also keep every column without a role (not label, pred, class scores, score, weight, accept, group, split, fold or id). */
  keepOther?: boolean;
  /**
   * Keep the n×C matrix of class probabilities (`ClassificationData.probs`), as the inspection's
   * row table does to show a row's best classes. Without it only the per-row quantities the
   * metrics read are kept (`ClassificationData.probTerms`), computed as each row is read.
   */
  keepProbabilities?: boolean;
  /**
   * Keep the row ids (`ClassificationData.ids`) once the duplicate-id check has read them (default
   * true). An evaluation that writes no per-row values and is not paired with another run never
   * reads them again: without them it holds 8 bytes a row less (integer ids), more for ids as text.
   */
  keepIds?: boolean;
  /**
   * Keep the per-row NLL, Brier and true-class rank terms (`ClassificationData.probTerms`; default
   * true). False when nothing but the point estimates over every row reads them (no resamples,
   * slices, row filter, split or per-row values): a file read in one pass without a weight, split
   * or fold column then has them added up as its rows are read (`ProbabilityTerms.sums`), in row
   * order as the point estimates add them, 20 bytes a row fewer.
   */
  keepTerms?: boolean;
}

// Column kinds of the plan.
export const SKIP = 0;
export const CLASS_SCORE = 1;
export const SCORE = 2;
export const WEIGHT = 3;
export const LABEL = 4;
export const PRED = 5;
export const ACCEPT = 6;
export const GROUP = 7;
export const SPLIT = 8;
export const ID = 9;
export const ARRAY = 10;
/** A column without a role, kept as text only. */
export const TEXT = 11;

export type PendingWarning = Parameters<Warnings['add']>[0];

export interface ClassificationColumnPlan {
  /** The kind of each column (SKIP … TEXT), by column index. */
  kinds: Uint8Array;
  /** Role → column name(s) used. */
  used: Record<string, string | string[]>;
  hasPred: boolean;
  hasScore: boolean;
  hasWeight: boolean;
  hasAccept: boolean;
  hasGroup: boolean;
  hasSplit: boolean;
  hasId: boolean;
  /** The class set from config `classes` or the wide columns' suffixes; null when the values give it. */
  classes: ClassSet | null;
  scoreKind: 'probs' | 'logits' | null;
  /** Class position of each wide class-score column, by column index (empty without wide columns). */
  classPos: Int32Array;
  /** Index of the array column of class scores, or -1. */
  arrayCol: number;
  /** Which columns are kept as text, by column index; null when none are. */
  keepText: boolean[] | null;
  /** Warnings to add once the file is read. */
  warnings: PendingWarning[];
  /** The fold column (kept as text, for `tables.folds`), or null. */
  fold: string | null;
}

export function planClassificationColumns(
  names: string[],
  config: ResolvedConfig,
  file: string,
  keep: LoadClassificationOptions = {},
): ClassificationColumnPlan {
  const kinds = new Uint8Array(names.length);
  const used: Record<string, string | string[]> = {};
  const taken = new Set<number>();
  const role = (r: ColumnRole, kind: number, required = false): boolean => {
    const j = findColumn(names, r, config, file);
    if (j < 0 && required) throw missingColumn(names, r, file);
    if (j >= 0 && !taken.has(j)) {
      kinds[j] = kind;
      taken.add(j);
      used[r] = names[j];
    }
    return j >= 0;
  };
  role('label', LABEL, true);
  const plan: ClassificationColumnPlan = {
    kinds,
    used,
    hasPred: role('pred', PRED),
    hasScore: role('score', SCORE),
    hasWeight: role('weight', WEIGHT),
    hasAccept: role('accept', ACCEPT),
    hasGroup: role('group', GROUP),
    hasSplit: role('split', SPLIT),
    hasId: role('id', ID),
    classes: null,
    scoreKind: null,
    classPos: new Int32Array(0),
    arrayCol: -1,
    keepText: null,
    warnings: [],
    fold: null,
  };
  // The fold column is read as written (kept as text) and sliced by, like a `slices` column.
  const foldAt = findColumn(names, 'fold', config, file);
  if (foldAt >= 0) {
    plan.fold = names[foldAt];
    used.fold = names[foldAt];
  }
  const classSet = (list: string[]): ClassSet => new ClassSet(list, file, config.configFile ?? file);

  if (config.classes && config.classes.length > 0) plan.classes = classSet(config.classes.map(String));

  const wide = findWideColumns(names, config, file, taken);
  if (wide) {
    plan.scoreKind = wide.kind;
    used[wide.kind] = wide.indices.map((j) => names[j]);
    if (!plan.classes) plan.classes = classSet(wide.suffixes.map((s) => s.trim()));
    plan.classPos = new Int32Array(names.length).fill(-1);
    const pos = matchWideToClasses(
      plan.classes,
      wide.suffixes,
      wide.indices.map((j) => names[j]),
      file,
      plan.warnings,
    );
    wide.indices.forEach((j, k) => {
      kinds[j] = CLASS_SCORE;
      plan.classPos[j] = pos[k];
    });
  } else {
    let j = findColumn(names, 'probsArray', config, file);
    let kind: 'probs' | 'logits' = 'probs';
    if (j < 0 || taken.has(j)) {
      j = findColumn(names, 'logitsArray', config, file);
      kind = 'logits';
    }
    if (j >= 0 && !taken.has(j)) {
      plan.arrayCol = j;
      plan.scoreKind = kind;
      kinds[j] = ARRAY;
      used[kind === 'probs' ? 'probsArray' : 'logitsArray'] = names[j];
    }
  }
  if (!plan.hasPred && !plan.scoreKind) {
    throw new EvalLensError(
      'missing-column',
      `Cannot evaluate ${basename(file)}: no pred column and no class scores. Found: ${listNames(names)}. Accepted: ${COLUMN_ALIASES.pred.join(', ')}; wide prob_<class>, p_<class>, logit_<class> columns; or an array column ${[...COLUMN_ALIASES.probsArray, ...COLUMN_ALIASES.logitsArray].join(', ')}. Set \`columns.pred\` or \`columns.probs\` in eval-lens.json.`,
      { file, line: 1 },
    );
  }
  if (keep.keepText?.length || keep.keepOther || plan.fold !== null) {
    const want = new Set(keep.keepText ?? []);
    if (plan.fold !== null) want.add(plan.fold);
    const missing = [...want].filter((w) => !names.includes(w));
    if (missing.length > 0)
      fail(
        'missing-column',
        { file, line: 1 },
        `no column ${listNames(missing)} to slice, filter or group by (\`slices\`, \`subgroupColumn\`; expected one of ${listNames(names)}).`,
      );
    const kept = names.map((name, j) => want.has(name) || (keep.keepOther === true && kinds[j] === SKIP));
    // A role column named in the list is kept as text too, without losing its role.
    kept.forEach((k, j) => {
      if (k && kinds[j] === SKIP) kinds[j] = TEXT;
    });
    plan.keepText = kept;
  }
  return plan;
}

/** Class position of each wide column (see the module comment). */
function matchWideToClasses(
  classes: ClassSet,
  suffixes: string[],
  colNames: string[],
  file: string,
  warnings: PendingWarning[],
): number[] {
  const C = classes.size;
  const byName = suffixes.map((s) => classes.lookup(s.trim()));
  if (byName.every((p) => p >= 0) && new Set(byName).size === byName.length) {
    if (byName.length === C) return byName;
    const missing = classes.names.filter((_, c) => !byName.includes(c));
    fail(
      'missing-class-column',
      { file, line: 1 },
      `no class-score column for class(es) ${listNames(missing)} (expected one column per class of \`classes\`; found ${listNames(colNames)}).`,
    );
  }
  if (suffixes.length === C) {
    warnings.push({
      code: 'class-columns-by-position',
      message: `${basename(file)}: the class-score columns (${listNames(colNames)}) do not name the classes of \`classes\`; they are matched to the classes by position.`,
      file,
      line: 1,
    });
    return suffixes.map((_, k) => k);
  }
  fail(
    'class-columns-mismatch',
    { file, line: 1 },
    `expected ${C} class-score columns (one per class of \`classes\`), got ${suffixes.length}: ${listNames(colNames)}.`,
  );
}
