/**
 * Results object → {@link ReportModel}: header, headline cards, one tab per metric family with its
 * charts and tables. Curves or tables this module does not know are still shown, generically, in
 * an "Other" tab; a curve absent from the results simply has no chart. The charts of each family
 * are built in the modules beside this one.
 */
import type { Results } from '../../core/results/types';
import { otherCurves } from '../../core/results/curves';
import { cutoffsOf, reportHeadlineKeys } from '../headline';
import { inRankingTable, rankingTable } from '../rankingTable';
import { categoryChart, categoryTable } from '../categoryTable';
import { itemMapChart } from '../itemMapChart';
import { explorerMissingNote, operatingPointModel } from '../operatingPoint';
import { userInspectorModel } from '../userInspector';
import type { ChartModel, ReportModel, TableModel, TabModel } from '../model';
import { FAMILY_TITLES, baselineExtras, card, familyOf, header } from './common';
import { formatLevel, formatNumber } from '../format';
import { confusionChart, perClassBar, perClassTable, perClassVsTrain } from './classification';
import { shiftChart } from './evolving';
import {
  aurcBarsChart,
  costSweepChart,
  groupAnalysisTable,
  operatingPointsTable,
  groupErrorBarsChart,
  riskCoverageChart,
  riskCoveragePracticalChart,
} from './selective';
import { reliabilityCharts } from './calibration';
import { pairedCurveChart } from './importance';
import { activityChart, metricVsKChart, perUserHistograms, storedHistograms } from './ranking';
import { KNOWN_TABLES, RANKING_NAMES, genericCurveChart, genericTable } from './generic';
import { importanceWeightsTable, rankingSummaryTable, thresholdCountsTable } from './summaryTables';
import { foldsReportTable } from './foldsTable';

/** Tables of the results with a builder that names their rows and columns (else they are shown generically). */
const NAMED_TABLES: Record<string, (v: unknown) => TableModel | undefined> = {
  importanceWeights: importanceWeightsTable,
  thresholdCounts: thresholdCountsTable,
  rankingSummary: rankingSummaryTable,
  folds: foldsReportTable,
};

/** Builds the whole report model of one results object. */
export function buildReportModel(results: Results): ReportModel {
  const tabs = new Map<string, TabModel>();
  const targets: ReportModel['targets'] = {};
  const tab = (id: string): TabModel => {
    let t = tabs.get(id);
    if (!t) tabs.set(id, (t = { id, title: FAMILY_TITLES[id] ?? id, cards: [], charts: [], tables: [], notes: [] }));
    return t;
  };
  // Cards, in the order of results.families; keys that no family lists go to "other".
  const seen = new Set<string>();
  // Ranking: the metric@K keys go into one metric × K table instead of a card each.
  const byK = results.task === 'ranking' ? rankingTable(results) : undefined;
  if (byK) tab('ranking').leadTables = [byK];
  for (const [family, keys] of Object.entries(results.families)) {
    for (const key of keys ?? []) {
      const m = results.metrics[key];
      if (!m || seen.has(key)) continue;
      seen.add(key);
      targets[key] = { tab: family };
      if (byK && inRankingTable(key)) continue;
      tab(family).cards.push(card(key, m, family, baselineExtras(results, key)));
    }
  }
  for (const [key, m] of Object.entries(results.metrics)) {
    if (seen.has(key)) continue;
    tab('other').cards.push(card(key, m, 'other', baselineExtras(results, key)));
    targets[key] = { tab: 'other' };
  }
  const place = (tabId: string, chart: ChartModel | undefined, keys: (k: string) => boolean = () => false): void => {
    if (!chart) return;
    tab(tabId).charts.push(chart);
    targets[chart.id] = { tab: tabId, element: chart.id };
    for (const k of Object.keys(results.metrics))
      if (keys(k) && targets[k] && !targets[k]!.element) targets[k] = { tab: targets[k]!.tab, element: chart.id };
  };
  const { curves, tables: t } = results;
  const perClass = t.perClass;
  const ltTab = results.families.longtail ? 'longtail' : 'classification';
  if (perClass && perClass.length > 0) {
    place(ltTab, perClassVsTrain(perClass, results), (k) =>
      /^(acc_many|acc_medium|acc_few|acc_group\.|weighted_)/.test(k),
    );
    place('classification', perClassBar(perClass, results), (k) => /^(accuracy|balanced_accuracy|macro_f1)$/.test(k));
    tab('classification').tables.push(perClassTable(perClass));
  }
  if (t.confusion && t.confusion.labels.length > 0) place('classification', confusionChart(t.confusion));
  if (curves.shift)
    place('evolving', shiftChart(curves.shift, results.metrics), (k) => familyOf(results, k) === 'evolving');
  if (curves.riskCoverage)
    place('selective', riskCoverageChart(curves.riskCoverage, results.metrics), (k) => /aurc/.test(k));
  place(
    'selective',
    riskCoveragePracticalChart(curves.riskCoverageGrid101, curves.riskCoverage, results.metrics),
    (k) => /_0\.2_1$/.test(k),
  );
  const level = formatLevel(results.config?.bootstrap?.confidence);
  place('selective', aurcBarsChart(results.metrics, level));
  place(
    'selective',
    groupErrorBarsChart(results.metrics, results.families.selective ?? Object.keys(results.metrics), level),
    (k) => /^error_group\./.test(k),
  );
  if (curves.costSweep) place('selective', costSweepChart(curves.costSweep));
  if (t.operatingPoints && t.operatingPoints.length > 0)
    tab('selective').tables.push(operatingPointsTable(t.operatingPoints, results));
  if (t.groupAnalysis && t.groupAnalysis.length > 0) tab('selective').tables.push(groupAnalysisTable(t.groupAnalysis));
  if (t.reliability || curves.reliability)
    for (const c of reliabilityCharts(t.reliability, curves.reliability))
      place('calibration', c, (k) => familyOf(results, k) === 'calibration');
  place(
    'importance',
    pairedCurveChart(
      'pr',
      'Precision–recall',
      curves.pr,
      curves.pr_unweighted,
      false,
      'Precision (y) against recall (x)',
    ),
    (k) => /^(aupr_trapz|average_precision|precision|recall|f1)$/.test(k),
  );
  place(
    'importance',
    pairedCurveChart(
      'roc',
      'ROC',
      curves.roc,
      curves.roc_unweighted,
      true,
      'True positive rate (y) against false positive rate (x)',
    ),
    (k) => k === 'roc_auc',
  );
  if (results.task === 'ranking' || cutoffsOf(results.metrics).length >= 2)
    place('ranking', metricVsKChart(results), (k) => /@\d+$/.test(k));
  const stored = storedHistograms(t.perUserHistograms);
  for (const h of stored.length > 0 ? stored : perUserHistograms(results)) place('ranking', h);
  place('ranking', activityChart(t.activityBins, results));
  place('ranking', categoryChart(t.categoryBreakdown));
  place('ranking', itemMapChart(t.itemMap));
  const categories = categoryTable(t.categoryBreakdown);
  if (categories) tab('ranking').tables.push(categories);
  // Whatever else the results hold.
  for (const [name, c] of otherCurves(results)) {
    // `metricVsK.<metric>` of a later version is drawn in the metric-vs-K chart; a bare `metricVsK` is an older version's.
    if (name === 'metricVsK' || name.startsWith('metricVsK.') || !Array.isArray(c.xs)) continue;
    place(RANKING_NAMES.test(name) ? 'ranking' : 'other', genericCurveChart(name, c));
  }
  for (const [name, v] of Object.entries(t)) {
    if (KNOWN_TABLES.has(name)) continue;
    const g = NAMED_TABLES[name]?.(v) ?? genericTable(`table.${name}`, name, v);
    if (g)
      tab(
        name === 'folds' && results.task === 'classification'
          ? 'classification'
          : RANKING_NAMES.test(name)
            ? 'ranking'
            : results.task === 'iw-binary'
              ? 'importance'
              : 'other',
      ).tables.push(g);
  }
  for (const [tabId, text] of worstGroupNotes(results)) if (tabs.has(tabId)) tab(tabId).notes.push(text);
  const explorer = operatingPointModel(results);
  if (explorer && tabs.has(explorer.tab)) tab(explorer.tab).explorer = explorer;
  const noExplorer = explorerMissingNote(results);
  if (noExplorer) tab(results.task === 'iw-binary' ? 'importance' : 'selective').notes.push(noExplorer);
  const users = userInspectorModel(results);
  if (users && tabs.has('ranking')) tab('ranking').userInspector = users;
  const order = [
    'classification',
    'longtail',
    'evolving',
    'selective',
    'calibration',
    'importance',
    'ranking',
    'other',
  ];
  const sorted = [...tabs.values()].sort(
    (a, b) => ((order.indexOf(a.id) + 99) % 99) - ((order.indexOf(b.id) + 99) % 99),
  );
  const head = header(results);
  return {
    kind: 'results',
    title: head.title,
    header: head,
    headline: reportHeadlineKeys(results).map((k) =>
      card(k, results.metrics[k]!, familyOf(results, k), baselineExtras(results, k)),
    ),
    tabs: sorted,
    targets,
  };
}

/**
 * The two worst-group errors name their grouping where each is shown, and each points to the other:
 * `worst_error` (Selective tab) over the class-frequency groups of `groups` on the accepted rows,
 * `worst_subgroup_error` (Classification tab) over the values of the `subgroupColumn` column on every row.
 */
export function worstGroupNotes(results: Results): [string, string][] {
  const m = results.metrics;
  const sub = m.worst_subgroup_error;
  const cls = m.worst_error;
  const column = results.config?.subgroupColumn;
  const fmt = (v: number | null | undefined): string => formatNumber(v ?? null, 'worst_error');
  const out: [string, string][] = [];
  if (sub && typeof column === 'string') {
    const also = cls
      ? ` The worst class-frequency group (head/tail, accepted rows) is worst_error = ${fmt(cls.value)} on the Selective tab.`
      : '';
    out.push([
      familyOf(results, 'worst_subgroup_error'),
      `Worst-group error by the per-row column “${column}”: worst_subgroup_error = ${fmt(sub.value)}, the largest error_subgroup.<value>, every row counted.${also}`,
    ]);
  }
  if (cls && sub && typeof column === 'string')
    out.push([
      familyOf(results, 'worst_error'),
      `worst_error is over the class-frequency groups (the true class's group by train count) on the accepted rows. The worst group of the per-row column “${column}” is worst_subgroup_error = ${fmt(sub.value)} on the Classification tab.`,
    ]);
  return out;
}
