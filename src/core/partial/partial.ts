/**
 * `eval-lens partial`: one shard's partial statistics of the classification task, as an `.npz`
 * archive (docs/scaling.md, format in ./format.ts). The shard is read by the same reader as
 * `evaluate`; the file then holds
 *
 * - `sum/*`: the per-class sums every class-sum metric is finished from (weighted support,
 *   true positives, predictions, the classes present, the total weight), the C × C confusion
 *   matrix and, with class scores, the true-class rank histogram and Σ w·NLL, Σ w·Brier; all
 *   summed in row order, as the single-machine evaluation sums them;
 * - `run/*`: the sorted run, the rows sorted by the ranking score, descending, ties in row order
 *   (`run/key` is a row's number in the shard): the score, correctness, true and predicted
 *   class, weight, the per-row NLL, Brier and true-class rank, an `accept` flag.
 *
 * Intervals are not part of this first version: the bootstrap is off (n = 0) in the stored config.
 * Configs that need what a shard alone cannot know or keep (a train distribution, class groups,
 * subgroups, slices, folds, a validation/test split, a margin or entropy ranking) are refused.
 */
import { createHash } from 'node:crypto';
import { EvalLensError, Warnings, type Progress } from '../diagnostics';
import { CONFIG_DEFAULTS, type ResolvedConfig } from '../config/types';
import { resolveEvaluation, type EvaluationInputOptions } from '../io/evaluationInput';
import { fileInfo } from '../io/fileInfo';
import { loadClassification } from '../io/loadClassification';
import { npzBytes, type NpyOut } from '../io/npzWrite';
import { aggregateClassification, confusionMatrix, prepareClassification } from '../metrics/classification';
import { sortRowsByScore } from '../metrics/sortedRows';
import { TOOL_VERSION } from '../version';
import {
  canonicalJson,
  PARTIAL_FORMAT,
  PARTIAL_VERSION,
  storedConfig,
  type PartialArrayInfo,
  type PartialMeta,
} from './format';

export interface PartialOptions extends EvaluationInputOptions {
  /** This shard's place among the shards (1-based), recorded so that the merge can order them. */
  shard?: { index: number; count: number } | null;
  progress?: Progress;
}

/** A shard's partial file: its bytes and its meta. */
export interface PartialFile {
  bytes: Buffer;
  meta: PartialMeta;
  /** The bootstrap resamples the config asked for, which this version does not compute (0: none asked). */
  intervalsLeftOut: number;
}

/** The config keys this version cannot split into shards, with why. */
const UNSUPPORTED: { has: (c: ResolvedConfig) => boolean; what: string }[] = [
  {
    has: (c) => c.trainCounts !== undefined || c.classWeights !== undefined,
    what: '`trainCounts` / `classWeights` (a train distribution)',
  },
  { has: (c) => c.groups !== undefined, what: '`groups` (class groups)' },
  { has: (c) => c.subgroupColumn !== undefined, what: '`subgroupColumn`' },
  { has: (c) => (c.slices?.length ?? 0) > 0, what: '`slices`' },
  { has: (c) => c.columns?.fold !== undefined, what: '`columns.fold`' },
  { has: (c) => c.randomSplit !== undefined, what: '`randomSplit`' },
  {
    has: (c) => (c.score ?? CONFIG_DEFAULTS.score) !== 'msp',
    what: '`score` other than "msp" (calibration would need the class probabilities)',
  },
];

function unsupported(what: string, where: string): EvalLensError {
  return new EvalLensError(
    'partial-unsupported',
    `${where}: ${what} is not supported by \`eval-lens partial\` yet (this version merges classification point estimates without a train distribution, groups, slices, folds or a split); evaluate the whole file with \`eval-lens evaluate\`.`,
    { file: where },
  );
}

/** The partial statistics of the classification file `path` (one shard). */
export async function partialOfFile(path: string, opts: PartialOptions = {}): Promise<PartialFile> {
  const resolved = await resolveEvaluation(path, opts);
  const { input, task } = resolved;
  // No intervals in this version: the bootstrap is off, as with `evaluate --bootstrap-n 0`.
  const intervalsLeftOut = resolved.config.bootstrap.n;
  const config: ResolvedConfig = { ...resolved.config, bootstrap: { ...resolved.config.bootstrap, n: 0 } };
  const where = config.configFile ?? path;
  if (task !== 'classification')
    throw new EvalLensError(
      'partial-unsupported',
      `${path}: task "${task}" is not supported by \`eval-lens partial\` yet (classification only).`,
      { file: path },
    );
  for (const u of UNSUPPORTED) if (u.has(config)) throw unsupported(u.what, where);
  const shard = opts.shard ?? null;
  if (
    shard &&
    !(Number.isInteger(shard.index) && Number.isInteger(shard.count) && shard.index >= 1 && shard.index <= shard.count)
  )
    throw new EvalLensError('invalid-shard', `--shard must be i/N with 1 ≤ i ≤ N, got ${shard.index}/${shard.count}.`);
  const warnings = new Warnings();
  const [loaded, info] = await Promise.all([
    loadClassification(path, config, warnings, opts.progress, { keepProbabilities: false }),
    fileInfo(input),
  ]);
  const { data } = loaded;
  if (data.split) throw unsupported(`a split column ("${loaded.columns.split ?? 'split'}")`, path);
  if ((data.weightShift ?? 0) !== 0)
    throw unsupported('a weight column whose weights are all below 2^-500 (they are rescaled per file)', path);
  const C = data.classes.length;
  const prepared = prepareClassification(data, { topK: config.topK ?? CONFIG_DEFAULTS.topK });
  const { stats } = aggregateClassification(prepared);
  const terms = data.probTerms;
  const n = data.n;
  const arrays: [string, NpyOut, PartialArrayInfo['kind']][] = [];
  const f64 = (name: string, kind: PartialArrayInfo['kind'], v: Float64Array, shape = [v.length]): void =>
    void arrays.push([name, { dtype: '<f8', shape, data: v }, kind]);
  f64('sum/support', 'sum', stats.support);
  f64('sum/correct', 'sum', stats.correct);
  f64('sum/predicted', 'sum', stats.predicted);
  arrays.push(['sum/present', { dtype: '|u1', shape: [C], data: stats.present }, 'sum']);
  f64('sum/total', 'sum', Float64Array.of(stats.total), []);
  arrays.push(['sum/rows', { dtype: '<i8', shape: [], data: BigInt64Array.of(BigInt(n)) }, 'sum']);
  f64('sum/confusion', 'sum', Float64Array.from(confusionMatrix(prepared).flat()), [C, C]);
  if (terms) {
    // in row order, as aggregateClassification sums them (metrics/classification.ts)
    const rankHist = new Float64Array(C + 1);
    let nll = 0;
    let brier = 0;
    for (let i = 0; i < n; i++) {
      const w = data.weights ? data.weights[i] : 1;
      rankHist[terms.trueRank[i]] += w;
      nll += w * terms.nllTerm[i];
      brier += w * terms.brierTerm[i];
    }
    f64('sum/rank_hist', 'sum', rankHist);
    f64('sum/nll', 'sum', Float64Array.of(nll), []);
    f64('sum/brier', 'sum', Float64Array.of(brier), []);
  }
  // The ranking score of the selective family: a score column wins over the probabilities.
  const score = data.scoreColumn ?? terms?.score ?? new Float64Array(n);
  const wrong = new Uint8Array(n);
  for (let i = 0; i < n; i++) wrong[i] = prepared.correct[i] ? 0 : 1;
  const order = sortRowsByScore(score, wrong).rowIndex;
  const gather = <T extends Float64Array | Int32Array | Uint8Array>(a: ArrayLike<number>, out: T): T => {
    for (let p = 0; p < n; p++) out[p] = a[order[p]];
    return out;
  };
  arrays.push(['run/key', { dtype: '<i4', shape: [n], data: Int32Array.from(order) }, 'run']);
  f64('run/score', 'run', gather(score, new Float64Array(n)));
  arrays.push(['run/correct', { dtype: '|u1', shape: [n], data: gather(prepared.correct, new Uint8Array(n)) }, 'run']);
  arrays.push(['run/class', { dtype: '<i4', shape: [n], data: gather(data.labels, new Int32Array(n)) }, 'run']);
  arrays.push(['run/pred', { dtype: '<i4', shape: [n], data: gather(data.preds, new Int32Array(n)) }, 'run']);
  if (data.weights) f64('run/weight', 'run', gather(data.weights, new Float64Array(n)));
  if (terms) {
    if (data.scoreColumn) f64('run/prob_score', 'run', gather(terms.score, new Float64Array(n)));
    f64('run/nll', 'run', gather(terms.nllTerm, new Float64Array(n)));
    f64('run/brier', 'run', gather(terms.brierTerm, new Float64Array(n)));
    arrays.push(['run/rank', { dtype: '<i4', shape: [n], data: gather(terms.trueRank, new Int32Array(n)) }, 'run']);
  }
  if (data.accept)
    arrays.push(['run/accept', { dtype: '|u1', shape: [n], data: gather(data.accept, new Uint8Array(n)) }, 'run']);

  const stored = storedConfig(config);
  const meta: PartialMeta = {
    format: PARTIAL_FORMAT,
    version: PARTIAL_VERSION,
    tool: TOOL_VERSION,
    task: 'classification',
    config: stored,
    configHash: createHash('sha256').update(canonicalJson(stored)).digest('hex'),
    configFile: config.configFile ?? null,
    classes: data.classes,
    fromLogits: data.fromLogits,
    scoreColumnName: data.scoreColumn ? (data.scoreColumnName ?? 'score') : null,
    // `score` other than msp is refused above
    probScoreKind: terms ? 'msp' : null,
    source: {
      path,
      size: info.size,
      sha256: info.sha256,
      format: loaded.format,
      rows: loaded.rows,
      rowsUsed: n,
      columns: loaded.columns,
    },
    shard,
    rows: n,
    bootstrap: { n: 0 },
    warnings: warnings.list,
    arrays: arrays.map(([name, a, kind]) => ({ name, kind, dtype: a.dtype, shape: a.shape })),
  };
  const metaBytes = new Uint8Array(Buffer.from(JSON.stringify(meta), 'utf8'));
  const bytes = npzBytes([
    ['meta', { dtype: '|u1', shape: [metaBytes.length], data: metaBytes }],
    ...arrays.map(([name, a]) => [name, a] as const),
  ]);
  return { bytes, meta, intervalsLeftOut };
}
