/**
 * The unit-mass walk of the selective pass (selectiveResample.ts) and what the pass and the walk
 * share: the resampler's buffers, the slots of its running state, the per-position row codes, the
 * small steps the walk calls, and the walk's per-row loop, {@link unitMassRun}.
 *
 * A template: the build writes its byte copy, selectiveWalkBytes.generated.ts
 * (scripts/gen-byte-copies.mjs), where the multiplicities are a Uint8Array and the functions end in
 * `Bytes`; selectiveResample.ts calls its `unitMassRunBytes` for byte multiplicities. Each compiled
 * loop then sees one array type: V8 compiles an element load for the array types that load has
 * met, and one walk fed both would test the type at every row, in every bootstrap that walks (the
 * Int32 ones too). A unit test compares the two on random inputs (docs/architecture.md, "Two
 * copies of a hot loop").
 *
 * References (the metrics the walk accumulates, and the bootstrap it serves):
 * - Y. Geifman, R. El-Yaniv (2017). Selective Classification for Deep Neural Networks. Advances in Neural
 *   Information Processing Systems 30 (NeurIPS). https://arxiv.org/abs/1705.08500
 * - Y. Geifman, G. Uziel, R. El-Yaniv (2019). Bias-Reduced Uncertainty Estimation for Deep Neural Classifiers.
 *   International Conference on Learning Representations (ICLR). https://arxiv.org/abs/1805.08206
 * - M. P. Naeini, G. F. Cooper, M. Hauskrecht (2015). Obtaining Well Calibrated Probabilities Using Bayesian
 *   Binning. Proc. AAAI Conference on Artificial Intelligence 29(1):2901–2907.
 *   https://doi.org/10.1609/aaai.v29i1.9602
 * - J. Nixon, M. W. Dusenberry, L. Zhang, G. Jerfel, D. Tran (2019). Measuring Calibration in Deep Learning. CVPR
 *   Workshops. https://arxiv.org/abs/1904.01685
 * - B. Efron, R. J. Tibshirani (1993). An Introduction to the Bootstrap. Chapman & Hall/CRC.
 *   https://doi.org/10.1201/9780429246593
 *
 * @see docs/metrics/selective.md — the definitions, conventions and worked examples.
 */
import type { UnitClassSums } from './classification';
import type { SortedRows } from './sortedRows';
import type { PrefixAcceptance } from './walkTables';
import { GRID_POINTS } from './riskCoverage';

/** The multiplicities' array type of {@link unitMassRun}: Int32Array here, Uint8Array in the byte copy. */
type Counts = Int32Array;

export interface SelectiveResampleValues {
  coverage: number;
  risk: number;
  /** `error_group.<g>` per group index. */
  groupError: Float64Array;
  balanced: number;
  worst: number;
  aurc: number;
  eaurc: number;
  aurcBalanced: number;
  aurcWorst: number;
  /** Six grid keys, all NaN when N < 101. */
  grid: number;
  grid02: number;
  gridBalanced: number;
  gridBalanced02: number;
  gridWorst: number;
  gridWorst02: number;
  ece: number;
  mce: number;
  eceAdaptive: number;
}

/** Per-setup buffers and constants; build once with {@link selectiveResampler}, reuse per resample. */
export interface SelectiveResampler {
  rows: SortedRows;
  accept: PrefixAcceptance;
  /** ECE bins (0: no calibration keys). */
  B: number;
  /** Whether the calibration keys are computed (the walk sums the ECE bins and chunks). */
  calibrated: boolean;
  /** Each position's ECE bin, or null: without calibration keys, or when `binRuns` serves the unit-mass walk. */
  bins: Int32Array | null;
  /** The bin of each position that starts a new one, in position order (the unit-mass walk: see walkTables.ts), or null. */
  binRuns: Int32Array | null;
  values: SelectiveResampleValues;
  /**
   * Unit masses only (null with sample weights): per position the row's wrong flag and group, and
   * whether a tied block or an ECE bin run starts there, packed in one word (the `CODE_*` fields)
   * so that the walk reads one array for them (bytes when the groups fit: see {@link unitMassCodes});
   * `tiedEnds` = the end of each tied block of two rows or more, in position order (the walk meets
   * them in that order: one word per tied block instead of one per row).
   */
  code: Int32Array | Uint8Array | null;
  tiedEnds: Int32Array | null;
  // scratch
  /** gW, gE and gErr (views of this one buffer: the unit-mass walk indexes a single array). */
  groupSums: Float64Array;
  /** mass and diff (views of this one buffer). */
  binSums: Float64Array;
  /** The two candidate worst-group steps of a row, indexed by which one applies (no branch). */
  pick: Float64Array;
  gW: Float64Array;
  gE: Float64Array;
  gErr: Float64Array;
  bW: Float64Array;
  bE: Float64Array;
  touched: Int32Array;
  touchedFlag: Uint8Array;
  gridK: Float64Array;
  xs: Float64Array;
  rStd: Float64Array;
  rBal: Float64Array;
  rWorst: Float64Array;
  diff: Float64Array;
  mass: Float64Array;
  chunk: Float64Array;
  state: Float64Array;
  /** H[k] = Σ_{j≤k} 1/j for k = 0..N (unit masses only), grown on demand. */
  harmonic: Float64Array;
  /** The classification sums gathered by the same walk (see {@link ResampleClassSums}), or null. */
  cls: ResampleClassSums | null;
  /** The eAURC optima computed so far, by wrong items, with the totals they hold for (see `optimalAurcOf`). */
  optimum: Map<number, { W: number; E: number; value: number }>;
  /**
   * Whether its resamples are meant to come as byte multiplicities (a Uint8Array; unit masses with the
   * classification sums): its warm-up, when it has one, walked bytes. Int32
   * multiplicities still give the same values (the exact fallback of a count above 255).
   */
  byteWalk: boolean;
}

/**
 * The classification sums of a resample (those of metrics/classification.ts `aggregateUnitBatch`),
 * gathered by the unit-mass walk while it passes each row anyway: one read of the multiplicities
 * per row and resample instead of a second walk. Integer sums (exact in any order) in `counts`;
 * Σ c·nll and Σ c·Brier are float64 sums in position order, as the classification kernel adds them
 * (a row not drawn adds an exact 0 there, nothing here: the same sums bit for bit).
 *
 * The walk adds a row's multiplicity to two counters only: its (label, prediction) cell and its
 * true-class rank. Support, correct and predicted counts follow from the cells once per resample
 * ({@link classCountsOfCells}): a table of the pairs that occur, at most min(rows, C²) of them and
 * usually far fewer, instead of three scattered additions per row (about 2 ns per row and
 * resample less on 200,000 rows of 100 classes).
 */
export interface ResampleClassSums {
  C: number;
  /**
   * Per position the row's (label, prediction) cell and its true-class rank packed in one word, so
   * that the walk reads one array for them: the cell in the low `cellBits` bits, the rank above
   * (16 bits with up to {@link CLS_NARROW_MAX_CLASSES} classes, else 32: see {@link classTables}).
   */
  word: Int32Array | Uint16Array;
  cellBits: number;
  /** Per resample: Σ c over the rows of each (label, prediction) cell. */
  cells: Int32Array;
  /** Each cell's label and prediction. */
  cellLabel: Int32Array;
  cellPred: Int32Array;
  /** Per position the row's nll term and its Brier term (zeros without probabilities). */
  nllTerm: Float64Array;
  brierTerm: Float64Array;
  /** support at [y], correct at [C + y], predicted at [2C + ŷ], rank histogram at [3C + rank]. */
  counts: Int32Array;
  /** Views of `counts`, per class. */
  sums: UnitClassSums;
  /** Items, Σ c·nll and Σ c·Brier of the last resample walked. */
  total: number;
  nll: number;
  brier: number;
}

/**
 * The running state of one resample's pass, in `SelectiveResampler.state` (one Float64Array so the
 * hot loop reads and writes plain slots; the names below are the only layout definition). Slots 0–6
 * are the layout riskCoverage's tiedBlockSteps reads and updates.
 */
/** Σ mass of the rows entered so far (descending score). */
export const ST_W0 = 0;
/** Σ mass of the wrong rows entered so far. */
export const ST_E0 = 1;
/** AURC numerator: Σ step · risk over the items entered. */
export const ST_AURC = 2;
/** Balanced-AURC numerator, times the group count. */
export const ST_A_BAL = 3;
/** Worst-group-AURC numerator. */
export const ST_A_WORST = 4;
/** Σ of the current group errors (every group error starts at 1). */
export const ST_SUM_ERR = 5;
/** Wrong items entered (integer count, for the optimal AURC). */
export const ST_WRONG_ITEMS = 6;
/** Index of the next risk-coverage grid point to reach. */
export const ST_GRID_NEXT = 7;
/** Items entered so far (descending order). */
export const ST_ITEMS = 8;
/** Items in the resample. */
export const ST_N = 9;
/** Total mass of the resample. */
export const ST_W = 10;
/** Current adaptive-ECE chunk (visited from B − 1 down). */
export const ST_CHUNK = 11;
/** The current chunk holds the descending items below this one. */
export const ST_CHUNK_HI = 12;
/** 1 once the operating point is set. */
export const ST_OP_DONE = 13;
/** Unit-mass pass: the operating point is set once this many items are entered (Infinity: not by mass). */
export const ST_OP_AT_ITEMS = 14;
/** Unit-mass pass: the ECE bin of the rows being walked. */
export const ST_BIN = 15;
/** Σ c·nll of the rows walked (classification sums, `r.cls`). */
export const ST_NLL = 16;
/** Σ c·Brier of the rows walked (classification sums, `r.cls`). */
export const ST_BRIER = 17;
/** Unit-mass pass: tied blocks entered so far (the index of the next one's end in `tiedEnds`). */
export const ST_TIED_NEXT = 18;
/** Unit-mass pass: new ECE bins entered so far (the index of the next one's bin in `binRuns`). */
export const ST_BIN_NEXT = 19;
/** Number of slots. */
export const ST_SIZE = 20;

/** `code[p]` bit: the row is wrong. */
export const CODE_WRONG = 1;
/** `code[p]` bit: a tied block of two or more rows starts at p (it ends at the next of `tiedEnds`). */
export const CODE_TIED = 2;
/** `code[p]` bit: p is the first position or its ECE bin differs from position p − 1's. */
export const CODE_NEW_BIN = 4;
/** `code[p]` bit: the accepted prefix of a fixed length ends at p (the operating point is read before row p). */
export const CODE_OP = 8;
export const CODE_RARE = CODE_TIED | CODE_NEW_BIN | CODE_OP;
/** `code[p] >> CODE_GROUP_SHIFT` = the row's group + 1 (0: no group). */
export const CODE_GROUP_SHIFT = 4;
/** Most groups whose field (group + 1 ≤ 15) fits in a byte's four bits above the flags. */
export const CODE_BYTE_MAX_GROUPS = (1 << (8 - CODE_GROUP_SHIFT)) - 1;

/** First ascending item of adaptive chunk k (chunks of base + 1 items first, `extra` of them). */
export function chunkStart(k: number, base: number, extra: number): number {
  return k * base + Math.min(k, extra);
}

/**
 * Adds `c` copies of a row's adaptive-ECE term `u`, descending items d, d+1, …, d+c−1, to the chunks
 * they fall in, from chunk `ch` (which holds the descending items below chHi = N − start(ch)) down.
 * The rare path of the singleton step, where the copies cross a chunk boundary; returns the chunk of
 * the last copy.
 */
export function spreadOverChunks(
  chunk: Float64Array,
  ch: number,
  chHi: number,
  d: number,
  c: number,
  u: number,
  N: number,
  base: number,
  extra: number,
): number {
  let left = c;
  while (left > 0) {
    while (d >= chHi) {
      ch--;
      chHi = N - chunkStart(ch, base, extra);
    }
    const take = Math.min(left, chHi - d);
    chunk[ch] += u * take;
    d += take;
    left -= take;
  }
  return ch;
}

export const EMPTY_I32 = new Int32Array(0);
export const EMPTY_F64 = new Float64Array(0);

/** Writes a slice's running sums into their `ST_*` slots (before a tied block, and at the slice's end). */
export function storeRunning(
  st: Float64Array,
  W0: number,
  E0: number,
  aurc: number,
  aBal: number,
  aWorst: number,
  sumErr: number,
  wrongItems: number,
  gridNext: number,
  items: number,
): void {
  st[ST_W0] = W0;
  st[ST_E0] = E0;
  st[ST_AURC] = aurc;
  st[ST_A_BAL] = aBal;
  st[ST_A_WORST] = aWorst;
  st[ST_SUM_ERR] = sumErr;
  st[ST_WRONG_ITEMS] = wrongItems;
  st[ST_GRID_NEXT] = gridNext;
  st[ST_ITEMS] = items;
}

/**
 * Walks the plain rows of positions [p0, q1) with unit masses, and stops before an event row for
 * selectiveResample.ts `unitMassPass` (a flagged row other than `resume`, or a row whose copies reach the next
 * grid point) or after the row that reaches the operating point's target mass; returns where it
 * stopped. With unit masses the entered mass is the item count K and the wrong mass the wrong-item
 * count, so one local holds each pair.
 *
 * Written for V8's register allocator and compiler: no calls, and the per-row inputs from few arrays
 * (`r.code`, `mult`, the scores, the harmonic table, `r.groupSums`); the current ECE bin's sums and the
 * current adaptive-ECE chunk are locals written back at the end (the same additions in the same
 * order), and the worst-group step picks its term by an index instead of a branch (which group's
 * error is the largest follows the row's group, unpredictable row by row). These are the steps of
 * `weightedSlice` for one row with its c copies in closed form: the values are the same bit for bit.
 */
export function unitMassRun(r: SelectiveResampler, mult: Counts, p0: number, q1: number, resume: number): number {
  const { rows, gridK, chunk, calibrated, B, groupSums: gs, binSums, pick } = r;
  const code = r.code!;
  const score = rows.score;
  const G = rows.nGroups;
  const G2 = 2 * G; // gs: gW at [g], gE at [G + g], gErr at [2G + g]
  const B1 = B + 1; // binSums: mass at [bin], diff at [B + 1 + bin]
  const H = r.harmonic;
  const st = r.state;
  const N = st[ST_N];
  // adaptive-ECE chunks: the first `extra` chunks hold base + 1 items, the others base
  const base = B > 0 ? Math.floor(N / B) : 0;
  const extra = N - base * B;
  const opAtItems = st[ST_OP_AT_ITEMS];
  let E0 = st[ST_E0];
  let aurc = st[ST_AURC];
  let aBal = st[ST_A_BAL];
  let aWorst = st[ST_A_WORST];
  let sumErr = st[ST_SUM_ERR];
  const gi = st[ST_GRID_NEXT];
  let K = st[ST_ITEMS] | 0; // items entered (descending order) = mass entered
  const nextCut = N >= GRID_POINTS && gi < GRID_POINTS ? gridK[gi] : Infinity;
  // adaptive ECE: descending item d (of a singleton row) is ascending item N − 1 − d; chunk ch holds
  // descending items below chHi = N − start(ch), chunks visited from B − 1 down
  let ch = st[ST_CHUNK];
  let chHi = st[ST_CHUNK_HI];
  let chunkSum = B > 0 ? chunk[ch] : 0;
  // the current ECE bin: its mass (an integer count, exact in any order) and its diff sum
  const bin = calibrated ? st[ST_BIN] : 0;
  let binMass = 0;
  let binDiff = calibrated ? binSums[B1 + bin] : 0;
  // the classification sums (r.cls): zero-length stand-ins when off, so the loop reads plain arrays
  const cls = r.cls;
  const fuse = cls !== null;
  const cells = fuse ? cls.cells : EMPTY_I32;
  const rankHist = fuse ? cls.sums.rankHist : EMPTY_I32;
  const cWord = fuse ? cls.word : EMPTY_I32;
  const cellBits = fuse ? cls.cellBits : 0;
  const cellMask = (1 << cellBits) - 1;
  const cNll = fuse ? cls.nllTerm : EMPTY_F64;
  const cBrier = fuse ? cls.brierTerm : EMPTY_F64;
  let nll = st[ST_NLL];
  let brier = st[ST_BRIER];
  // int32 copies of the bounds: compared with them, p stays an untagged integer in V8
  const end = q1 | 0;
  const skip = resume | 0;
  let p = p0 | 0;
  for (; p < end; p++) {
    const cd = code[p];
    const c = mult[p];
    if ((cd & CODE_RARE) !== 0 && p !== skip) break;
    if (c === 0) {
      // A row not drawn (about 37% of the rows of a resample): every step below would add an
      // exact 0, except that the group-error sum is re-anchored (sumErr − e + e with e the
      // group's unchanged error, which need not round back to sumErr). Doing only that keeps the
      // values bit for bit; despite the unpredictable branch it is faster than sending the row
      // through the steps below, which would give the same values (16.6 vs 17.1 ns per row-draw
      // on the 200,000-row benchmark).
      if (G > 0) {
        const g = (cd >> CODE_GROUP_SHIFT) - 1;
        if (g >= 0 && gs[g] > 0) sumErr = sumErr - gs[G2 + g] + gs[G2 + g];
      }
      continue;
    }
    if (K + c > nextCut) break;
    if (fuse) {
      const wd = cWord[p];
      cells[wd & cellMask] += c;
      rankHist[wd >>> cellBits] += c;
      nll += c * cNll[p];
      brier += c * cBrier[p];
    }
    const wr = cd & CODE_WRONG;
    // The c copies' steps in closed form, no per-item loop and no branch on c (a random
    // multiplicity is an unpredictable branch): Σ_{j=1..c} (E + e·j)/(K + j) =
    // E·ΔH + e·(c − K·ΔH), ΔH = H[K+c] − H[K] (aurcUnitMass's identity).
    const dH = H[(K + c) | 0] - H[K];
    aurc += E0 * dH + wr * (c - K * dH);
    if (G > 0) {
      const g = (cd >> CODE_GROUP_SHIFT) - 1;
      if (g >= 0) {
        const gw = gs[g];
        const ge = gs[G + g];
        const dHg = H[(gw + c) | 0] - H[gw | 0];
        // the group's error after each copy j: e_j = (ge + wr·j)/(gw + j); Σ_j e_j in closed form
        const sumEg = ge * dHg + wr * (c - gw * dHg);
        const others = sumErr - gs[G2 + g];
        aBal += c * others + sumEg; // Σ over items of the sum of group errors (÷ G at the end)
        let mxOther = -Infinity;
        if (G === 2) mxOther = gs[G2 + 1 - g];
        else for (let k = 0; k < G; k++) if (k !== g && gs[G2 + k] > mxOther) mxOther = gs[G2 + k];
        // e_j is monotone in j: compare its ends e_1, e_c with the other groups' max (multiplied
        // out: the denominators are positive); all copies below it (lo) add c·max, all above
        // (hi) add Σ e_j, and a row whose copies cross it adds copy by copy
        const m1 = mxOther * (gw + 1);
        const mC = mxOther * (gw + c);
        const lo = +(ge + wr <= m1) & +(ge + wr * c <= mC);
        const hi = +(ge + wr >= m1) & +(ge + wr * c >= mC);
        if ((lo | hi) === 0) for (let j = 1; j <= c; j++) aWorst += Math.max(mxOther, (ge + wr * j) / (gw + j));
        else {
          pick[0] = sumEg;
          pick[1] = c * mxOther;
          aWorst += pick[lo];
        }
        const nw = gw + c;
        const ne = ge + wr * c;
        gs[g] = nw;
        gs[G + g] = ne;
        const e = ne / nw; // nw ≥ c ≥ 1
        sumErr = others + e;
        gs[G2 + g] = e;
      } else {
        let mx = -Infinity;
        for (let k = 0; k < G; k++) if (gs[G2 + k] > mx) mx = gs[G2 + k];
        aBal += c * sumErr;
        aWorst += c * mx;
      }
    }
    E0 += wr * c;
    if (calibrated) {
      const u1 = 1 - wr - score[p];
      binMass += c;
      binDiff += c * u1;
      if (K + c <= chHi) chunkSum += u1 * c;
      else {
        chunk[ch] = chunkSum;
        ch = spreadOverChunks(chunk, ch, chHi, K, c, u1, N, base, extra);
        chHi = N - chunkStart(ch, base, extra);
        chunkSum = chunk[ch];
      }
    }
    K = (K + c) | 0;
    if (K >= opAtItems) {
      p++;
      break;
    }
  }
  storeRunning(st, K, E0, aurc, aBal, aWorst, sumErr, E0, gi, K);
  st[ST_NLL] = nll;
  st[ST_BRIER] = brier;
  if (B > 0) chunk[ch] = chunkSum;
  if (calibrated) {
    binSums[bin] += binMass;
    binSums[B1 + bin] = binDiff;
  }
  st[ST_CHUNK] = ch;
  st[ST_CHUNK_HI] = chHi;
  return p;
}
