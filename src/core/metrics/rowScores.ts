/**
 * The selective score of each classification row, as the selective and calibration families use
 * it: a confidence/score/margin column when the file has one, else derived from the class
 * probabilities by `score` (msp, margin, negative entropy); null when there is neither.
 *
 * References:
 * - Y. Geifman, R. El-Yaniv (2017). Selective Classification for Deep Neural Networks. Advances in Neural
 *   Information Processing Systems 30 (NeurIPS). https://arxiv.org/abs/1705.08500 (the softmax response,
 *   max_c p_c, as the confidence of a selective classifier)
 *
 * @see docs/metrics/selective.md — how the score is chosen and used.
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
