/**
 * The metric families of the classification task, in the order they run, and what is built from
 * their contract ({@link ClassificationFamily} in classificationRun.ts, the task's form of the one
 * contract of taskFamily.ts):
 *
 * - {@link familyStep}: a family's point step, recording the keys it wrote (the keys of its
 *   statistic, which the bootstrap resamples);
 * - {@link familyScalars}: the values of one resample, every family's statistic over the shared
 *   {@link ResampleSums} — what the bootstrap, its worker threads and the paired comparison run.
 *
 * Adding a family: a module that exports its {@link ClassificationFamily}, one line in
 * {@link CLASSIFICATION_FAMILIES}. Its scalars then get intervals, provisional intervals and
 * paired intervals with no other change.
 */
import { classificationFamily } from './accuracyFamily';
import { calibrationFamily, selectiveFamily } from './classificationSelective';
import { evolvingFamily } from './evolvingFamily';
import { longTailFamily } from './longTailFamily';
import { subgroupFamily } from './classificationSubgroups';
import { familyResampledKeys, familyStep as taskFamilyStep, familyValues } from './taskFamily';
import type {
  ClassificationFamily,
  ClassificationRun,
  ClassificationStep,
  ResampleRun,
  ResampleSums,
} from './classificationRun';

/**
 * In order: selective sets up the score order that calibration reads; long tail writes the
 * per-class table after the classification family's sums exist.
 */
export const CLASSIFICATION_FAMILIES: readonly ClassificationFamily[] = [
  classificationFamily,
  longTailFamily,
  subgroupFamily,
  evolvingFamily,
  selectiveFamily,
  calibrationFamily,
];

/** The family's point step; it also records the keys the family wrote in `run.familyKeys`. */
export function familyStep(family: ClassificationFamily): ClassificationStep {
  return taskFamilyStep(family);
}

/** The keys with a defined point estimate that the families with a statistic wrote, family by family. */
export function resampledKeys(
  run: ClassificationRun,
  metrics: Readonly<Record<string, { value: number | null }>>,
): string[] {
  return familyResampledKeys(CLASSIFICATION_FAMILIES, run).filter((k) => metrics[k]?.value !== null);
}

/** Every family's values of one resample, from its shared sums. */
export function familyScalars(run: ResampleRun, sums: ResampleSums): Record<string, number | null> {
  return familyValues(CLASSIFICATION_FAMILIES, run, sums);
}
