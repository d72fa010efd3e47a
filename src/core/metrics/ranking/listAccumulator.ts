/**
 * What the ranking families' accumulators share: they take one evaluated list at a time (see
 * AccuracyAccumulator in ./accuracy), at the cutoffs K in increasing order, and check at the end
 * that every evaluated list came.
 */
export abstract class ListAccumulator {
  /** The cutoffs K, increasing. */
  protected readonly ks: Int32Array;
  /** Lists added so far. */
  protected n = 0;

  constructor(
    protected readonly nEval: number,
    ks: readonly number[],
  ) {
    this.ks = Int32Array.from(ks);
  }

  /** Throws unless all `nEval` evaluated lists have been added. */
  protected checkAllAdded(): void {
    if (this.n !== this.nEval)
      throw new RangeError(`Expected ${this.nEval} evaluated lists to be added, but got ${this.n}.`);
  }
}
