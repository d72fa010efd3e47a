/**
 * `tables.rankingSummary`: the counts behind a ranking run and the conventions it used — users,
 * lists and the longest list (metric-vs-K charts end there), users evaluated and skipped, the first
 * {@link SAMPLE_USERS} evaluated users (the user inspector's suggestions), items, the catalogue,
 * relevance, gain, the MAP normaliser, train interactions, where the popularity came from and the
 * seen-item masking. A family of the ranking pipeline that writes no key (the one family contract,
 * taskFamily.ts): its tables step writes the table it declares. The runner runs it last, after the
 * slice table, so that the summary stays the last table of the results, where files have always
 * had it.
 */
import type { RankingTaskFamily } from './rankingRun';

/** The first this many evaluated users (run order) are named in `tables.rankingSummary.sampleUsers`. */
export const SAMPLE_USERS = 5000;

export const rankingSummaryFamily: RankingTaskFamily = {
  name: 'summary',
  point: () => undefined,
  tableNames: ['rankingSummary'],
  tables: (run, ctx) => {
    const { data, evaluation, options } = run;
    // a bounded list: the results file never holds per-user values (results/resultsFile.ts)
    const sampleUsers = new Array<string>(Math.min(run.evaluated.length, SAMPLE_USERS));
    for (let e = 0; e < sampleUsers.length; e++) sampleUsers[e] = data.users.ids[data.lists.user[run.evaluated[e]]];
    ctx.results.table('rankingSummary', {
      users: data.users.size,
      listsInRun: data.lists.user.length,
      longestList: run.longestList,
      usersEvaluated: run.evaluated.length,
      usersSkipped: evaluation.skipped.length,
      sampleUsers,
      items: data.items.size,
      catalog: options.catalog.note,
      relevance: data.binary ? 'binary' : 'graded',
      gain: options.gain,
      mapNormaliser: options.mapNormaliser,
      trainInteractions: data.train?.rows ?? null,
      // Only with `itemPopularity` (else the train counts, as the results have always said by omission).
      ...(data.itemPopularity
        ? { popularitySource: `column "${data.itemPopularity.column}" of the item table ${data.itemPopularity.file}` }
        : {}),
      ...(data.train
        ? {
            maskSeen: data.maskSeen ? 'on' : 'off',
            seenItemsMasked: data.seenMask?.items ?? 0,
            usersMasked: data.seenMask?.lists ?? 0,
          }
        : {}),
    });
  },
};
