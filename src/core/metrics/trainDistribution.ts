/**
 * The train distribution and the class groups of docs/metrics/classification.md, resolved from the config:
 * `trainCounts` (array in class order, class→count map, or a path to a JSON/CSV file holding either)
 * or `classWeights` (train frequencies, same forms; with `trainTotal` they become counts), `groups`
 * (boundary list on the train rank, class→group map, or a path to a JSON file holding either) and
 * `groupNames`. Inconsistent config is an {@link EvalLensError} naming the config file and the key.
 *
 * References (the metrics that use the train distribution):
 * - Z. Liu, Z. Miao, X. Zhan, J. Wang, B. Gong, S. X. Yu (2019). Large-Scale Long-Tailed Recognition in an Open
 *   World. IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR). https://arxiv.org/abs/1904.05160
 * - H. Shimodaira (2000). Improving predictive inference under covariate shift by weighting the log-likelihood
 *   function. Journal of Statistical Planning and Inference 90(2):227–244.
 *   https://doi.org/10.1016/S0378-3758(00)00115-4
 * - Z. C. Lipton, Y.-X. Wang, A. J. Smola (2018). Detecting and Correcting for Label Shift with Black Box
 *   Predictors. International Conference on Machine Learning (ICML). https://arxiv.org/abs/1802.03916
 *
 * @see docs/metrics/classification.md — the definitions, conventions and worked examples.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { EvalLensError } from '../diagnostics';
import type { ResolvedConfig } from '../config/types';
import { resolveConfigPath } from '../config/load';

export interface TrainDistribution {
  /** Which key it came from. */
  source: 'trainCounts' | 'classWeights';
  /** n_c per class (class order); null when only frequencies are known (`classWeights` without `trainTotal`). */
  counts: Float64Array | null;
  /** q^trn_c = n_c / Σ n_c (class order); sums to 1. */
  shares: Float64Array;
  /** 1-based rank per class: n_c descending, stable (ties keep class order). */
  rank: Int32Array;
  /** Class index at each rank position (order[r-1] = class of rank r). */
  order: Int32Array;
}

export interface GroupSpec {
  /** Group names in display order. */
  names: string[];
  /** Group index per class (class order). */
  groupOf: Int32Array;
  /** How the groups were given. */
  kind: 'boundaries' | 'map';
}

/** Where config values came from, for messages. */
export function configSource(config: ResolvedConfig): string {
  return config.configFile ?? 'the evaluation config';
}

function configError(config: ResolvedConfig, key: string, what: string): never {
  throw new EvalLensError('invalid-config', `${configSource(config)}: \`${key}\` ${what}`, {
    file: configSource(config),
    column: key,
  });
}

type Values = number[] | Record<string, number>;

/** Reads a JSON (array, or class→value object) or CSV/TSV (`class,count` rows, or one value per line) file. */
export async function readValuesFile(path: string, key: string, config: ResolvedConfig): Promise<Values> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    configError(config, key, `names the file ${path}, which cannot be read (${(e as Error).message}).`);
  }
  const ext = extname(path).toLowerCase();
  if (ext === '.json') {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      configError(config, key, `names ${path}, which is not valid JSON (${(e as Error).message}).`);
    }
    if (v && typeof v === 'object' && !Array.isArray(v) && key in (v as object))
      v = (v as Record<string, unknown>)[key];
    return checkValuesShape(v, `${path}`, key, config);
  }
  return parseValuesTable(text, path, key, config, ext === '.tsv' ? '\t' : ',');
}

function parseValuesTable(text: string, path: string, key: string, config: ResolvedConfig, sep: string): Values {
  const lines = text.split(/\r?\n/);
  const rows: { cells: string[]; line: number }[] = [];
  lines.forEach((l, i) => {
    if (l.trim() !== '') rows.push({ cells: l.split(sep).map((s) => s.trim().replace(/^"(.*)"$/, '$1')), line: i + 1 });
  });
  if (rows.length === 0) configError(config, key, `names ${path}, which is empty.`);
  // A header is a first row whose last cell is not a number.
  const hasHeader =
    !Number.isFinite(Number(rows[0].cells[rows[0].cells.length - 1])) || rows[0].cells[rows[0].cells.length - 1] === '';
  const body = hasHeader ? rows.slice(1) : rows;
  const width = body[0]?.cells.length ?? 0;
  if (width === 1) {
    return body.map((r) => {
      const x = Number(r.cells[0]);
      if (r.cells[0] === '' || !Number.isFinite(x))
        throw new EvalLensError(
          'invalid-config',
          `${path}:${r.line}: expected a number for \`${key}\`, got "${r.cells[0]}".`,
          { file: path, line: r.line },
        );
      return x;
    });
  }
  const map: Record<string, number> = {};
  for (const r of body) {
    if (r.cells.length !== 2)
      throw new EvalLensError(
        'invalid-config',
        `${path}:${r.line}: expected 2 cells (class, value) for \`${key}\`, got ${r.cells.length}.`,
        { file: path, line: r.line },
      );
    const x = Number(r.cells[1]);
    if (r.cells[1] === '' || !Number.isFinite(x))
      throw new EvalLensError(
        'invalid-config',
        `${path}:${r.line}: expected a number for class "${r.cells[0]}" in \`${key}\`, got "${r.cells[1]}".`,
        { file: path, line: r.line },
      );
    if (Object.hasOwn(map, r.cells[0]))
      throw new EvalLensError(
        'invalid-config',
        `${path}:${r.line}: class "${r.cells[0]}" appears twice in \`${key}\`.`,
        { file: path, line: r.line },
      );
    // defineProperty: a class named `__proto__` is an ordinary key, not the prototype.
    Object.defineProperty(map, r.cells[0], { value: x, enumerable: true, writable: true, configurable: true });
  }
  return map;
}

function checkValuesShape(v: unknown, where: string, key: string, config: ResolvedConfig): Values {
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      if (typeof x !== 'number' || !Number.isFinite(x))
        configError(config, key, `(from ${where}) expected a finite number at index ${i}, got ${JSON.stringify(x)}.`);
    });
    return v as number[];
  }
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (typeof x !== 'number' || !Number.isFinite(x))
        configError(
          config,
          key,
          `(from ${where}) expected a finite number for class "${k}", got ${JSON.stringify(x)}.`,
        );
    }
    return v as Record<string, number>;
  }
  configError(
    config,
    key,
    `(from ${where}) expected an array in class order or a class→value object, got ${JSON.stringify(v)}.`,
  );
}

/** A path from the config, relative to `baseDir` and kept inside the workspace `root` (config/load.ts's rule; default: baseDir). */
function resolvePath(p: string, baseDir: string, key: string, config: ResolvedConfig, root?: string): string {
  return resolveConfigPath(p, baseDir, { key, configFile: config.configFile, root });
}

/** Values in class order from an array or class→value map; errors name the key. */
export function valuesInClassOrder(
  values: Values,
  classes: string[],
  key: string,
  config: ResolvedConfig,
): Float64Array {
  const C = classes.length;
  const out = new Float64Array(C);
  if (Array.isArray(values)) {
    if (values.length !== C)
      configError(config, key, `has ${values.length} entries, but there are ${C} classes (${preview(classes)}).`);
    values.forEach((x, i) => (out[i] = x));
  } else {
    const index = new Map(classes.map((c, i) => [c, i]));
    const seen = new Uint8Array(C);
    for (const [k, x] of Object.entries(values)) {
      const i = index.get(k);
      if (i === undefined)
        configError(config, key, `names class "${k}", which is not one of the ${C} classes (${preview(classes)}).`);
      out[i] = x;
      seen[i] = 1;
    }
    const missing = classes.filter((_, i) => !seen[i]);
    if (missing.length > 0)
      configError(
        config,
        key,
        `has no entry for class${missing.length > 1 ? 'es' : ''} ${preview(missing.map((m) => `"${m}"`))}; give every class a value (0 is allowed).`,
      );
  }
  for (let c = 0; c < C; c++) {
    if (!(out[c] >= 0) || !Number.isFinite(out[c]))
      configError(config, key, `must be ≥ 0 for every class, but class "${classes[c]}" has ${out[c]}.`);
  }
  return out;
}

function preview(xs: string[]): string {
  return xs.length <= 8 ? xs.join(', ') : `${xs.slice(0, 8).join(', ')}, … (${xs.length} in all)`;
}

/** Stable rank by value descending (ties keep class order): returns [rank per class (1-based), order]. */
export function rankByCount(values: ArrayLike<number>): { rank: Int32Array; order: Int32Array } {
  const C = values.length;
  const order = Int32Array.from({ length: C }, (_, i) => i);
  // Array.prototype.sort is stable (ES2019); TypedArray sort is too, but be explicit with an index tie-break.
  const sorted = Array.from(order).sort((a, b) => values[b] - values[a] || a - b);
  const rank = new Int32Array(C);
  sorted.forEach((c, r) => {
    order[r] = c;
    rank[c] = r + 1;
  });
  return { rank, order };
}

/**
 * Builds the train distribution from already-parsed values (no file access).
 * `classWeights` are frequencies: with `trainTotal` they become counts `round(w_c · trainTotal)`;
 * without it only the shares are known (no shot groups).
 */
export function trainDistributionFromValues(
  values: Values,
  classes: string[],
  source: 'trainCounts' | 'classWeights',
  config: ResolvedConfig,
): TrainDistribution {
  const v = valuesInClassOrder(values, classes, source, config);
  let counts: Float64Array | null = null;
  if (source === 'trainCounts') counts = v;
  else if (config.trainTotal !== undefined) {
    if (!(config.trainTotal > 0) || !Number.isFinite(config.trainTotal))
      configError(config, 'trainTotal', `must be a positive number, got ${config.trainTotal}.`);
    counts = v.map((w) => Math.round(w * (config.trainTotal as number)));
  }
  const base = counts ?? v;
  let sum = 0;
  for (const x of base) sum += x;
  if (!(sum > 0)) configError(config, source, 'sums to 0; at least one class needs a positive train count.');
  const shares = base.map((x) => x / sum);
  const { rank, order } = rankByCount(base);
  return { source, counts, shares, rank, order };
}

/** Resolves `trainCounts` / `classWeights` (reading a file when given a path); null when neither is set. */
export async function resolveTrainDistribution(
  classes: string[],
  config: ResolvedConfig,
  baseDir: string,
  root?: string,
): Promise<TrainDistribution | null> {
  if (config.trainCounts !== undefined && config.classWeights !== undefined) {
    configError(config, 'classWeights', 'cannot be given together with `trainCounts`; keep one of them.');
  }
  const source =
    config.trainCounts !== undefined ? 'trainCounts' : config.classWeights !== undefined ? 'classWeights' : null;
  if (!source) return null;
  const raw = config[source] as Values | string;
  const values =
    typeof raw === 'string'
      ? await readValuesFile(resolvePath(raw, baseDir, source, config, root), source, config)
      : checkValuesShape(raw, 'the config', source, config);
  return trainDistributionFromValues(values, classes, source, config);
}

/** Default group names: `head`/`tail` for two groups, `g1…gm` otherwise. */
export function defaultGroupNames(m: number): string[] {
  return m === 2 ? ['head', 'tail'] : Array.from({ length: m }, (_, i) => `g${i + 1}`);
}

/**
 * Groups from a boundary list on the train rank: boundaries b_1 < … < b_{m−1} (integers in 1..C−1)
 * give groups ranks 1..b_1, b_1+1..b_2, …, b_{m−1}+1..C (CIFAR-100-LT: `[69]` → 1–69 head, 70–100 tail).
 */
export function groupsFromBoundaries(
  boundaries: number[],
  train: TrainDistribution | null,
  classes: string[],
  config: ResolvedConfig,
): GroupSpec {
  const C = classes.length;
  if (!train)
    configError(config, 'groups', 'is a boundary list on the train rank, which needs `trainCounts` or `classWeights`.');
  boundaries.forEach((b, i) => {
    if (!Number.isInteger(b) || b < 1 || b > C - 1)
      configError(
        config,
        'groups',
        `boundaries must be integers in 1..${C - 1} (C = ${C} classes), but entry ${i} is ${b}.`,
      );
    if (i > 0 && b <= boundaries[i - 1])
      configError(config, 'groups', `boundaries must be strictly increasing, but ${b} follows ${boundaries[i - 1]}.`);
  });
  const m = boundaries.length + 1;
  const names = groupNamesFor(m, config);
  const groupOf = new Int32Array(C);
  for (let c = 0; c < C; c++) {
    const r = train.rank[c];
    let g = 0;
    while (g < boundaries.length && r > boundaries[g]) g++;
    groupOf[c] = g;
  }
  return { names, groupOf, kind: 'boundaries' };
}

function groupNamesFor(m: number, config: ResolvedConfig): string[] {
  if (config.groupNames === undefined) return defaultGroupNames(m);
  if (config.groupNames.length !== m)
    configError(config, 'groupNames', `has ${config.groupNames.length} names, but \`groups\` defines ${m} groups.`);
  if (new Set(config.groupNames).size !== m) configError(config, 'groupNames', 'has a repeated name.');
  return config.groupNames.map(String);
}

/**
 * Groups from a class→group map. Order: `groupNames` when given (each name used must be listed),
 * else order of first appearance in class order. Every class needs a group.
 */
export function groupsFromMap(map: Record<string, string>, classes: string[], config: ResolvedConfig): GroupSpec {
  const index = new Map(classes.map((c, i) => [c, i]));
  const groupOf = new Int32Array(classes.length).fill(-1);
  const byClass: (string | undefined)[] = new Array(classes.length);
  for (const [k, g] of Object.entries(map)) {
    const i = index.get(k);
    if (i === undefined)
      configError(
        config,
        'groups',
        `names class "${k}", which is not one of the ${classes.length} classes (${preview(classes)}).`,
      );
    if (typeof g !== 'string' && typeof g !== 'number')
      configError(config, 'groups', `expected a group name for class "${k}", got ${JSON.stringify(g)}.`);
    byClass[i] = String(g);
  }
  const missing = classes.filter((_, i) => byClass[i] === undefined);
  if (missing.length > 0)
    configError(
      config,
      'groups',
      `has no group for class${missing.length > 1 ? 'es' : ''} ${preview(missing.map((m) => `"${m}"`))}.`,
    );
  let names: string[];
  if (config.groupNames !== undefined) {
    names = config.groupNames.map(String);
    const unknown = [...new Set(byClass as string[])].filter((g) => !names.includes(g));
    if (unknown.length > 0)
      configError(
        config,
        'groupNames',
        `does not list group${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')} used in \`groups\`.`,
      );
  } else {
    names = [...new Set(byClass as string[])];
  }
  const gi = new Map(names.map((g, i) => [g, i]));
  byClass.forEach((g, c) => (groupOf[c] = gi.get(g as string)!));
  return { names, groupOf, kind: 'map' };
}

/** Resolves `groups` (+ `groupNames`); null when `groups` is not set. */
export async function resolveGroups(
  classes: string[],
  config: ResolvedConfig,
  train: TrainDistribution | null,
  baseDir: string,
  root?: string,
): Promise<GroupSpec | null> {
  let g: unknown = config.groups;
  if (g === undefined) return null;
  if (typeof g === 'string') {
    const path = resolvePath(g, baseDir, 'groups', config, root);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      configError(config, 'groups', `names the file ${path}, which cannot be read (${(e as Error).message}).`);
    }
    try {
      g = JSON.parse(text);
    } catch (e) {
      configError(config, 'groups', `names ${path}, which is not valid JSON (${(e as Error).message}).`);
    }
    if (g && typeof g === 'object' && !Array.isArray(g) && 'groups' in (g as object))
      g = (g as Record<string, unknown>).groups;
  }
  if (Array.isArray(g)) return groupsFromBoundaries(g as number[], train, classes, config);
  if (g && typeof g === 'object') return groupsFromMap(g as Record<string, string>, classes, config);
  configError(
    config,
    'groups',
    `expected a boundary list on the train rank or a class→group object, got ${JSON.stringify(g)}.`,
  );
}
