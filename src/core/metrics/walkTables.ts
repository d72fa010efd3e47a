/**
 * The per-position tables of the bootstrap's one-pass walk over sorted rows
 * (metrics/selectiveResample.ts): what the walk derives from the rows (and from the classification
 * rows in the same positions) before its first resample and only reads afterwards. Made once in
 * shared memory and carried by the rows (`SortedRows.walk`), they serve every bootstrap thread;
 * without them each thread's walk makes its own, about 36 bytes a row. In a module of their own so
 * that the rows can carry them without knowing the walk.
 *
 * References (the metrics the walk computes from these tables):
 * - R. El-Yaniv, Y. Wiener (2010). On the Foundations of Noise-free Selective Classification. Journal of Machine
 *   Learning Research 11:1605–1641. https://jmlr.org/papers/v11/el-yaniv10a.html
 * - Y. Geifman, R. El-Yaniv (2017). Selective Classification for Deep Neural Networks. Advances in Neural
 *   Information Processing Systems 30 (NeurIPS). https://arxiv.org/abs/1705.08500
 * - M. P. Naeini, G. F. Cooper, M. Hauskrecht (2015). Obtaining Well Calibrated Probabilities Using Bayesian
 *   Binning. Proc. AAAI Conference on Artificial Intelligence 29(1):2901–2907.
 *   https://doi.org/10.1609/aaai.v29i1.9602
 *
 * @see docs/metrics/selective.md — the definitions, conventions and worked examples.
 */
/** Acceptance as a prefix of the sorted rows: fixed length, or re-chosen per resample by `targetCoverage`. */
export type PrefixAcceptance = { kind: 'end'; end: number } | { kind: 'target'; target: number };

export interface WalkTables {
  /** Positions the tables cover (the rows' `n`). */
  n: number;
  /** The acceptance they were made for (the fixed prefix's end is marked in `code`). */
  accept: PrefixAcceptance;
  /** ECE bins (0: no calibration keys). */
  B: number;
  /**
   * Each position's ECE bin (B for none), or null: without calibration keys, or when `binRuns`
   * holds what the unit-mass walk reads of them.
   */
  bins: Int32Array | null;
  /**
   * The unit-mass walk's ECE bins: the bin of each position that starts a new one (`CODE_NEW_BIN`
   * in `code`), in position order, one word per run of equal bins instead of one per position
   * (the walk reads a position's bin only there); null without calibration keys or with `bins`.
   */
  binRuns: Int32Array | null;
  /** The packed per-position words of the unit-mass walk (bytes with up to 15 groups), null with sample weights. */
  code: Int32Array | Uint8Array | null;
  /** The end of each tied block of two rows or more, in position order (unit-mass walk), null with sample weights. */
  tiedEnds: Int32Array | null;
  /** The classification rows' packed cells and ranks, and their nll and Brier terms, or null. */
  cls: {
    C: number;
    /** Cell in the low `cellBits` bits, rank above: 16 bits with up to 31 classes, else 32. */
    word: Int32Array | Uint16Array;
    cellBits: number;
    nllTerm: Float64Array;
    brierTerm: Float64Array;
    cellLabel: Int32Array;
    cellPred: Int32Array;
  } | null;
  /** H[k] = Σ_{j≤k} 1/j for k = 0..n (unit masses only), or null. */
  harmonic: Float64Array | null;
}
