/**
 * Every selective and calibration scalar of one bootstrap resample in ONE pass over the rows in
 * descending score order (the bootstrap's hot path; docs/metrics/selective.md and docs/comparisons.md).
 *
 * The definitions are those of riskCoverage.ts (`aurcValues`, `aurcGrid101`), selective.ts
 * (`targetCoverageEnd`, `operatingPoint` with a prefix acceptance) and calibration.ts
 * (`calibrationValues`), which stay the reference: a unit test compares this pass with them on
 * random inputs with ties, weights, groups and multiplicities. Why one pass is enough: with rows
 * in descending score order every quantity is a running sum read at known places — the operating
 * point at the end of the accepted prefix, the grid points at item counts floor(N·i/101), the
 * equal-width ECE bins by each row's bin, the adaptive-ECE chunks by each item's index in the
 * ascending order (N − items before its block − block items + offset in the block: inside a tied
 * block the rows keep their order in both directions).
 *
 * Multiplicities are an Int32Array over sorted positions (stats/resampleDraws.ts), so loop counters
 * stay small integers; nothing is allocated per resample. Without sample weights, when the walk also
 * gathers the classification sums (the classification bootstrap's common case), they may be bytes
 * instead (a Uint8Array, {@link SelectiveResampler.byteWalk}): the walk over them is
 * `unitMassRunBytes`, in the byte copy of selectiveWalk.ts that the build writes, so that the per-row
 * loop of each keeps seeing one array type (the functions the walk stops for, a few hundred times a
 * resample, take both).
 *
 * References (the metrics computed here, and the bootstrap):
 * - Y. Geifman, R. El-Yaniv (2017). Selective Classification for Deep Neural Networks. Advances in Neural
 *   Information Processing Systems 30 (NeurIPS). https://arxiv.org/abs/1705.08500
 * - Y. Geifman, G. Uziel, R. El-Yaniv (2019). Bias-Reduced Uncertainty Estimation for Deep Neural Classifiers.
 *   International Conference on Learning Representations (ICLR). https://arxiv.org/abs/1805.08206
 * - M. P. Naeini, G. F. Cooper, M. Hauskrecht (2015). Obtaining Well Calibrated Probabilities Using Bayesian
 *   Binning. Proc. AAAI Conference on Artificial Intelligence 29(1):2901–2907.
 *   https://doi.org/10.1609/aaai.v29i1.9602
 * - C. Guo, G. Pleiss, Y. Sun, K. Q. Weinberger (2017). On Calibration of Modern Neural Networks. International
 *   Conference on Machine Learning (ICML), PMLR 70:1321–1330. https://arxiv.org/abs/1706.04599
 * - J. Nixon, M. W. Dusenberry, L. Zhang, G. Jerfel, D. Tran (2019). Measuring Calibration in Deep Learning. CVPR
 *   Workshops. https://arxiv.org/abs/1904.01685
 * - B. Efron, R. J. Tibshirani (1993). An Introduction to the Bootstrap. Chapman & Hall/CRC.
 *   https://doi.org/10.1201/9780429246593
 *
 * @see docs/metrics/selective.md — the definitions, conventions and worked examples.
 */
import { binnedCalibration, eceBinIndex } from './calibration';
import { groupError, GRID_POINTS, harmonic, optimalAurc, tiedBlockSteps, trapz, trapzFrom } from './riskCoverage';
import type { SortedRows } from './sortedRows';
import type { PreparedClassification } from './classification';
import { sharedZeros, toShared } from '../stats/sharedArrays';
import type { PrefixAcceptance, WalkTables } from './walkTables';
import {
  CODE_BYTE_MAX_GROUPS,
  CODE_GROUP_SHIFT,
  CODE_NEW_BIN,
  CODE_OP,
  CODE_RARE,
  CODE_TIED,
  CODE_WRONG,
  ST_AURC,
  ST_A_BAL,
  ST_A_WORST,
  ST_BIN,
  ST_BIN_NEXT,
  ST_BRIER,
  ST_CHUNK,
  ST_CHUNK_HI,
  ST_E0,
  ST_GRID_NEXT,
  ST_ITEMS,
  ST_N,
  ST_NLL,
  ST_OP_AT_ITEMS,
  ST_OP_DONE,
  ST_SIZE,
  ST_SUM_ERR,
  ST_TIED_NEXT,
  ST_W,
  ST_W0,
  ST_WRONG_ITEMS,
  chunkStart,
  spreadOverChunks,
  storeRunning,
  type ResampleClassSums,
  type SelectiveResampler,
  type SelectiveResampleValues,
  unitMassRun,
} from './selectiveWalk';
import { unitMassRunBytes } from './selectiveWalkBytes.generated';

export type { PrefixAcceptance } from './walkTables';
export type { ResampleClassSums, SelectiveResampler, SelectiveResampleValues } from './selectiveWalk';

/** `ResampleClassSums.word` of 32 bits: the cell index in the low 20 bits (cells ≤ C² < 2^20), the rank (≤ C) above. */
const CLS_CELL_BITS = 20;
/** Most classes the packed word holds; with more the classification sums take their own walk. */
const CLASS_SUMS_MAX_CLASSES = 1023;
/**
 * Most classes whose word fits 16 bits: cells ≤ C² ≤ 961 < 2^10 in the low 10 bits, the rank
 * (≤ C < 2^6) above (2 bytes a row fewer than 32-bit words).
 */
const CLS_NARROW_MAX_CLASSES = 31;
const CLS_NARROW_CELL_BITS = 10;

/**
 * The classification sums of `prep` for the unit-mass walk (its rows in the walk's positions:
 * `prep` permuted into the score order), or null when that walk does not run (sample weights) or
 * the packed word cannot hold the classes.
 */
function classSumsFor(
  rows: SortedRows,
  prep: PreparedClassification | null,
  made: WalkTables['cls'] | undefined,
): ResampleClassSums | null {
  if (prep === null || rows.weight !== null || prep.C > CLASS_SUMS_MAX_CLASSES) return null;
  if (prep.weights !== null || prep.n !== rows.n)
    throw new RangeError(`Expected ${rows.n} unweighted classification rows, but got ${prep.n}.`);
  if (made && made.C === prep.C) return classSumsOf(made);
  if (prep.labels.length !== prep.n)
    throw new RangeError(`Expected the class tables of ${prep.n} rows, or their per-row vectors.`);
  return classSumsOf(classTables(prep, null));
}

/** The {@link ResampleClassSums} of a walk over these tables, its sums at zero. */
function classSumsOf(tables: NonNullable<WalkTables['cls']>): ResampleClassSums {
  const C = tables.C;
  const counts = new Int32Array(4 * C + 1);
  return {
    C,
    word: tables.word,
    cellBits: tables.cellBits,
    cells: new Int32Array(tables.cellLabel.length),
    cellLabel: tables.cellLabel,
    cellPred: tables.cellPred,
    nllTerm: tables.nllTerm,
    brierTerm: tables.brierTerm,
    counts,
    sums: {
      support: counts.subarray(0, C),
      correct: counts.subarray(C, 2 * C),
      predicted: counts.subarray(2 * C, 3 * C),
      rankHist: counts.subarray(3 * C),
    },
    total: 0,
    nll: 0,
    brier: 0,
  };
}

/**
 * The class tables of the walk for the rows of `prep` taken in `order` (position p = row
 * `order[p]`), or null when the walk gathers no classification sums for them (a weight column, more
 * classes than its packed word holds). The same tables as the walk makes from `prep` permuted into
 * `order`, made without that permuted copy: the bootstrap job gives them to every thread
 * (walkTables.ts) and then needs no per-row classification vector of its own.
 *
 * With `reorderTerms`, the caller gives up `prep`'s NLL and Brier terms (nothing reads them in row
 * order any more): when they are over shared memory, they are moved into `order` in place and the
 * tables hold them, instead of a copy in that order (16 bytes a row fewer); `prep`'s two arrays
 * then hold the same values in the tables' order.
 */
export function classTablesInOrder(
  prep: PreparedClassification,
  order: Int32Array,
  reorderTerms = false,
): WalkTables['cls'] {
  if (prep.weights !== null || prep.C > CLASS_SUMS_MAX_CLASSES) return null;
  if (order.length !== prep.n) throw new RangeError(`Expected an order of ${prep.n} rows, but got ${order.length}.`);
  return classTables(prep, order, reorderTerms);
}

/**
 * The per-position part of {@link classSumsFor} (in shared memory: see walkTables.ts): position p
 * holds row `order[p]` of `prep`, or row p without an order (the terms are then `prep`'s own, when
 * they are over shared memory). With `reorderTerms` see {@link classTablesInOrder}.
 */
function classTables(
  prep: PreparedClassification,
  order: Int32Array | null,
  reorderTerms = false,
): NonNullable<WalkTables['cls']> {
  const { C, n, labels, preds, trueRank, nllTerm, brierTerm } = prep;
  const scored = trueRank !== null && nllTerm !== null && brierTerm !== null;
  const narrow = C <= CLS_NARROW_MAX_CLASSES;
  const cellBits = narrow ? CLS_NARROW_CELL_BITS : CLS_CELL_BITS;
  const word = narrow ? sharedZeros(Uint16Array, n) : sharedZeros(Int32Array, n);
  // the (label, prediction) pairs that occur, numbered in order of first occurrence
  const cellOf = new Int32Array(C * C).fill(-1);
  const cellLabel: number[] = [];
  const cellPred: number[] = [];
  for (let p = 0; p < n; p++) {
    const i = order === null ? p : order[p];
    const pair = labels[i] * C + preds[i];
    let cell = cellOf[pair];
    if (cell < 0) {
      cell = cellOf[pair] = cellLabel.length;
      cellLabel.push(labels[i]);
      cellPred.push(preds[i]);
    }
    const rank = scored ? trueRank[i] : 0;
    word[p] = cell | (rank << cellBits);
  }
  const terms = scored ? termsInOrder(nllTerm, brierTerm, order, reorderTerms) : null;
  return {
    C,
    word,
    cellBits,
    nllTerm: terms ? terms[0] : sharedZeros(Float64Array, n),
    brierTerm: terms ? terms[1] : sharedZeros(Float64Array, n),
    cellLabel: Int32Array.from(cellLabel),
    cellPred: Int32Array.from(cellPred),
  };
}

/**
 * `a` and `b` in `order` (position p = row `order[p]`; rows as they are without an order) over
 * shared memory: the arrays themselves when they are there already and need no reordering, or
 * reordered in place with `inPlace`; else copies.
 */
function termsInOrder(
  a: Float64Array,
  b: Float64Array,
  order: Int32Array | null,
  inPlace: boolean,
): [Float64Array, Float64Array] {
  const shared = typeof SharedArrayBuffer === 'function';
  const isShared = (x: Float64Array): boolean => !shared || x.buffer instanceof SharedArrayBuffer;
  if (order === null) return [toShared(a), toShared(b)];
  if (inPlace && isShared(a) && isShared(b)) {
    permuteInPlace(a, b, order);
    return [a, b];
  }
  const n = order.length;
  const oa = sharedZeros(Float64Array, n);
  const ob = sharedZeros(Float64Array, n);
  for (let p = 0; p < n; p++) {
    const i = order[p];
    oa[p] = a[i];
    ob[p] = b[i];
  }
  return [oa, ob];
}

/**
 * Reorders `a` and `b` in place so that position p holds what row `order[p]` held (`order` a
 * permutation): each cycle of the permutation is followed once, with one bit a row to mark the
 * positions written (n/8 bytes instead of a second n-long array).
 */
export function permuteInPlace(a: Float64Array, b: Float64Array, order: Int32Array): void {
  const n = order.length;
  if (a.length !== n || b.length !== n)
    throw new RangeError(`Expected arrays of ${n} rows, but got ${a.length} and ${b.length}.`);
  const done = new Uint8Array((n + 7) >>> 3);
  for (let s = 0; s < n; s++) {
    if ((done[s >>> 3] & (1 << (s & 7))) !== 0) continue;
    const a0 = a[s];
    const b0 = b[s];
    let p = s;
    for (;;) {
      done[p >>> 3] |= 1 << (p & 7);
      const i = order[p];
      if (i === s) {
        a[p] = a0;
        b[p] = b0;
        break;
      }
      if ((done[i >>> 3] & (1 << (i & 7))) !== 0) throw new RangeError('Expected a permutation of the rows.');
      a[p] = a[i];
      b[p] = b[i];
      p = i;
    }
  }
}

/**
 * Prepares a {@link SelectiveResampler}; `calibration` gives the ECE bin count (null = no ECE keys)
 * and, when the caller has them, each position's bin as calibration.ts `binIndices` gives them
 * (the walk then reads that array instead of making its own).
 * With `classSums` (rows in the same positions, no sample weights) each resample's walk also
 * gathers its classification sums into `cls` ({@link ResampleClassSums}), from `clsTables` when
 * given (then `classSums` need not hold its per-row vectors: see {@link classTablesInOrder}).
 */
export function selectiveResampler(
  rows: SortedRows,
  accept: PrefixAcceptance,
  calibration: { B: number; bins?: Int32Array | null } | null,
  classSums: PreparedClassification | null = null,
  clsTables: WalkTables['cls'] = null,
): SelectiveResampler {
  const G = rows.nGroups;
  const B = calibration ? calibration.B : 0;
  // the tables the rows carry when they were made for this walk (walkTables.ts), else its own
  const made = rows.walk && fits(rows.walk, rows, accept, B) ? rows.walk : null;
  // The calibration term of a position, `1 − wrong − conf`, is computed where the walk reads it,
  // from the rows' scores and flags (the same expression, so the same value): no table of its own.
  let bins: Int32Array | null = null;
  if (made) bins = made.bins;
  else if (calibration) {
    const given = calibration.bins ?? null;
    if (given !== null && given.length !== rows.n)
      throw new RangeError(`Expected the ECE bins of ${rows.n} positions, but got ${given.length}.`);
    if (given !== null) bins = given;
    else {
      bins = sharedZeros(Int32Array, rows.n);
      for (let p = 0; p < rows.n; p++) {
        const b = eceBinIndex(rows.score[p], B);
        bins[p] = b < 0 ? B : b;
      }
    }
  }
  const f = (k: number) => new Float64Array(k);
  const groupSums = f(3 * G);
  const binSums = f(2 * (B + 1));
  const calibrated = made ? made.bins !== null || made.binRuns !== null : calibration !== null;
  const codes =
    rows.weight !== null
      ? null
      : made
        ? { code: made.code!, tiedEnds: made.tiedEnds!, binRuns: made.binRuns }
        : unitMassCodes(rows, bins, accept);
  // the unit-mass walk reads a position's bin only where a new one starts: with those bins in
  // `binRuns` it holds no bin per position
  const binRuns = codes && codes.binRuns;
  if (binRuns !== null) bins = null;
  const cls = classSumsFor(rows, classSums, clsTables ?? made?.cls);
  const byteWalk = cls !== null;
  if (codes !== null && rows.n > 2 * WARM_UP_ROWS) warmUp(rows, accept, calibration, classSums, cls, byteWalk);
  return {
    rows,
    accept,
    B,
    calibrated,
    bins,
    binRuns,
    code: codes && codes.code,
    tiedEnds: codes && codes.tiedEnds,
    values: {
      coverage: NaN,
      risk: NaN,
      groupError: f(G),
      balanced: NaN,
      worst: NaN,
      aurc: NaN,
      eaurc: NaN,
      aurcBalanced: NaN,
      aurcWorst: NaN,
      grid: NaN,
      grid02: NaN,
      gridBalanced: NaN,
      gridBalanced02: NaN,
      gridWorst: NaN,
      gridWorst02: NaN,
      ece: NaN,
      mce: NaN,
      eceAdaptive: NaN,
    },
    groupSums,
    binSums,
    pick: f(2),
    gW: groupSums.subarray(0, G),
    gE: groupSums.subarray(G, 2 * G),
    gErr: groupSums.subarray(2 * G),
    bW: f(G),
    bE: f(G),
    touched: new Int32Array(G),
    touchedFlag: new Uint8Array(G),
    gridK: f(GRID_POINTS),
    xs: f(GRID_POINTS),
    rStd: f(GRID_POINTS),
    rBal: f(GRID_POINTS),
    rWorst: f(GRID_POINTS),
    mass: binSums.subarray(0, B + 1),
    diff: binSums.subarray(B + 1),
    chunk: f(Math.max(B, 1)),
    state: f(ST_SIZE),
    harmonic: made?.harmonic ?? f(1),
    cls,
    optimum: new Map(),
    byteWalk,
  };
}

/** Whether `t` was made for a walk over `rows` with `accept` and B bins. */
function fits(t: WalkTables, rows: SortedRows, accept: PrefixAcceptance, B: number): boolean {
  if (t.n !== rows.n || t.B !== B || t.accept.kind !== accept.kind) return false;
  if (rows.weight === null && (t.code === null || t.tiedEnds === null)) return false;
  return accept.kind === 'end'
    ? t.accept.kind === 'end' && t.accept.end === accept.end
    : t.accept.kind === 'target' && t.accept.target === accept.target;
}

/**
 * The tables of `r` (walkTables.ts), for rows that are to carry them to every bootstrap thread:
 * with the harmonic numbers up to n when its walk reads them.
 */
export function walkTablesOf(r: SelectiveResampler): WalkTables {
  const n = r.rows.n;
  const h = r.rows.weight === null ? harmonic(n) : null;
  const cls = r.cls && {
    C: r.cls.C,
    word: r.cls.word,
    cellBits: r.cls.cellBits,
    nllTerm: r.cls.nllTerm,
    brierTerm: r.cls.brierTerm,
    cellLabel: r.cls.cellLabel,
    cellPred: r.cls.cellPred,
  };
  return {
    n,
    accept: r.accept,
    B: r.B,
    bins: r.bins,
    binRuns: r.binRuns,
    code: r.code,
    tiedEnds: r.tiedEnds,
    cls,
    harmonic: h,
  };
}

/** Rows of the walk's warm-up (see {@link warmUp}). */
const WARM_UP_ROWS = 2048;

/** The first m rows of `rows` (views, no copy), cut at m. */
function prefixRows(rows: SortedRows, m: number): SortedRows {
  const bs = rows.blockStart;
  let nb = 0;
  while (bs[nb] < m) nb++;
  const blockStart = new Int32Array(nb + 1);
  blockStart.set(bs.subarray(0, nb));
  blockStart[nb] = m;
  return {
    ...rows,
    n: m,
    rowIndex: rows.rowIndex.subarray(0, m),
    score: rows.score.subarray(0, m),
    wrong: rows.wrong.subarray(0, m),
    group: rows.group.subarray(0, m),
    groupWeight: rows.groupWeight && rows.groupWeight.subarray(0, m),
    blockStart,
    walk: null,
  };
}

/**
 * Walks the first rows once with small made-up multiplicities (0 to 3; the values are thrown away)
 * before the first resample, so that every path of the walk (a tied block, a new ECE bin, a
 * grid point, an adaptive-ECE chunk boundary, the operating point) has run before V8 optimises
 * it. Without this, the optimised walk met those paths later, was deoptimised, and in about one
 * run in four kept running on-stack-replacement code about 1.7 times slower. With `bytes` the
 * multiplicities are a Uint8Array (the walk the resamples will take: only that walk is warmed, so
 * that neither per-row loop sees the other's array type).
 */
function warmUp(
  rows: SortedRows,
  accept: PrefixAcceptance,
  calibration: { B: number } | null,
  classSums: PreparedClassification | null,
  tables: ResampleClassSums | null,
  bytes: boolean,
): void {
  const m = WARM_UP_ROWS;
  const head = prefixRows(rows, m);
  const acc: PrefixAcceptance =
    accept.kind === 'end' ? { kind: 'end', end: Math.round((accept.end / rows.n) * m) } : accept;
  const cls =
    classSums &&
    ({
      ...classSums,
      n: m,
      labels: classSums.labels.subarray(0, m),
      preds: classSums.preds.subarray(0, m),
      correct: classSums.correct.subarray(0, m),
      trueRank: classSums.trueRank && classSums.trueRank.subarray(0, m),
      nllTerm: classSums.nllTerm && classSums.nllTerm.subarray(0, m),
      brierTerm: classSums.brierTerm && classSums.brierTerm.subarray(0, m),
    } satisfies PreparedClassification);
  // the first rows of the walk's own class tables (the per-row vectors of `classSums` may be empty)
  const headTables: WalkTables['cls'] = tables && {
    C: tables.C,
    word: tables.word.subarray(0, m),
    cellBits: tables.cellBits,
    nllTerm: tables.nllTerm.subarray(0, m),
    brierTerm: tables.brierTerm.subarray(0, m),
    cellLabel: tables.cellLabel,
    cellPred: tables.cellPred,
  };
  const r = selectiveResampler(head, acc, calibration && { B: calibration.B }, cls, headTables);
  const mult = bytes ? new Uint8Array(m) : new Int32Array(m);
  let items = 0;
  for (let p = 0; p < m; p++) items += mult[p] = (p * 7) % 4;
  selectiveResampleValues(r, mult, items);
}

/**
 * The per-position words of the unit-mass walk (see `SelectiveResampler.code`): one byte a
 * position when the group field fits in it (up to {@link CODE_BYTE_MAX_GROUPS} groups, the common
 * case), else 32 bits. A run walks one of the two kinds only (the rows' groups decide), so the
 * walk's load of a word sees one array type. With `bins`, also the bin of each position that
 * starts a new one (`binRuns`), when every tied block lies in one bin (the walk enters a tied
 * block at its first position and reads that bin for all its rows; bins made from the rows'
 * scores always do, equal scores having one bin); else null, and the walk reads `bins`.
 */
function unitMassCodes(
  rows: SortedRows,
  bins: Int32Array | null,
  accept: PrefixAcceptance,
): { code: Int32Array | Uint8Array; tiedEnds: Int32Array; binRuns: Int32Array | null } {
  const { n, wrong, group, blockStart: bs } = rows;
  if (rows.nGroups >= 2 ** (31 - CODE_GROUP_SHIFT))
    throw new RangeError(`Expected fewer than ${2 ** (31 - CODE_GROUP_SHIFT)} groups, but got ${rows.nGroups}.`);
  const code = rows.nGroups <= CODE_BYTE_MAX_GROUPS ? sharedZeros(Uint8Array, n) : sharedZeros(Int32Array, n);
  if (rows.nGroups > 0) for (let p = 0; p < n; p++) code[p] = wrong[p] | ((group[p] + 1) << CODE_GROUP_SHIFT);
  else for (let p = 0; p < n; p++) code[p] = wrong[p];
  let tied = 0;
  for (let b = 0; b + 1 < bs.length; b++) if (bs[b + 1] - bs[b] >= 2) tied++;
  const tiedEnds = sharedZeros(Int32Array, tied);
  for (let b = 0, t = 0; b + 1 < bs.length; b++) {
    if (bs[b + 1] - bs[b] < 2) continue;
    code[bs[b]] |= CODE_TIED;
    tiedEnds[t++] = bs[b + 1];
  }
  let binRuns: Int32Array | null = null;
  if (bins !== null) {
    let runs = 0;
    for (let p = 0; p < n; p++)
      if (p === 0 || bins[p] !== bins[p - 1]) {
        code[p] |= CODE_NEW_BIN;
        runs++;
      }
    let oneBinBlocks = true;
    for (let b = 0; b + 1 < bs.length && oneBinBlocks; b++)
      for (let p = bs[b] + 1; p < bs[b + 1]; p++) if (bins[p] !== bins[bs[b]]) oneBinBlocks = false;
    if (oneBinBlocks) {
      binRuns = sharedZeros(Int32Array, runs);
      for (let p = 0, k = 0; p < n; p++) if ((code[p] & CODE_NEW_BIN) !== 0) binRuns[k++] = bins[p];
    }
  }
  if (accept.kind === 'end' && accept.end > 0 && accept.end < n) code[accept.end] |= CODE_OP;
  return { code, tiedEnds, binRuns };
}

/**
 * The values of one resample (`mult[p]` = multiplicity of sorted position p; `items` = Σ mult when
 * the caller knows it, e.g. the resample size). Written into `r.values` (returned). Byte
 * multiplicities (a Uint8Array) only without sample weights and with `items`.
 */
export function selectiveResampleValues(
  r: SelectiveResampler,
  mult: Int32Array | Uint8Array,
  items?: number,
): SelectiveResampleValues {
  const { rows, values: out } = r;
  const { n, nGroups: G } = rows;
  const w = rows.weight;
  const { gW, gE, gErr, gridK, diff, mass, chunk } = r;
  const B = r.B;
  // totals (the same summation order as targetCoverageEnd / operatingPoint / calibrationValues)
  let N = 0;
  let W = 0;
  if (w === null && items !== undefined) {
    N = items;
    W = items;
  } else if (mult instanceof Uint8Array) {
    throw new RangeError('Expected byte multiplicities only without sample weights and with the resample size.');
  } else {
    for (let p = 0; p < n; p++) {
      const c = mult[p];
      N += c;
      W += (w === null ? 1 : w[p]) * c;
    }
  }
  gW.fill(0);
  gE.fill(0);
  gErr.fill(1);
  diff.fill(0);
  mass.fill(0);
  chunk.fill(0);
  const gridOn = N >= GRID_POINTS;
  for (let i = 1; i <= GRID_POINTS; i++) gridK[i - 1] = Math.floor(N * (i / GRID_POINTS));
  // the pass, then the values from its sums (separate functions: V8 optimises the hot loop alone)
  if (rows.weight === null && r.harmonic.length <= N) r.harmonic = harmonic(N);
  if (r.cls !== null) {
    r.cls.counts.fill(0);
    r.cls.cells.fill(0);
  }
  mainPass(r, mult, N, W);
  const st = r.state;
  if (r.cls !== null) {
    classCountsOfCells(r.cls);
    r.cls.total = N;
    r.cls.nll = st[ST_NLL];
    r.cls.brier = st[ST_BRIER];
  }
  const W0 = st[ST_W0];
  const E0 = st[ST_E0];
  const aurc = st[ST_AURC];
  const aBal = st[ST_A_BAL];
  const aWorst = st[ST_A_WORST];
  const wrongItems = st[ST_WRONG_ITEMS];
  let gi = st[ST_GRID_NEXT];
  if (gridOn) while (gi < GRID_POINTS) gridPoint(r, gi++, W, W0, E0, 0, 0, false, -1);

  if (W > 0) {
    const opt = optimalAurcOf(r, W0, E0, wrongItems);
    out.aurc = aurc / W0;
    out.eaurc = out.aurc - opt;
    out.aurcBalanced = G > 0 ? aBal / G / W0 : NaN;
    out.aurcWorst = G > 0 ? aWorst / W0 : NaN;
  } else {
    out.aurc = out.eaurc = out.aurcBalanced = out.aurcWorst = NaN;
  }
  if (gridOn) {
    const { xs, rStd, rBal, rWorst } = r;
    out.grid = trapz(rStd, xs, 0);
    out.grid02 = trapzFrom(rStd, xs, 0.2);
    out.gridBalanced = G > 0 ? trapz(rBal, xs, 0) : NaN;
    out.gridBalanced02 = G > 0 ? trapzFrom(rBal, xs, 0.2) : NaN;
    out.gridWorst = G > 0 ? trapz(rWorst, xs, 0) : NaN;
    out.gridWorst02 = G > 0 ? trapzFrom(rWorst, xs, 0.2) : NaN;
  } else {
    out.grid = out.grid02 = out.gridBalanced = out.gridBalanced02 = out.gridWorst = out.gridWorst02 = NaN;
  }
  if (r.calibrated && W > 0) {
    binnedCalibration(diff, mass, B, W, out);
    let total = 0;
    for (let c = 0; c < B; c++) total += Math.abs(chunk[c]);
    out.eceAdaptive = total / W;
  } else {
    out.ece = out.mce = out.eceAdaptive = NaN;
  }
  return out;
}

/**
 * Σ mult over the rows of the last resample walked without sample weights: the items the walk
 * entered. Byte multiplicities hold each count modulo 256; this is below the resample size exactly
 * when a count of 256 or more wrapped around (each such count loses a multiple of 256).
 */
export function walkedItems(r: SelectiveResampler): number {
  return r.state[ST_ITEMS];
}

/** Most values {@link optimalAurcOf} keeps per resampler (emptied when full). */
const OPTIMUM_CACHE_SIZE = 4096;

/**
 * `optimalAurc(W, E, wrongItems)`, remembered per resampler: it is a division per wrong item
 * (about 2% of a resample on 200,000 rows with half of them wrong) and depends only on these three
 * totals, which repeat across resamples (without weights W is the resample size and E the count of
 * wrong items, which varies by a few hundred): about one resample in four of the first 500 on that
 * file finds its value here.
 */
function optimalAurcOf(r: SelectiveResampler, W: number, E: number, wrongItems: number): number {
  const known = r.optimum.get(wrongItems);
  if (known !== undefined && known.W === W && known.E === E) return known.value;
  if (r.optimum.size >= OPTIMUM_CACHE_SIZE) r.optimum.clear();
  const value = optimalAurc(W, E, wrongItems);
  r.optimum.set(wrongItems, { W, E, value });
  return value;
}

/** Support, correct and predicted counts of `cls` from its (label, prediction) cells (integer sums: exact in any order). */
function classCountsOfCells(cls: ResampleClassSums): void {
  const { support, correct, predicted } = cls.sums;
  const { cells, cellLabel, cellPred } = cls;
  for (let k = 0; k < cells.length; k++) {
    const c = cells[k];
    const y = cellLabel[k];
    const q = cellPred[k];
    support[y] += c;
    predicted[q] += c;
    if (y === q) correct[y] += c;
  }
}

/** The operating point from the row-level sums at the end of the accepted prefix (operatingPoint's rules). */
function setOperatingPoint(r: SelectiveResampler, W: number, WA: number, EA: number): void {
  const out = r.values;
  const G = r.rows.nGroups;
  out.coverage = W > 0 ? WA / W : NaN;
  out.risk = WA > 0 ? EA / WA : NaN;
  let sum = 0;
  let mx = -Infinity;
  for (let g = 0; g < G; g++) {
    const e = r.gW[g] > 0 ? r.gE[g] / r.gW[g] : 1.0;
    out.groupError[g] = e;
    sum += e;
    if (e > mx) mx = e;
  }
  out.balanced = G > 0 ? sum / G : NaN;
  out.worst = G > 0 && Number.isFinite(sum) ? mx : NaN;
}

/** Grid point i: the row-level sums plus `part` items (of mass wp each) of the next row (aurcGrid101's rules). */
function gridPoint(
  r: SelectiveResampler,
  i: number,
  W: number,
  rW: number,
  rE: number,
  part: number,
  wp: number,
  isWrong: boolean,
  pg: number,
): void {
  const G = r.rows.nGroups;
  let aW = rW;
  let aE = rE;
  let pW = 0;
  let pE = 0;
  if (part > 0) {
    pW = wp * part;
    pE = isWrong ? pW : 0;
    aW += pW;
    aE += pE;
  } else pg = -1;
  r.xs[i] = aW / W;
  r.rStd[i] = aW > 0 ? aE / aW : NaN;
  if (G > 0) {
    let s = 0;
    let mx = -Infinity;
    for (let g = 0; g < G; g++) {
      const e = g === pg ? groupError(r.gE[g] + pE, r.gW[g] + pW) : groupError(r.gE[g], r.gW[g]);
      s += e;
      if (e > mx) mx = e;
    }
    r.rBal[i] = s / G;
    r.rWorst[i] = mx;
  } else {
    r.rBal[i] = NaN;
    r.rWorst[i] = NaN;
  }
}

/** [items, mass, wrong mass] of the tied block being entered (written by tiedBlockSteps). */
const blockSums = new Float64Array(3);

/**
 * A tied block [p0, p1): the AURC steps by the fractional-count rule (AurcAccumulator.block) from
 * the sums at the block's start, then the rows one by one for the cuts (grid points, ECE bins,
 * adaptive chunks: inside the block the ascending order keeps the rows' order). State in `r.state`
 * (the `ST_*` slots up to `ST_W`).
 */
function tiedBlock(
  r: SelectiveResampler,
  mult: Int32Array | Uint8Array,
  p0: number,
  p1: number,
  base: number,
  extra: number,
): void {
  const { rows, state: st, gW, gE, gErr, bW, bE, touched, touchedFlag, bins, mass, diff, chunk, gridK } = r;
  const { wrong, group, score, nGroups: G } = rows;
  const w = rows.weight;
  // the balanced sum is divided by G once at the end of the pass (see resampleValues)
  const nTouched = tiedBlockSteps(rows, mult, p0, p1, st, r, false, blockSums);
  const m = blockSums[0];
  if (m === 0) return;
  for (let t = 0; t < nTouched; t++) {
    bW[touched[t]] = 0;
    bE[touched[t]] = 0;
    touchedFlag[touched[t]] = 0;
  }
  // the rows one by one (with the unit-mass walk's classification sums, `r.cls`, in position order:
  // the steps unitMassRun writes inline for the other rows)
  const cls = r.cls;
  const N = st[ST_N];
  const W = st[ST_W];
  const K = st[ST_ITEMS];
  let k = K;
  let a = N - K - m; // ascending index of the block's first item
  let gi = st[ST_GRID_NEXT];
  for (let p = p0; p < p1; p++) {
    const c = mult[p];
    if (c === 0) continue;
    const wp = w === null ? 1 : w[p];
    const isWrong = wrong[p] === 1;
    const g = G > 0 ? group[p] : -1;
    while (gi < GRID_POINTS && N >= GRID_POINTS && gridK[gi] < k + c) {
      gridPoint(r, gi, W, st[ST_W0], st[ST_E0], gridK[gi] - k, wp, isWrong, g);
      gi++;
    }
    if (cls !== null) {
      const wd = cls.word[p];
      cls.cells[wd & ((1 << cls.cellBits) - 1)] += c;
      cls.sums.rankHist[wd >>> cls.cellBits] += c;
      st[ST_NLL] += c * cls.nllTerm[p];
      st[ST_BRIER] += c * cls.brierTerm[p];
    }
    const wm = wp * c;
    st[ST_W0] += wm;
    if (isWrong) st[ST_E0] += wm;
    if (g >= 0) {
      gW[g] += wm;
      if (isWrong) gE[g] += wm;
    }
    if (r.calibrated) {
      // a tied block lies in one bin: the unit-mass walk's current one when it holds no bin per position
      const bin = bins !== null ? bins[p] : st[ST_BIN];
      const u1 = 1 - wrong[p] - score[p];
      mass[bin] += wm;
      diff[bin] += wm * u1;
      const u = wp * u1;
      let left = c;
      let at = a;
      while (left > 0) {
        const bigEnd = extra * (base + 1);
        const chi = at < bigEnd ? Math.floor(at / (base + 1)) : extra + Math.floor((at - bigEnd) / base);
        const take = Math.min(left, chunkStart(chi + 1, base, extra) - at);
        chunk[chi] += u * take;
        at += take;
        left -= take;
      }
    }
    a += c;
    k += c;
  }
  st[ST_GRID_NEXT] = gi;
  st[ST_ITEMS] = K + m;
  if (nTouched > 0) {
    for (let g = 0; g < G; g++) gErr[g] = groupError(gE[g], gW[g]);
    let s = 0;
    for (let g = 0; g < G; g++) s += gErr[g];
    st[ST_SUM_ERR] = s; // re-anchor: no drift
  }
}

/**
 * The pass over the blocks. Leaves the sums (the `ST_*` slots) in `r.state` and sets the operating point, the grid points reached, ECE bins and chunks.
 */
function mainPass(r: SelectiveResampler, mult: Int32Array | Uint8Array, N: number, W: number): void {
  const st = r.state;
  const B = r.B;
  const base = B > 0 ? Math.floor(N / B) : 0;
  const extra = N - base * B;
  const acc = r.accept;
  st.fill(0);
  st[ST_SUM_ERR] = r.rows.nGroups; // sumErr: every group error starts at 1
  st[ST_N] = N;
  st[ST_W] = W;
  st[ST_CHUNK] = B - 1;
  st[ST_CHUNK_HI] = B > 0 ? N - chunkStart(B - 1, base, extra) : 0;
  if ((acc.kind === 'end' && acc.end === 0) || !(W > 0)) {
    setOperatingPoint(r, W, 0, 0);
    st[ST_OP_DONE] = 1;
  }
  if (r.code !== null) unitMassPass(r, mult);
  else {
    // In slices: V8 then optimises weightedSlice as an ordinary hot function (a single long call
    // would run on on-stack-replacement code, which deoptimises at every exit path it has not yet seen).
    const nb = r.rows.blockStart.length - 1;
    const m32 = mult as Int32Array; // selectiveResampleValues takes bytes only without weights
    for (let b0 = 0; b0 < nb; b0 += PASS_SLICE) weightedSlice(r, m32, b0, Math.min(nb, b0 + PASS_SLICE));
  }
  if (!st[ST_OP_DONE]) setOperatingPoint(r, W, st[ST_W0], st[ST_E0]);
}

const PASS_SLICE = 4096;
/**
 * Blocks [b0, b1) of the pass with sample weights; the running state lives in `r.state` (the `ST_*` slots).
 */
function weightedSlice(r: SelectiveResampler, mult: Int32Array, b0: number, b1: number): void {
  const { rows, gW, gE, gErr, gridK, diff, mass, chunk, bins, B } = r;
  const { wrong, group, score, blockStart: bs, nGroups: G } = rows;
  const w = rows.weight!;
  const st = r.state;
  const N = st[ST_N];
  const W = st[ST_W];
  const gridOn = N >= GRID_POINTS;
  // adaptive-ECE chunks: the first `extra` chunks hold base + 1 items, the others base
  const base = B > 0 ? Math.floor(N / B) : 0;
  const extra = N - base * B;
  // operating point: at the end of the accepted prefix
  const acc = r.accept;
  const isTarget = acc.kind === 'target';
  const goal = acc.kind === 'target' ? acc.target * W * (1 - 1e-12) : 0;
  const endFixed = acc.kind === 'end' ? acc.end : -1;
  let opDone = st[ST_OP_DONE] === 1;
  // Running sums over the rows entered so far, row by row (for a singleton block these are exactly
  // aurcValues' sums; after a tied block they equal its block sums up to the order of additions).
  let W0 = st[ST_W0];
  let E0 = st[ST_E0];
  let aurc = st[ST_AURC];
  let aBal = st[ST_A_BAL];
  let aWorst = st[ST_A_WORST];
  let sumErr = st[ST_SUM_ERR];
  let wrongItems = st[ST_WRONG_ITEMS];
  let gi = st[ST_GRID_NEXT];
  let K = st[ST_ITEMS] | 0; // items entered (descending order)
  let nextCut = gridOn && gi < GRID_POINTS ? gridK[gi] : Infinity;
  // adaptive ECE: descending item d (of a singleton row) is ascending item N − 1 − d; chunk ch holds
  // descending items below chHi = N − start(ch), chunks visited from B − 1 down
  let ch = st[ST_CHUNK];
  let chHi = st[ST_CHUNK_HI];
  for (let b = b0; b < b1; b++) {
    const p0 = bs[b];
    const p1 = bs[b + 1];
    if (p1 - p0 !== 1) {
      storeRunning(st, W0, E0, aurc, aBal, aWorst, sumErr, wrongItems, gi, K);
      tiedBlock(r, mult, p0, p1, base, extra);
      W0 = st[ST_W0];
      E0 = st[ST_E0];
      aurc = st[ST_AURC];
      aBal = st[ST_A_BAL];
      aWorst = st[ST_A_WORST];
      sumErr = st[ST_SUM_ERR];
      wrongItems = st[ST_WRONG_ITEMS];
      gi = st[ST_GRID_NEXT];
      K = st[ST_ITEMS] | 0;
      nextCut = gi < GRID_POINTS && gridOn ? gridK[gi] : Infinity;
    } else {
      const c = mult[p0];
      if (c > 0) {
        // one row drawn c times (aurcValues' singleton step: a tie of c copies)
        const wp = w[p0];
        const isWrong = wrong[p0] === 1;
        const em = isWrong ? wp : 0;
        if (isWrong) wrongItems += c;
        const g = G > 0 ? group[p0] : -1;
        while (K + c > nextCut) {
          gridPoint(r, gi, W, W0, E0, nextCut - K, wp, isWrong, g);
          gi++;
          nextCut = gi < GRID_POINTS ? gridK[gi] : Infinity;
        }
        if (wp > 0) {
          for (let j = 1; j <= c; j++) {
            aurc += (wp * (E0 + em * j)) / (W0 + wp * j);
            if (G > 0) {
              if (g >= 0) {
                const e = (gE[g] + em * j) / (gW[g] + wp * j);
                sumErr += e - gErr[g];
                gErr[g] = e;
              }
              let mx = gErr[0];
              for (let k = 1; k < G; k++) if (gErr[k] > mx) mx = gErr[k];
              aBal += wp * sumErr;
              aWorst += wp * mx;
            }
          }
        }
        const wm = wp * c;
        W0 += wm;
        E0 += em * c;
        if (g >= 0) {
          gW[g] += wm;
          gE[g] += em * c;
          if (gW[g] > 0) {
            const e = gE[g] / gW[g];
            sumErr += e - gErr[g];
            gErr[g] = e;
          }
        }
        if (bins !== null) {
          const bin = bins[p0];
          const u1 = 1 - wrong[p0] - score[p0];
          mass[bin] += wm;
          diff[bin] += wm * u1;
          const u = wp * u1;
          if (K + c <= chHi) chunk[ch] += u * c;
          else {
            ch = spreadOverChunks(chunk, ch, chHi, K, c, u, N, base, extra);
            chHi = N - chunkStart(ch, base, extra);
          }
        }
        K = (K + c) | 0;
      }
    }
    if (!opDone && (isTarget ? W0 >= goal && W0 > 0 : p1 === endFixed)) {
      setOperatingPoint(r, W, W0, E0);
      opDone = true;
    }
  }
  storeRunning(st, W0, E0, aurc, aBal, aWorst, sumErr, wrongItems, gi, K);
  st[ST_CHUNK] = ch;
  st[ST_CHUNK_HI] = chHi;
  st[ST_OP_DONE] = opDone ? 1 : 0;
}

/**
 * The pass with unit masses (no sample weights), the bootstrap's common case: {@link unitMassRun}
 * walks the plain rows, and stops at each event it leaves to this loop (a tied block, a new ECE bin,
 * the operating point, a grid point), a few hundred per resample. The running state lives in
 * `r.state` (the `ST_*` slots) between the two.
 */
function unitMassPass(r: SelectiveResampler, mult: Int32Array | Uint8Array): void {
  const { rows, bins, binRuns, calibrated, gridK, accept: acc, state: st, B } = r;
  const code = r.code!;
  const tiedEnds = r.tiedEnds!;
  const n = rows.n;
  const N = st[ST_N];
  const W = st[ST_W];
  const base = B > 0 ? Math.floor(N / B) : 0;
  const extra = N - base * B;
  const goal = acc.kind === 'target' ? Math.max(acc.target * W * (1 - 1e-12), Number.MIN_VALUE) : Infinity;
  st[ST_OP_AT_ITEMS] = st[ST_OP_DONE] === 1 ? Infinity : goal;
  if (calibrated && n > 0) st[ST_BIN] = binRuns !== null ? binRuns[0] : bins![0];
  let p = 0;
  let resume = -1; // a row whose flagged events are handled, to be walked as a plain row
  while (p < n) {
    // In slices: V8 then optimises unitMassRun as an ordinary hot function (a single long call
    // would run on on-stack-replacement code).
    const handled = resume;
    const q1 = Math.min(n, p + PASS_SLICE);
    p = mult instanceof Uint8Array ? unitMassRunBytes(r, mult, p, q1, handled) : unitMassRun(r, mult, p, q1, handled);
    resume = -1;
    if (st[ST_ITEMS] >= st[ST_OP_AT_ITEMS]) setOperatingPointOnce(r);
    if (p >= n) break;
    const cd = code[p];
    if (p !== handled && (cd & CODE_RARE) !== 0) {
      if ((cd & CODE_OP) !== 0) setOperatingPointOnce(r);
      // every new bin stops the walk here once, in position order: the next of `binRuns` is this one's
      if ((cd & CODE_NEW_BIN) !== 0 && calibrated)
        st[ST_BIN] = binRuns !== null ? binRuns[st[ST_BIN_NEXT]++] : bins![p];
      if ((cd & CODE_TIED) !== 0) {
        // every tied block stops the walk here, in position order: the next end is this block's
        const end = tiedEnds[st[ST_TIED_NEXT]++];
        tiedBlock(r, mult, p, end, base, extra);
        if (st[ST_W0] >= st[ST_OP_AT_ITEMS]) setOperatingPointOnce(r);
        p = end;
      } else resume = p;
      continue;
    }
    // the walk stopped before row p at the end of its slice, or because a grid point falls among
    // the row's copies: those points are read now, then the row is walked
    const K = st[ST_ITEMS];
    const c = mult[p];
    let gi = st[ST_GRID_NEXT];
    while (N >= GRID_POINTS && gi < GRID_POINTS && K + c > gridK[gi]) {
      gridPoint(r, gi, W, K, st[ST_E0], gridK[gi] - K, 1, (cd & CODE_WRONG) === 1, (cd >> CODE_GROUP_SHIFT) - 1);
      gi++;
    }
    st[ST_GRID_NEXT] = gi;
    resume = p === handled ? p : -1;
  }
}

/** Sets the operating point from the sums in `r.state`, once. */
function setOperatingPointOnce(r: SelectiveResampler): void {
  const st = r.state;
  if (st[ST_OP_DONE] === 1) return;
  setOperatingPoint(r, st[ST_W], st[ST_W0], st[ST_E0]);
  st[ST_OP_DONE] = 1;
  st[ST_OP_AT_ITEMS] = Infinity;
}
