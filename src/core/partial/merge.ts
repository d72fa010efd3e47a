/**
 * `eval-lens merge`: the results of the classification task from the partial files of its shards
 * (./partial.ts, docs/scaling.md), equal to the results of evaluating the shards' rows as one
 * file, in shard order.
 *
 * Every file is checked before use (./format.ts: the meta against its schema and the format
 * version, each array's dtype and shape), then against the others: the same config (hash), class
 * list and score columns. Each shard's sums are checked against its run (summed again in row
 * order, they must be equal bit for bit: a file whose sums do not describe its rows is refused),
 * and the merge adds them. The finishing step is the single-machine pipeline itself
 * (tasks/classification.ts, its families in order) over the shards' runs put back in row order:
 * this first version holds the merged rows in memory, as `evaluate` holds the whole file's.
 */
import { createHash } from 'node:crypto';
import { EvalLensError, printable, Warnings } from '../diagnostics';
import { checkConfig } from '../config/check';
import type { ResolvedConfig } from '../config/types';
import type { ClassificationData } from '../data/classificationData';
import { parseNpz } from '../io/npz';
import type { NpyArray } from '../io/npy';
import { readWholeFile } from '../io/tableSink';
import { ResultsBuilder } from '../results/builder';
import type { Results, SourceInfo } from '../results/types';
import { CLASSIFICATION_STEPS, prepareRun } from '../tasks/classification';
import type { TaskContext } from '../tasks/types';
import { canonicalJson, partialError, partialMeta, type PartialMeta } from './format';

/** One shard read and checked. */
interface Shard {
  file: string;
  size: number;
  sha256: string;
  meta: PartialMeta;
  arrays: Map<string, NpyArray>;
}

/** The sums a shard keeps (sum/*), as the merge adds them. */
export interface MergedSums {
  support: Float64Array;
  correct: Float64Array;
  predicted: Float64Array;
  present: Uint8Array;
  total: number;
  rows: number;
  confusion: Float64Array;
  rankHist: Float64Array | null;
  nll: number | null;
  brier: number | null;
}

export interface MergeOptions {
  /** Folder the shards' relative config paths would be resolved against (none are read in this version). */
  baseDir?: string;
}

/** Reads and checks the partial file `file`. */
export async function readPartial(file: string): Promise<Shard> {
  return parsePartial(await readWholeFile(file), file);
}

/** Checks the bytes of a partial file (see {@link readPartial}). */
export function parsePartial(buf: Buffer, file: string): Shard {
  const arrays = parseNpz(buf, file);
  const meta = partialMeta(arrays, file);
  // The hash must be the config's: a hand-edited config would otherwise pass as the others'.
  const hash = createHash('sha256').update(canonicalJson(meta.config)).digest('hex');
  if (hash !== meta.configHash)
    throw partialError(
      file,
      'meta.configHash is not the SHA-256 of meta.config; the file was changed after it was written.',
    );
  try {
    checkConfig(meta.config, `${file}: meta.config`);
  } catch (e) {
    if (e instanceof EvalLensError) throw partialError(file, `meta.config is not a valid config: ${e.message}`);
    throw e;
  }
  checkArrays(meta, arrays, file);
  return { file, size: buf.length, sha256: createHash('sha256').update(buf).digest('hex'), meta, arrays };
}

/** The expected dtype and shape of every array of a shard with C classes and n rows. */
function expectedArrays(meta: PartialMeta): Map<string, { dtype: string; shape: number[] }> {
  const C = meta.classes.length;
  const n = meta.rows;
  const scored = meta.probScoreKind !== null;
  const out = new Map<string, { dtype: string; shape: number[] }>([
    ['sum/support', { dtype: '<f8', shape: [C] }],
    ['sum/correct', { dtype: '<f8', shape: [C] }],
    ['sum/predicted', { dtype: '<f8', shape: [C] }],
    ['sum/present', { dtype: '|u1', shape: [C] }],
    ['sum/total', { dtype: '<f8', shape: [] }],
    ['sum/rows', { dtype: '<i8', shape: [] }],
    ['sum/confusion', { dtype: '<f8', shape: [C, C] }],
    ['run/key', { dtype: '<i4', shape: [n] }],
    ['run/score', { dtype: '<f8', shape: [n] }],
    ['run/correct', { dtype: '|u1', shape: [n] }],
    ['run/class', { dtype: '<i4', shape: [n] }],
    ['run/pred', { dtype: '<i4', shape: [n] }],
  ]);
  if (scored) {
    out.set('sum/rank_hist', { dtype: '<f8', shape: [C + 1] });
    out.set('sum/nll', { dtype: '<f8', shape: [] });
    out.set('sum/brier', { dtype: '<f8', shape: [] });
    out.set('run/nll', { dtype: '<f8', shape: [n] });
    out.set('run/brier', { dtype: '<f8', shape: [n] });
    out.set('run/rank', { dtype: '<i4', shape: [n] });
    if (meta.scoreColumnName !== null) out.set('run/prob_score', { dtype: '<f8', shape: [n] });
  }
  return out;
}

/** Optional arrays: present or not, the same in every shard. */
const OPTIONAL = ['run/weight', 'run/accept'] as const;

function checkArrays(meta: PartialMeta, arrays: Map<string, NpyArray>, file: string): void {
  const expected = expectedArrays(meta);
  if (arrays.has('run/weight')) expected.set('run/weight', { dtype: '<f8', shape: [meta.rows] });
  if (arrays.has('run/accept')) expected.set('run/accept', { dtype: '|u1', shape: [meta.rows] });
  for (const [name, want] of expected) {
    const a = arrays.get(name);
    if (!a)
      throw partialError(
        file,
        `the array "${name}" is missing (expected ${want.dtype} of shape (${want.shape.join(', ')})).`,
      );
    if (a.dtype !== want.dtype || a.shape.join(',') !== want.shape.join(','))
      throw partialError(
        file,
        `the array "${name}" is ${printable(a.dtype)} of shape (${a.shape.join(', ')}), expected ${want.dtype} of shape (${want.shape.join(', ')}).`,
      );
  }
  for (const name of arrays.keys())
    if (name !== 'meta' && !expected.has(name)) throw partialError(file, `unexpected array "${printable(name)}".`);
  if (meta.source.rowsUsed !== meta.rows)
    throw partialError(file, `meta.rows (${meta.rows}) differs from meta.source.rowsUsed (${meta.source.rowsUsed}).`);
  const C = meta.classes.length;
  const n = meta.rows;
  const v = (name: string): Float64Array => arrays.get(name)!.data!;
  const bad = (what: string): never => {
    throw partialError(file, what);
  };
  if (new Set(meta.classes).size !== C) bad('meta.classes lists a class twice.');
  if (v('sum/rows')[0] !== n) bad(`sum/rows (${v('sum/rows')[0]}) differs from meta.rows (${n}).`);
  // the run: a permutation of the shard's rows, sorted by score, with valid values
  const key = v('run/key');
  const seen = new Uint8Array(n);
  const score = v('run/score');
  const cls = v('run/class');
  const pred = v('run/pred');
  const correct = v('run/correct');
  const rank = arrays.has('run/rank') ? v('run/rank') : null;
  const weight = arrays.has('run/weight') ? v('run/weight') : null;
  const accept = arrays.has('run/accept') ? v('run/accept') : null;
  const probName = meta.scoreColumnName !== null ? 'run/prob_score' : 'run/score';
  const prob = meta.probScoreKind === 'msp' ? v(probName) : null;
  const finite = ['run/nll', 'run/brier', 'run/prob_score'].filter((a) => arrays.has(a)).map((a) => [a, v(a)] as const);
  for (let p = 0; p < n; p++) {
    const k = key[p];
    if (!(k >= 0 && k < n) || seen[k]) bad(`run/key is not a permutation of the rows 0…${n - 1} (position ${p}).`);
    seen[k] = 1;
    if (!Number.isFinite(score[p])) bad(`run/score at position ${p} is ${score[p]}, expected a finite number.`);
    // the max probability of a row's class scores, as the reader checks them
    if (prob && !(prob[p]! >= 0 && prob[p]! <= 1))
      bad(`${probName} at position ${p} is ${prob[p]}, expected a probability in [0, 1] (the max class probability).`);
    if (p > 0 && !(score[p] <= score[p - 1])) bad(`run/score is not sorted descending (position ${p}).`);
    if (p > 0 && score[p] === score[p - 1] && key[p] < key[p - 1])
      bad(`run/key is not in row order within tied scores (position ${p}).`);
    if (!(cls[p] >= 0 && cls[p] < C))
      bad(`run/class at position ${p} is ${cls[p]}, expected a class index 0…${C - 1}.`);
    if (!(pred[p] >= 0 && pred[p] < C))
      bad(`run/pred at position ${p} is ${pred[p]}, expected a class index 0…${C - 1}.`);
    if (correct[p] !== (cls[p] === pred[p] ? 1 : 0))
      bad(`run/correct at position ${p} disagrees with run/class and run/pred.`);
    if (rank && !(rank[p] >= 1 && rank[p] <= C)) bad(`run/rank at position ${p} is ${rank[p]}, expected 1…${C}.`);
    if (weight && !(weight[p] >= 0 && Number.isFinite(weight[p])))
      bad(`run/weight at position ${p} is ${weight[p]}, expected a finite weight ≥ 0.`);
    if (accept && accept[p] > 1) bad(`run/accept at position ${p} is ${accept[p]}, expected 0 or 1.`);
    for (const [name, a] of finite)
      if (!Number.isFinite(a[p])) bad(`${name} at position ${p} is ${a[p]}, expected a finite number.`);
  }
  checkSums(arrays, meta, file);
}

/**
 * The shard's sums, summed again from its run in row order (as `partial` and the single-machine
 * evaluation sum them), must equal the stored ones exactly.
 */
function checkSums(arrays: Map<string, NpyArray>, meta: PartialMeta, file: string): void {
  const C = meta.classes.length;
  const n = meta.rows;
  const v = (name: string): Float64Array => arrays.get(name)!.data!;
  const at = new Int32Array(n);
  const key = v('run/key');
  for (let p = 0; p < n; p++) at[key[p]] = p;
  const weight = arrays.has('run/weight') ? v('run/weight') : null;
  const cls = v('run/class');
  const pred = v('run/pred');
  const support = new Float64Array(C);
  const correct = new Float64Array(C);
  const predicted = new Float64Array(C);
  const present = new Float64Array(C);
  const confusion = new Float64Array(C * C);
  const rankHist = new Float64Array(C + 1);
  const rank = arrays.has('run/rank') ? v('run/rank') : null;
  const nllT = rank ? v('run/nll') : null;
  const brierT = rank ? v('run/brier') : null;
  let total = 0;
  let nll = 0;
  let brier = 0;
  for (let i = 0; i < n; i++) {
    const p = at[i];
    const w = weight ? weight[p] : 1;
    const y = cls[p];
    const q = pred[p];
    support[y] += w;
    predicted[q] += w;
    if (y === q) correct[y] += w;
    present[y] = 1;
    present[q] = 1;
    confusion[y * C + q] += w;
    total += w;
    if (rank) {
      rankHist[rank[p]] += w;
      nll += w * nllT![p];
      brier += w * brierT![p];
    }
  }
  const same = (name: string, mine: ArrayLike<number>): void => {
    const stored = v(name);
    for (let j = 0; j < mine.length; j++)
      if (!Object.is(stored[j], mine[j]) && !(stored[j] === 0 && mine[j] === 0))
        throw partialError(
          file,
          `${name} does not match the rows of its run (entry ${j}: ${stored[j]}, the rows give ${mine[j]}).`,
        );
  };
  same('sum/support', support);
  same('sum/correct', correct);
  same('sum/predicted', predicted);
  same('sum/present', present);
  same('sum/total', [total]);
  same('sum/confusion', confusion);
  if (rank) {
    same('sum/rank_hist', rankHist);
    same('sum/nll', [nll]);
    same('sum/brier', [brier]);
  }
}

/** The shards in merge order, checked against one another. */
function orderShards(shards: Shard[]): Shard[] {
  const first = shards[0]!;
  const fm = first.meta;
  for (const s of shards.slice(1)) {
    const m = s.meta;
    const differs = (what: string, got: unknown, want: unknown): never => {
      throw partialError(
        s.file,
        `${what} ${printable(JSON.stringify(got))}, expected ${printable(JSON.stringify(want))} as in ${first.file}; every shard must be made with the same config, class list and columns.`,
      );
    };
    if (m.classes.length !== fm.classes.length || m.classes.some((c, i) => c !== fm.classes[i]))
      throw partialError(
        s.file,
        `class list ${printable(JSON.stringify(m.classes))}, expected ${printable(JSON.stringify(fm.classes))} as in ${first.file}; list the classes in the config (\`classes\`) so that every shard uses the same list.`,
      );
    if (m.configHash !== fm.configHash) {
      const keys = [...new Set([...Object.keys(m.config), ...Object.keys(fm.config)])].filter(
        (k) => canonicalJson(m.config[k]) !== canonicalJson(fm.config[k]),
      );
      throw partialError(
        s.file,
        `made with another config than ${first.file} (they differ in ${keys.map((k) => `\`${printable(k)}\``).join(', ')}); every shard must be made with the same config.`,
      );
    }
    if (m.fromLogits !== fm.fromLogits) differs('class scores from logits:', m.fromLogits, fm.fromLogits);
    if (m.scoreColumnName !== fm.scoreColumnName) differs('score column', m.scoreColumnName, fm.scoreColumnName);
    if (m.probScoreKind !== fm.probScoreKind) differs('class scores', m.probScoreKind, fm.probScoreKind);
    for (const name of OPTIONAL)
      if (s.arrays.has(name) !== first.arrays.has(name))
        differs(`array "${name}" present:`, s.arrays.has(name), first.arrays.has(name));
  }
  const numbered = shards.filter((s) => s.meta.shard !== null);
  if (numbered.length === 0) return shards;
  if (numbered.length < shards.length)
    throw partialError(
      shards.find((s) => s.meta.shard === null)!.file,
      'made without --shard i/N while other shards have it; make every shard with --shard, or none.',
    );
  const count = fm.shard!.count;
  const byIndex = new Map<number, Shard>();
  for (const s of shards) {
    const { index, count: c } = s.meta.shard!;
    if (c !== count)
      throw partialError(s.file, `--shard ${index}/${c}, expected a shard of ${count} as in ${first.file}.`);
    const dup = byIndex.get(index);
    if (dup) throw partialError(s.file, `--shard ${index}/${c} is also the shard of ${dup.file}.`);
    byIndex.set(index, s);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0)
    throw new EvalLensError(
      'bad-partial',
      `shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} missing: the merge needs every shard once.`,
    );
  return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
}

/** The shards' sums added (sum/*). */
export function addSums(shards: readonly Pick<Shard, 'meta' | 'arrays'>[]): MergedSums {
  const C = shards[0]!.meta.classes.length;
  const scored = shards[0]!.meta.probScoreKind !== null;
  const out: MergedSums = {
    support: new Float64Array(C),
    correct: new Float64Array(C),
    predicted: new Float64Array(C),
    present: new Uint8Array(C),
    total: 0,
    rows: 0,
    confusion: new Float64Array(C * C),
    rankHist: scored ? new Float64Array(C + 1) : null,
    nll: scored ? 0 : null,
    brier: scored ? 0 : null,
  };
  for (const { arrays } of shards) {
    const v = (name: string): Float64Array => arrays.get(name)!.data!;
    const add = (into: Float64Array | Uint8Array, name: string): void => {
      const a = v(name);
      for (let j = 0; j < into.length; j++) into[j] += a[j];
    };
    add(out.support, 'sum/support');
    add(out.correct, 'sum/correct');
    add(out.predicted, 'sum/predicted');
    const present = v('sum/present');
    for (let c = 0; c < C; c++) if (present[c]) out.present[c] = 1;
    add(out.confusion, 'sum/confusion');
    out.total += v('sum/total')[0];
    out.rows += v('sum/rows')[0];
    if (out.rankHist) {
      add(out.rankHist, 'sum/rank_hist');
      out.nll! += v('sum/nll')[0];
      out.brier! += v('sum/brier')[0];
    }
  }
  return out;
}

/** The rows of the shards' runs, in row order, shard after shard: the data the pipeline evaluates. */
function mergedData(shards: Shard[], file: string): ClassificationData {
  const fm = shards[0]!.meta;
  const n = shards.reduce((s, x) => s + x.meta.rows, 0);
  if (n > 2 ** 31 - 1)
    throw new EvalLensError('bad-partial', `the shards hold ${n} rows, more than one merge can hold (2^31 − 1).`);
  const has = (name: string): boolean => shards[0]!.arrays.has(name);
  const scored = fm.probScoreKind !== null;
  const labels = new Int32Array(n);
  const preds = new Int32Array(n);
  const score = new Float64Array(n);
  const weights = has('run/weight') ? new Float64Array(n) : null;
  const accept = has('run/accept') ? new Uint8Array(n) : null;
  const nllTerm = scored ? new Float64Array(n) : null;
  const brierTerm = scored ? new Float64Array(n) : null;
  const trueRank = scored ? new Int32Array(n) : null;
  const probScore = scored && fm.scoreColumnName !== null ? new Float64Array(n) : null;
  let offset = 0;
  for (const s of shards) {
    const v = (name: string): Float64Array => s.arrays.get(name)!.data!;
    const key = v('run/key');
    const put = (into: Float64Array | Int32Array | Uint8Array | null, name: string): void => {
      if (!into) return;
      const a = v(name);
      for (let p = 0; p < key.length; p++) into[offset + key[p]] = a[p];
    };
    put(labels, 'run/class');
    put(preds, 'run/pred');
    put(score, 'run/score');
    put(weights, 'run/weight');
    put(accept, 'run/accept');
    put(nllTerm, 'run/nll');
    put(brierTerm, 'run/brier');
    put(trueRank, 'run/rank');
    put(probScore, 'run/prob_score');
    offset += s.meta.rows;
  }
  const lines = new Int32Array(n);
  for (let i = 0; i < n; i++) lines[i] = i + 2;
  const hasColumn = fm.scoreColumnName !== null;
  return {
    file,
    n,
    classes: fm.classes,
    labels,
    preds,
    probs: null,
    probTerms: scored
      ? {
          nllTerm: nllTerm!,
          brierTerm: brierTerm!,
          trueRank: trueRank!,
          score: hasColumn ? probScore! : score,
          scoreKind: fm.probScoreKind!,
        }
      : null,
    fromLogits: fm.fromLogits,
    scoreColumn: hasColumn ? score : null,
    scoreColumnName: fm.scoreColumnName,
    weights,
    accept,
    groupColumn: null,
    split: null,
    ids: null,
    lines,
  };
}

/**
 * The results of the shards' partial files (paths as given, in any order when they were made with
 * `--shard i/N`): the same metrics, curves and tables as `evaluate` gives for their rows as one
 * file with the bootstrap off. `source.extra` names every shard's partial file and source file,
 * with their SHA-256.
 */
export async function mergePartialFiles(files: readonly string[], opts: MergeOptions = {}): Promise<Results> {
  if (files.length === 0) throw new EvalLensError('bad-partial', 'no partial files to merge.');
  const shards: Shard[] = [];
  for (const f of files) shards.push(await readPartial(f));
  return mergeShards(shards, opts);
}

function mergeShards(given: Shard[], opts: MergeOptions): Promise<Results> {
  const shards = orderShards(given);
  const fm = shards[0]!.meta;
  // One shard is its own file; several are named after the first (no one file holds their rows).
  const more = shards.length - 1;
  const file = more === 0 ? fm.source.path : `${fm.source.path} + ${more} more shard${more > 1 ? 's' : ''}`;
  const data = mergedData(shards, file);
  const sums = addSums(shards);
  return finish(shards, data, sums, opts);
}

async function finish(
  shards: Shard[],
  data: ClassificationData,
  sums: MergedSums,
  opts: MergeOptions,
): Promise<Results> {
  const fm = shards[0]!.meta;
  // the first shard's config file, as `evaluate` records the one it read
  const config = {
    ...fm.config,
    ...(fm.configFile !== null ? { configFile: fm.configFile } : {}),
  } as unknown as ResolvedConfig;
  const warnings = new Warnings();
  for (const s of shards) for (const w of s.meta.warnings) warnings.add(w);
  const results = new ResultsBuilder();
  const ctx: TaskContext = {
    path: data.file,
    baseDir: opts.baseDir ?? process.cwd(),
    config,
    warnings,
    results,
    perItem: false,
  };
  const run = await prepareRun(data, ctx);
  // The pipeline's own sums of the merged rows are the shards' sums added: counts exactly, weighted
  // sums up to the order of the additions.
  checkAddedSums(run.point.stats, sums, data.n);
  run.split = null;
  run.validation = null;
  run.text = {};
  const columns: Record<string, string | string[]> = {};
  for (const s of shards) for (const [k, v] of Object.entries(s.meta.source.columns)) columns[k] ??= v;
  const source: SourceInfo = {
    path: data.file,
    size: shards.reduce((a, s) => a + s.meta.source.size, 0),
    // one hash over the shards' sources, in shard order: the hash of the list of their hashes
    sha256:
      shards.length === 1
        ? fm.source.sha256
        : createHash('sha256')
            .update(shards.map((s) => s.meta.source.sha256).join('\n'))
            .digest('hex'),
    format: fm.source.format as SourceInfo['format'],
    rows: shards.reduce((a, s) => a + s.meta.source.rows, 0),
    rowsUsed: data.n,
    columns,
    extra: shards.flatMap((s, i) => [
      { role: `shard ${i + 1}/${shards.length} partial`, path: s.file, size: s.size, sha256: s.sha256 },
      {
        role: `shard ${i + 1}/${shards.length} source`,
        path: s.meta.source.path,
        size: s.meta.source.size,
        sha256: s.meta.source.sha256,
      },
    ]),
  };
  run.source = source;
  for (const { step } of CLASSIFICATION_STEPS) await step(run, ctx);
  return results.build({ source, task: 'classification', config, warnings: warnings.list });
}

function checkAddedSums(stats: { support: Float64Array; total: number }, sums: MergedSums, n: number): void {
  const near = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  const ok = near(stats.total, sums.total) && Array.from(stats.support).every((x, c) => near(x, sums.support[c]!));
  if (!ok || sums.rows !== n)
    throw new EvalLensError('bad-partial', "the shards' sums do not add up to the sums of their rows.");
}
