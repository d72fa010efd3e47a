/**
 * Where the results of a prediction file go: `<stem>.eval.json` beside the input (`preds.csv` →
 * `preds.eval.json`), or in the configured output folder. When a sibling prediction file shares
 * the stem (`logreg.csv` and `logreg.jsonl`), the full name is kept (`logreg.jsonl.eval.json`) for
 * every file but the `.csv` one, so two inputs never write the same results file.
 */

/** Extensions of files the extension offers to evaluate (explorer menu, file picker). */
export const PREDICTION_EXTENSIONS = [
  'csv',
  'tsv',
  'jsonl',
  'json',
  'trec',
  'qrels',
  'run',
  'txt',
  'npy',
  'npz',
  'parquet',
] as const;

function splitName(name: string): { stem: string; ext: string } {
  const i = name.lastIndexOf('.');
  return i <= 0 ? { stem: name, ext: '' } : { stem: name.slice(0, i), ext: name.slice(i + 1).toLowerCase() };
}

/** True for results/comparison files and configs, which are never predictions. */
export function isEvalLensJson(name: string): boolean {
  return /\.(eval|compare)\.json$/i.test(name) || /^eval-lens\.json$/i.test(name);
}

/**
 * The results file name for `inputName` given the names of its folder's other files.
 * @example resultsFileName('preds.csv', []) === 'preds.eval.json'
 */
export function resultsFileName(inputName: string, siblings: readonly string[]): string {
  const { stem, ext } = splitName(inputName);
  if (ext === 'csv' || ext === '') return `${stem}.eval.json`;
  const clash = siblings.some((s) => {
    if (s === inputName || isEvalLensJson(s)) return false;
    const o = splitName(s);
    return o.stem === stem && (PREDICTION_EXTENSIONS as readonly string[]).includes(o.ext);
  });
  return clash ? `${inputName}.eval.json` : `${stem}.eval.json`;
}

/** The last component of a path written with either separator. */
function baseName(p: string): string {
  const parts = p.split(/[\\/]/).filter((x) => x !== '');
  return parts[parts.length - 1] ?? p;
}

/**
 * The name of a factor model (an `eval-lens.json` naming `userFactors`): its folder's name, which
 * says which model it is better than its user matrix's name does — every such model has a `U.npy`.
 * @example factorModelName('examples/ranking-factors/U.npy') === 'ranking-factors'
 */
export function factorModelName(userFactorsPath: string): string {
  const parts = userFactorsPath.split(/[\\/]/).filter((x) => x !== '');
  return parts.length >= 2 ? parts[parts.length - 2]! : baseName(userFactorsPath).replace(/\.[^.]+$/, '');
}

/**
 * The results file of a factor model, named after the model: `ranking-factors/U.npy` →
 * `ranking-factors.eval.json` (not `U.eval.json`, which every such model would share).
 */
export function factorResultsFileName(userFactorsPath: string): string {
  return `${factorModelName(userFactorsPath)}.eval.json`;
}

/** FNV-1a 32-bit hash of a string, as 8 hex digits: a short, stable tag for a set of paths. */
function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/**
 * The comparison file of a set of runs (paths or names): the same file whatever the order in
 * which the runs were chosen (and whichever is the baseline), so comparing them again replaces
 * it. Up to three runs: their stems in sorted order, `a-vs-b.compare.json`; more: the first stem,
 * the count and a hash of the sorted paths, `a-and-3-more-1f2e3d4c.compare.json`.
 *
 * @example compareFileName(['b.csv', 'a.csv']) === compareFileName(['a.csv', 'b.csv']) === 'a-vs-b.compare.json'
 */
export function compareFileName(runs: readonly string[]): string {
  const stem = (n: string): string =>
    (n.split(/[\\/]/).pop() ?? n).replace(/\.eval\.json$/i, '').replace(/\.[^.]+$/, '');
  const sorted = [...runs].sort((x, y) =>
    stem(x) < stem(y) ? -1 : stem(x) > stem(y) ? 1 : x < y ? -1 : x > y ? 1 : 0,
  );
  if (sorted.length === 0) return 'runs.compare.json';
  if (sorted.length <= 3) return `${sorted.map(stem).join('-vs-')}.compare.json`;
  return `${stem(sorted[0]!)}-and-${sorted.length - 1}-more-${fnv1a(sorted.join('\n'))}.compare.json`;
}

/**
 * Which results JSON a file is, by name: ours (`*.eval.json`), a comparison (`*.compare.json`),
 * another tool's results (`metrics.json`, `results.json`, `eval_results.json`, `test_scores.json`,
 * `summary.json`…), or none (configs, manifests and every other JSON get no CodeLens).
 */
export function jsonKind(fileName: string): 'results' | 'compare' | 'foreign' | undefined {
  const base = (fileName.split(/[\\/]/).pop() ?? fileName).toLowerCase();
  if (base.endsWith('.eval.json')) return 'results';
  if (base.endsWith('.compare.json')) return 'compare';
  if (
    !base.endsWith('.json') ||
    base === 'eval-lens.json' ||
    /^(package(-lock)?|tsconfig.*|jsconfig|composer|manifest)\.json$/.test(base)
  )
    return undefined;
  if (/(^|[_.-])(metrics?|results?|scores?|eval|evaluation|summary)([_.-]|$)/.test(base.replace(/\.json$/, '.')))
    return 'foreign';
  return undefined;
}

/**
 * The file name of a saved chart, after the report and the chart's title:
 * `chartFileName('logreg.csv', 'Risk–coverage') === 'logreg-risk-coverage.png'`.
 */
export function chartFileName(reportTitle: string, chartTitle: string): string {
  const slug = (s: string): string =>
    s
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
  const stem = slug(reportTitle.replace(/\.(eval|compare)\.json$/i, '').replace(/\.[a-z0-9]{1,8}$/i, '')) || 'report';
  return `${stem}-${slug(chartTitle) || 'chart'}.png`;
}
