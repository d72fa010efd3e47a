/** The modules under test, re-exported for the classification tests. */
export * from '../../../src/core/metrics/classification';
export * from '../../../src/core/metrics/longtail';
export * from '../../../src/core/metrics/evolving';
export * from '../../../src/core/metrics/trainDistribution';
export type { ClassificationData } from '../../../src/core/data/classificationData';
export { EvalLensError } from '../../../src/core/diagnostics';
