/**
 * The small bookkeeping tables of a results file — the importance weights and the counts at the
 * threshold of an importance-weighted run, the summary of a ranking run — as report tables in the
 * reader's words: named rows and columns, integers as integers, instead of the stored keys and a
 * JSON dump of nested objects. Each builder checks the shape it reads (a results file is untrusted)
 * and returns undefined when the value is not that shape; the caller then shows it generically.
 */
import type { StratumWeightRow, WeightColumnSummary } from '../../core/results/types';
import type { CellValue, TableModel } from '../model';
import { table } from './common';

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function isStratumRow(v: unknown): v is StratumWeightRow {
  return (
    isRecord(v) &&
    (v.stratum === 'B' || v.stratum === 'Bc') &&
    isNum(v.rows) &&
    isNum(v.populationCount) &&
    isNum(v.weight) &&
    isNum(v.totalWeight)
  );
}

function isWeightColumn(v: unknown): v is WeightColumnSummary {
  return (
    isRecord(v) &&
    v.source === 'column' &&
    typeof v.column === 'string' &&
    isNum(v.rows) &&
    isNum(v.sum) &&
    isNum(v.min) &&
    isNum(v.max)
  );
}

/**
 * `tables.importanceWeights`: the weight of a row in each stratum (B, the rows drawn with the biased
 * selection, and its complement Bc) with the population counts they stand for; or, when the weights
 * came from a column of the file, that column's sum and range.
 */
export function importanceWeightsTable(value: unknown): TableModel | undefined {
  const id = 'table.importanceWeights';
  if (Array.isArray(value) && value.length > 0 && value.every(isStratumRow)) {
    const total = value.reduce((s, r) => s + r.totalWeight, 0);
    return table(
      id,
      'Importance weights per stratum',
      [
        ['stratum', 'text'],
        ['rows in the file', 'int'],
        ['population count', 'int'],
        ['weight of a row', 'num'],
        ['share of the weighted total', 'num'],
      ],
      value.map((r) => [r.stratum, r.rows, r.populationCount, r.weight, total > 0 ? r.totalWeight / total : null]),
      'A row of a stratum stands for (population count ÷ rows in the file) items of the population; its weight is that number divided by the population size, so the weights of all rows sum to 1.',
    );
  }
  if (isWeightColumn(value)) {
    return table(
      id,
      `Importance weights from the column "${value.column}"`,
      [
        ['rows', 'int'],
        ['sum of the weights', 'num'],
        ['smallest weight', 'num'],
        ['largest weight', 'num'],
      ],
      [[value.rows, value.sum, value.min, value.max]],
    );
  }
  return undefined;
}

interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

function isCounts(v: unknown): v is Counts {
  return isRecord(v) && isNum(v.tp) && isNum(v.fp) && isNum(v.fn) && isNum(v.tn);
}

/**
 * `tables.thresholdCounts`: true/false positives and negatives at the decision threshold, weighted
 * (shares of the population) and unweighted (rows of the file), one row per cell of the confusion
 * matrix.
 */
export function thresholdCountsTable(value: unknown): TableModel | undefined {
  if (!isRecord(value) || !isNum(value.threshold) || !isCounts(value.weighted) || !isCounts(value.unweighted))
    return undefined;
  const w = value.weighted;
  const u = value.unweighted;
  const cells: [string, keyof Counts][] = [
    ['true positives (TP)', 'tp'],
    ['false positives (FP)', 'fp'],
    ['false negatives (FN)', 'fn'],
    ['true negatives (TN)', 'tn'],
  ];
  return table(
    'table.thresholdCounts',
    `Counts at the threshold: score ≥ ${value.threshold}`,
    [
      ['cell', 'text'],
      ['importance-weighted', 'num'],
      ['unweighted (rows)', 'int'],
    ],
    cells.map(([name, k]) => [name, w[k], u[k]]),
    Math.abs(w.tp + w.fp + w.fn + w.tn - 1) < 1e-9
      ? 'Weighted counts are shares of the population (they sum to 1); unweighted counts are rows of the file.'
      : 'Weighted counts are sums of the row weights; unweighted counts are rows of the file.',
  );
}

/** The rows of `tables.rankingSummary`, by stored key, in display order. */
const RANKING_SUMMARY_ROWS: [string, string][] = [
  ['usersEvaluated', 'users evaluated'],
  ['usersSkipped', 'users of the run skipped (no relevant item)'],
  ['listsInRun', 'lists in the run'],
  ['longestList', 'longest list'],
  ['users', 'distinct users in the inputs'],
  ['items', 'distinct items in the inputs'],
  ['catalog', 'catalogue'],
  ['trainInteractions', 'train interactions'],
  ['popularitySource', 'item popularity of novelty and the popularity baseline (itemPopularity)'],
  ['relevance', 'relevance'],
  ['gain', 'gain of a graded relevance'],
  ['mapNormaliser', 'MAP normaliser'],
  ['maskSeen', 'seen items masked (maskSeen)'],
  ['seenItemsMasked', 'seen items dropped from the lists'],
  ['usersMasked', 'users whose list lost seen items'],
];

/** `tables.rankingSummary`: the counts behind a ranking run and the conventions it was computed with. */
export function rankingSummaryTable(value: unknown): TableModel | undefined {
  if (!isRecord(value)) return undefined;
  const rows: CellValue[][] = [];
  for (const [key, name] of RANKING_SUMMARY_ROWS) {
    const v = value[key];
    if (v === undefined) continue;
    if (v !== null && typeof v !== 'number' && typeof v !== 'string') return undefined;
    rows.push([name, v]);
  }
  // A key this list does not know stays visible, under its stored name; the sample of users is a
  // list (the user inspector's suggestions), not a quantity.
  for (const [key, v] of Object.entries(value)) {
    if (key === 'sampleUsers' || RANKING_SUMMARY_ROWS.some(([k]) => k === key)) continue;
    if (v !== null && typeof v !== 'number' && typeof v !== 'string') return undefined;
    rows.push([key, v]);
  }
  if (rows.length === 0) return undefined;
  return table(
    'table.rankingSummary',
    'Run summary',
    [
      ['quantity', 'text'],
      ['value', 'text'],
    ],
    rows,
  );
}
