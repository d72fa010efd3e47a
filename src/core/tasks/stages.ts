/**
 * Progressive results: a runner announces when its point estimates are complete and when
 * provisional bootstrap intervals exist, so that a caller can show the results before the
 * intervals are final. The final results do not depend on whether anyone listens: resample b
 * depends only on (seed, b), so the provisional intervals come from the first resamples of the
 * same run.
 */
import type { Results, SourceInfo } from '../results/types';

/** What a runner returns: its source description (the caller adds the size and hash). */
export type RunnerSource = Omit<SourceInfo, 'size' | 'sha256'> & Partial<Pick<SourceInfo, 'size' | 'sha256'>>;

export interface StageEmitter {
  /** Every point estimate exists and no interval has been computed yet (called before the first resample). */
  point(source: RunnerSource): Promise<void>;
  /**
   * Provisional intervals from the first `done` of `total` resamples. `apply` writes them into a
   * snapshot of the results (never into the results being built, whose intervals stay final-only).
   */
  provisional(done: number, total: number, apply: (snapshot: Results) => void): void;
}

/** Sets an interval on a snapshot as `ResultsBuilder.setCi` does (finite bounds only). */
export function setSnapshotCi(snapshot: Results, key: string, ci: [number, number] | null): void {
  const m = snapshot.metrics[key];
  if (m && ci && Number.isFinite(ci[0]) && Number.isFinite(ci[1])) m.ci = ci;
}
