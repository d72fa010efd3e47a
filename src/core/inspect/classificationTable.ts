/**
 * The row table of a classification file: per-row values computed by the evaluation's own code —
 * correctness and −ln p_true from the prepared rows, the selective score and the acceptance at the
 * operating point from the selective setup (`prepareSelective` / `acceptanceFor`), shot and group
 * from the long-tail setup — so that a filter selects exactly the rows behind each number.
 */
import { Warnings } from '../diagnostics';
import type { TextColumn } from '../data/textColumn';
import type { LoadedClassification } from '../io/loadClassification';
import { rowScores } from './rowScores';
import { SHOTS } from '../metrics/longtail';
import { ResultsBuilder } from '../results/builder';
import { prepareRun, type ClassificationRun } from '../tasks/classification';
import { acceptanceFor, prepareSelective } from '../tasks/classificationSelective';
import type { TaskContext } from '../tasks/types';
import type { Field } from './fields';
import type { RowTable } from './rowTable';
import type { ClassificationRowView } from './types';

/** Dictionary-encodes a string per row. */
export function encode(values: readonly string[]): { codes: Int32Array; names: string[] } {
  const index = new Map<string, number>();
  const names: string[] = [];
  const codes = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    let k = index.get(v);
    if (k === undefined) {
      k = names.length;
      index.set(v, k);
      names.push(v);
    }
    codes[i] = k;
  }
  return { codes, names };
}

/** Per-row values of a classification file shared by the row table and the slices. */
export interface ClassificationRowValues {
  run: ClassificationRun;
  /** The selective score per row (file order), or null without scores. */
  confidence: Float64Array | null;
  /** 1 accepted, 0 rejected at the evaluation's operating point; null when the selective family does not run. */
  accepted: Uint8Array | null;
}

/**
 * The per-row values, computed quietly (warnings and timings go to throw-away collectors: the
 * evaluation reports them).
 */
export async function classificationRowValues(loaded: LoadedClassification, ctx: TaskContext): Promise<ClassificationRowValues> {
  const quiet: TaskContext = { ...ctx, warnings: new Warnings(), results: new ResultsBuilder() };
  const run = await prepareRun(loaded.data, quiet);
  const data = run.data;
  const confidence = rowScores(data, ctx.config);
  const s = prepareSelective(run, quiet);
  let accepted: Uint8Array | null = null;
  if (s) {
    const { acc, threshold } = acceptanceFor(s, null, null);
    accepted = new Uint8Array(data.n);
    // Rows outside the measured rows (the validation rows of the val/test protocol) are accepted
    // by the same rule, score ≥ the chosen threshold.
    if (s.subset && confidence && threshold !== null && Number.isFinite(threshold)) for (let i = 0; i < data.n; i++) accepted[i] = confidence[i] >= threshold ? 1 : 0;
    const idx = s.rows.rowIndex;
    for (let p = 0; p < s.rows.n; p++) accepted[idx[p]] = acc.kind === 'prefix' ? (p < acc.end ? 1 : 0) : acc.mask[p];
  }
  return { run, confidence, accepted };
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
  if (data.weights) fields.set('weight', { kind: 'number', values: data.weights });
  if (accepted) fields.set('accepted', { kind: 'bool', values: accepted });
  fields.set('line', { kind: 'number', values: data.lines });

  let shot: { codes: Int32Array; names: readonly string[] } | null = null;
  if (run.longTail.shotOf) {
    const codes = new Int32Array(n);
    for (let i = 0; i < n; i++) codes[i] = run.longTail.shotOf[data.labels[i]];
    shot = { codes, names: SHOTS };
    fields.set('shot', { kind: 'category', ...shot });
  }
  // `group`: the group of the row's true class when `groups` is configured (the groups of
  // acc_group.<g> and error_group.<g>), else the file's group column.
  let group: { codes: Int32Array; names: readonly string[] } | null = null;
  const groupColumn = data.groupColumn ? encode(data.groupColumn) : null;
  if (run.groups) {
    const codes = new Int32Array(n);
    for (let i = 0; i < n; i++) codes[i] = run.groups.groupOf[data.labels[i]];
    group = { codes, names: run.groups.names };
  } else if (groupColumn) group = groupColumn;
  if (group) fields.set('group', { kind: 'category', ...group });
  const split = data.split ? encode(data.split) : null;
  if (split) fields.set('split', { kind: 'category', ...split });
  const ids = data.ids ? encode(data.ids) : null;
  if (ids) fields.set('id', { kind: 'category', ...ids });

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
  if (typeof used.group === 'string' && groupColumn) byName(used.group, { kind: 'category', ...groupColumn });
  if (typeof used.split === 'string') byName(used.split, fields.get('split'));
  if (typeof used.id === 'string') byName(used.id, fields.get('id'));
  const wide = (used.probs ?? used.logits) as string[] | undefined;
  if (Array.isArray(wide) && data.probs && wide.length === C) {
    // A class-score column by name: the row's probability of that class (after softmax for logits).
    wide.forEach((name, c) => {
      const col = new Float64Array(n);
      for (let i = 0; i < n; i++) col[i] = data.probs![i * C + c];
      byName(name, { kind: 'number', values: col });
    });
  }
  const text: TextColumn[] = Object.values(loaded.text);
  for (const t of text) byName(t.name, { kind: 'category', codes: t.codes, names: t.values });

  const sortKeys = ['line', ...['confidence', 'loss', 'id', 'label', 'pred', 'weight'].filter((k) => fields.has(k))];
  const P = data.probs;
  const view = (i: number): ClassificationRowView => {
    const top: [string, number][] = [];
    if (P) {
      // the three highest scores, first class on ties
      const picked: number[] = [];
      for (let r = 0; r < Math.min(3, C); r++) {
        let best = -1;
        for (let c = 0; c < C; c++) if (!picked.includes(c) && (best < 0 || P[i * C + c] > P[i * C + best])) best = c;
        picked.push(best);
        top.push([data.classes[best], P[i * C + best]]);
      }
    }
    const columns: Record<string, string> = {};
    for (const t of text) columns[t.name] = t.values[t.codes[i]];
    const v: ClassificationRowView = {
      kind: 'classification',
      line: data.lines[i],
      id: data.ids ? data.ids[i] : null,
      label: data.classes[data.labels[i]],
      pred: data.classes[data.preds[i]],
      correct: run.prepared.correct[i] === 1,
      confidence: confidence ? confidence[i] : null,
      loss: run.prepared.nllTerm ? run.prepared.nllTerm[i] : null,
      top,
      columns,
    };
    if (data.weights) v.weight = data.weights[i];
    if (group && group.codes[i] >= 0) v.group = group.names[group.codes[i]];
    if (shot && shot.codes[i] >= 0) v.shot = shot.names[shot.codes[i]];
    if (data.split) v.split = data.split[i];
    if (accepted) v.accepted = accepted[i] === 1;
    return v;
  };
  return { n, lines: data.lines, fields, sortKeys, view };
}
