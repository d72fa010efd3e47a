/**
 * Hand-made results objects of the four shapes the families produce (classification with long
 * tail, selective and calibration; iw-binary; ranking with baselines; selective curves), built
 * with the real ResultsBuilder so the tests follow its output.
 */
import { ResultsBuilder } from '../../../src/core/results/builder';
import { resolveConfig } from '../../../src/core/config/load';
import type { RankingSummary, Results, SourceInfo } from '../../../src/core/results/types';
import type { EvalConfig, Task } from '../../../src/core/config/types';

const SHA = 'ab'.repeat(32);

function source(path: string, format: SourceInfo['format'], rows: number, columns: SourceInfo['columns']): SourceInfo {
  return { path, size: 1234, sha256: SHA, format, rows, rowsUsed: rows, columns };
}

function build(
  b: ResultsBuilder,
  task: Task,
  src: SourceInfo,
  config: EvalConfig = {},
  warnings: Results['warnings'] = [],
): Results {
  const r = b.build({ source: src, task, config: resolveConfig([{ task, ...config }], '/w/eval-lens.json'), warnings });
  return JSON.parse(JSON.stringify(r)) as Results; // as written to disk
}

export function classificationResults(): Results {
  const b = new ResultsBuilder();
  b.metric('classification', 'accuracy', 0.8, { ci: [0.7, 0.9] });
  b.metric('classification', 'balanced_accuracy', 0.75);
  b.metric('classification', 'top5_accuracy', 1);
  b.metric('classification', 'nll', 0.4321);
  b.metric('longtail', 'acc_many', 0.9);
  b.metric('longtail', 'acc_few', null, { note: 'no few-shot class has test rows' });
  b.metric('evolving', 'shift_std', 0.01234);
  b.metric('selective', 'aurc', 0.0567, { ci: [0.04, 0.07] });
  b.metric('selective', 'worst_error', 0.5, {
    ci: [0.52, 0.6],
    note: 'percentile interval of a max | may miss the estimate',
  });
  b.metric('calibration', 'ece', 0.00005);
  b.curve('riskCoverage', {
    x: 'coverage',
    y: 'risk',
    xs: [0.5, 1],
    ys: [0.1, 0.2],
    extra: { threshold: [0.9, 0.1], risk_balanced: [null, 0.25] },
  });
  b.table('perClass', [
    { class: 'a', support: 3, accuracy: 1, trainCount: 100, rank: 1, shot: 'medium', group: 'head' },
    { class: 'b', support: 0, accuracy: null, trainCount: 5, rank: 2, shot: 'few', group: 'tail' },
  ]);
  b.table('confusion', {
    labels: ['a', 'b'],
    matrix: [
      [3, 0],
      [1, 1],
    ],
  });
  b.table('reliability', [
    { lo: 0, hi: 0.5, count: 0, accuracy: null, confidence: null },
    { lo: 0.5, hi: 1, count: 5, accuracy: 0.8, confidence: 0.7 },
  ]);
  b.table('groupAnalysis', [
    {
      group: 'head',
      size: 3,
      coverage: 1,
      error: 0,
      tpr: 1,
      fpr: null,
      scoreMean: 0.9,
      scoreStd: 0.1,
      scoreMin: 0.8,
      scoreMax: 1,
    },
  ]);
  b.perItem = { kind: 'row', ids: null, labels: ['a', 'a', 'b'], values: { accuracy: [1, 1, 0] } };
  return build(
    b,
    'classification',
    source('preds.csv', 'csv', 5, { label: 'label', probs: ['p_a', 'p_b'] }),
    { trainCounts: [100, 5] },
    [{ code: 'empty-class', message: 'class b has no test rows', file: 'preds.csv', line: 2, count: 1, lines: [2] }],
  );
}

export function iwBinaryResults(): Results {
  const b = new ResultsBuilder();
  for (const [k, v] of [
    ['precision', 0.6],
    ['recall', 0.5],
    ['f1', 0.5454],
    ['aupr_trapz', 0.7],
    ['average_precision', 0.68],
    ['roc_auc', 0.81],
  ] as const) {
    b.metric('importance', k, v, { ci: [v - 0.05, v + 0.05] });
  }
  b.curve('pr', { x: 'recall', y: 'precision', xs: [0, 0.5, 1], ys: [1, 0.6, 0.4], extra: { threshold: [1, 0.5, 0] } });
  b.curve('roc', { x: 'fpr', y: 'tpr', xs: [0, 1], ys: [0, 1] });
  return build(
    b,
    'iw-binary',
    source('sample.jsonl', 'jsonl', 40, { label: 'label', score: 'score', stratum: 'stratum' }),
    { populationSize: 1000 },
  );
}

export function rankingResults(): Results {
  const b = new ResultsBuilder();
  b.metric('ranking', 'recall@10', 0.31, { ci: [0.28, 0.34] });
  b.metric('ranking', 'ndcg@10', 0.22);
  b.metric('ranking', 'mrr', 0.4);
  b.metric('ranking', 'novelty@10', 7.5);
  b.metric('ranking', 'users_evaluated', 900);
  b.metric('ranking', 'users_skipped', 3);
  b.baselines = {
    popularity: { 'recall@10': { value: 0.12, direction: 'higher' }, 'ndcg@10': { value: 0.08, direction: 'higher' } },
    random: {
      'recall@10': { value: 0.01, direction: 'higher' },
      'ndcg@10': { value: null, direction: 'higher', note: 'undefined' },
    },
  };
  // an earlier version's one metric-vs-K curve, under a name the typed map does not know
  Object.assign(b.curves, {
    metricVsK: { x: 'K', y: 'ndcg', xs: [5, 10], ys: [0.2, 0.22], extra: { recall: [0.2, 0.31] } },
  });
  b.table('activityBins', [{ bin: '1-5', lo: 1, hi: 6, users: 10, 'ndcg@10': 0.1 }]);
  b.perItem = { kind: 'user', ids: ['u1', 'u2'], values: { 'ndcg@10': [0.1, 0.3] } };
  const r = build(b, 'ranking', source('run.trec', 'trec', 9000, { user: 'user', item: 'item', rank: 'rank' }), {
    relevant: 'qrels.txt',
  });
  r.source.extra = [{ role: 'relevant', path: 'qrels.txt', size: 10, sha256: SHA }];
  // A table of a later version, which this one does not know (the schema lets it through).
  Object.assign(r.tables, { histograms: { 'ndcg@10': { edges: [0, 0.5, 1], counts: [600, 300] } } });
  return r;
}

/** A complete `tables.rankingSummary` of a small run, with `over` replacing fields. */
export function rankingSummary(over: Partial<RankingSummary> = {}): RankingSummary {
  return {
    users: 903,
    listsInRun: 903,
    longestList: 20,
    usersEvaluated: 900,
    usersSkipped: 3,
    sampleUsers: ['u1', 'u2'],
    items: 5000,
    catalog: 'items of the run',
    relevance: 'binary',
    gain: 'linear',
    mapNormaliser: 'min',
    trainInteractions: null,
    ...over,
  };
}

/** Selective-only output with a score column and long curves (no CI: bootstrap.n = 0). */
export function selectiveResults(): Results {
  const b = new ResultsBuilder();
  b.metric('selective', 'coverage', 0.8);
  b.metric('selective', 'selective_risk', 0.1);
  b.metric('selective', 'aurc_grid101', null, { note: 'fewer than 101 rows' });
  const n = 101;
  const xs = Array.from({ length: n }, (_, i) => (i + 1) / n);
  b.curve('riskCoverageGrid101', {
    x: 'coverage',
    y: 'risk',
    xs,
    ys: xs.map((x) => x / 2),
    extra: { risk_worst: xs.map(() => null) },
  });
  b.curve('costSweep', { x: 'cost', y: 'coverage', xs: [0, 1], ys: [0, 1], note: "Chow's rule" });
  return build(
    b,
    'classification',
    source('sel.tsv', 'tsv', 50, { label: 'label', pred: 'pred', score: 'confidence' }),
    { bootstrap: { n: 0 } },
    [{ code: 'grid-too-few-rows', message: 'fewer than 101 rows: grid keys are null' }],
  );
}

export const ALL_SAMPLES = { classificationResults, iwBinaryResults, rankingResults, selectiveResults };
