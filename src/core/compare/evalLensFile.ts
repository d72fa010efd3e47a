/**
 * A results file or a comparison file (`eval-lens/compare@1`: a run-vs-run comparison or a table
 * inspection), parsed and checked: the results against their schema (results/validate.ts), a
 * comparison against its own (validate.ts). Nothing in it is used before this returns.
 */
import { checkedResults, invalidFileError, notEvalLensError, parseEvalLensText } from '../results/validate';
import { RESULTS_SCHEMA_ID, type Results } from '../results/types';
import { COMPARE_SCHEMA_ID, type CompareResults } from './types';
import { validateCompare } from './validate';
import type { MarkedRunsTable } from './runsTable';

/** A results or comparison file, checked. */
export type EvalLensJson =
  | { kind: 'results'; results: Results }
  | { kind: 'compare'; compare: CompareResults }
  | { kind: 'inspection'; inspection: MarkedRunsTable };

/**
 * Parses and checks the text of a results (`eval-lens/results@1`) or comparison
 * (`eval-lens/compare@1`) file.
 * @throws EvalLensError `results-syntax` (with line and column), `results-not-eval-lens` (valid
 *   JSON of another kind), `results-invalid` (lists the problems, each naming its field).
 */
export function parseEvalLensJson(path: string, text: string): EvalLensJson {
  const { obj, schema } = parseEvalLensText(path, text);
  if (schema === RESULTS_SCHEMA_ID) return { kind: 'results', results: checkedResults(path, obj) };
  if (schema !== COMPARE_SCHEMA_ID) throw notEvalLensError(path, schema, [RESULTS_SCHEMA_ID, COMPARE_SCHEMA_ID]);
  const problems = validateCompare(obj);
  if (problems.length > 0)
    throw invalidFileError('results-invalid', path, `${COMPARE_SCHEMA_ID} comparison file`, problems);
  const c = obj as CompareResults | MarkedRunsTable;
  return c.kind === 'comparison' ? { kind: 'compare', compare: c } : { kind: 'inspection', inspection: c };
}
