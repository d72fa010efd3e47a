/**
 * The validation/test split of a classification file (docs/metrics/splits.md): which rows choose
 * a threshold (validation) and which rows every metric is computed on (test).
 *
 * - A `split` column: each value must name validation or test rows — `splitNames` maps them
 *   (default validation `val`/`valid`/`validation`/`dev`, test `test`); any other value is an error
 *   naming the file, the line and the values expected.
 * - No `split` column and `randomSplit`: a seeded random permutation of the rows, the first
 *   ⌊n·f⌋ rows validation and the rest test — not stratified by label, as the selective-classification
 *   protocol splits (a random permutation of all rows, the first half validation).
 * - `metricsOn: "all"` keeps every row for the metrics (the whole-file numbers); the threshold is
 *   still chosen on the validation rows.
 */
import { EvalLensError } from '../diagnostics';
import type { ResolvedConfig } from '../config/types';
import type { ClassificationData } from '../data/classificationData';
import { createRng } from '../stats/rng';
import type { SplitInfo } from '../results/types';

/** Default split values (lower-case) naming validation rows and test rows. */
export const DEFAULT_SPLIT_NAMES = {
  validation: ['val', 'valid', 'validation', 'dev'],
  test: ['test'],
} as const;

/** The value a random split writes for each row (`split` field of the row table). */
export const RANDOM_SPLIT_VALUES = { validation: 'val', test: 'test' } as const;

export interface SplitPlan {
  /** Validation rows (file order). */
  val: Int32Array;
  /** Test rows (file order). */
  test: Int32Array;
  /** Where the split came from. */
  by: 'column' | 'random';
  /** The `split` column's name (`by: "column"`). */
  column?: string;
  /** `randomSplit`'s validation fraction and seed (`by: "random"`). */
  fraction?: number;
  seed?: number;
  /** The split values read as validation / as test (`by: "column"`), lower-case. */
  names: { validation: string[]; test: string[] };
  /** The rows the metrics are computed on. */
  metricsOn: 'test' | 'all';
}

/** `randomSplit` in its object form (a number is the validation fraction, with seed = 0). */
export function randomSplitOf(
  config: Pick<ResolvedConfig, 'randomSplit'>,
): { validation: number; seed: number } | null {
  const r = config.randomSplit;
  if (r === undefined) return null;
  return typeof r === 'number' ? { validation: r, seed: 0 } : { validation: r.validation, seed: r.seed ?? 0 };
}

/**
 * The split of `data` under `config`, or null when the file has no `split` column and no
 * `randomSplit` is configured.
 * @throws EvalLensError for a split value that names neither validation nor test rows, for a
 *   value named both ways, and for a `randomSplit` fraction outside (0, 1).
 */
export function planSplit(
  data: ClassificationData,
  config: Pick<ResolvedConfig, 'splitNames' | 'randomSplit' | 'metricsOn' | 'configFile' | 'columns'>,
): SplitPlan | null {
  const metricsOn = config.metricsOn ?? 'test';
  const cfgName = config.configFile ?? 'the config';
  if (data.split) {
    const names = splitNamesOf(config, cfgName);
    const valSet = new Set(names.validation);
    const testSet = new Set(names.test);
    const val: number[] = [];
    const test: number[] = [];
    const column = config.columns?.split ?? 'split';
    for (let i = 0; i < data.n; i++) {
      const k = data.split[i].trim().toLowerCase();
      if (valSet.has(k)) val.push(i);
      else if (testSet.has(k)) test.push(i);
      else {
        const shown = k === '' ? 'an empty cell' : `"${data.split[i]}"`;
        throw new EvalLensError(
          'unknown-split',
          `${data.file}:${data.lines[i]}, column "${column}": expected a validation value (${names.validation.join(', ')}) or a test value (${names.test.join(', ')}), got ${shown}. Map other values with \`splitNames\` in eval-lens.json, e.g. {"validation": ["val", "tunev"], "test": ["test"]}.`,
          { file: data.file, line: data.lines[i], column },
        );
      }
    }
    return { val: Int32Array.from(val), test: Int32Array.from(test), by: 'column', column, names, metricsOn };
  }
  const random = randomSplitOf(config);
  if (!random) return null;
  const f = random.validation;
  if (!(f > 0 && f < 1))
    throw new EvalLensError(
      'invalid-config',
      `${cfgName}: \`randomSplit\` needs a validation fraction in (0, 1), got ${JSON.stringify(config.randomSplit)}.`,
      { file: cfgName, column: 'randomSplit' },
    );
  const { val, test } = randomSplitRows(data.n, f, random.seed);
  return {
    val,
    test,
    by: 'random',
    fraction: f,
    seed: random.seed,
    names: { validation: [RANDOM_SPLIT_VALUES.validation], test: [RANDOM_SPLIT_VALUES.test] },
    metricsOn,
  };
}

/**
 * A seeded random split of rows 0..n−1: a Fisher–Yates permutation drawn from the tool's seeded
 * generator (stats/rng.ts), its first ⌊n·f⌋ rows validation, the rest test; each part in file order.
 */
export function randomSplitRows(n: number, f: number, seed: number): { val: Int32Array; test: Int32Array } {
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  const rng = createRng(seed);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  const nVal = Math.floor(n * f);
  const val = perm.slice(0, nVal).sort();
  const test = perm.slice(nVal).sort();
  return { val, test };
}

/** The validation and test values, lower-case, checked to be disjoint. */
function splitNamesOf(
  config: Pick<ResolvedConfig, 'splitNames'>,
  cfgName: string,
): { validation: string[]; test: string[] } {
  const lower = (xs: readonly string[]) => xs.map((x) => String(x).trim().toLowerCase());
  const validation = lower(config.splitNames?.validation ?? DEFAULT_SPLIT_NAMES.validation);
  const test = lower(config.splitNames?.test ?? DEFAULT_SPLIT_NAMES.test);
  const both = validation.filter((v) => test.includes(v));
  if (both.length > 0)
    throw new EvalLensError(
      'invalid-config',
      `${cfgName}: \`splitNames\` names ${both.map((b) => `"${b}"`).join(', ')} both a validation and a test value; expected each value in one list.`,
      { file: cfgName, column: 'splitNames' },
    );
  return { validation, test };
}

/**
 * The rows every metric is computed on (row indices, file order): the test rows with a split and
 * `metricsOn: "test"`; null for every row (no split, `metricsOn: "all"`, or a split without test rows).
 */
export function metricRows(plan: SplitPlan | null | undefined): Int32Array | null {
  if (!plan || plan.metricsOn === 'all' || plan.test.length === 0) return null;
  return plan.test;
}

/** The split as stored in `results.source.split`. */
export function splitSummary(p: SplitPlan): SplitInfo {
  return {
    by: p.by,
    ...(p.column !== undefined ? { column: p.column } : {}),
    ...(p.fraction !== undefined ? { fraction: p.fraction, seed: p.seed ?? 0 } : {}),
    validationRows: p.val.length,
    testRows: p.test.length,
    metricsOn: p.metricsOn,
  };
}

/**
 * The rows a metric covers, as its note says: `all n rows` without a split, `the n test rows`
 * with one, `all n rows (validation and test)` with `metricsOn: "all"`.
 */
export function rowsPhrase(split: SplitPlan | null | undefined, n: number): string {
  if (!split) return `all ${n} rows`;
  return split.metricsOn === 'all' ? `all ${n} rows (validation and test)` : `the ${n} test rows`;
}

/**
 * {@link planSplit}, and the data with a random split's values written into its `split` field
 * (`val` / `test`), so that the row table shows them and can filter or slice by them.
 */
export function withSplitValues(
  data: ClassificationData,
  config: Parameters<typeof planSplit>[1],
): { data: ClassificationData; plan: SplitPlan | null } {
  const plan = planSplit(data, config);
  if (!plan || plan.by !== 'random') return { data, plan };
  const split: string[] = new Array<string>(data.n).fill(RANDOM_SPLIT_VALUES.test);
  for (const i of plan.val) split[i] = RANDOM_SPLIT_VALUES.validation;
  return { data: { ...data, split }, plan };
}
