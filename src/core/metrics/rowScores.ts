/**
 * The selective score of each classification row, as the selective and calibration families use
 * it: a confidence/score/margin column when the file has one, else derived from the class
 * probabilities by `score` (msp, margin, negative entropy); null when there is neither.
 */
import { CONFIG_DEFAULTS, type ResolvedConfig } from '../config/types';
import type { ClassificationData } from '../data/classificationData';
import { deriveScores } from './scores';

export function rowScores(data: ClassificationData, config: ResolvedConfig): Float64Array | null {
  return (
    data.scoreColumn ??
    (data.probTerms || data.probs ? deriveScores(data, config.score ?? CONFIG_DEFAULTS.score) : null)
  );
}
