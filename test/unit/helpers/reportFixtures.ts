/** Small hand-made results and comparison objects for the extension's unit tests. */
import type { CompareResults } from '../../../src/core/compare/types';
import type { Results } from '../../../src/core/results/types';

/** A table of a later version, which this one does not know (the schema lets it through). */
const LATER_TABLES: object = {
  extraTable: [
    { name: 'x', n: 1 },
    { name: 'y', n: 2 },
  ],
};

export function classificationResults(overrides: Partial<Results> = {}): Results {
  return {
    schema: 'eval-lens/results@1',
    tool: { name: 'eval-lens', version: '0.1.0' },
    createdAt: '2026-01-01T00:00:00.000Z',
    source: {
      path: 'runs/preds.csv',
      size: 2048,
      sha256: 'ab'.repeat(32),
      format: 'csv',
      rows: 6,
      rowsUsed: 6,
      columns: { label: 'label', probs: ['prob_a', 'prob_b', 'prob_c'] },
    },
    task: 'classification',
    config: {
      invalidRows: 'error',
      bootstrap: { n: 1000, confidence: 0.95, seed: 0, stratified: false },
      shotThresholds: { many: 100, few: 20 },
    },
    metrics: {
      accuracy: { value: 4 / 6, ci: [0.5, 0.8333], direction: 'higher' },
      balanced_accuracy: { value: 0.6111, direction: 'higher' },
      acc_few: { value: 0.5, direction: 'higher' },
      aurc: { value: 0.125, ci: [0.05, 0.2], direction: 'lower' },
      worst_error: { value: 0.5, ci: [0.2, 0.8], direction: 'lower' },
      ece: { value: 0.07, direction: 'lower' },
      mystery: { value: 3, direction: 'higher' },
    },
    families: {
      classification: ['accuracy', 'balanced_accuracy'],
      longtail: ['acc_few'],
      selective: ['aurc', 'worst_error'],
      calibration: ['ece'],
    },
    curves: Object.assign(
      {
        riskCoverage: { x: 'coverage', y: 'risk', xs: [0.5, 1], ys: [0, 1 / 3], extra: { threshold: [0.9, 0.4] } },
        reliability: { x: 'confidence', y: 'accuracy', xs: [0.6, 0.9], ys: [0.5, 1] },
      },
      // a curve of a later version, under a name the typed map does not know
      { oddCurve: { x: 'a', y: 'b', xs: [1, 2], ys: [3, 4] } },
    ),
    tables: {
      perClass: [
        { class: 'a', support: 2, accuracy: 1, trainCount: 500, shot: 'many' },
        { class: 'b', support: 2, accuracy: 0.5, trainCount: 50, shot: 'medium' },
        { class: 'c', support: 2, accuracy: 0.5, trainCount: 5, shot: 'few' },
      ],
      confusion: {
        labels: ['a', 'b', 'c'],
        matrix: [
          [2, 0, 0],
          [1, 1, 0],
          [0, 1, 1],
        ],
      },
      reliability: [
        { lo: 0, hi: 0.5, count: 0, accuracy: null, confidence: null },
        { lo: 0.5, hi: 1, count: 6, accuracy: 4 / 6, confidence: 0.75 },
      ],
      ...LATER_TABLES,
    },
    warnings: [
      {
        code: 'probabilities-not-normalised',
        message: 'rows do not sum to 1',
        file: 'runs/preds.csv',
        line: 3,
        count: 2,
      },
    ],
    ...overrides,
  };
}

export function rankingResults(): Results {
  const metrics: Results['metrics'] = {};
  const base: Record<string, Results['metrics'][string]> = {};
  for (const k of [5, 10, 20]) {
    metrics[`ndcg@${k}`] = { value: 0.1 * (k / 5), direction: 'higher' };
    metrics[`recall@${k}`] = { value: 0.05 * (k / 5), direction: 'higher' };
    base[`ndcg@${k}`] = { value: 0.01 * (k / 5), direction: 'higher' };
  }
  metrics.mrr = { value: 0.3, direction: 'higher' };
  return classificationResults({
    task: 'ranking',
    metrics,
    families: { ranking: Object.keys(metrics) },
    curves: {},
    tables: {},
    baselines: { popularity: base },
    perItem: {
      kind: 'user',
      ids: ['u1', 'u2', 'u3', 'u4'],
      values: { 'ndcg@10': [0, 0.25, 1, 1], mrr: [0.5, 0.5, 1, Number.NaN] },
    },
    warnings: [],
  });
}

export function compareResults(): CompareResults {
  return {
    schema: 'eval-lens/compare@1',
    kind: 'comparison',
    tool: { name: 'eval-lens', version: '0.1.0' },
    createdAt: '2026-01-01T00:00:00.000Z',
    task: 'classification',
    runs: ['a.csv', 'b.csv', 'c.csv'],
    names: ['a', 'b', 'c'],
    metrics: ['accuracy', 'nll'],
    directions: { accuracy: 'higher', nll: 'lower' },
    table: {
      'a.csv': { accuracy: 0.7, nll: 0.9 },
      'b.csv': { accuracy: 0.8, nll: 0.7 },
      'c.csv': { accuracy: 0.75, nll: null },
    },
    marks: { accuracy: { 'b.csv': 1, 'c.csv': 2, 'a.csv': 3 }, nll: { 'b.csv': 1, 'a.csv': 2 } },
    baseline: 'a.csv',
    matchBy: 'id',
    tests: [
      {
        run: 'b.csv',
        baseline: 'a.csv',
        metric: 'accuracy',
        n: 100,
        mean: 0.8,
        mean_baseline: 0.7,
        improvement: 0.1 / 0.7,
        t: 2.5,
        p_t: 0.014,
        p_t_one_sided: 0.007,
        wilcoxon: 10,
        p_wilcoxon: 0.02,
        d_z: 0.25,
        d_pooled: 0.2,
        p_holm: 0.028,
        ci_diff: [0.02, 0.18],
      },
      {
        run: 'c.csv',
        baseline: 'a.csv',
        metric: 'accuracy',
        n: 100,
        mean: 0.75,
        mean_baseline: 0.7,
        improvement: 0.05 / 0.7,
        t: 1,
        p_t: 0.0004,
        p_t_one_sided: 0.0002,
        wilcoxon: 20,
        p_wilcoxon: 0.3,
        d_z: 0.1,
        d_pooled: 0.1,
        p_holm: 0.2,
        ci_diff: [-0.03, 0.13],
      },
    ],
    settings: {
      holm: 'p_t within each metric',
      onMismatch: 'error',
      bootstrap: { n: 1000, confidence: 0.95, seed: 0 },
    },
    warnings: [],
  };
}

/** The series of the line y = x from (0, 0) to (1, 1) in the foreground colour, as a chart should hold it. */
export function expectedDiagonal(label: string, dash: 'dashed' | 'dotted'): Record<string, unknown> {
  return {
    label,
    colour: 'foreground',
    style: 'line',
    [dash]: true,
    points: [
      { x: 0, y: 0 },
      { x: 1, y: 1 },
    ],
  };
}
