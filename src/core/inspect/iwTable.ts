/**
 * The row table of an importance-weighted binary file. The prediction is `score ≥ threshold`
 * (the `threshold` of the evaluation, as its precision/recall/F1 use it), the confidence is the
 * score, and the loss −ln max(p_true, 1e-15) with p_true = score (label 1) or 1 − score (label 0)
 * when every score is a probability in [0, 1].
 */
import { CONFIG_DEFAULTS, type ResolvedConfig } from '../config/types';
import { STRATUM_B } from '../data/iwBinaryData';
import type { LoadedIwBinary } from '../io/loadIwBinary';
import type { Field } from '../rows/fields';
import { idField } from './classificationTable';
import type { RowTable } from './rowTable';
import type { ClassificationRowView } from '../rows/types';

export const STRATUM_NAMES = ['B', 'Bc'] as const;

export function iwTable(loaded: LoadedIwBinary, config: ResolvedConfig): RowTable {
  const data = loaded.data;
  const n = data.n;
  const t = config.threshold ?? CONFIG_DEFAULTS.threshold;
  const names = [
    data.negativeLabel ?? (config.positiveLabel === undefined ? '0' : 'negative'),
    config.positiveLabel === undefined ? '1' : data.positiveLabel,
  ];
  const labels = Int32Array.from(data.labels);
  const preds = new Int32Array(n);
  const correct = new Uint8Array(n);
  let probability = true;
  for (let i = 0; i < n; i++) {
    preds[i] = data.scores[i] >= t ? 1 : 0;
    correct[i] = preds[i] === labels[i] ? 1 : 0;
    if (!(data.scores[i] >= 0 && data.scores[i] <= 1)) probability = false;
  }
  let loss: Float64Array | null = null;
  if (probability) {
    loss = new Float64Array(n);
    for (let i = 0; i < n; i++)
      loss[i] = -Math.log(Math.max(labels[i] === 1 ? data.scores[i] : 1 - data.scores[i], 1e-15));
  }
  const fields = new Map<string, Field>();
  fields.set('label', { kind: 'category', codes: labels, names });
  fields.set('pred', { kind: 'category', codes: preds, names });
  fields.set('correct', { kind: 'bool', values: correct });
  fields.set('confidence', { kind: 'number', values: data.scores });
  if (loss) fields.set('loss', { kind: 'number', values: loss });
  if (data.weightColumn) fields.set('weight', { kind: 'number', values: data.weightColumn });
  if (data.strata) fields.set('stratum', { kind: 'category', codes: data.strata, names: STRATUM_NAMES });
  if (data.ids) fields.set('id', idField(data.ids));
  fields.set('line', { kind: 'number', values: data.lines });
  const used = data.columns;
  const byName = (name: string | undefined, f: Field | undefined): void => {
    if (name && f && !fields.has(name)) fields.set(name, f);
  };
  byName(used.label, fields.get('label'));
  byName(used.score, fields.get('confidence'));
  byName(used.stratum, fields.get('stratum'));
  byName(used.weight, fields.get('weight'));
  byName(used.id, fields.get('id'));
  const text = Object.values(loaded.text);
  for (const c of text) byName(c.name, { kind: 'category', codes: c.codes, names: c.values });
  const sortKeys = ['line', ...['confidence', 'loss', 'id', 'label', 'pred', 'weight'].filter((k) => fields.has(k))];
  const view = (i: number): ClassificationRowView => {
    const s = data.scores[i];
    const columns: Record<string, string> = {};
    for (const c of text) columns[c.name] = c.values[c.codes[i]];
    const v: ClassificationRowView = {
      kind: 'classification',
      line: data.lines[i],
      id: data.ids ? data.ids.at(i) : null,
      label: names[labels[i]],
      pred: names[preds[i]],
      correct: correct[i] === 1,
      confidence: s,
      loss: loss ? loss[i] : null,
      top: probability
        ? ([
            [names[1], s],
            [names[0], 1 - s],
          ].sort((a, b) => (b[1] as number) - (a[1] as number)) as [string, number][])
        : [],
      columns,
    };
    if (data.weightColumn) v.weight = data.weightColumn[i];
    if (data.strata) v.stratum = data.strata[i] === STRATUM_B ? 'B' : 'Bc';
    return v;
  };
  return { n, lines: data.lines, fields, sortKeys, view };
}
