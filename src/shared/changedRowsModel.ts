/**
 * The Changed rows tab of a comparison panel: which runs can be diffed against the baseline and
 * which per-row metrics can be chosen. The rows themselves are computed on demand by the host
 * (`eval-lens diff`'s computation, in the inspection worker) and rendered by the webview.
 */
import { parseBaselineRunName } from '../core/compare/baselineNames';
import type { CompareResults } from '../core/compare/types';
import type { ChangedRowsModel, ReportModel } from './model';

export type { ChangedRowsModel };

/**
 * The model of the Changed rows tab, or undefined when the comparison has no two runs with files.
 * A baseline run made from a run's input (`--against majority`) has no file of its own to open
 * side by side, so it is never one of the two.
 */
export function changedRowsModel(c: CompareResults): ChangedRowsModel | undefined {
  if (c.kind !== 'comparison' || c.runs.length < 2 || !c.runs.includes(c.baseline)) return undefined;
  if (parseBaselineRunName(c.baseline)) return undefined;
  const name = (run: string): string => c.names[c.runs.indexOf(run)] ?? run;
  const others = c.runs.filter((r) => r !== c.baseline && !parseBaselineRunName(r));
  if (others.length === 0) return undefined;
  return {
    task: c.task,
    baseline: { run: c.baseline, name: name(c.baseline) },
    runs: others.map((run) => ({ run, name: name(run) })),
    metrics: c.task === 'ranking' ? [] : ['accuracy', 'nll'],
  };
}

/** The comparison's model with a Changed rows tab after its other tabs (when it has two runs). */
export function withChangedRowsTab(model: ReportModel, c: CompareResults): ReportModel {
  const changedRows = changedRowsModel(c);
  if (!changedRows || model.tabs.some((t) => t.id === 'changed')) return model;
  return {
    ...model,
    tabs: [
      ...model.tabs,
      { id: 'changed', title: 'Changed rows', cards: [], charts: [], tables: [], notes: [], changedRows },
    ],
  };
}
