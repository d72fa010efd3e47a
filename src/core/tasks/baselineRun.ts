/**
 * Baseline runs derived from a run's own input, evaluated by the normal pipeline in place of the
 * run's predictions (`evaluateFile(path, { baselineRun })`), so that a comparison pairs them with
 * the run row by row (classification) or user by user (ranking).
 *
 * Classification — as scikit-learn's `DummyClassifier` fitted on the evaluated rows themselves
 * (its labels, and its sample weights when the file has a weight column):
 * - `majority` (`strategy="most_frequent"`): every row predicts the most frequent true class; its
 *   probabilities are one-hot on that class (as `DummyClassifier.predict_proba` gives them), so
 *   the log-loss of a row of another class is −ln 1e-15 and the confidence of every row is 1.
 * - `prior` (`strategy="prior"`): every row's probabilities are the class frequencies of the true
 *   labels of the evaluated rows (weighted by the weight column if there is one); it predicts the
 *   most probable class (the same class as `majority`). Its log-loss is the entropy of those
 *   frequencies. This uses the test labels — a reference point for the metrics, not a model that
 *   could have been fitted before the test.
 * The frequencies are counted on every row evaluated (after a filter; both parts of a `split`
 * column). Ties go to the first class in the run's class order. A `confidence` or `accept` column
 * of the file belongs to the run's model and is not used.
 *
 * Ranking — exactly the run's built-in baselines (`baselines.popularity`, `baselines.random` of its
 * results; metrics/ranking/baselines.ts): the lists of the evaluated users are made in the same
 * order, to the same depth and with the same generator seed (`bootstrap.seed`), so every metric of
 * the baseline run equals the built-in baseline's value. Users without a relevant item (skipped)
 * get their lists afterwards.
 *
 * References:
 * - F. Pedregosa et al. (2011). Scikit-learn: Machine Learning in Python. JMLR 12:2825–2830;
 *   `sklearn.dummy.DummyClassifier`, https://scikit-learn.org/stable/modules/generated/sklearn.dummy.DummyClassifier.html
 * - M. Ludewig, D. Jannach (2018). Evaluation of session-based recommendation algorithms. User
 *   Modeling and User-Adapted Interaction 28:331–390 (the popularity and random baselines).
 *   https://doi.org/10.1007/s11257-018-9209-6
 */
import { fail } from '../diagnostics';
import type { ClassificationData, ScoreKind } from '../data/classificationData';
import type { RankedLists, RankingData } from '../data/rankingData';
import { emptyProbabilityTerms, reduceProbabilityRow } from '../metrics/probabilityTerms';
import { splitEvaluated } from '../metrics/ranking/accuracy';
import { idOrderRank, popularityOrder, popularityRecommender, randomRecommender } from '../metrics/ranking/baselines';
import type { Recommender } from '../metrics/ranking/baselines';

/** The baseline runs a comparison can add. */
export const BASELINE_KINDS = ['majority', 'prior', 'popularity', 'random'] as const;
export type BaselineKind = (typeof BASELINE_KINDS)[number];

/** The baselines that fit each task. */
export const BASELINES_OF_TASK: Readonly<Record<string, readonly BaselineKind[]>> = {
  classification: ['majority', 'prior'],
  ranking: ['popularity', 'random'],
  'iw-binary': [],
};

/**
 * The class frequencies of the true labels of `d` (weighted by `d.weights` when present; all rows
 * counted equally when the weights sum to 0) and the most frequent class (the first on ties).
 */
export function classFrequencies(d: ClassificationData): { freq: Float64Array; top: number } {
  const C = d.classes.length;
  const sumBy = (w: Float64Array | null): Float64Array => {
    const s = new Float64Array(C);
    for (let i = 0; i < d.n; i++) s[d.labels[i]] += w ? w[i] : 1;
    return s;
  };
  let counts = sumBy(d.weights);
  let total = counts.reduce((a, b) => a + b, 0);
  if (!(total > 0)) {
    counts = sumBy(null);
    total = d.n;
  }
  let top = 0;
  for (let c = 1; c < C; c++) if (counts[c] > counts[top]) top = c;
  const freq = counts.map((x) => (total > 0 ? x / total : 0));
  return { freq, top };
}

/** The data of the `majority` or `prior` baseline of a classification run (see the module's doc). */
export function classificationBaselineData(
  d: ClassificationData,
  kind: 'majority' | 'prior',
  scoreKind: ScoreKind,
): ClassificationData {
  const C = d.classes.length;
  const { freq, top } = classFrequencies(d);
  const p = kind === 'prior' ? freq : new Float64Array(C);
  if (kind === 'majority') p[top] = 1;
  const terms = emptyProbabilityTerms(d.n, d.probTerms?.scoreKind ?? scoreKind);
  for (let i = 0; i < d.n; i++) reduceProbabilityRow(p, 0, C, d.labels[i], terms, i);
  let probs: Float64Array | null = null;
  if (d.probs) {
    probs = new Float64Array(d.n * C);
    for (let i = 0; i < d.n; i++) probs.set(p, i * C);
  }
  return {
    ...d,
    preds: new Int32Array(d.n).fill(top),
    probs,
    probTerms: terms,
    fromLogits: false,
    scoreColumn: null,
    scoreColumnName: null,
    accept: null,
  };
}

/**
 * The lists of the `popularity` or `random` baseline for the users of `data.lists` (same order),
 * made as the ranking task makes its built-in baselines: `depth` slots, the evaluated users first
 * in list order (so the random draws are the same), then the skipped ones.
 */
export function rankingBaselineLists(
  data: RankingData,
  kind: 'popularity' | 'random',
  depth: number,
  seed: number,
): RankedLists {
  const train = data.train;
  if (!train)
    fail(
      'compare-baseline-no-train',
      { file: data.file },
      `the ${kind} baseline is made from the train interactions: set \`train\` in the config (a file of user,item rows).`,
    );
  const idRank = idOrderRank(data.items.ids);
  const recommend: Recommender =
    kind === 'popularity'
      ? popularityRecommender(
          train,
          popularityOrder(train, idRank, data.itemPopularity?.values),
          depth,
          data.items.size,
        )
      : randomRecommender(train, idRank, depth, seed);
  const users = data.lists.user;
  const { evaluated, skipped } = splitEvaluated(users, data.relOffsets);
  const made: Int32Array[] = new Array<Int32Array>(users.length);
  const buf = new Int32Array(depth);
  for (const order of [evaluated, skipped]) for (const j of order) made[j] = buf.slice(0, recommend(users[j], buf));
  const offsets = new Int32Array(users.length + 1);
  for (let j = 0; j < users.length; j++) offsets[j + 1] = offsets[j] + made[j].length;
  const items = new Int32Array(offsets[users.length]);
  made.forEach((l, j) => items.set(l, offsets[j]));
  return { user: users, offsets, items };
}

/** `kind` when it fits `task`, else a clear error naming the baselines that do. */
export function checkBaselineFits<K extends BaselineKind>(
  kind: BaselineKind,
  task: string,
  file: string,
  fits: readonly K[],
): K {
  if ((fits as readonly BaselineKind[]).includes(kind)) return kind as K;
  const offered = BASELINES_OF_TASK[task] ?? [];
  fail(
    'compare-baseline-task',
    { file },
    `the ${kind} baseline does not fit a ${task} run; ${offered.length > 0 ? `a ${task} run has ${offered.join(' and ')}` : `a ${task} run has no baseline runs`} (majority and prior are for classification, popularity and random for ranking).`,
  );
}
