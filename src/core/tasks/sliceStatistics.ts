/**
 * Each task's statistic restricted to some of its units ({@link RestrictedStatistic}, slices.ts):
 * the shared sums one resample gives the task's families (classificationRun.ts `ResampleSums`,
 * iwFamilies.ts `IwSums`, rankingRun.ts `RankingSums`), computed over the rows (users) of a slice
 * or a fold as if the file held only those, under multiplicities over them. The families' own
 * statistics then give every slice value, so a family's key is sliced with no code of its own.
 *
 * Each restriction computes its sums with the metric functions the slices have always used, in the
 * same order of summation, so a slice's values (and, with the same seed, its intervals) are the
 * ones earlier versions wrote:
 *
 * - classification: the per-class sums of the slice's rows (metrics/classification.ts
 *   `aggregateClassification`) and the selective pass over the slice's rows in score order, cut
 *   from the run's order (metrics/sortedRows.ts `sortedSubsets`), calibration over the same cut of
 *   the calibration order with its own bins. The slice's selective setup keeps the acceptance rule
 *   (a `targetCoverage` threshold is chosen on the slice's rows), not the class groups (a slice has
 *   no per-group keys) nor the operating-point list (its values go to the whole run's table). Of
 *   the selective pass, only the parts the sliced keys come from (classificationSelective.ts
 *   `selectivePartsFor`: for `aurc` and `ece`, the exact AURC and calibration, not the operating
 *   point at the acceptance rule nor the 101-point grid);
 * - importance-weighted binary: the weighted and unweighted metric vectors of the slice's rows in
 *   their own score order (metrics/importance.ts `metricVector`), with the run's row weights, each
 *   only when a sliced key comes from it (iwFamilies.ts `iwHalvesFor`);
 * - ranking: the means over the slice's users of each sliced per-user key, in user order.
 */
import { allocBlockCounts, blocksAtOrAbove, scoreOrder } from '../metrics/binaryCurve';
import { binIndices } from '../metrics/calibration';
import { aggregateClassification, type PreparedClassification } from '../metrics/classification';
import { rowsByClass } from '../metrics/evolving';
import { IW_KEYS, metricVector } from '../metrics/importance';
import { sortedSubsets, type SortedRows } from '../metrics/sortedRows';
import { selectivePartsFor, selectiveScalars, selectiveScratch } from './classificationSelective';
import type { ClassificationRun, ResampleRun, ResampleSums, SelectiveSetup } from './classificationRun';
import { iwHalvesFor, type IwRun, type IwSums } from './iwFamilies';
import type { RankingResampleRun, RankingRun, RankingSums } from './rankingRun';
import { pick, type RestrictedStatistic } from './slices';

/** The classification statistic over some rows; `strata`: the run's bootstrap strata per row. */
export function classificationStatistic(
  run: ClassificationRun,
  strata: Int32Array | null,
): RestrictedStatistic<ResampleSums, ResampleRun> {
  const P = run.prepared;
  if (P.termSums) throw new Error('Expected per-row terms for slices, but they were summed while reading.');
  const sel = run.selective?.ranked ? run.selective : null;
  // The slice's rows in the run's score orders, cut from them instead of sorted again.
  const cut = sel ? sortedSubsets(sel.rows) : null;
  const cutCalib = sel?.calib && sel.calib.rows !== sel.rows ? sortedSubsets(sel.calib.rows) : null;
  const accept = run.data.accept;
  return {
    unit: 'row',
    strata,
    restrict(rows, keys) {
      const sub: PreparedClassification = {
        ...P,
        n: rows.length,
        labels: pick(P.labels, rows),
        preds: pick(P.preds, rows),
        weights: pick(P.weights, rows),
        correct: pick(P.correct, rows),
        nllTerm: pick(P.nllTerm, rows),
        brierTerm: pick(P.brierTerm, rows),
        trueRank: pick(P.trueRank, rows),
      };
      let point: ResampleRun['point'] | null = null;
      let classRows: Int32Array[] | null | undefined;
      // Made when a statistic first reads them (the sliced families may not).
      const shared: ResampleRun = {
        prepared: sub,
        get point() {
          return (point ??= aggregateClassification(sub));
        },
        longTail: run.longTail,
        evolving: run.evolving,
        get classRows() {
          return classRows === undefined ? (classRows = run.classRows ? rowsByClass(sub) : null) : classRows;
        },
      };
      let setup: SelectiveSetup | null = null;
      if (sel && rows.length > 0) {
        const wrong = new Uint8Array(rows.length);
        for (let j = 0; j < rows.length; j++) wrong[j] = sub.correct[j] ? 0 : 1;
        const sorted = cut!(rows, wrong, sub.weights);
        const calibRows = cutCalib ? cutCalib(rows, wrong, sub.weights) : sorted;
        setup = {
          ...sel,
          rows: sorted,
          operatingPoints: null,
          mask: sel.mask && accept ? maskOf(sorted, rows, accept) : null,
          groupNames: [],
          reweight: false,
          groupTrainShare: null,
          calib: sel.calib ? { ...sel.calib, rows: calibRows, bins: binIndices(calibRows, sel.calib.B) } : null,
        };
      }
      const scratch = setup ? selectiveScratch(setup) : undefined;
      // The parts of the selective pass the keys read; a key of the class sums reads none.
      const parts = selectivePartsFor(keys.filter((k) => !(k in run.point.values)));
      return {
        shared,
        sums: (mult) => ({
          agg: aggregateClassification(sub, mult),
          counts: mult,
          perClass: false,
          selective: setup ? selectiveScalars(setup, mult, scratch, parts) : null,
        }),
      };
    },
  };
}

/** The `accept` column of the slice's rows in their score order. */
function maskOf(sorted: SortedRows, rows: Int32Array, accept: Uint8Array): Uint8Array {
  const mask = new Uint8Array(sorted.n);
  for (let q = 0; q < sorted.n; q++) mask[q] = accept[rows[sorted.rowIndex[q]]];
  return mask;
}

/** The importance-weighted statistic over some rows, with the run's weights and threshold. */
export function iwStatistic(run: IwRun): RestrictedStatistic<IwSums, unknown> {
  const K = IW_KEYS.length;
  const { data } = run;
  return {
    unit: 'row',
    strata: data.strata,
    restrict(rows, keys) {
      const labels = pick(data.labels, rows);
      const w = pick(run.weights, rows);
      const so = scoreOrder(pick(data.scores, rows));
      const nAbove = blocksAtOrAbove(so, run.threshold);
      const wm = new Float64Array(rows.length);
      const halves = iwHalvesFor(keys);
      // one set of buffers for every call (read before the next): a new one per resample made the
      // small slices of the 188-row example 1.5x slower in one process
      const values = new Float64Array(2 * K);
      const sums: IwSums = { values };
      const weighted = values.subarray(0, K);
      const unweighted = values.subarray(K);
      const scratch = allocBlockCounts(so);
      return {
        shared: null,
        sums: (mult) => {
          values.fill(NaN);
          if (rows.length === 0) return sums;
          if (halves.weighted) {
            let weights = w;
            if (mult) {
              for (let j = 0; j < rows.length; j++) wm[j] = w[j] * mult[j];
              weights = wm;
            }
            metricVector(so, labels, weights, nAbove, scratch, weighted);
          }
          if (halves.unweighted) metricVector(so, labels, mult, nAbove, scratch, unweighted);
          return sums;
        },
      };
    },
  };
}

/**
 * The ranking statistic over some of the evaluated users: the mean of each of the keys asked for
 * (per-user keys of the run's evaluation) over them, each user counted by its multiplicity, users
 * without a value left out (NaN: none has one). A key without per-user values (a value a family
 * derives from the means) asks for the means of every per-user key.
 */
export function rankingStatistic(run: RankingRun): RestrictedStatistic<RankingSums, RankingResampleRun> {
  const perUser = run.evaluation.perUser;
  return {
    unit: 'user',
    strata: null,
    restrict(users, keys) {
      const used = keys.every((k) => perUser[k] !== undefined) ? keys : Object.keys(perUser);
      const vals = used.map((k) => pick(perUser[k], users));
      const shared: RankingResampleRun = { ks: run.ks, evaluated: pick(run.evaluated, users), catalog: null };
      // one record of the means for every call (read before the next), each key written by each
      const means: Record<string, number> = {};
      const sums: { means: Record<string, number>; counts: ArrayLike<number> | null } = { means, counts: null };
      return {
        shared,
        sums: (mult) => {
          for (let q = 0; q < used.length; q++) {
            const v = vals[q];
            let s = 0;
            let w = 0;
            for (let j = 0; j < v.length; j++) {
              const x = v[j];
              if (x !== x) continue;
              const m = mult ? mult[j] : 1;
              s += m * x;
              w += m;
            }
            means[used[q]] = w > 0 ? s / w : NaN;
          }
          sums.counts = mult;
          return sums;
        },
      };
    },
  };
}
