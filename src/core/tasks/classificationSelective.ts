/**
 * The selective and calibration families of the classification task (docs/metrics/selective.md):
 * scores, acceptance, operating-point metrics, exact RC curve and AURC keys, 101-point grid
 * keys, Chow's cost sweep, the val/test protocol, ECE/MCE/adaptive ECE and the reliability bins.
 *
 * {@link prepareSelective} builds everything that does not depend on the rows' multiplicities (the
 * score order, groups, acceptance rule) once; {@link selectiveScalars} then gives every scalar of
 * both families for the full data (counts = null) or for a bootstrap resample (counts = the
 * resample's multiplicities per row), without sorting again.
 */
import { CONFIG_DEFAULTS } from '../config/types';
import { collectGarbage } from '../collectGarbage';
import { EvalLensError } from '../diagnostics';
import type { ClassificationData, ClassIndices } from '../data/classificationData';
import type { PreparedClassification } from '../metrics/classification';
import { deriveScores, rowScore } from '../metrics/scores';
import { binIndices, calibrationValues, reliabilityBins } from '../metrics/calibration';
import { costSweep, defaultCostGrid } from '../metrics/costSweep';
import { aurcGrid101, aurcValues, exactRiskCoverage, grid101Points, GRID_POINTS } from '../metrics/riskCoverage';
import { operatingPointColumns } from '../metrics/operatingPoints';
import {
  groupAnalysis,
  operatingPoint,
  targetCoverageEnd,
  thresholdEnd,
  type Acceptance,
  type OperatingPoint,
} from '../metrics/selective';
import { gatherCounts, sortRowsByScore, type Multiplicities, type SortedRows } from '../metrics/sortedRows';
import type { WalkTables } from '../metrics/walkTables';
import { sharedZeros } from '../stats/sharedArrays';
import {
  selectiveResampler,
  selectiveResampleValues,
  walkedItems,
  type PrefixAcceptance,
  type SelectiveResampler,
  type SelectiveResampleValues,
} from '../metrics/selectiveResample';
import type { OperatingPointRow, ResultCurves } from '../results/types';
import type {
  AcceptanceRule,
  ClassificationFamily,
  ClassificationRun,
  ClassificationStep,
  SelectiveSetup,
} from './classificationRun';
import type { TaskContext } from './types';
import { rowsPhrase } from './split';

export type { AcceptanceRule, SelectiveSetup } from './classificationRun';

/** The confidence score of each row the selective family ranks by, its kind and its name. */
function selectiveScores(
  data: ClassificationData,
  config: TaskContext['config'],
): { scores: Float64Array | null; scoreKind: SelectiveSetup['scoreKind']; scoreName: string } {
  if (data.scoreColumn)
    return { scores: data.scoreColumn, scoreKind: 'column', scoreName: `column "${data.scoreColumnName ?? 'score'}"` };
  if (!data.probTerms && !data.probs) return { scores: null, scoreKind: 'none', scoreName: '' };
  const kind = config.score ?? CONFIG_DEFAULTS.score;
  const scoreName =
    kind === 'msp'
      ? 'msp (max probability)'
      : kind === 'margin'
        ? 'margin (top-1 − top-2 probability)'
        : 'negative entropy of the probabilities';
  return { scores: deriveScores(data, kind), scoreKind: kind, scoreName };
}

/**
 * The threshold for `targetCoverage` c chosen on the validation rows of a split: the score of the
 * last row of the shortest top-scored prefix whose weighted coverage reaches c (ties included);
 * NaN when no validation row has positive weight.
 */
function validationThreshold(validation: ClassificationData, config: TaskContext['config'], c: number): number {
  const scores = selectiveScores(validation, config).scores ?? new Float64Array(validation.n);
  // correctness does not move the threshold; the order needs it only to be built
  const rows = sortRowsByScore(scores, new Uint8Array(validation.n), { weights: validation.weights });
  return targetCoverageEnd(rows, c).threshold;
}

/*
 * The per-row loops of prepareSelective are in small functions of arrays and numbers only: the
 * engine keeps their optimised code from one file to the next, whereas that of prepareSelective,
 * which reads the run's objects, was discarded after each full garbage collection, so loops in it
 * ran unoptimised again until recompiled in the middle of the call.
 */

/** `wrong[i]` = 1 when row i's prediction is not correct. */
function wrongFlags(correct: Uint8Array, n: number): Uint8Array {
  const wrong = new Uint8Array(n);
  for (let i = 0; i < n; i++) wrong[i] = correct[i] ? 0 : 1;
  return wrong;
}

/** The group of each row's true class. */
function groupsOfRows(groupOf: Int32Array, labels: ClassIndices, n: number): Int32Array {
  const groups = new Int32Array(n);
  for (let i = 0; i < n; i++) groups[i] = groupOf[labels[i]];
  return groups;
}

/**
 * Empties the labels, predictions and line numbers of the run's data and the correctness of its
 * prepared vectors, in place (ClassificationRun.rowsSpent; the bootstrap's too once its job is
 * made, classificationCi.ts); returns the bytes let go.
 */
export function releaseRows(run: ClassificationRun): number {
  const { data, prepared } = run;
  const bytes = data.labels.byteLength + data.preds.byteLength + data.lines.byteLength + prepared.correct.byteLength;
  data.labels = prepared.labels = new Uint8Array(0);
  data.preds = prepared.preds = new Uint8Array(0);
  data.lines = new Int32Array(0);
  prepared.correct = new Uint8Array(0);
  return bytes;
}

/** Builds the {@link SelectiveSetup}; null (with a warning) when the family cannot run at all. */
export function prepareSelective(run: ClassificationRun, ctx: TaskContext): SelectiveSetup | null {
  const { data } = run;
  const { config, warnings } = ctx;
  const cfgName = config.configFile ?? 'the config';
  const { scores, scoreKind, scoreName } = selectiveScores(data, config);
  if (!scores && !data.accept) {
    warnings.note(
      'no-scores',
      `${data.file}: no confidence scores (no class probabilities and no confidence/score/margin column) and no \`accept\` column, so the selective and calibration metrics are not computed.`,
    );
    return null;
  }
  const isProbability =
    scores !== null &&
    (scoreKind === 'msp' ||
      (scoreKind === 'column' && !/margin/i.test(data.scoreColumnName ?? '') && inUnitInterval(scores)));

  const wrong = wrongFlags(run.prepared.correct, data.n);
  let groups: Int32Array | null = null;
  let groupNames: string[] = [];
  if (run.groups) {
    groups = groupsOfRows(run.groups.groupOf, data.labels, data.n);
    groupNames = run.groups.names;
  }
  let reweight = false;
  let groupWeights: Float64Array | null = null;
  let groupTrainShare: Float64Array | null = null;
  if (config.reweight) {
    const share = run.longTail.trainWeight;
    if (!share || !groups) {
      warnings.note(
        'reweight-unavailable',
        `${cfgName}: \`reweight\` is on but ${share ? 'no `groups` are' : 'no train distribution (`trainCounts` / `classWeights`) is'} given, so error_group.<g> is not reweighted.`,
      );
    } else {
      reweight = true;
      groupWeights = new Float64Array(data.n);
      for (let i = 0; i < data.n; i++) groupWeights[i] = (data.weights ? data.weights[i] : 1) * share[data.labels[i]];
      // π_g = Σ_{c∈g} n_c / N_train: the weights of weighted_balanced_error
      groupTrainShare = new Float64Array(groupNames.length);
      share.forEach((q, c) => {
        const g = run.groups!.groupOf[c];
        if (g >= 0) groupTrainShare![g] += q;
      });
    }
  }
  const epsilon = config.reweightEpsilon ?? CONFIG_DEFAULTS.reweightEpsilon;
  // the flags and groups are made: what no later step reads is let go before the sort allocates
  if (run.rowsSpent === true) collectGarbage(ctx.collectGarbage === true, releaseRows(run));
  // With resamples to come, the sorted rows are made in shared memory, where the bootstrap's threads read them.
  const shared = (config.bootstrap?.n ?? 0) > 0;
  const allScores = scores ?? new Float64Array(data.n); // no scores: one tied block (operating point only)

  // acceptance rule
  let rule: AcceptanceRule = { kind: 'all' };
  let operatingPoints: AcceptanceRule[] | null = null;
  if (data.accept) {
    rule = { kind: 'column' };
    if (config.acceptThreshold !== undefined || config.targetCoverage !== undefined) {
      warnings.note(
        'accept-column-wins',
        `${data.file}: the \`accept\` column decides acceptance; \`acceptThreshold\` / \`targetCoverage\` in ${cfgName} are ignored.`,
      );
    }
  } else if (config.acceptThreshold !== undefined && scores) {
    rule = { kind: 'threshold', threshold: config.acceptThreshold };
  } else if (config.targetCoverage !== undefined && scores) {
    const list = Array.isArray(config.targetCoverage) ? config.targetCoverage : [config.targetCoverage];
    for (const c of list)
      if (!(typeof c === 'number' && c > 0 && c <= 1))
        throw new EvalLensError('invalid-config', `${cfgName}: \`targetCoverage\` must be in (0, 1], got ${c}.`, {
          file: cfgName,
          column: 'targetCoverage',
        });
    if (list.length === 0)
      throw new EvalLensError(
        'invalid-config',
        `${cfgName}: \`targetCoverage\` must be a number or a non-empty list.`,
        {
          file: cfgName,
          column: 'targetCoverage',
        },
      );
    const val = run.validation;
    if (!(val && val.n > 0) && run.split)
      warnings.note(
        'split-protocol-unavailable',
        `${data.file}: the split has no validation rows, so the threshold for \`targetCoverage\` is chosen on the rows it is measured on.`,
      );
    const ruleOf = (c: number): AcceptanceRule =>
      val && val.n > 0
        ? { kind: 'split-target', target: c, threshold: validationThreshold(val, config, c), valRows: val.n }
        : { kind: 'target', target: c };
    operatingPoints = Array.isArray(config.targetCoverage) ? list.map(ruleOf) : null;
    rule = operatingPoints ? operatingPoints[0]! : ruleOf(list[0]!);
  } else if ((config.acceptThreshold !== undefined || config.targetCoverage !== undefined) && !scores) {
    warnings.note(
      'no-scores',
      `${data.file}: \`acceptThreshold\` / \`targetCoverage\` need confidence scores, which this file does not have; every row is accepted.`,
    );
  }
  // The scores derived while reading are sorted in their own memory when nothing reads them in
  // row order afterwards (ClassificationRun.scoresSpent); the data then holds none.
  const terms = data.probTerms;
  const spend = run.scoresSpent === true && terms !== null && scores === terms.score;
  const rows = sortRowsByScore(allScores, wrong, {
    groups,
    nGroups: groupNames.length,
    weights: data.weights,
    groupWeights,
    shared,
    consumeScores: spend,
    collect: (bytes) => collectGarbage(ctx.collectGarbage === true, bytes),
  });
  // in place, as releaseRows empties the rows: a copy of the data object would leave the caller's
  // (the runner's) holding every per-row array that a later step lets go of through `run.data`
  if (spend) data.probTerms = { ...terms, score: new Float64Array(0) };
  let mask: Uint8Array | null = null;
  if (rule.kind === 'column') {
    mask = new Uint8Array(rows.n);
    for (let p = 0; p < rows.n; p++) mask[p] = data.accept![rows.rowIndex[p]];
  }

  let calib: SelectiveSetup['calib'] = null;
  const B = config.eceBins ?? CONFIG_DEFAULTS.eceBins;
  if (!Number.isInteger(B) || B < 1)
    throw new EvalLensError('invalid-config', `${cfgName}: \`eceBins\` must be a positive integer, got ${B}.`, {
      file: cfgName,
      column: 'eceBins',
    });
  const confidence = scores && !isProbability ? topLabelConfidence(run.data) : null;
  // the bins in shared memory too with resamples to come (no ordinary copy left to the collector)
  const binsOf = (r: SortedRows): Int32Array => binIndices(r, B, shared ? sharedZeros(Int32Array, r.n) : undefined);
  if (scores && isProbability) {
    calib = { rows, bins: binsOf(rows), B, scoreName };
  } else if (confidence) {
    // Ranked by a margin (or entropy): calibration is a property of the probabilities, so ECE,
    // MCE and the reliability bins use the top-label probability of the same rows.
    const cRows = sortRowsByScore(confidence, wrong, { weights: data.weights, shared });
    calib = {
      rows: cRows,
      bins: binsOf(cRows),
      B,
      scoreName: `msp (max probability, the top-label confidence; the risk–coverage ranking uses ${scoreName})`,
    };
  } else if (scores) {
    warnings.note(
      'calibration-skipped',
      `${data.file}: the score used (${scoreName}) is not a probability, so ece, mce and ece_adaptive are not computed. Calibration needs the top-label probability (score "msp", or a confidence column with values in [0, 1]).`,
    );
  }
  return {
    scoreKind,
    scoreName,
    isProbability,
    rows,
    rule,
    operatingPoints,
    mask,
    groupNames,
    reweight,
    groupTrainShare,
    epsilon,
    ranked: scores !== null,
    calib,
  };
}

/**
 * The top-label probability max_c p_c of each row (the confidence calibration is about), when the
 * file has class probabilities: from the terms computed while reading when their score is `msp`,
 * else from the kept probability matrix; null without probabilities.
 */
function topLabelConfidence(data: ClassificationData): Float64Array | null {
  if (data.probTerms?.scoreKind === 'msp') return data.probTerms.score;
  const P = data.probs;
  if (!P) return null;
  const C = data.classes.length;
  const out = new Float64Array(data.n);
  for (let i = 0; i < data.n; i++) out[i] = rowScore(P, i * C, C, 'msp');
  return out;
}

/**
 * The frequency-weighted balanced risk Σ_g π_g·e_g / Σ_g π_g: the group errors weighted by the
 * groups' train shares π_g (NaN when a group with π_g > 0 has an undefined error).
 *
 * @example e = [0.4, 0.6], π = [0.99, 0.01] → 0.99·0.4 + 0.01·0.6 = 0.402
 */
export function trainWeightedMean(groupError: ArrayLike<number>, share: ArrayLike<number>): number {
  let num = 0;
  let den = 0;
  for (let g = 0; g < share.length; g++) {
    if (!(share[g] > 0)) continue;
    num += share[g] * groupError[g];
    den += share[g];
  }
  return den > 0 ? num / den : NaN;
}

function inUnitInterval(s: Float64Array): boolean {
  for (let i = 0; i < s.length; i++) if (!(s[i] >= 0 && s[i] <= 1)) return false;
  return true;
}

/** Scratch buffers reused across bootstrap resamples. */
export interface SelectiveScratch {
  mult: Float64Array;
  /** The multiplicities in the calibration order, when it is not the score order (else null). */
  calibMult: Float64Array | null;
}

export function selectiveScratch(s: SelectiveSetup): SelectiveScratch {
  const calibMult = s.calib && s.calib.rows !== s.rows ? new Float64Array(s.calib.rows.n) : null;
  return { mult: new Float64Array(s.rows.n), calibMult };
}

/**
 * The parts of the selective pass, each computed only when asked for: the acceptance's operating
 * point (coverage, selective risk, the group errors, the `operatingPoints` values), the exact AURC
 * keys, the 101-point grid keys, and calibration (ECE, MCE, adaptive ECE). The whole evaluation and
 * its bootstrap ask for all; a slice table for the parts its keys come from.
 */
export interface SelectiveParts {
  operatingPoint: boolean;
  aurc: boolean;
  grid: boolean;
  calibration: boolean;
}

const ALL_PARTS: SelectiveParts = { operatingPoint: true, aurc: true, grid: true, calibration: true };

/** The part of the selective pass that gives `key`, or null when the pass gives no such key. */
function partOf(key: string): keyof SelectiveParts | null {
  if (isCalibrationKey(key)) return 'calibration';
  if (key.includes('_grid101')) return 'grid';
  if (key === 'aurc' || key === 'eaurc' || key === 'aurc_balanced' || key === 'aurc_worst') return 'aurc';
  if (
    key === 'coverage' ||
    key === 'selective_risk' ||
    key === 'balanced_error' ||
    key === 'worst_error' ||
    key === 'weighted_balanced_error' ||
    key.startsWith('error_group.') ||
    key.startsWith(OPERATING_POINT_PREFIX)
  )
    return 'operatingPoint';
  return null;
}

/**
 * The parts of the selective pass that give `keys`. A key the pass does not give is taken for a
 * value derived from the pass's (a family's own statistic over them) and asks for every part, so
 * a caller leaves out the keys it knows to come from elsewhere.
 */
export function selectivePartsFor(keys: readonly string[]): SelectiveParts {
  const parts: SelectiveParts = { operatingPoint: false, aurc: false, grid: false, calibration: false };
  for (const key of keys) {
    const part = partOf(key);
    if (part === null) return ALL_PARTS;
    parts[part] = true;
  }
  return parts;
}

/**
 * The acceptance under multiplicities `mult` (re-chosen per resample for `targetCoverage`; with a
 * validation/test split the threshold stays the one chosen on the validation rows).
 */
export function acceptanceFor(
  s: SelectiveSetup,
  mult: Multiplicities | null,
  r: AcceptanceRule = s.rule,
): { acc: Acceptance; threshold: number | null } {
  switch (r.kind) {
    case 'column':
      return { acc: { kind: 'mask', mask: s.mask! }, threshold: null };
    case 'threshold':
      return { acc: { kind: 'prefix', end: thresholdEnd(s.rows, r.threshold) }, threshold: r.threshold };
    case 'target': {
      const t = targetCoverageEnd(s.rows, r.target, mult);
      return { acc: { kind: 'prefix', end: t.end }, threshold: t.threshold };
    }
    case 'split-target':
      return {
        acc: { kind: 'prefix', end: Number.isNaN(r.threshold) ? 0 : thresholdEnd(s.rows, r.threshold) },
        threshold: r.threshold,
      };
    case 'all':
      return { acc: { kind: 'prefix', end: s.rows.n }, threshold: null };
  }
}

/**
 * Every scalar of the selective and calibration families, keyed as the stable metric keys of src/core/glossary, for the
 * full data (`counts` null) or a resample (`counts[i]` = multiplicity of row i, file order); with
 * `parts`, only the keys of those parts. Undefined values are NaN. O(n·G) per call.
 */
export function selectiveScalars(
  s: SelectiveSetup,
  counts: ArrayLike<number> | null,
  scratch?: SelectiveScratch,
  parts: SelectiveParts = ALL_PARTS,
): Record<string, number> {
  const sc = counts ? (scratch ?? selectiveScratch(s)) : null;
  const scoreOrder = parts.operatingPoint || parts.aurc || parts.grid;
  const mult = sc && scoreOrder ? gatherCounts(s.rows, counts!, sc.mult) : null;
  const calibMult =
    !s.calib || !sc || !parts.calibration
      ? mult
      : s.calib.rows === s.rows
        ? (mult ?? gatherCounts(s.rows, counts!, sc.mult))
        : gatherCounts(s.calib.rows, counts!, sc.calibMult!);
  return scalarsOf(s, mult, s.calib ? calibMult : null, parts);
}

/**
 * Whether {@link selectiveScalarsSorted} applies: the selective rows are every row and one score
 * order serves the selective and calibration metrics.
 */
export function sortedResamplingApplies(s: SelectiveSetup, nRows: number): boolean {
  return s.rows.n === nRows && (s.calib === null || s.calib.rows === s.rows);
}

/**
 * {@link selectiveScalars} of a resample whose multiplicities are already in the score order of
 * `s.rows` (`mult[p]` = multiplicity of sorted position p), as the fast bootstrap draws them: no
 * gather. Needs {@link sortedResamplingApplies}.
 */
export function selectiveScalarsSorted(
  s: SelectiveSetup,
  mult: Int32Array,
  resampler: SelectiveResampler | null = null,
  items?: number,
): Record<string, number> {
  if (!resampler) return scalarsOf(s, mult, s.calib ? mult : null);
  const out = selectiveScalarsOfValues(s, selectiveResampleValues(resampler, mult, items));
  // the one-pass walk serves the first operating point; the others are computed on their own
  return s.operatingPoints ? Object.assign(out, operatingPointValues(s, mult)) : out;
}

/**
 * {@link selectiveScalarsSorted} from byte multiplicities (a Uint8Array in the score order of
 * `s.rows`, each count modulo 256; see metrics/selectiveResample.ts), through `resampler`, whose
 * walk takes bytes without sample weights; `items` = the resample size. Null when the counts add up
 * to less than that: a count of 256 or more wrapped around (the caller computes that resample
 * with Int32 multiplicities).
 */
export function selectiveScalarsSortedBytes(
  s: SelectiveSetup,
  mult: Uint8Array,
  resampler: SelectiveResampler,
  items: number,
): Record<string, number> | null {
  const v = selectiveResampleValues(resampler, mult, items);
  return walkedItems(resampler) === items ? selectiveScalarsOfValues(s, v) : null;
}

/** The selective and calibration keys of `s` from one resample's values. */
function selectiveScalarsOfValues(s: SelectiveSetup, v: SelectiveResampleValues): Record<string, number> {
  const out: Record<string, number> = { coverage: v.coverage, selective_risk: v.risk };
  const G = s.groupNames.length;
  if (G > 0) {
    s.groupNames.forEach((g, gi) => (out[`error_group.${g}`] = v.groupError[gi]));
    out.balanced_error = v.balanced;
    out.worst_error = v.worst;
  }
  out.aurc = v.aurc;
  out.eaurc = v.eaurc;
  out.aurc_grid101 = v.grid;
  out['aurc_grid101_0.2_1'] = v.grid02;
  if (G > 0) {
    out.aurc_balanced = v.aurcBalanced;
    out.aurc_worst = v.aurcWorst;
    out.aurc_balanced_grid101 = v.gridBalanced;
    out['aurc_balanced_grid101_0.2_1'] = v.gridBalanced02;
    out.aurc_worst_grid101 = v.gridWorst;
    out['aurc_worst_grid101_0.2_1'] = v.gridWorst02;
  }
  if (s.calib) {
    out.ece = v.ece;
    out.mce = v.mce;
    out.ece_adaptive = v.eceAdaptive;
  }
  return out;
}

/**
 * The acceptance of the one-pass walk of this setup (a prefix of the sorted rows), or null when the
 * walk does not apply: see {@link selectiveResamplerFor}.
 */
export function walkAcceptance(s: SelectiveSetup): PrefixAcceptance | null {
  if (!s.ranked || s.reweight || (s.calib !== null && s.calib.rows !== s.rows)) return null;
  const r = s.rule;
  if (r.kind === 'all') return { kind: 'end', end: s.rows.n };
  if (r.kind === 'threshold') return { kind: 'end', end: thresholdEnd(s.rows, r.threshold) };
  if (r.kind === 'split-target')
    return { kind: 'end', end: Number.isNaN(r.threshold) ? 0 : thresholdEnd(s.rows, r.threshold) };
  if (r.kind === 'target') return { kind: 'target', target: r.target };
  return null;
}

/**
 * The one-pass resampler (metrics/selectiveResample.ts) for this setup, or null when it does not
 * apply (no scores, an `accept` column, `reweight`, or the val/test protocol): then
 * {@link selectiveScalarsSorted} runs the separate metric functions. With `classSums` (the
 * classification rows in the same order, no weight column) its walk also gathers their sums, from
 * `clsTables` when given (metrics/selectiveResample.ts `classTablesInOrder`). The walk reads the
 * setup's ECE bins (`calib.bins`, the rows' own) instead of making its own.
 */
export function selectiveResamplerFor(
  s: SelectiveSetup,
  classSums: PreparedClassification | null = null,
  clsTables: WalkTables['cls'] = null,
): SelectiveResampler | null {
  const accept = walkAcceptance(s);
  if (accept === null) return null;
  return selectiveResampler(
    s.rows,
    accept,
    s.calib ? { B: s.calib.B, bins: s.calib.bins } : null,
    classSums,
    clsTables,
  );
}

function scalarsOf(
  s: SelectiveSetup,
  mult: Multiplicities | null,
  calibMult: Multiplicities | null,
  parts: SelectiveParts = ALL_PARTS,
): Record<string, number> {
  const out: Record<string, number> = {};
  const G = s.groupNames.length;
  if (parts.operatingPoint) {
    const { acc } = acceptanceFor(s, mult);
    const op = operatingPoint(s.rows, acc, mult, { reweight: s.reweight, epsilon: s.epsilon });
    out.coverage = op.coverage;
    out.selective_risk = op.risk;
    if (G > 0) {
      s.groupNames.forEach((g, gi) => (out[`error_group.${g}`] = op.groupError[gi]));
      out.balanced_error = op.balanced;
      out.worst_error = op.worst;
      if (s.groupTrainShare) out.weighted_balanced_error = trainWeightedMean(op.groupError, s.groupTrainShare);
    }
    if (s.operatingPoints) Object.assign(out, operatingPointValues(s, mult));
  }
  if (s.ranked && parts.aurc) {
    const a = aurcValues(s.rows, mult);
    out.aurc = a.aurc;
    out.eaurc = a.eaurc;
    if (G > 0) {
      out.aurc_balanced = a.aurcBalanced;
      out.aurc_worst = a.aurcWorst;
    }
  }
  if (s.ranked && parts.grid) {
    const g = aurcGrid101(s.rows, mult);
    const put = (k: string, v: number | undefined) => (out[k] = g ? (v as number) : NaN);
    put('aurc_grid101', g?.standard);
    put('aurc_grid101_0.2_1', g?.standardFrom02);
    if (G > 0) {
      put('aurc_balanced_grid101', g?.balanced);
      put('aurc_balanced_grid101_0.2_1', g?.balancedFrom02);
      put('aurc_worst_grid101', g?.worst);
      put('aurc_worst_grid101_0.2_1', g?.worstFrom02);
    }
  }
  if (s.calib && parts.calibration) {
    const c = calibrationValues(s.calib.rows, s.calib.B, calibMult, s.calib.bins);
    out.ece = c.ece;
    out.mce = c.mce;
    out.ece_adaptive = c.eceAdaptive;
  }
  return out;
}

/** Prefix of the internal values of operating point i (bootstrap only, never a metric key). */
export const OPERATING_POINT_PREFIX = 'operatingPoints.';

/**
 * The values of every operating point of a `targetCoverage` list under multiplicities `mult`, keyed
 * `operatingPoints.<i>.<field>` (threshold, coverage, selective_risk, error_group.<g>,
 * balanced_error, worst_error): the thresholds re-chosen per resample as for the single point,
 * fixed with a validation/test split. Empty without a list.
 */
export function operatingPointValues(s: SelectiveSetup, mult: Multiplicities | null): Record<string, number> {
  const out: Record<string, number> = {};
  (s.operatingPoints ?? []).forEach((rule, i) => {
    const p = `${OPERATING_POINT_PREFIX}${i}.`;
    const { acc, threshold } = acceptanceFor(s, mult, rule);
    const op = operatingPoint(s.rows, acc, mult, { reweight: s.reweight, epsilon: s.epsilon });
    out[`${p}threshold`] = threshold ?? NaN;
    out[`${p}coverage`] = op.coverage;
    out[`${p}selective_risk`] = op.risk;
    if (s.groupNames.length > 0) {
      s.groupNames.forEach((g, gi) => (out[`${p}error_group.${g}`] = op.groupError[gi]!));
      out[`${p}balanced_error`] = op.balanced;
      out[`${p}worst_error`] = op.worst;
    }
  });
  return out;
}

/** The rows of `tables.operatingPoints` from the full data's {@link operatingPointValues} (no intervals yet). */
function operatingPointRows(s: SelectiveSetup): OperatingPointRow[] {
  const v = operatingPointValues(s, null);
  return (s.operatingPoints ?? []).map((rule, i) => {
    const p = `${OPERATING_POINT_PREFIX}${i}.`;
    const row: OperatingPointRow = {
      targetCoverage: rule.kind === 'target' || rule.kind === 'split-target' ? rule.target : NaN,
      threshold: nul(v[`${p}threshold`]!),
      coverage: nul(v[`${p}coverage`]!),
      selective_risk: nul(v[`${p}selective_risk`]!),
      thresholdOn: rule.kind === 'split-target' ? 'validation' : 'evaluated',
      ci: {},
    };
    if (s.groupNames.length > 0) {
      row.balanced_error = nul(v[`${p}balanced_error`]!);
      row.worst_error = nul(v[`${p}worst_error`]!);
      row.error_group = Object.fromEntries(s.groupNames.map((g) => [g, nul(v[`${p}error_group.${g}`]!)]));
    }
    return row;
  });
}

/** Largest number of points stored per curve in the results (the metrics use every point). */
export const MAX_CURVE_POINTS = 2001;

function thin(len: number): number[] {
  if (len <= MAX_CURVE_POINTS) return Array.from({ length: len }, (_, i) => i);
  return Array.from({ length: MAX_CURVE_POINTS }, (_, k) => Math.round((k * (len - 1)) / (MAX_CURVE_POINTS - 1)));
}

/** {@link thin}, plus point `extra` (the configured operating point) when it was thinned out. */
function keptPoints(len: number, extra: number): number[] {
  const k = thin(len);
  if (extra < 0 || extra >= len || k.length === len) return k;
  const at = k.findIndex((i) => i >= extra);
  if (k[at] !== extra) k.splice(at < 0 ? k.length : at, 0, extra);
  return k;
}

/** Index of the curve point (tied block) whose acceptance is the prefix `end`; -1 for none. */
function pointOfPrefix(rows: SortedRows, end: number): number {
  const bs = rows.blockStart;
  let lo = 1;
  let hi = bs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (bs[mid] < end) lo = mid + 1;
    else hi = mid;
  }
  return end > 0 && bs[lo] === end ? lo - 1 : -1;
}

const nul = (x: number): number | null => (Number.isFinite(x) ? x : null);

/**
 * A threshold as a note shows it: six significant digits, so that a score read from text prints as
 * written (0.427094, not 0.42709400000000003); the exact value is in the results' curve.
 */
const thresholdText = (t: number | null): string => (t === null ? '—' : String(Number(t.toPrecision(6))));

function describeRule(s: SelectiveSetup, threshold: number | null, ctx: TaskContext): string {
  const r = s.rule;
  switch (r.kind) {
    case 'column':
      return 'accepted rows from the `accept` column';
    case 'threshold':
      return `accept score ≥ ${r.threshold} (acceptThreshold)`;
    case 'target':
      return `targetCoverage ${r.target}: t = ${thresholdText(threshold)} (score of the last row of the shortest prefix reaching it; ties at t accepted)`;
    case 'split-target':
      return `validation/test protocol: t = ${thresholdText(threshold)} chosen for targetCoverage ${r.target} on the ${r.valRows} validation rows (ties at t accepted)${ctx.config.bootstrap.n > 0 ? ', kept fixed over the bootstrap resamples' : ''}`;
    case 'all':
      return 'every row accepted (no accept column, acceptThreshold or targetCoverage)';
  }
}

/**
 * What the selective point step hands its tables step (null when the family is not computed): the
 * acceptance at the operating point and its group errors, which the group table and the curves
 * read, and the clauses of the notes the AURC keys and the curves share.
 */
interface SelectiveDrawn {
  acc: Acceptance;
  op: OperatingPoint;
  /** `score: …` or `no scores`, as the notes of AURC and the risk–coverage curve say it. */
  scoreNote: string;
  /** The rows measured, with a split; empty without. */
  where: string;
  /**
   * With `reweight`: the clause that says the AURC keys and the curves weigh every row by its sample
   * weight alone (the protocol reweights the group errors at the operating point only); else empty.
   */
  notReweighted: string;
}

/**
 * The selective family's point step: the operating point (coverage, selective risk, the group
 * errors), the AURC keys and the grid keys. Its tables step ({@link selectiveTables}) writes the
 * group table, the operating points, the scores used and the curves.
 */
const selectivePoint = (run: ClassificationRun, ctx: TaskContext): SelectiveDrawn | null => {
  const s = ctx.results.time('selective.prepare', () => prepareSelective(run, ctx));
  run.selective = s;
  if (!s) return null;
  // The sort gave back its keys and its second order itself (SortRowsOptions.collect); what is left
  // is the flags in row order (1 byte a row) and the groups (4 bytes a row, with groups): given
  // back before the curves (the tables step, next) allocate theirs when they are large enough.
  collectGarbage(ctx.collectGarbage === true, (s.rows.nGroups > 0 ? 5 : 1) * s.rows.n);
  const { results, warnings } = ctx;
  const file = run.data.file;
  const { acc, threshold } = acceptanceFor(s, null);
  const op = operatingPoint(s.rows, acc, null, { reweight: s.reweight, epsilon: s.epsilon });
  const v = selectiveScalars(s, null);
  const rowsNote = `; ${describeRule(s, threshold, ctx)}; ${rowsPhrase(run.split, s.rows.n)}`;
  const scoreNote = s.ranked ? `score: ${s.scoreName}` : 'no scores';
  results.metric('selective', 'coverage', v.coverage, { note: `Σw·A / Σw${rowsNote}` });
  if (!Number.isFinite(v.selective_risk))
    warnings.note(
      'nothing-accepted',
      `${file}: no row is accepted (${describeRule(s, threshold, ctx)}), so selective_risk is undefined (null).`,
    );
  results.metric('selective', 'selective_risk', v.selective_risk, { note: `Σw·A·1[ŷ≠y] / Σw·A${rowsNote}` });
  const G = s.groupNames.length;
  if (G > 0) {
    const how = s.reweight
      ? `e_g(w^trn), the error weighted by train class frequency (w = w_i·n_y/N_train, ε = ${s.epsilon})`
      : 'error on the accepted rows whose true class is in the group';
    for (const gi of op.emptyGroups)
      warnings.note(
        'empty-group',
        `error_group.${s.groupNames[gi]}: group "${s.groupNames[gi]}" has no accepted row; its error is 1.0 by convention (nothing accepted counts as a total failure), which also enters balanced_error and worst_error.`,
      );
    s.groupNames.forEach((g, gi) => {
      const key = `error_group.${g}`;
      if (!Number.isFinite(v[key]))
        warnings.note(
          'empty-group',
          `${key}: every accepted row of group "${g}" has train share 0; the value is null.`,
        );
      results.metric('selective', key, v[key], {
        note: `${how}${op.emptyGroups.includes(gi) ? '; no accepted row: 1.0 by convention' : ''}${rowsNote}`,
      });
    });
    results.metric('selective', 'balanced_error', v.balanced_error, {
      note: `mean of error_group over ${G} groups (plain mean)${rowsNote}`,
    });
    results.metric('selective', 'worst_error', v.worst_error, {
      note: `max of error_group over ${G} groups${rowsNote}. A max is a biased statistic: its bootstrap percentile interval may not contain the point estimate.`,
    });
    if (s.reweight) {
      const pi = Array.from(s.groupTrainShare!, (q, gi) => `π_${s.groupNames[gi]} = ${Number(q.toPrecision(4))}`);
      results.metric('selective', 'weighted_balanced_error', v.weighted_balanced_error, {
        note: `Σ_g π_g·e_g(w^trn) / Σ_g π_g, π_g = the group's train share (${pi.join(', ')})${rowsNote}`,
      });
    }
  }
  const where = run.split ? `; ${rowsPhrase(run.split, s.rows.n)}` : '';
  // The protocol reweights the group errors at the operating point only: the AURC keys and the
  // curves weigh every row by its sample weight alone, which each of their notes says.
  const notReweighted = s.reweight
    ? '; not reweighted: every row counts with its sample weight (`reweight` applies to error_group, balanced_error, worst_error and weighted_balanced_error at the operating point only)'
    : '';
  const drawn: SelectiveDrawn = { acc, op, scoreNote, where, notReweighted };
  if (!s.ranked) return drawn;
  results.metric('selective', 'aurc', v.aurc, {
    note: `mean over k = 1..n of the risk of the top-k by score, fractional counts inside tied blocks; ${scoreNote}${where}${notReweighted}`,
  });
  results.metric('selective', 'eaurc', v.eaurc, {
    note: `aurc − aurc*, aurc* = the AURC of an order with every correct row first${where}${notReweighted}`,
  });
  if (G > 0) {
    results.metric('selective', 'aurc_balanced', v.aurc_balanced, {
      note: `as aurc, with the balanced risk from fractional group counts (empty group: 1.0)${where}${notReweighted}`,
    });
    results.metric('selective', 'aurc_worst', v.aurc_worst, {
      note: `as aurc, with the worst-group risk from fractional group counts (empty group: 1.0)${where}${notReweighted}`,
    });
  }
  const gridKeys = [
    'aurc_grid101',
    'aurc_grid101_0.2_1',
    ...(G > 0
      ? ['aurc_balanced_grid101', 'aurc_balanced_grid101_0.2_1', 'aurc_worst_grid101', 'aurc_worst_grid101_0.2_1']
      : []),
  ];
  if (s.rows.n < GRID_POINTS) {
    warnings.note(
      'grid-too-few-rows',
      `${file}: the 101-point grid keys (*_grid101) need at least ${GRID_POINTS} rows (with fewer, the first grid points accept no row); there are ${s.rows.n}, so they are null.`,
    );
  }
  for (const k of gridKeys) {
    const from02 = k.endsWith('_0.2_1');
    results.metric('selective', k, v[k], {
      note: `101 evenly spaced coverages (the first ⌊n·i/101⌋ rows of a stable descending sort), trapezoid rule${from02 ? ' over coverage 0.2–1, divided by 0.8' : ''}${where}${notReweighted}`,
    });
  }
  return drawn;
};

/**
 * The selective family's tables step: the group table (with `reweight`, the uniform and the
 * reweighted group errors side by side), the operating points of a `targetCoverage` list, the
 * scores used, and, when the rows are ranked, the risk–coverage curve, its 101-point grid and
 * Chow's cost sweep.
 */
const selectiveTables = (run: ClassificationRun, ctx: TaskContext, drawn: SelectiveDrawn | null): void => {
  const s = run.selective;
  if (!s || !drawn) return;
  const { results, config } = ctx;
  const { acc, op, scoreNote, where, notReweighted } = drawn;
  const G = s.groupNames.length;
  if (G > 0) {
    const groups = groupAnalysis(s.rows, acc, s.groupNames, op.groupError, s.ranked);
    if (s.reweight) {
      // the uniform (every row weight w_i) and the reweighted group errors side by side
      const uniform = operatingPoint(s.rows, acc, null, { reweight: false, epsilon: s.epsilon });
      groups.forEach((r, gi) => {
        r.errorUniform = nul(uniform.groupError[gi]);
        r.errorReweighted = nul(op.groupError[gi]);
      });
    }
    results.table('groupAnalysis', groups);
  }
  if (s.operatingPoints) results.table('operatingPoints', operatingPointRows(s));
  if (!s.ranked) return;
  // which score each family used: the ranking (risk–coverage, AURC) and the calibration confidence
  results.table('scoresUsed', { selective: s.scoreName, calibration: s.calib ? s.calib.scoreName : null });
  results.time('selective.curves', () => {
    // One point per tied block; only the points stored are computed (c and opc hold those, in order).
    const nb = s.rows.blockStart.length - 1;
    const points = keptPoints(nb, acc.kind === 'prefix' ? pointOfPrefix(s.rows, acc.end) : -1);
    const c = exactRiskCoverage(s.rows, null, points);
    // ECE of the accepted rows only when the ranking score is the calibrated confidence
    const opc = operatingPointColumns(s.rows, s.calib && s.isProbability ? s.calib.B : null, points);
    const keep = points.map((_, j) => j).filter((j) => Number.isFinite(c.risk[j]));
    const stored =
      keep.length < nb
        ? `; ${keep.length} of its ${nb} points are stored (evenly spaced by index, plus the configured operating point), each exact`
        : '';
    const curve: ResultCurves['riskCoverage'] = {
      x: 'coverage',
      y: 'risk',
      xs: keep.map((i) => c.coverage[i]),
      ys: keep.map((i) => c.risk[i]),
      extra: { threshold: keep.map((i) => c.threshold[i]), accepted: keep.map((i) => opc.accepted[i]) },
      note: `exact curve: one point per distinct score (ties enter together), accept score ≥ threshold; accepted = rows with score ≥ threshold${opc.ece ? `; ece_accepted = ECE of the accepted rows (${s.calib!.B} equal-width bins, as ece)` : ''}; ${scoreNote}${where}${stored}${notReweighted}`,
    };
    if (G > 0) {
      curve.extra!.risk_balanced = keep.map((i) => nul(c.riskBalanced[i]));
      curve.extra!.risk_worst = keep.map((i) => nul(c.riskWorst[i]));
      s.groupNames.forEach(
        (g, gi) => (curve.extra![`error_group.${g}`] = keep.map((i) => nul(opc.groupError[gi]![i]!))),
      );
    }
    if (opc.ece) curve.extra!.ece_accepted = keep.map((i) => nul(opc.ece![i]!));
    results.curve('riskCoverage', curve);
    const gp = grid101Points(s.rows);
    if (gp) {
      const grid: ResultCurves['riskCoverageGrid101'] = {
        x: 'coverage',
        y: 'risk',
        xs: Array.from(gp.xs),
        ys: Array.from(gp.rStd, nul) as number[],
        extra: { accepted: Array.from(gp.accepted) },
        note: `the ${GRID_POINTS} points of the *_grid101 keys: point i accepts the first ⌊n·i/${GRID_POINTS}⌋ rows of a stable descending sort by score (ties in file order); accepted = rows accepted; a group with no accepted row has error 1.0; ${scoreNote}${where}`,
      };
      if (G > 0) {
        grid.extra!.risk_balanced = Array.from(gp.rBal, nul);
        grid.extra!.risk_worst = Array.from(gp.rWorst, nul);
      }
      results.curve('riskCoverageGrid101', grid);
    }
    const grid = config.costGrid ?? defaultCostGrid();
    const bad = grid.find((c) => !(typeof c === 'number' && c >= 0 && c <= 1));
    if (bad !== undefined || grid.length === 0) {
      const cfgName = config.configFile ?? 'the config';
      throw new EvalLensError(
        'invalid-config',
        `${cfgName}: \`costGrid\` must be a non-empty list of costs in [0, 1], got ${bad === undefined ? '[]' : JSON.stringify(bad)}.`,
        { file: cfgName, column: 'costGrid' },
      );
    }
    const sw = costSweep(s.rows, grid, { probability: s.isProbability });
    const sweep: ResultCurves['costSweep'] = {
      x: 'rejection cost',
      y: 'coverage',
      xs: Array.from(sw.cost),
      ys: Array.from(sw.coverage),
      extra: {
        threshold: Array.from(sw.threshold, nul),
        risk: Array.from(sw.risk, nul),
        loss: Array.from(sw.loss, nul),
      },
      note: s.isProbability
        ? `Chow's rule: accept score ≥ 1 − c; loss = (errors + c·rejected)/n${where}${notReweighted}`
        : `score is not a probability: accept score ≥ s_max − c·(s_max − s_min) (the grid spans the score range); loss = (errors + c·rejected)/n${where}${notReweighted}`,
    };
    if (G > 0) {
      sweep.extra!.risk_balanced = Array.from(sw.riskBalanced, nul);
      sweep.extra!.risk_worst = Array.from(sw.riskWorst, nul);
    }
    results.curve('costSweep', sweep);
  });
};

/** The calibration family step (needs the selective family's point step first: the calibration order is its setup's). */
export const calibrationStep: ClassificationStep = (run, ctx) => {
  const s = run.selective;
  if (!s?.calib) return;
  const { results, warnings } = ctx;
  const { B, rows } = s.calib;
  const c = calibrationValues(rows, B, null, s.calib.bins);
  const v = { ece: c.ece, mce: c.mce, ece_adaptive: c.eceAdaptive };
  const which = binsPhrase(run, s.calib);
  results.metric('calibration', 'ece', v.ece, { note: which });
  if (!Number.isFinite(v.mce))
    warnings.note(
      'calibration-empty',
      `${run.data.file}: every confidence is 0, so every calibration bin is empty and mce is null.`,
    );
  results.metric('calibration', 'mce', v.mce, { note: `max |acc − conf| over non-empty bins; ${which}` });
  results.metric('calibration', 'ece_adaptive', v.ece_adaptive, {
    note: `${B} equal-count chunks of the stable ascending sort by confidence (sizes differ by at most one, the first n mod ${B} larger); ${rowsPhrase(run.split, rows.n)}`,
  });
};

/** The calibration bins and the rows they are over, as the notes of ECE and the reliability diagram say them. */
function binsPhrase(run: ClassificationRun, calib: NonNullable<SelectiveSetup['calib']>): string {
  return `${calib.B} equal-width bins (lo, hi], an edge value in the lower bin, confidence 0 in no bin but counted in n; confidence = ${calib.scoreName}; ${rowsPhrase(run.split, calib.rows.n)}`;
}

/** The calibration family's tables step: the reliability diagram, as a table and as a curve of its non-empty bins. */
const reliabilityStep: ClassificationStep = (run, { results }) => {
  const calib = run.selective?.calib;
  if (!calib) return;
  const which = binsPhrase(run, calib);
  const bins = reliabilityBins(calib.rows, calib.B);
  results.table('reliability', bins);
  const ne = bins.filter((b) => b.count > 0 && b.accuracy !== null);
  results.curve('reliability', {
    x: 'confidence',
    y: 'accuracy',
    xs: ne.map((b) => b.confidence!),
    ys: ne.map((b) => b.accuracy!),
    extra: { count: ne.map((b) => b.count), lo: ne.map((b) => b.lo), hi: ne.map((b) => b.hi) },
    note: `non-empty bins of the reliability diagram (${which})`,
  });
};

/** The keys of the selective pass that belong to the calibration family (the rest are the selective family's). */
const CALIBRATION_KEYS = ['ece', 'mce', 'ece_adaptive'] as const;
const isCalibrationKey = (k: string): boolean => (CALIBRATION_KEYS as readonly string[]).includes(k);

/**
 * The `selective` family: its statistic of a resample is the resample's selective pass (shared with
 * calibration: both come from one walk down the score order, {@link selectiveScalarsSorted}), less
 * the calibration keys; with a `targetCoverage` list, also the internal values of every operating
 * point (their intervals go to the `operatingPoints` table).
 */
export const selectiveFamily: ClassificationFamily<SelectiveDrawn | null> = {
  name: 'selective',
  point: selectivePoint,
  tableNames: ['groupAnalysis', 'operatingPoints', 'scoresUsed'],
  tables: selectiveTables,
  // the area under the risk–coverage curve, when the rows are ranked by a score; its column after
  // calibration's ECE (rank 2), although the family runs before calibration
  sliceKeys: (run) => (run.selective?.ranked ? [{ key: 'aurc', rank: 3 }] : []),
  resample: (_run, { selective }, out) => {
    if (selective) for (const k in selective) if (!isCalibrationKey(k)) out[k] = selective[k]!;
  },
};

/** The `calibration` family: ECE, MCE and adaptive ECE of the resample, from the same selective pass. */
export const calibrationFamily: ClassificationFamily = {
  name: 'calibration',
  point: calibrationStep,
  tableNames: ['reliability'],
  tables: reliabilityStep,
  // its column after the classification family's accuracy and macro F1 (ranks 0 and 1)
  sliceKeys: (run) => (run.selective?.ranked && run.selective.calib ? [{ key: 'ece', rank: 2 }] : []),
  resample: (_run, { selective }, out) => {
    if (selective) for (const k of CALIBRATION_KEYS) if (k in selective) out[k] = selective[k]!;
  },
};
