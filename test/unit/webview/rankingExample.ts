/**
 * The ranking example (examples/ranking-debian-deps/cooccurrence.jsonl) as the report webview sees
 * it: the report model the host builds from its results, the row query the host answers requests
 * with, and the run file read the obvious way (for the expected values). Build it before the DOM
 * is installed: the core runs in plain Node.
 */
import { readFileSync } from 'node:fs';
import { evaluateFile } from '../../../src/core/evaluate';
import { openInspection } from '../../../src/core/inspect';
import type { Results } from '../../../src/core/results/types';
import type { RowPage, RowQuery } from '../../../src/core/rows/types';
import type { ChartModel, ReportModel, TabModel } from '../../../src/shared/model';
import { buildReportModel } from '../../../src/shared/report';

export const RUN = 'examples/ranking-debian-deps/cooccurrence.jsonl';

export interface RankingExample {
  results: Results;
  model: ReportModel;
  /** The Ranking tab (user inspector and item map). */
  tab: TabModel;
  /** The item map's chart. */
  itemMap: ChartModel;
  /** The host's answer to a row query. */
  query(q: RowQuery): RowPage;
  /** The run file's lines: user, ranked items, relevant items. */
  lines: { user: string; items: string[]; relevant: string[] }[];
}

export async function rankingExample(): Promise<RankingExample> {
  const opts = { overrides: { bootstrap: { n: 0 } }, root: process.cwd() };
  const results = await evaluateFile(RUN, opts);
  const inspection = await openInspection(RUN, opts);
  const model = buildReportModel(results);
  const tab = model.tabs.find((t) => t.id === 'ranking')!;
  const itemMap = tab.charts.find((c) => c.itemMap)!;
  const lines = readFileSync(RUN, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { user: string; items: string[]; relevant: string[] });
  return { results, model, tab, itemMap, query: (q) => inspection.query(q), lines };
}
