/**
 * Assembles a {@link Results} object. Metric families call `metric()` with stable keys
 * (the stable metric keys of src/core/glossary); a null value must come with a warning (the family adds it).
 */
import type { EvalWarning } from '../diagnostics';
import type { ResolvedConfig, Task } from '../config/types';
import type { IntervalMethod } from '../stats/bootstrap';
import { directionOf } from './directions';
import {
  RESULTS_SCHEMA_ID,
  type CurveName,
  type Direction,
  type MetricFamily,
  type MetricValue,
  type PerItemValues,
  type Results,
  type ResultCurves,
  type ResultTables,
  type SourceInfo,
  type TableName,
} from './types';
import { TOOL_VERSION } from '../version';

export class ResultsBuilder {
  readonly metrics: Record<string, MetricValue> = {};
  readonly families: Partial<Record<MetricFamily, string[]>> = {};
  readonly curves: Results['curves'] = {};
  readonly tables: Results['tables'] = {};
  baselines?: Results['baselines'];
  perItem?: PerItemValues;
  readonly timings: Record<string, number> = {};

  /** Adds (or replaces) a metric. Non-finite numbers are stored as null. */
  metric(
    family: MetricFamily,
    key: string,
    value: number | null,
    opts: { direction?: Direction; note?: string; ci?: [number, number] } = {},
  ): void {
    const v = value === null || !Number.isFinite(value) ? null : value;
    const entry: MetricValue = { value: v, direction: opts.direction ?? directionOf(key) };
    if (opts.ci) entry.ci = opts.ci;
    if (opts.note) entry.note = opts.note;
    if (!(key in this.metrics)) (this.families[family] ??= []).push(key);
    this.metrics[key] = entry;
  }

  /** Sets the bootstrap interval of an existing metric. */
  /** Sets a metric's interval; a method other than the default percentile one is recorded in `ci_method`. */
  setCi(key: string, ci: [number, number], method: IntervalMethod = 'percentile'): void {
    const m = this.metrics[key];
    if (!m || !Number.isFinite(ci[0]) || !Number.isFinite(ci[1])) return;
    m.ci = ci;
    if (method !== 'percentile') m.ci_method = method;
  }

  /** Adds (or replaces) a curve; its name is one of {@link ResultCurves}. */
  curve<K extends CurveName>(name: K, c: ResultCurves[K]): void {
    this.curves[name] = c;
  }

  /** Adds (or replaces) a table; its name and type are those of {@link ResultTables}. */
  table<K extends TableName>(name: K, value: ResultTables[K]): void {
    this.tables[name] = value;
  }

  /** Times a stage (seconds) for `results.timings`. */
  time<T>(stage: string, fn: () => T): T {
    const t0 = performance.now();
    try {
      return fn();
    } finally {
      this.timings[stage] = (this.timings[stage] ?? 0) + (performance.now() - t0) / 1000;
    }
  }

  /** {@link time} for work that awaits: the stage's time runs until `fn`'s promise settles. */
  async timeAsync<T>(stage: string, fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      this.timings[stage] = (this.timings[stage] ?? 0) + (performance.now() - t0) / 1000;
    }
  }

  build(args: { source: SourceInfo; task: Task; config: ResolvedConfig; warnings: EvalWarning[] }): Results {
    const r: Results = {
      schema: RESULTS_SCHEMA_ID,
      tool: { name: 'eval-lens', version: TOOL_VERSION },
      createdAt: new Date().toISOString(),
      source: args.source,
      task: args.task,
      config: args.config,
      metrics: this.metrics,
      families: this.families,
      curves: this.curves,
      tables: this.tables,
      warnings: args.warnings,
      timings: this.timings,
    };
    if (this.baselines) r.baselines = this.baselines;
    if (this.perItem) r.perItem = this.perItem;
    return r;
  }
}
