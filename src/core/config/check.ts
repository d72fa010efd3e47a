/**
 * Checks a configuration object against `schemas/eval-lens.config.schema.json` (with ajv) and
 * turns ajv's errors into messages a person can act on: the key path, the line of the key in the
 * file (when the object was parsed from one), what was expected and what was found, and the
 * nearest known key for an unknown one. Also the checks that span several keys (which the schema
 * cannot state readably): `trainCounts` vs `classWeights`, `acceptThreshold` vs `targetCoverage`,
 * `shotThresholds.few ≤ many`.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createHash } from 'node:crypto';
import configSchema from '../../../schemas/eval-lens.config.schema.json';
import AJV_OPTIONS from './ajvOptions.json';
import precompiledValidator, { compiledFrom } from './configValidator.generated';
import { EvalLensError } from '../diagnostics';
import { CONFIG_DEFAULTS, type EvalConfig } from './types';
import { lineOf, type ParsedJson } from './jsonWithLocations';
import { nearest } from './suggest';

/** The config JSON Schema as shipped (also registered for `eval-lens.json` in the editor). */
export const CONFIG_SCHEMA = configSchema as unknown as JsonSchema;

/** The part of a JSON Schema this module reads. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  minLength?: number;
  minProperties?: number;
  definitions?: Record<string, JsonSchema>;
}

/** One problem with a config; `line` when the config came from a file. */
export interface ConfigProblem {
  code: 'config-unknown-key' | 'config-invalid';
  /** JSON pointer of the offending value (for an unknown key: of the key). */
  pointer: string;
  line?: number;
  message: string;
}

let compiled: ValidateFunction | undefined;
/**
 * The schema's validator, compiled ahead of time with the options of ajvOptions.json
 * (configValidator.generated.ts, ajv's standalone code, made by scripts/gen-config-validator.mjs
 * before every build, typecheck and unit test run): compiling the schema at the first check took
 * 60–70 ms of every process's first evaluation. Should that file lag behind the schema or the
 * options (edited since it was made), the schema is compiled here, as before: slower, never stale.
 * Only then is ajv loaded: its compiler is a quarter of a megabyte of code that a process checking
 * its config with the precompiled validator would otherwise compile and run at its start.
 */
function validator(): ValidateFunction {
  if (compiled) return compiled;
  if (configValidatorKey() === compiledFrom) compiled = precompiledValidator as ValidateFunction;
  else {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on this path only
    const { default: Ajv } = require('ajv') as typeof import('ajv');
    compiled = new Ajv(AJV_OPTIONS).compile(CONFIG_SCHEMA);
  }
  return compiled;
}

/**
 * The SHA-256 of the schema and the ajv options as this build holds them: the precompiled
 * validator is used only when it was generated from the same (its `compiledFrom`).
 */
export function configValidatorKey(): string {
  return createHash('sha256')
    .update(JSON.stringify([CONFIG_SCHEMA, AJV_OPTIONS]))
    .digest('hex');
}

/** Top-level keys of the config schema (without `$schema`), in schema order. */
export function configKeys(): string[] {
  return Object.keys(CONFIG_SCHEMA.properties ?? {}).filter((k) => k !== '$schema');
}

/** The schema of a top-level key with local `$ref`s resolved, or undefined for an unknown key. */
export function configKeySchema(key: string): JsonSchema | undefined {
  const s = CONFIG_SCHEMA.properties?.[key];
  return s ? deref(s) : undefined;
}

function deref(s: JsonSchema): JsonSchema {
  if (!s.$ref) return s;
  const name = /^#\/definitions\/(.+)$/.exec(s.$ref)?.[1];
  const target = name ? CONFIG_SCHEMA.definitions?.[name] : undefined;
  if (!target) return s;
  const { $ref: _ref, ...rest } = s;
  return { ...deref(target), ...rest };
}

/** `/bootstrap/n` → `bootstrap.n`, `/topK/1` → `topK[1]`. */
export function keyPath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(seg) ? `[${seg}]` : out === '' ? seg : `.${seg}`;
  }
  return out;
}

/** A value as it should appear after "got": strings quoted, containers by kind. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length === 0 ? 'an empty array' : 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);
  return String(v);
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

function typeWords(t: string | string[]): string {
  const list = Array.isArray(t) ? t : String(t).split(',');
  return orList(list.map((x) => TYPE_WORDS[x] ?? x));
}

function orList(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** Words for what a schema accepts, for "expected …" after an `anyOf` found no match. */
function describeSchema(raw: JsonSchema): string {
  const s = deref(raw);
  if (s.enum) return `one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}`;
  const t = Array.isArray(s.type) ? s.type.join(',') : s.type;
  if (t === 'array') {
    const item = s.items ? deref(s.items) : undefined;
    if (item?.type === 'integer') return 'an array of integers';
    if (item?.type === 'number') return 'an array of numbers';
    if (item?.type === 'string') return 'an array of strings';
    return 'an array';
  }
  if (t === 'object') {
    const ap = s.additionalProperties;
    if (ap && typeof ap === 'object') {
      const v = deref(ap);
      if (v.type === 'number') return 'an object mapping names to numbers';
      if (v.type === 'string') return 'an object mapping names to strings';
    }
    return 'an object';
  }
  if (t === 'string' && s.description?.startsWith('A path')) return 'a path (string)';
  return t ? typeWords(t) : 'a valid value';
}

function bound(e: ErrorObject): string {
  const p = e.params as { comparison?: string; limit?: number };
  const what = (e.parentSchema as JsonSchema | undefined)?.type === 'integer' ? 'an integer' : 'a number';
  const op = { '>=': '≥', '<=': '≤', '>': '>', '<': '<' }[p.comparison ?? ''] ?? p.comparison;
  return `${what} ${op} ${p.limit}`;
}

/** Text after "expected" / "got" for one ajv error (made with `verbose: true`). */
export function explain(e: ErrorObject): string {
  const got = describeValue(e.data);
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'type':
      return `expected ${typeWords(p.type as string | string[])}, got ${got}`;
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]).map((v) => JSON.stringify(v));
      const hint = typeof e.data === 'string' ? nearest(e.data, (p.allowedValues as unknown[]).map(String)) : undefined;
      return `expected one of ${allowed.join(', ')}, got ${got}${hint ? `. Did you mean ${JSON.stringify(hint)}?` : ''}`;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `expected ${bound(e)}, got ${got}`;
    case 'minItems':
      return `expected at least ${p.limit} item${p.limit === 1 ? '' : 's'}, got ${Array.isArray(e.data) ? e.data.length : got}`;
    case 'minProperties':
      return `expected at least ${p.limit} entr${p.limit === 1 ? 'y' : 'ies'}, got an empty object`;
    case 'minLength':
      return `expected a non-empty string, got ${got}`;
    case 'uniqueItems': {
      const [a, b] = [p.i as number, p.j as number].sort((x, y) => x - y);
      return `expected no repeated items, got ${JSON.stringify((e.data as unknown[])[a!])} twice (items ${a} and ${b})`;
    }
    default:
      return `${e.message ?? 'invalid value'}, got ${got}`;
  }
}

/** One ajv error (not a union) as a problem: unknown keys get the nearest known key. */
function describeError(
  e: ErrorObject,
  line: (pointer: string) => number | undefined,
  at: (pointer: string) => string,
): ConfigProblem {
  if (e.keyword === 'additionalProperties') {
    const name = (e.params as { additionalProperty: string }).additionalProperty;
    const pointer = `${e.instancePath}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const known = Object.keys((e.parentSchema as JsonSchema).properties ?? {}).filter((k) => k !== '$schema');
    const l = line(pointer);
    const inside = e.instancePath ? ` in \`${keyPath(e.instancePath)}\`` : '';
    const hint = nearest(name, known);
    const tail = hint
      ? ` Did you mean \`${hint}\`?`
      : known.length <= 20
        ? ` Known keys${inside}: ${known.join(', ')}.`
        : ' See docs/configuration.md for the keys.';
    return {
      code: 'config-unknown-key',
      pointer,
      line: l,
      message: `Unknown key \`${name}\`${inside}${l !== undefined ? ` at line ${l}` : ''}.${tail}`,
    };
  }
  return {
    code: 'config-invalid',
    pointer: e.instancePath,
    line: line(e.instancePath),
    message: `${at(e.instancePath)}: ${explain(e)}`,
  };
}

/**
 * Every problem of `value` as a config, in file order. `parsed` (from the file's text) gives lines.
 */
export function configProblems(value: unknown, parsed?: ParsedJson): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const line = (pointer: string): number | undefined => (parsed ? lineOf(parsed, pointer) : undefined);
  const at = (pointer: string): string => {
    const l = line(pointer);
    const name = pointer === '' ? 'the config' : `\`${keyPath(pointer)}\``;
    return `${name}${l !== undefined ? ` at line ${l}` : ''}`;
  };
  const validate = validator();
  if (!validate(value)) {
    const errors = validate.errors ?? [];
    const used = new Set<ErrorObject>();
    const emit = (e: ErrorObject): void => {
      const p = describeError(e, line, at);
      if (!problems.some((q) => q.pointer === p.pointer && q.message === p.message)) problems.push(p);
    };
    // anyOf/oneOf first: pick the branch errors that say something (deeper than the union, or of
    // the branch whose type matched), else one "expected A, B or C" line.
    errors.forEach((e, idx) => {
      if (e.keyword !== 'anyOf' && e.keyword !== 'oneOf') return;
      used.add(e);
      const related = errors
        .slice(0, idx)
        .filter(
          (r) => !used.has(r) && (r.instancePath === e.instancePath || r.instancePath.startsWith(`${e.instancePath}/`)),
        );
      related.forEach((r) => used.add(r));
      const telling = related.filter((r) => !(r.keyword === 'type' && r.instancePath === e.instancePath));
      if (telling.length > 0) {
        telling.forEach(emit);
      } else {
        const branches = (e.schema as JsonSchema[]).map(describeSchema);
        const message = `${at(e.instancePath)}: expected ${orList(branches)}, got ${describeValue(e.data)}`;
        if (!problems.some((q) => q.pointer === e.instancePath && q.message === message))
          problems.push({ code: 'config-invalid', pointer: e.instancePath, line: line(e.instancePath), message });
      }
    });
    for (const e of errors) if (!used.has(e)) emit(e);
    return sortByLine(problems);
  }
  const c = value as EvalConfig;
  // Two keys that are alternatives to each other: the problem points at the second.
  const notBoth = (first: keyof EvalConfig, second: keyof EvalConfig): void => {
    if (c[first] === undefined || c[second] === undefined) return;
    const pointer = `/${second}`;
    problems.push({
      code: 'config-invalid',
      pointer,
      line: line(pointer),
      message: `${at(pointer)}: give \`${first}\` or \`${second}\`, not both`,
    });
  };
  notBoth('trainCounts', 'classWeights');
  notBoth('acceptThreshold', 'targetCoverage');
  const shot = shotThresholdsProblem(c.shotThresholds);
  if (shot) {
    const pointer = `/shotThresholds/${shot.key}`;
    problems.push({ code: 'config-invalid', pointer, line: line(pointer), message: `${at(pointer)}: ${shot.what}` });
  }
  return sortByLine(problems);
}

/**
 * The one check of the shot-group boundaries: `few ≤ many` (many-shot n > many, medium
 * few ≤ n ≤ many, few-shot n < few), a side not given taking its default. Undefined when they fit.
 */
export function shotThresholdsProblem(
  st: EvalConfig['shotThresholds'],
): { key: 'few' | 'many'; what: string } | undefined {
  if (st === undefined || (st.few === undefined && st.many === undefined)) return undefined;
  const few = st.few ?? CONFIG_DEFAULTS.shotThresholds.few;
  const many = st.many ?? CONFIG_DEFAULTS.shotThresholds.many;
  if (!(few > many)) return undefined;
  if (st.few !== undefined)
    return {
      key: 'few',
      what: `expected a number ≤ shotThresholds.many (${many}${st.many === undefined ? ', its default' : ''}), got ${few}`,
    };
  return { key: 'many', what: `expected a number ≥ shotThresholds.few (${few}, its default), got ${many}` };
}

function sortByLine(p: ConfigProblem[]): ConfigProblem[] {
  return p
    .map((x, i) => [x, i] as const)
    .sort((a, b) => (a[0].line ?? 0) - (b[0].line ?? 0) || a[1] - b[1])
    .map(([x]) => x);
}

/**
 * Throws an {@link EvalLensError} listing every problem (the first one's line is the error's
 * location). `file` names where the config came from (a path, or e.g. "command-line options").
 */
export function throwConfigProblems(problems: ConfigProblem[], file: string): never {
  const first = problems[0]!;
  const loc = { file, line: first.line };
  const head = `${file}${first.line !== undefined ? `:${first.line}` : ''}: ${first.message}`;
  const rest = problems.slice(1, 10).map((p) => `\n  ${file}${p.line !== undefined ? `:${p.line}` : ''}: ${p.message}`);
  const more = problems.length > 10 ? `\n  … and ${problems.length - 10} more` : '';
  throw new EvalLensError(first.code, head + rest.join('') + more, loc);
}

/**
 * Validates a config object that did not come from a file (VS Code settings, CLI flags) and returns
 * it typed. `source` names it in messages.
 */
export function checkConfig(value: unknown, source: string): EvalConfig {
  const problems = configProblems(value);
  if (problems.length > 0) throwConfigProblems(problems, source);
  return value as EvalConfig;
}
