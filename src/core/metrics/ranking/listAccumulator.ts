/**
 * What the ranking families' accumulators share: they take one evaluated list at a time (see
 * AccuracyAccumulator in ./accuracy), at the cutoffs K in increasing order, and check at the end
 * that every evaluated list came.
 *
 * References (the metrics at a cutoff K that its subclasses accumulate):
 * - C. D. Manning, P. Raghavan, H. Schütze (2008). Introduction to Information Retrieval, chapter 8: Evaluation in
 *   information retrieval. Cambridge University Press. https://nlp.stanford.edu/IR-book/
 * - K. Järvelin, J. Kekäläinen (2002). Cumulated gain-based evaluation of IR techniques. ACM Transactions on
 *   Information Systems 20(4):422–446. https://doi.org/10.1145/582415.582418
 *
 * @see docs/metrics/ranking.md — the definitions, conventions and worked examples.
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
