/**
 * The row table of a classification file: per-row values computed by the evaluation's own code —
 * correctness and −ln p_true from the prepared rows, the selective score and the acceptance at the
 * operating point from the selective setup (`prepareSelective` / `acceptanceFor`), shot and class
 * group from the long-tail setup — so that a filter selects exactly the rows behind each number.
 */
import { Warnings } from '../diagnostics';
import type { RowIds } from '../data/rowIds';
import { dictionaryEncode, type TextColumn } from '../data/textColumn';
import type { LoadedClassification } from '../io/loadClassification';
import { rowScores } from '../metrics/rowScores';
import { unshiftWeight } from '../io/weights';
import { SHOTS } from '../metrics/longtail';
import { ResultsBuilder } from '../results/builder';
import { prepareRun, type ClassificationRun } from '../tasks/classificationRun';
import { acceptanceFor, prepareSelective } from '../tasks/classificationSelective';
import { metricRows, withSplitValues } from '../tasks/split';
import { cutClassificationData } from '../data/cutRows';
import type { TaskContext } from '../tasks/types';
import type { Field } from '../rows/fields';
import type { RowTable } from './rowTable';
import type { ClassificationRowView } from '../rows/types';

/**
 * The `id` field, dictionary-encoded on first use (a filter or a sort by id) rather than when the
 * table is built: a string and a map entry a row cost more than the rest of the table, and most
 * queries (and `eval-lens diff --where`) never name the id.
 */
export function idField(ids: RowIds): Field {
  let encoded: { codes: Int32Array; names: string[] } | null = null;
  const get = (): { codes: Int32Array; names: string[] } => (encoded ??= dictionaryEncode(ids.toArray()));
  return {
    kind: 'category',
    get codes() {
      return get().codes;
    },
    get names() {
      return get().names;
    },
  };
}

/** Per-row values of a classification file shared by the row table and the slices. */
export interface ClassificationRowValues {
  run: ClassificationRun;
  /** The selective score per row (file order), or null without scores. */
  confidence: Float64Array | null;
  /** 1 accepted, 0 rejected at the evaluation's operating point; null when the selective family does not run. */
  accepted: Uint8Array | null;
  /** The rows every metric covers (the test rows with a split, tasks/split.ts `metricRows`); null for every row. */
  measured: Int32Array | null;
}

/**
 * The per-row values, computed quietly (warnings and timings go to throw-away collectors: the
 * evaluation reports them).
 */
export async function classificationRowValues(
  loaded: LoadedClassification,
  ctx: TaskContext,
): Promise<ClassificationRowValues> {
  const quiet: TaskContext = { ...ctx, warnings: new Warnings(), results: new ResultsBuilder() };
  // Every row of the file (validation and test): with a split, the threshold chosen on the
  // validation rows accepts the rows of both parts.
  const { data: all, plan } = withSplitValues(loaded.data, ctx.config);
  const run = await prepareRun(all, quiet);
  if (plan) {
    run.split = { ...plan, metricsOn: 'all' };
    run.validation = cutClassificationData(all, plan.val);
  }
  const data = run.data;
  const confidence = rowScores(data, ctx.config);
  const s = prepareSelective(run, quiet);
  let accepted: Uint8Array | null = null;
  if (s) {
    const { acc } = acceptanceFor(s, null);
    accepted = new Uint8Array(data.n);
    const idx = s.rows.rowIndex;
    for (let p = 0; p < s.rows.n; p++) accepted[idx[p]] = acc.kind === 'prefix' ? (p < acc.end ? 1 : 0) : acc.mask[p];
  }
  return { run, confidence, accepted, measured: metricRows(plan) };
}

export function classificationTable(loaded: LoadedClassification, values: ClassificationRowValues): RowTable {
  const { run, confidence, accepted } = values;
  const data = run.data;
  const n = data.n;
  const C = data.classes.length;
  const fields = new Map<string, Field>();
  const classField: Field = { kind: 'category', codes: data.labels, names: data.classes };
  fields.set('label', classField);
  fields.set('pred', { kind: 'category', codes: data.preds, names: data.classes });
  fields.set('correct', { kind: 'bool', values: run.prepared.correct });
  if (confidence) fields.set('confidence', { kind: 'number', values: confidence });
  if (run.prepared.nllTerm) fields.set('loss', { kind: 'number', values: run.prepared.nllTerm });
  // the weights as written (tiny weights are scaled up for the metrics: see io/weights.ts)
  const weights = data.weights ? weightsAsWritten(data.weights, data.weightShift ?? 0) : null;
  if (weights) fields.set('weight', { kind: 'number', values: weights });
  if (accepted) fields.set('accepted', { kind: 'bool', values: accepted });
  fields.set('line', { kind: 'number', values: data.lines });

  let shot: { codes: Int32Array; names: readonly string[] } | null = null;
  if (run.longTail.shotOf) {
    const codes = new Int32Array(n);
    for (let i = 0; i < n; i++) codes[i] = run.longTail.shotOf[data.labels[i]];
    shot = { codes, names: SHOTS };
    fields.set('shot', { kind: 'category', ...shot });
  }
  // Two kinds of group, two names: `class_group` is the group of the row's true class when `groups`
  // is configured (the class-frequency groups of acc_group.<g> and error_group.<g>); `group` is the
  // file's per-row group column, as written, whether or not `groups` is configured.
  let classGroup: { codes: Int32Array; names: readonly string[] } | null = null;
  if (run.groups) {
    const codes = new Int32Array(n);
    for (let i = 0; i < n; i++) codes[i] = run.groups.groupOf[data.labels[i]];
    classGroup = { codes, names: run.groups.names };
    fields.set('class_group', { kind: 'category', ...classGroup });
  }
  const group = data.groupColumn ? dictionaryEncode(data.groupColumn) : null;
  if (group) fields.set('group', { kind: 'category', ...group });
  const split = data.split ? dictionaryEncode(data.split) : null;
  if (split) fields.set('split', { kind: 'category', ...split });
  // The role each split value plays (`splitNames` maps any spelling, e.g. holdout → test): the
  // drill-downs select the measured rows by role, whatever the column holds.
  const plan = run.split;
  if (plan) fields.set('split_role', { kind: 'category', codes: splitRoleCodes(n, plan), names: SPLIT_ROLES });
  if (data.ids) fields.set('id', idField(data.ids));

  // Columns by their names in the file: role columns lead to their role's values (the group
  // column to its own values), other columns to their text as written.
  const used = loaded.columns;
  const byName = (name: string, f: Field | undefined): void => {
    if (f && !fields.has(name)) fields.set(name, f);
  };
  byName(used.label as string, fields.get('label'));
  if (typeof used.pred === 'string') byName(used.pred, fields.get('pred'));
  if (typeof used.score === 'string') byName(used.score, fields.get('confidence'));
  if (typeof used.weight === 'string') byName(used.weight, fields.get('weight'));
  if (typeof used.accept === 'string' && data.accept) byName(used.accept, { kind: 'bool', values: data.accept });
  if (typeof used.group === 'string') byName(used.group, fields.get('group'));
  if (typeof used.split === 'string') byName(used.split, fields.get('split'));
  if (typeof used.id === 'string') byName(used.id, fields.get('id'));
  const text: TextColumn[] = Object.values(loaded.text);
  for (const t of text) byName(t.name, { kind: 'category', codes: t.codes, names: t.values });

  const sortKeys = ['line', ...['confidence', 'loss', 'id', 'label', 'pred', 'weight'].filter((k) => fields.has(k))];
  // The three best classes of every row, computed once, so that the table keeps 36 bytes per row
  // instead of the n×C probability matrix (a long-lived worker holds it).
  const best = topThree(data.probs, n, C);
  // The view reads only these arrays (not `data` or `run`), so the rest can be collected.
  const { classes, labels, preds, lines } = data;
  const idList = data.ids;
  const splitList = data.split;
  const { correct, nllTerm } = run.prepared;
  const view = (i: number): ClassificationRowView => {
    const top: [string, number][] = [];
    if (best)
      for (let r = 0; r < 3; r++)
        if (best.topClass[i * 3 + r] >= 0) top.push([classes[best.topClass[i * 3 + r]], best.topScore[i * 3 + r]]);
    const columns: Record<string, string> = {};
    for (const t of text) columns[t.name] = t.values[t.codes[i]];
    const v: ClassificationRowView = {
      kind: 'classification',
      line: lines[i],
      id: idList ? idList.at(i) : null,
      label: classes[labels[i]],
      pred: classes[preds[i]],
      correct: correct[i] === 1,
      confidence: confidence ? confidence[i] : null,
      loss: nllTerm ? nllTerm[i] : null,
      top,
      columns,
    };
    if (weights) v.weight = weights[i];
    if (group && group.codes[i] >= 0) v.group = group.names[group.codes[i]];
    if (classGroup && classGroup.codes[i] >= 0) v.classGroup = classGroup.names[classGroup.codes[i]];
    if (shot && shot.codes[i] >= 0) v.shot = shot.names[shot.codes[i]];
    if (splitList) v.split = splitList[i];
    if (accepted) v.accepted = accepted[i] === 1;
    return v;
  };
  return { n, lines: data.lines, fields, sortKeys, view };
}

/** The values of the `split_role` field, in code order. */
export const SPLIT_ROLES = ['validation', 'test'] as const;

/** Per row: 0 validation, 1 test (every row is one or the other once a split is planned). */
function splitRoleCodes(n: number, plan: { val: Int32Array; test: Int32Array }): Int32Array {
  const codes = new Int32Array(n);
  for (const i of plan.test) codes[i] = 1;
  for (const i of plan.val) codes[i] = 0;
  return codes;
}

/** The weights as written in the file (see io/weights.ts). */
function weightsAsWritten(w: Float64Array, shift: number): Float64Array {
  return shift === 0 ? w : w.map((x) => unshiftWeight(x, shift));
}

/** Class index (−1 = none) and score of the three highest-scoring classes per row, best first, the first class on ties. */
function topThree(
  P: Float64Array | null,
  n: number,
  C: number,
): { topClass: Int32Array; topScore: Float64Array } | null {
  if (!P) return null; // no matrix kept (or none in the file): no best classes to show
  const topClass = new Int32Array(n * 3).fill(-1);
  const topScore = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    const o = i * C;
    let a = -1;
    let b = -1;
    let c = -1;
    for (let k = 0; k < C; k++) {
      const p = P[o + k];
      // strict comparisons keep the earlier class ahead on ties
      if (a < 0 || p > P[o + a]) {
        c = b;
        b = a;
        a = k;
      } else if (b < 0 || p > P[o + b]) {
        c = b;
        b = k;
      } else if (c < 0 || p > P[o + c]) c = k;
    }
    const t = i * 3;
    topClass[t] = a;
    topClass[t + 1] = b;
    topClass[t + 2] = c;
    topScore[t] = a >= 0 ? P[o + a] : NaN;
    topScore[t + 1] = b >= 0 ? P[o + b] : NaN;
    topScore[t + 2] = c >= 0 ? P[o + c] : NaN;
  }
  return { topClass, topScore };
}
