/**
 * The baselines of the ranking task (with train): `baselines.popularity` and `baselines.random`,
 * the same keys for the popularity and the seeded random recommender on the run's evaluated users,
 * seen items excluded, evaluated to the run's depth with the run's options (no intervals; no
 * `ndcg_std@K`: they keep no per-user values). Their metric-vs-K curves are kept on the run for the
 * curves drawn beside the run's (rankingTables.ts). Without train, a note says what is left out.
 * A family of the ranking pipeline that writes no key of the run's own.
 *
 * @see docs/metrics/ranking.md — the baselines and their conventions.
 */
import { idOrderRank, popularityOrder, popularityRecommender, randomRecommender } from '../metrics/ranking/baselines';
import type { Recommender } from '../metrics/ranking/baselines';
import { evaluateRecommender } from '../metrics/ranking/evaluateLists';
import { directionOf } from '../results/directions';
import type { MetricValue } from '../results/types';
import type { RankingTaskFamily } from './rankingRun';

export const rankingBaselinesFamily: RankingTaskFamily = {
  name: 'baselines',
  // Baselines on the same users, one at a time (only their values and curves are kept).
  point: (run, ctx) => {
    const { data, depth } = run;
    const { results, config } = ctx;
    const train = data.train;
    if (!train) {
      ctx.warnings.note(
        'no-train',
        `${data.file}: no \`train\` file in the config: no popularity/random baselines, no cold-start coverage, ${data.itemPopularity ? '' : 'no novelty, '}no activity bins, no seen-item masking.`,
      );
      return;
    }
    const users = new Int32Array(run.evaluated.length);
    for (let e = 0; e < users.length; e++) users[e] = data.lists.user[run.evaluated[e]];
    const curves: Record<string, Record<string, Float64Array>> = {};
    results.baselines = {};
    const idRank = results.time('baselines', () => idOrderRank(data.items.ids));
    const makers: [string, () => Recommender, string][] = [
      [
        'popularity',
        () =>
          popularityRecommender(
            train,
            popularityOrder(train, idRank, data.itemPopularity?.values),
            depth,
            data.items.size,
          ),
        data.itemPopularity
          ? `train items by "${data.itemPopularity.column}" of the item table (${data.itemPopularity.file}), descending, seen items excluded`
          : 'most frequent train items, seen items excluded',
      ],
      [
        'random',
        () => randomRecommender(train, idRank, depth, config.bootstrap.seed),
        `seeded random (seed = ${config.bootstrap.seed}), seen items excluded`,
      ],
    ];
    for (const [name, make, note] of makers) {
      ctx.progress?.report?.(`baseline: ${name}`, 0);
      const ev = results.time('baselines', () =>
        evaluateRecommender(users, make(), depth, data, { ...run.options, keepPerUser: false }),
      );
      const m: Record<string, MetricValue> = {};
      for (const [key, value] of ev.values) {
        if (key === 'users_evaluated' || key === 'users_skipped') continue;
        m[key] = { value: value === null || !Number.isFinite(value) ? null : value, direction: directionOf(key), note };
      }
      results.baselines[name] = m;
      curves[name] = ev.curves;
    }
    run.baselineCurves = curves;
  },
};
