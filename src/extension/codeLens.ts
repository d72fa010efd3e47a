/**
 * CodeLens on results JSON: on `*.eval.json` "Open Report" and the headline metrics (each opens
 * the report at its chart); on `*.compare.json` the best run per metric; on other tools' results
 * JSON (`metrics.json`, `results.json`, `*_metrics.json`, …) a summary of the numeric leaves and
 * "Open as Table". Lenses are placed cheaply and their commands resolved lazily.
 */
import * as vscode from 'vscode';
import { formatCi, formatNumber } from '../shared/format';
import { headlineKeys } from '../shared/headline';
import { explainKey, metricName } from '../core';
import { leafSummary, numericLeaves } from '../shared/leafModel';
import { jsonKind } from '../shared/outputName';
import { Command } from './commandIds';
import type { EvalLensContext } from './context';
import { parseResultsText } from './resultsIndex';
import { readSettings, SECTION } from './settings';

type LensKind = { kind: 'metric'; key: string } | { kind: 'open' } | { kind: 'summary' } | { kind: 'table' };

class EvalLens extends vscode.CodeLens {
  constructor(
    range: vscode.Range,
    readonly doc: vscode.Uri,
    readonly version: number,
    readonly lens: LensKind,
  ) {
    super(range);
  }
}

class ResultsCodeLens implements vscode.CodeLensProvider<EvalLens> {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;
  private cache: { uri: string; version: number; value: unknown } | undefined;

  refresh(): void {
    this.emitter.fire();
  }

  private parsed(doc: vscode.TextDocument): unknown {
    if (this.cache && this.cache.uri === doc.uri.toString() && this.cache.version === doc.version)
      return this.cache.value;
    let value: unknown;
    try {
      value = JSON.parse(doc.getText());
    } catch {
      value = undefined;
    }
    this.cache = { uri: doc.uri.toString(), version: doc.version, value };
    return value;
  }

  provideCodeLenses(doc: vscode.TextDocument): EvalLens[] {
    if (!readSettings(doc.uri).codeLens) return [];
    const kind = jsonKind(doc.fileName);
    if (!kind) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    if (kind === 'foreign') {
      // Only worth a lens when the JSON parses and holds numbers.
      if (doc.getText().length > 5_000_000 || numericLeaves(this.parsed(doc), 1).length === 0) return [];
      return [
        new EvalLens(top, doc.uri, doc.version, { kind: 'summary' }),
        new EvalLens(top, doc.uri, doc.version, { kind: 'table' }),
      ];
    }
    // Ours: one lens per headline metric, then "Open Report". Keys are found when resolving.
    const entry = parseResultsText(doc.uri, doc.getText());
    const lenses: EvalLens[] = [new EvalLens(top, doc.uri, doc.version, { kind: 'open' })];
    if (entry.kind === 'results')
      for (const key of headlineKeys(entry.results, 3))
        lenses.push(new EvalLens(top, doc.uri, doc.version, { kind: 'metric', key }));
    if (entry.kind === 'compare')
      for (const key of entry.compare.metrics.slice(0, 3))
        lenses.push(new EvalLens(top, doc.uri, doc.version, { kind: 'metric', key }));
    return lenses;
  }

  resolveCodeLens(lens: EvalLens): EvalLens {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === lens.doc.toString());
    const value = doc ? this.parsed(doc) : undefined;
    switch (lens.lens.kind) {
      case 'open':
        lens.command = { title: '$(graph) Open Report', command: Command.openReport, arguments: [lens.doc] };
        break;
      case 'table':
        lens.command = { title: '$(table) Open as Table', command: Command.openAsTable, arguments: [lens.doc] };
        break;
      case 'summary':
        lens.command = {
          title: leafSummary(numericLeaves(value)),
          tooltip: 'Numeric values in this JSON',
          command: Command.openAsTable,
          arguments: [lens.doc],
        };
        break;
      case 'metric': {
        const key = lens.lens.key;
        const obj = value as
          | {
              metrics?: Record<string, { value: number | null; ci?: [number, number] }>;
              table?: Record<string, Record<string, number | null>>;
              marks?: Record<string, Record<string, number>>;
              names?: string[];
              runs?: string[];
            }
          | undefined;
        // The lens shows the metric's name; the key and the meaning are in the tooltip.
        const name = metricName(key);
        let title = name;
        if (obj?.metrics?.[key]) {
          const m = obj.metrics[key]!;
          title = `${name} ${formatNumber(m.value, key)}${m.ci ? ` ${formatCi(m.ci, key)}` : ''}`;
        } else if (obj?.marks?.[key]) {
          const best = Object.entries(obj.marks[key]!).find(([, p]) => p === 1)?.[0];
          if (best)
            title = `${name}: best ${obj.names?.[obj.runs?.indexOf(best) ?? -1] ?? best} ${formatNumber(obj.table?.[best]?.[key] ?? null, key)}`;
        }
        const meaning = explainKey(key)?.meaning;
        lens.command = {
          title,
          tooltip: `${name} (${key})${meaning ? ` — ${meaning}` : ''} Click to open the report at this metric.`,
          command: Command.openReportAt,
          arguments: [{ uri: lens.doc, key }],
        };
        break;
      }
    }
    return lens;
  }
}

export function registerCodeLens(_ctx: EvalLensContext): vscode.Disposable[] {
  const provider = new ResultsCodeLens();
  return [
    vscode.languages.registerCodeLensProvider(
      [
        { language: 'json', scheme: 'file' },
        { language: 'jsonc', scheme: 'file' },
      ],
      provider,
    ),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.codeLens`)) provider.refresh();
    }),
  ];
}
