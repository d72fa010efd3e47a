// The reader keeps only the per-row terms of the class probabilities unless asked for the matrix:
// a file read both ways must give the same data (apart from the matrix), the same warnings, and
// terms equal bit for bit to those of the kept matrix, which agree with a slow reference.
import assert from 'node:assert/strict';
import type { ResolvedConfig } from '../../../src/core/config/types';
import { CONFIG_DEFAULTS } from '../../../src/core/config/types';
import type { ClassificationData, ProbabilityTerms } from '../../../src/core/data/classificationData';
import { Warnings } from '../../../src/core/diagnostics';
import { loadClassification, type LoadedClassification } from '../../../src/core/io/loadClassification';
import type { LoadClassificationOptions } from '../../../src/core/io/classificationColumns';
import type { ParallelReadOptions } from '../../../src/core/io/parallelClassification';
import { emptyProbabilityTerms, reduceProbabilityRow } from '../../../src/core/metrics/probabilityTerms';
import type { ScoreKind } from '../../../src/core/metrics/scores';

/** The terms of every row of a row-major n×C probability matrix, row by row as the reader makes them. */
export function probabilityTerms(
  P: Float64Array,
  labels: ArrayLike<number>,
  C: number,
  n: number,
  scoreKind: ScoreKind,
): ProbabilityTerms {
  const t = emptyProbabilityTerms(n, scoreKind);
  for (let i = 0; i < n; i++) reduceProbabilityRow(P, i * C, C, labels[i], t, i);
  return t;
}

/** Row i's terms written out (nll, Brier, rank; the score of `kind`), independently of the core. */
function slowTerms(p: number[], y: number, kind: string): [number, number, number, number] {
  const nll = -Math.log(Math.max(p[y], 1e-15));
  const brier = p.reduce((s, v, c) => s + (v - (c === y ? 1 : 0)) ** 2, 0);
  const rank = 1 + p.filter((v) => v > p[y]).length;
  const sorted = [...p].sort((a, b) => b - a);
  const score =
    kind === 'msp'
      ? sorted[0]
      : kind === 'margin'
        ? p.length > 1
          ? sorted[0] - sorted[1]
          : 0
        : p.reduce((s, v) => (v > 0 ? s + v * Math.log(v) : s), 0);
  return [nll, brier, rank, score];
}

/**
 * `kept` (read with the matrix) and `plain` (without) are the same data apart from the matrix;
 * the terms are those of the matrix, bit for bit, and close to a slow reference.
 */
export function assertTermsOfMatrix(kept: ClassificationData, plain: ClassificationData, config: ResolvedConfig): void {
  const { probs, probTerms, ...rest } = kept;
  const { probs: none, probTerms: plainTerms, ...plainRest } = plain;
  assert.deepEqual(plainRest, rest);
  assert.equal(none, null);
  if (!probs) {
    assert.equal(probTerms, null);
    assert.equal(plainTerms, null);
    return;
  }
  const kind = config.score ?? CONFIG_DEFAULTS.score;
  const C = kept.classes.length;
  const ref = probabilityTerms(probs, kept.labels, C, kept.n, kind);
  for (const t of [probTerms, plainTerms]) {
    assert.ok(t);
    assert.equal(t.scoreKind, kind);
    assert.deepEqual(Array.from(t.nllTerm), Array.from(ref.nllTerm));
    assert.deepEqual(Array.from(t.brierTerm), Array.from(ref.brierTerm));
    assert.deepEqual(Array.from(t.trueRank), Array.from(ref.trueRank));
    assert.deepEqual(Array.from(t.score), Array.from(ref.score));
  }
  for (let i = 0; i < kept.n; i++) {
    const p = Array.from(probs.subarray(i * C, (i + 1) * C));
    const [nll, brier, rank, score] = slowTerms(p, kept.labels[i], kind);
    const at = `row ${i} (line ${kept.lines[i]})`;
    assert.ok(Math.abs(ref.nllTerm[i] - nll) <= 1e-12 * Math.max(1, nll), `nll ${at}`);
    assert.ok(Math.abs(ref.brierTerm[i] - brier) <= 1e-12, `brier ${at}`);
    assert.equal(ref.trueRank[i], rank, `rank ${at}`);
    assert.ok(Math.abs(ref.score[i] - score) <= 1e-12 * Math.max(1, Math.abs(score)), `score ${at}`);
  }
}

/**
 * Reads `path` with the matrix (the result returned, with its warnings) and without it, and checks
 * the two with {@link assertTermsOfMatrix}; an error must be the same both ways.
 */
export async function loadBothWays(
  path: string,
  config: ResolvedConfig,
  keep: LoadClassificationOptions = {},
  parallel: ParallelReadOptions = {},
): Promise<LoadedClassification & { warnings: Warnings }> {
  const warnings = new Warnings();
  const plainWarnings = new Warnings();
  const read = (w: Warnings, keepProbabilities: boolean) =>
    loadClassification(path, config, w, undefined, { ...keep, keepProbabilities }, parallel);
  let kept: LoadedClassification;
  try {
    kept = await read(warnings, true);
  } catch (e) {
    await assert.rejects(read(plainWarnings, false), (f: unknown) => {
      assert.equal((f as Error).message, (e as Error).message);
      return true;
    });
    throw e;
  }
  const plain = await read(plainWarnings, false);
  assertTermsOfMatrix(kept.data, plain.data, config);
  assert.deepEqual(plainWarnings.list, warnings.list);
  assert.deepEqual(plain.columns, kept.columns);
  return { ...kept, warnings };
}
