/**
 * The classification report of examples/digits-lt/logreg.csv as the webview gets it: the report
 * model the host builds (no bootstrap), the drill-down targets of its numbers (the host's
 * builder) and the results it is built from. Build it before the DOM is installed: the core runs in plain Node.
 */
import { evaluateFile } from '../../../src/core/evaluate';
import type { Results } from '../../../src/core/results/types';
import type { DrillTargets } from '../../../src/shared/drillSpec';
import { drillTargets } from '../../../src/shared/drillTargets';
import type { ReportModel } from '../../../src/shared/model';
import { buildReportModel } from '../../../src/shared/report';

export async function logregReport(): Promise<{ model: ReportModel; drill: DrillTargets; results: Results }> {
  const results = await evaluateFile('examples/digits-lt/logreg.csv', {
    overrides: { bootstrap: { n: 0 } },
    root: process.cwd(),
  });
  const model = buildReportModel(results);
  return { model, drill: drillTargets(results, model), results };
}
