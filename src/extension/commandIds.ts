/**
 * Every command id of the extension, in one table that matches `package.json`
 * (`contributes.commands`; a unit test checks the two agree).
 */
export const Command = {
  evaluate: 'evalLens.evaluate',
  compare: 'evalLens.compare',
  openReport: 'evalLens.openReport',
  reevaluate: 'evalLens.reevaluate',
  exportReport: 'evalLens.exportReport',
  createConfig: 'evalLens.createConfig',
  refreshResults: 'evalLens.refreshResults',
  compareWith: 'evalLens.compareWith',
  revealJson: 'evalLens.revealJson',
  copyValue: 'evalLens.copyValue',
  openReportAt: 'evalLens.openReportAt',
  openAsTable: 'evalLens.openAsTable',
  showLog: 'evalLens.showLog',
} as const;

export type CommandId = (typeof Command)[keyof typeof Command];

/** View and container ids (package.json `views`, `viewsContainers`). */
export const View = {
  container: 'evalLens',
  results: 'evalLens.results',
} as const;

/** Tree item `contextValue`s used in `view/item/context` `when` clauses. */
export const ItemKind = {
  folder: 'folder',
  results: 'results',
  compare: 'compare',
  family: 'family',
  metric: 'metric',
} as const;
