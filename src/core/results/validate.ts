/**
 * Checks a results object against `schemas/eval-lens.results.schema.json` (`eval-lens/results@1`)
 * plus what a schema cannot say: every key listed in `families` is in `metrics`, a curve's columns
 * are aligned, an interval's lower end is not above its upper end.
 */
import { readFile } from 'node:fs/promises';
import Ajv, { type ValidateFunction } from 'ajv';
import resultsSchema from '../../../schemas/eval-lens.results.schema.json';
import { EvalLensError } from '../diagnostics';
import { describeValue, explain, keyPath } from '../config/check';
import { JsonSyntaxError, parseJsonWithLocations } from '../config/jsonWithLocations';
import { RESULTS_SCHEMA_ID, type Results } from './types';

/** The results JSON Schema as shipped (registered for `*.eval.json` in the editor). */
export const RESULTS_SCHEMA: object = resultsSchema;

const ISO_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

let compiled: ValidateFunction | undefined;
function validator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv({ allErrors: true, verbose: true, allowUnionTypes: true, strict: true });
    ajv.addFormat('date-time', ISO_DATE_TIME);
    compiled = ajv.compile(resultsSchema);
  }
  return compiled;
}

function where(pointer: string): string {
  return pointer === '' ? 'results' : `results.${keyPath(pointer)}`;
}

/**
 * Problems of `obj` as a results object; an empty list means valid. Each names the path
 * (`results.metrics.accuracy.value`) and what was expected vs found. At most 50 are listed.
 */
export function validateResults(obj: unknown): string[] {
  const validate = validator();
  const out: string[] = [];
  if (!validate(obj)) {
    for (const e of validate.errors ?? []) {
      if (e.keyword === 'additionalProperties') {
        const name = (e.params as { additionalProperty: string }).additionalProperty;
        out.push(`${where(e.instancePath)}: unknown key \`${name}\``);
      } else if (e.keyword === 'required') {
        out.push(`${where(e.instancePath)}: missing \`${(e.params as { missingProperty: string }).missingProperty}\``);
      } else if (e.keyword === 'const') {
        out.push(`${where(e.instancePath)}: expected ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}, got ${describeValue(e.data)}`);
      } else if (e.keyword === 'anyOf') {
        out.push(`${where(e.instancePath)}: expected a string or an array of strings, got ${describeValue(e.data)}`);
      } else if (e.keyword === 'format' || e.keyword === 'pattern') {
        out.push(`${where(e.instancePath)}: expected ${e.keyword === 'format' ? 'an ISO date-time' : 'a lower-case hex SHA-256 (64 characters)'}, got ${describeValue(e.data)}`);
      } else {
        out.push(`${where(e.instancePath)}: ${explain(e)}`);
      }
    }
    return [...new Set(out)].slice(0, 50);
  }
  const r = obj as Results;
  for (const [family, keys] of Object.entries(r.families)) {
    for (const key of keys ?? []) if (!(key in r.metrics)) out.push(`results.families.${family}: lists \`${key}\`, which is not in results.metrics`);
  }
  const checkCi = (map: Record<string, { ci?: [number, number] }>, path: string): void => {
    for (const [key, m] of Object.entries(map)) {
      if (m.ci && m.ci[0] > m.ci[1]) out.push(`${path}.${key}.ci: expected lower ≤ upper, got [${m.ci[0]}, ${m.ci[1]}]`);
    }
  };
  checkCi(r.metrics, 'results.metrics');
  for (const [name, map] of Object.entries(r.baselines ?? {})) checkCi(map, `results.baselines.${name}`);
  for (const [name, c] of Object.entries(r.curves)) {
    if (c.xs.length !== c.ys.length) out.push(`results.curves.${name}: xs has ${c.xs.length} points but ys has ${c.ys.length}`);
    for (const [col, values] of Object.entries(c.extra ?? {})) {
      if (values.length !== c.xs.length) out.push(`results.curves.${name}.extra.${col}: has ${values.length} values, expected ${c.xs.length} (one per point)`);
    }
  }
  return out.slice(0, 50);
}

/**
 * Reads an Eval Lens results file and checks it.
 * @throws EvalLensError `results-read`, `results-syntax` (with line and column),
 *   `results-not-eval-lens` (valid JSON of another kind), `results-invalid` (lists the problems).
 */
export async function readResultsFile(path: string): Promise<Results> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new EvalLensError('results-read', `${path}: cannot read the results file: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}.`, { file: path });
  }
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (err) {
    // JSON.parse's message has no line on Node 20; the located parser (only on this error path) does.
    let syntax: JsonSyntaxError | undefined;
    try {
      parseJsonWithLocations(text);
    } catch (e) {
      if (e instanceof JsonSyntaxError) syntax = e;
    }
    const at = syntax ? `:${syntax.line}:${syntax.column}: invalid JSON at line ${syntax.line}, column ${syntax.column}` : ': invalid JSON';
    throw new EvalLensError('results-syntax', `${path}${at}: ${syntax?.message ?? (err as Error).message}.`, { file: path, line: syntax?.line });
  }
  const schema = obj !== null && typeof obj === 'object' ? (obj as { schema?: unknown }).schema : undefined;
  if (schema !== RESULTS_SCHEMA_ID) {
    throw new EvalLensError(
      'results-not-eval-lens',
      `${path}: not an Eval Lens results file: expected "schema": "${RESULTS_SCHEMA_ID}", got ${schema === undefined ? 'no "schema" key' : describeValue(schema)}.`,
      { file: path },
    );
  }
  const problems = validateResults(obj);
  if (problems.length > 0) {
    const shown = problems.slice(0, 10).map((p) => `\n  ${p}`).join('');
    const more = problems.length > 10 ? `\n  … and ${problems.length - 10} more` : '';
    throw new EvalLensError('results-invalid', `${path}: the results do not match ${RESULTS_SCHEMA_ID} (${problems.length} problem${problems.length === 1 ? '' : 's'}):${shown}${more}`, { file: path });
  }
  return obj as Results;
}
