/**
 * The per-position tables of the bootstrap's one-pass walk over sorted rows
 * (metrics/selectiveResample.ts): what the walk derives from the rows (and from the classification
 * rows in the same positions) before its first resample and only reads afterwards. Made once in
 * shared memory and carried by the rows (`SortedRows.walk`), they serve every bootstrap thread;
 * without them each thread's walk makes its own, about 48 bytes a row. In a module of their own so
 * that the rows can carry them without knowing the walk.
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
  /** Each position's ECE bin (B for none), or null without calibration keys. */
  bins: Int32Array | null;
  /** `1 − wrong − conf` per position, or null without calibration keys. */
  unit: Float64Array | null;
  /** The packed per-position words of the unit-mass walk, null with sample weights. */
  code: Int32Array | null;
  /** End of the tied block starting at each position (unit-mass walk), null with sample weights. */
  tieEnd: Int32Array | null;
  /** The classification rows' packed cells and ranks, and their nll and Brier terms, or null. */
  cls: {
    C: number;
    word: Int32Array;
    terms: Float64Array;
    cellLabel: Int32Array;
    cellPred: Int32Array;
  } | null;
  /** H[k] = Σ_{j≤k} 1/j for k = 0..n (unit masses only), or null. */
  harmonic: Float64Array | null;
}
