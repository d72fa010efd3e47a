// The stages `node bench/compare.mjs <rev> --in-process` times: bundled once against each tree's
// sources (into that tree's dist/, beside its worker scripts), and both bundles loaded into ONE
// process (bench/inProcessDriver.mjs) that runs them in alternation, stage by stage.
//
// Why one process: on this kind of machine the same build's stage time moves by 30% or more from
// one process to the next (where the heap and the code land, what the other core is doing), so
// ratios of two processes resolve nothing finer; inside one process, two calls a second apart
// share that state, and the ratio of the two sides' times of one round is steady to a few percent.
//
// Each stage is a function that does the work once and returns its seconds, or — for a whole
// evaluation — the seconds of each step the evaluation times itself (results.timings), so each
// step is judged on its own. Inputs are prepared once per side, outside the timed calls.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateFile } from '../src/core/evaluate';
import { Warnings } from '../src/core/diagnostics';
import { loadConfigFile, resolveConfig } from '../src/core/config/load';
import { loadClassification } from '../src/core/io/loadClassification';
import { ResultsBuilder } from '../src/core/results/builder';
import { prepareRun } from '../src/core/tasks/classification';
import { prepareSelective } from '../src/core/tasks/classificationSelective';
import type { TaskContext } from '../src/core/tasks/types';
import { sortRowsByScore, type SortedRows } from '../src/core/metrics/sortedRows';
import { aurcGrid101, aurcValues, exactRiskCoverage } from '../src/core/metrics/riskCoverage';
import { selectiveResampler, selectiveResampleValues } from '../src/core/metrics/selectiveResample';
import { evaluateResamples } from '../src/core/stats/resampleDraws';
import { createRng } from '../src/core/stats/rng';

/** Seconds of one call, or the seconds of each named step of one call. */
export type StageResult = number | Record<string, number>;
export interface Stage {
  name: string;
  run: () => StageResult | Promise<StageResult>;
}

const CLS = 'bench/data/cls/preds.csv';
const RANK = 'bench/data/rank/recs.jsonl';
/** The importance-weighted example (188 rows), sliced by its score in quantile bins. */
const IW = 'examples/iw-breast-cancer/logreg.csv';
/** Resamples of the timed bootstraps: enough for the engine's steady state, few enough for many rounds. */
const RESAMPLES = 200;
/** Resamples of the sliced evaluations of the bench files (their slice step: 2–3 s for 20 on the 200,000 rows). */
const SLICE_RESAMPLES = 20;

const seconds = (t0: number): number => (performance.now() - t0) / 1000;

/** One whole evaluation through evaluateFile; its own step timings, with its total. */
async function evaluation(file: string, overrides: Record<string, unknown>): Promise<Record<string, number>> {
  const t0 = performance.now();
  const results = await evaluateFile(file, { overrides, collectGarbage: true });
  return { ...(results.timings ?? {}), total: seconds(t0) };
}

/** The stages, their inputs prepared (`root`: the checkout whose bench/data is read). */
export async function stages(root: string): Promise<Stage[]> {
  const at = (p: string): string => join(root, p);
  if (!existsSync(at(CLS)) || !existsSync(at(RANK)))
    throw new Error('bench/data has no inputs yet: run `npm run bench` once (it generates them).');
  const out: Stage[] = [
    { name: 'classification, bootstrap off', run: () => evaluation(at(CLS), { bootstrap: { n: 0 } }) },
    {
      name: `classification, ${RESAMPLES} resamples`,
      run: () => evaluation(at(CLS), { bootstrap: { n: RESAMPLES, confidence: 0.95, seed: 0 } }),
    },
    { name: 'ranking, bootstrap off', run: () => evaluation(at(RANK), { bootstrap: { n: 0 } }) },
    {
      name: `ranking, ${RESAMPLES} resamples`,
      run: () => evaluation(at(RANK), { bootstrap: { n: RESAMPLES, confidence: 0.95, seed: 0 } }),
    },
    // The slice tables with their bootstrap (step `slices`): every resample evaluates the whole file
    // and each slice again on the calling thread, so a few resamples of the large files already take
    // seconds; the small importance-weighted example, with the resamples of its own config.
    {
      name: `classification sliced by label, ${SLICE_RESAMPLES} resamples`,
      run: () => evaluation(at(CLS), { slices: ['label'], bootstrap: { n: SLICE_RESAMPLES, seed: 0 } }),
    },
    {
      name: `ranking sliced by trainCount and relevant, ${SLICE_RESAMPLES} resamples`,
      run: () =>
        evaluation(at(RANK), { slices: ['trainCount', 'relevant'], bootstrap: { n: SLICE_RESAMPLES, seed: 0 } }),
    },
    {
      name: 'iw-binary example sliced by score, 1000 resamples',
      run: () => evaluation(at(IW), { slices: ['score'], bootstrap: { n: 1000, seed: 0 } }),
    },
  ];

  // reading alone, and the selective stages of the 200,000-row file
  const cfgPath = at('bench/data/cls/eval-lens.json');
  const config = resolveConfig(
    [await loadConfigFile(cfgPath), { bootstrap: { n: RESAMPLES, confidence: 0.95, seed: 0 } }],
    cfgPath,
  );
  out.push({
    name: 'loadClassification (200k file)',
    run: async () => {
      const t0 = performance.now();
      await loadClassification(at(CLS), config, new Warnings());
      return seconds(t0);
    },
  });
  const loaded = await loadClassification(at(CLS), config, new Warnings());
  const ctx: TaskContext = {
    path: at(CLS),
    baseDir: at('bench/data/cls'),
    config,
    warnings: new Warnings(),
    results: new ResultsBuilder(),
  };
  const run = await prepareRun(loaded.data, ctx);
  const sel = prepareSelective(run, ctx)!;
  const n = loaded.data.n;
  const rows = { ...sel.rows, nGroups: 0 };
  const correctSorted = new Uint8Array(n);
  for (let p = 0; p < n; p++) correctSorted[p] = run.prepared.correct[rows.rowIndex[p]!]!;
  const trio = selectiveResampler(rows, { kind: 'end', end: n }, { B: sel.calib!.B });
  const aurcOnly = selectiveResampler(rows, { kind: 'end', end: n }, null);
  const draws = { seed: 0, strata: null, range: { from: 0, to: RESAMPLES } };
  out.push(
    {
      name: 'selective prepare (200k file: per-row data, one sort)',
      run: () => {
        const t0 = performance.now();
        prepareSelective(run, ctx);
        return seconds(t0);
      },
    },
    {
      name: `${RESAMPLES} resamples accuracy+AURC+ECE (200k file, one thread)`,
      run: () => {
        const t0 = performance.now();
        evaluateResamples(
          n,
          3,
          (counts, o) => {
            let c = 0;
            for (let p = 0; p < n; p++) c += counts[p]! * correctSorted[p]!;
            o[0] = c / n;
            const v = selectiveResampleValues(trio, counts, n);
            o[1] = v.aurc;
            o[2] = v.ece;
          },
          draws,
        );
        return seconds(t0);
      },
    },
    {
      name: `${RESAMPLES} resamples AURC only (200k file, one thread)`,
      run: () => {
        const t0 = performance.now();
        evaluateResamples(n, 1, (counts, o) => (o[0] = selectiveResampleValues(aurcOnly, counts, n).aurc), draws);
        return seconds(t0);
      },
    },
  );

  // a million generated scores with ties and two groups: the sort and the curves
  const m = 1_000_000;
  const rng = createRng(1);
  const scores = new Float64Array(m);
  const wrong = new Uint8Array(m);
  const groups = new Int32Array(m);
  for (let i = 0; i < m; i++) {
    const s = Math.round((0.2 + 0.8 * rng.next()) * 1e6) / 1e6;
    scores[i] = s;
    wrong[i] = rng.next() > s ? 1 : 0;
    groups[i] = rng.next() < 0.7 ? 0 : 1;
  }
  let sorted: SortedRows = sortRowsByScore(scores, wrong, { groups, nGroups: 2 });
  const timed = (f: () => unknown) => (): number => {
    const t0 = performance.now();
    f();
    return seconds(t0);
  };
  out.push(
    {
      name: '1M rows: stable sort + tied blocks',
      run: timed(() => (sorted = sortRowsByScore(scores, wrong, { groups, nGroups: 2 }))),
    },
    { name: '1M rows: exact RC curve (std/balanced/worst)', run: timed(() => exactRiskCoverage(sorted)) },
    { name: '1M rows: aurc, eaurc, aurc_balanced, aurc_worst', run: timed(() => aurcValues(sorted)) },
    { name: '1M rows: six *_grid101 keys', run: timed(() => aurcGrid101(sorted)) },
  );
  return out;
}
