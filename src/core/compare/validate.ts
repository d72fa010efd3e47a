/**
 * Checks a comparison file (`*.compare.json`) against `schemas/eval-lens.compare.schema.json`
 * before anything reads it, plus what the schema cannot say (`names` aligned with `runs`, the
 * baseline one of the runs). The schema has two kinds (an evaluated `comparison`, an `inspection`
 * of a table); the file's `kind` picks the one its problems are reported against, so a message
 * names the failing field ("compare.tests[0].p_t: expected a number or null, got "x"").
 */
import Ajv, { type ValidateFunction } from 'ajv';
import compareSchema from '../../../schemas/eval-lens.compare.schema.json';
import { describeValue, explain, keyPath } from '../config/check';
import { COMPARE_SCHEMA_ID } from './types';

type Kind = 'comparison' | 'inspection';
const validators = new Map<Kind, ValidateFunction>();

function validator(kind: Kind): ValidateFunction {
  let v = validators.get(kind);
  if (!v) {
    const schema = compareSchema as unknown as {
      definitions: object;
      oneOf: { properties: { kind: { const: string } } }[];
    };
    const branch = schema.oneOf.find((b) => b.properties.kind.const === kind)!;
    v = new Ajv({ allErrors: true, verbose: true, allowUnionTypes: true, strict: true }).compile({
      definitions: schema.definitions,
      ...branch,
    });
    validators.set(kind, v);
  }
  return v;
}

const where = (pointer: string): string => (pointer === '' ? 'compare' : `compare.${keyPath(pointer)}`);

/** Problems of `obj` as a comparison file; empty when valid. At most 50. */
export function validateCompare(obj: unknown): string[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj))
    return [`compare: expected an object, got ${describeValue(obj)}`];
  const o = obj as Record<string, unknown>;
  if (o.schema !== COMPARE_SCHEMA_ID)
    return [
      `compare.schema: expected "${COMPARE_SCHEMA_ID}", got ${o.schema === undefined ? 'no "schema" key' : describeValue(o.schema)}`,
    ];
  if (o.kind !== 'comparison' && o.kind !== 'inspection')
    return [
      `compare.kind: expected "comparison" or "inspection", got ${o.kind === undefined ? 'no "kind" key' : describeValue(o.kind)}`,
    ];
  const validate = validator(o.kind);
  const out: string[] = [];
  if (!validate(obj)) {
    for (const e of validate.errors ?? []) {
      if (e.keyword === 'additionalProperties')
        out.push(
          `${where(e.instancePath)}: unknown key \`${(e.params as { additionalProperty: string }).additionalProperty}\``,
        );
      else if (e.keyword === 'required')
        out.push(`${where(e.instancePath)}: missing \`${(e.params as { missingProperty: string }).missingProperty}\``);
      else if (e.keyword === 'const')
        out.push(
          `${where(e.instancePath)}: expected ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}, got ${describeValue(e.data)}`,
        );
      else if (e.keyword === 'oneOf' || e.keyword === 'anyOf')
        out.push(`${where(e.instancePath)}: got ${describeValue(e.data)}, which matches none of the allowed forms`);
      else out.push(`${where(e.instancePath)}: ${explain(e)}`);
    }
    return [...new Set(out)].slice(0, 50);
  }
  const runs = o.runs as string[];
  const names = o.names as string[];
  if (names.length !== runs.length) out.push(`compare.names: has ${names.length} names for ${runs.length} runs`);
  if (o.kind === 'comparison' && !runs.includes(o.baseline as string))
    out.push(`compare.baseline: expected one of compare.runs, got ${describeValue(o.baseline)}`);
  return out;
}
