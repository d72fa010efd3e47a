/**
 * Checks a results object against `schemas/eval-lens.results.schema.json` (`eval-lens/results@1`)
 * plus what a schema cannot say: every key listed in `families` is in `metrics`, a curve's columns
 * are aligned, an interval's lower end is not above its upper end. {@link readResultsFile} reads a
 * results file; `parseEvalLensJson` (compare/evalLensFile.ts) either a results file or a comparison
 * file, with the parts exported here.
 *
 * Results and comparison files come from other people (cloned repositories, pull requests), so
 * every one the CLI or the extension reads goes through one of them before any field is used.
 */
import { readFile } from 'node:fs/promises';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import resultsSchema from '../../../schemas/eval-lens.results.schema.json';
import { EvalLensError, printable } from '../diagnostics';
import { describeValue, explain, keyPath } from '../config/check';
import { JsonSyntaxError, parseJsonWithLocations } from '../config/jsonWithLocations';
import { RESULTS_SCHEMA_ID, type Results } from './types';
import { RowIds } from '../data/rowIds';

const ISO_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

let ajv: Ajv | undefined;
const compiled = new Map<object, ValidateFunction>();
function validator(schema: object = resultsSchema): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    ajv ??= new Ajv({ allErrors: true, verbose: true, allowUnionTypes: true, strict: true }).addFormat(
      'date-time',
      ISO_DATE_TIME,
    );
    v = ajv.compile(schema);
    compiled.set(schema, v);
  }
  return v;
}

function where(pointer: string, root = 'results'): string {
  return pointer === '' ? root : `${root}.${keyPath(pointer)}`;
}

/** ajv's errors as one line each, naming the path under `root`. */
function describeErrors(errors: readonly ErrorObject[], root: string): string[] {
  const out: string[] = [];
  for (const e of errors) {
    if (e.keyword === 'additionalProperties') {
      const name = (e.params as { additionalProperty: string }).additionalProperty;
      out.push(`${where(e.instancePath, root)}: unknown key \`${printable(name)}\``);
    } else if (e.keyword === 'required') {
      out.push(
        `${where(e.instancePath, root)}: missing \`${(e.params as { missingProperty: string }).missingProperty}\``,
      );
    } else if (e.keyword === 'const') {
      out.push(
        `${where(e.instancePath, root)}: expected ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}, got ${printable(describeValue(e.data))}`,
      );
    } else if (e.keyword === 'anyOf') {
      out.push(
        `${where(e.instancePath, root)}: expected a string or an array of strings, got ${printable(describeValue(e.data))}`,
      );
    } else if (e.keyword === 'format' || e.keyword === 'pattern') {
      out.push(
        `${where(e.instancePath, root)}: expected ${e.keyword === 'format' ? 'an ISO date-time' : 'a lower-case hex SHA-256 (64 characters)'}, got ${printable(describeValue(e.data))}`,
      );
    } else {
      out.push(`${where(e.instancePath, root)}: ${printable(explain(e))}`);
    }
  }
  return [...new Set(out)];
}

/**
 * Problems of `obj` as a results object; an empty list means valid. Each names the path
 * (`results.metrics.accuracy.value`) and what was expected vs found. At most 50 are listed.
 */
export function validateResults(obj: unknown): string[] {
  // Results in memory hold a file's row ids as a RowIds: validated as their JSON form, the texts.
  const perItem = (obj as Partial<Results> | null)?.perItem;
  if (perItem?.ids instanceof RowIds)
    obj = { ...(obj as Results), perItem: { ...perItem, ids: perItem.ids.toArray() } };
  const validate = validator();
  const out: string[] = [];
  if (!validate(obj)) return describeErrors(validate.errors ?? [], 'results').slice(0, 50);
  const r = obj as Results;
  for (const [family, keys] of Object.entries(r.families)) {
    for (const key of keys ?? [])
      if (!(key in r.metrics))
        out.push(`results.families.${family}: lists \`${key}\`, which is not in results.metrics`);
  }
  const checkCi = (map: Record<string, { ci?: [number, number] }>, path: string): void => {
    for (const [key, m] of Object.entries(map)) {
      if (m.ci && m.ci[0] > m.ci[1])
        out.push(`${path}.${key}.ci: expected lower ≤ upper, got [${m.ci[0]}, ${m.ci[1]}]`);
    }
  };
  checkCi(r.metrics, 'results.metrics');
  for (const [name, map] of Object.entries(r.baselines ?? {})) checkCi(map, `results.baselines.${name}`);
  for (const [name, c] of Object.entries(r.curves)) {
    if (c.xs.length !== c.ys.length)
      out.push(`results.curves.${name}: xs has ${c.xs.length} points but ys has ${c.ys.length}`);
    for (const [col, values] of Object.entries(c.extra ?? {})) {
      if (values.length !== c.xs.length)
        out.push(
          `results.curves.${name}.extra.${col}: has ${values.length} values, expected ${c.xs.length} (one per point)`,
        );
    }
  }
  const cm = r.tables.confusion;
  if (cm) {
    const L = cm.labels.length;
    if (cm.matrix.length !== L)
      out.push(`results.tables.confusion.matrix: has ${cm.matrix.length} rows, expected ${L} (one per label)`);
    cm.matrix.forEach((row, i) => {
      if (row.length !== L)
        out.push(`results.tables.confusion.matrix[${i}]: has ${row.length} cells, expected ${L} (one per label)`);
    });
  }
  const map = r.tables.itemMap;
  if (map) {
    const n = map.ids.length;
    if (n > map.limit) out.push(`results.tables.itemMap.ids: has ${n} items, expected at most the limit ${map.limit}`);
    if (n > map.itemsWithVectors)
      out.push(`results.tables.itemMap.ids: has ${n} items, expected at most the ${map.itemsWithVectors} with vectors`);
    for (const col of ['x', 'y', 'recommended', 'popularity', 'categories', 'names'] as const) {
      const v = map[col];
      if (v && v.length !== n)
        out.push(`results.tables.itemMap.${col}: has ${v.length} values, expected ${n} (one per item)`);
    }
  }
  const cb = r.tables.categoryBreakdown;
  if (cb && Array.isArray(cb.rows)) {
    cb.rows.forEach((row, i) => {
      if (row.hits > row.relevant)
        out.push(
          `results.tables.categoryBreakdown.rows[${i}]: ${row.hits} hits, expected at most the ${row.relevant} relevant items`,
        );
      if (row.recommendedItems > row.catalogItems)
        out.push(
          `results.tables.categoryBreakdown.rows[${i}]: ${row.recommendedItems} recommended items, expected at most the ${row.catalogItems} catalogue items`,
        );
    });
  }
  return out.slice(0, 50);
}

/**
 * `obj` as results when it is valid ({@link validateResults}), else its problems: the one place an
 * object read from elsewhere becomes {@link Results}, so that its tables have the types their names
 * give them (the lint forbids `as Results` in any other module).
 */
export function checkResults(obj: unknown): { ok: true; results: Results } | { ok: false; problems: string[] } {
  const problems = validateResults(obj);
  return problems.length === 0 ? { ok: true, results: obj as Results } : { ok: false, problems };
}

/** A JSON syntax error of a results or comparison file, with its line and column. */
export function jsonSyntaxError(path: string, text: string, err: unknown): EvalLensError {
  // JSON.parse's message has no line on Node 20; the located parser (only on this error path) does.
  let syntax: JsonSyntaxError | undefined;
  try {
    parseJsonWithLocations(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) syntax = e;
  }
  const at = syntax
    ? `:${syntax.line}:${syntax.column}: invalid JSON at line ${syntax.line}, column ${syntax.column}`
    : ': invalid JSON';
  return new EvalLensError('results-syntax', `${path}${at}: ${printable(syntax?.message ?? (err as Error).message)}.`, {
    file: path,
    line: syntax?.line,
  });
}

/** The JSON of a results or comparison file (a syntax error names its line and column) and its `schema`. */
export function parseEvalLensText(path: string, text: string): { obj: unknown; schema: unknown } {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (err) {
    throw jsonSyntaxError(path, text, err);
  }
  const schema =
    obj !== null && typeof obj === 'object' && !Array.isArray(obj) ? (obj as { schema?: unknown }).schema : undefined;
  return { obj, schema };
}

/** The error for valid JSON of another kind: `expected` lists the schema ids accepted. */
export function notEvalLensError(path: string, schema: unknown, expected: string[]): EvalLensError {
  return new EvalLensError(
    'results-not-eval-lens',
    `${path}: not an Eval Lens results file: expected "schema": ${expected.map((id) => `"${id}"`).join(' or ')}, got ${schema === undefined ? 'no "schema" key' : printable(describeValue(schema))}.`,
    { file: path },
  );
}

/** `obj` (of schema `eval-lens/results@1`) as results once checked; else the error listing its problems. */
export function checkedResults(path: string, obj: unknown): Results {
  const checked = checkResults(obj);
  if (!checked.ok)
    throw invalidFileError('results-invalid', path, `${RESULTS_SCHEMA_ID} results file`, checked.problems);
  return checked.results;
}

/**
 * The error for a results or comparison file that fails its schema, worded the same wherever such a
 * file is read: `<file>: not a valid <what> (N problems):` and the first ten problems, each naming
 * its field.
 */
export function invalidFileError(code: string, path: string, what: string, problems: string[]): EvalLensError {
  const shown = problems
    .slice(0, 10)
    .map((p) => `\n  ${p}`)
    .join('');
  const more = problems.length > 10 ? `\n  … and ${problems.length - 10} more` : '';
  return new EvalLensError(
    code,
    `${path}: not a valid ${what} (${problems.length} problem${problems.length === 1 ? '' : 's'}):${shown}${more}`,
    { file: path },
  );
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new EvalLensError(
      'results-read',
      `${path}: cannot read the results file: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}.`,
      { file: path },
    );
  }
}

/**
 * Reads an Eval Lens results file and checks it.
 * @throws EvalLensError `results-read`, `results-syntax` (with line and column),
 *   `results-not-eval-lens` (valid JSON of another kind, a comparison included), `results-invalid`
 *   (lists the problems).
 */
export async function readResultsFile(path: string): Promise<Results> {
  const { obj, schema } = parseEvalLensText(path, await readText(path));
  if (schema !== RESULTS_SCHEMA_ID) throw notEvalLensError(path, schema, [RESULTS_SCHEMA_ID]);
  return checkedResults(path, obj);
}
