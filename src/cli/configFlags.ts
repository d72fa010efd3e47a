/**
 * Every top-level key of the config schema as a command-line flag: `fooBar` → `--foo-bar <value>`;
 * a key too terse to read as a word gets a word (`T` → `--shift-points`, `k` → `--cutoffs`), and
 * its old spelling (`--t`, `--k`) stays accepted as a hidden alias. A value is parsed as JSON when it parses (`--top-k [1,5]`, `--columns
 * '{"label":"y"}'`), else taken as a string; for a key that takes a list, `5` becomes `[5]` and
 * `a,b,c` becomes `["a","b","c"]`. A path given as a flag is relative to the current folder.
 * Derived from the schema, so a key added there is a flag here with no code change.
 */
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { CONFIG_SCHEMA, configKeys, configKeySchema, configProblems, keyPath, type JsonSchema } from '../core';
import type { EvalConfig } from '../core';
import { UsageError } from './errors';

export interface ConfigFlag {
  /** Config key, e.g. `topK`. */
  key: string;
  /** Long flag, e.g. `--top-k`. */
  flag: string;
  /** Commander's attribute name for it. */
  attribute: string;
  /** The hidden old spelling's attribute, when the flag was renamed to a word (`--t` → `t`). */
  aliasAttribute?: string;
}

/** Config keys whose kebab-case name is not a word a reader understands, and the word used instead. */
const WORD_FLAGS: Readonly<Record<string, string>> = { T: 'shift-points', k: 'cutoffs' };

/** The long flag of a config key: `topK` → `--top-k`, `T` → `--shift-points`. */
export function flagOf(key: string): string {
  return `--${WORD_FLAGS[key] ?? kebab(key)}`;
}

/** `topK` → `top-k`, `T` → `t`, `eceBins` → `ece-bins`. */
export function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (c, i: number) => (i > 0 ? '-' : '') + c.toLowerCase());
}

function firstSentence(s: string | undefined): string {
  if (!s) return '';
  // A sentence ends at a full stop followed by a capital (not after "e.g." / "i.e.") or the end.
  const m = /^(.+?(?<!\be\.g|\bi\.e)\.)(\s+(?=[A-Z`])|$)/.exec(s);
  return m ? m[1]! : s;
}

/** `<…>` hint of a flag from what its key's schema accepts. */
function valueHint(key: string, s: JsonSchema | undefined): string {
  if (s?.enum) return s.enum.join('|');
  const raw = CONFIG_SCHEMA.properties?.[key];
  const branches = (raw?.anyOf ?? [raw ?? {}]).map((b) => (b.$ref ? (configSchemaRef(b.$ref) ?? b) : b));
  const words = branches.map((b) => {
    if (b.$ref === '#/definitions/path' || b === CONFIG_SCHEMA.definitions?.path) return 'path';
    const t = Array.isArray(b.type) ? b.type.join('|') : b.type;
    if (t === 'array') return 'list';
    if (t === 'object') return b.properties ? 'json' : 'map';
    if (t === 'boolean') return 'true|false';
    return t === 'string|number' || t === 'string|integer' ? 'value' : (t ?? 'value');
  });
  return [...new Set(words)].join('|');
}

/** JSON types a schema accepts (through `anyOf` and `$ref`). */
function acceptedTypes(s: JsonSchema | undefined): Set<string> {
  const out = new Set<string>();
  if (!s) return out;
  const branches = s.anyOf ?? s.oneOf ?? [s];
  for (const raw of branches) {
    const b = raw.$ref ? (configSchemaRef(raw.$ref) ?? raw) : raw;
    if (b.enum) for (const e of b.enum) out.add(typeof e === 'number' ? 'number' : typeof e);
    const t = b.type;
    for (const x of Array.isArray(t) ? t : t ? [t] : []) out.add(x === 'integer' ? 'number' : x);
  }
  return out;
}

function configSchemaRef(ref: string): JsonSchema | undefined {
  const name = /^#\/definitions\/(.+)$/.exec(ref)?.[1];
  return name ? CONFIG_SCHEMA.definitions?.[name] : undefined;
}

/** Keys whose string form is a path (the schema's `path` definition, alone or in an `anyOf`). */
function takesPath(key: string): boolean {
  const raw = CONFIG_SCHEMA.properties?.[key];
  if (!raw) return false;
  return [raw, ...(raw.anyOf ?? [])].some((b) => b.$ref === '#/definitions/path');
}

/** Adds one option per config key to `cmd`, under its own help heading. */
export function addConfigFlags(cmd: Command): ConfigFlag[] {
  const flags: ConfigFlag[] = [];
  for (const key of configKeys()) {
    const s = configKeySchema(key);
    const hint = valueHint(key, s);
    const flag = flagOf(key);
    const opt = new Option(
      `${flag} <${hint}>`,
      `${firstSentence(s?.description)}${takesPath(key) ? ' (a path is relative to the current folder)' : ''}`,
    ).helpGroup('Config keys (override eval-lens.json; values are JSON or plain strings):');
    cmd.addOption(opt);
    const entry: ConfigFlag = { key, flag, attribute: opt.attributeName() };
    if (WORD_FLAGS[key]) {
      const alias = new Option(`--${kebab(key)} <${hint}>`).hideHelp();
      cmd.addOption(alias);
      entry.aliasAttribute = alias.attributeName();
    }
    flags.push(entry);
  }
  return flags;
}

/**
 * The value of one config flag: JSON when it parses, else the string; a scalar becomes a
 * one-item list and `a,b` a list where the key takes a list; a number where only a string is
 * accepted stays the string as typed.
 */
export function parseFlagValue(key: string, raw: string): unknown {
  const types = acceptedTypes(configKeySchema(key));
  let value: unknown;
  let isJson = true;
  try {
    value = JSON.parse(raw);
  } catch {
    value = raw;
    isJson = false;
  }
  const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  const pieces = (): unknown[] =>
    raw.split(',').map((part) => {
      const t = part.trim();
      try {
        return JSON.parse(t) as unknown;
      } catch {
        return t;
      }
    });
  // `10,5,1` is a list even where a path is also accepted (trainCounts); `a,b` only where it is not.
  if (
    types.has('array') &&
    !isJson &&
    raw.includes(',') &&
    types.has('string') &&
    pieces().every((x) => typeof x === 'number')
  ) {
    return pieces();
  }
  if (!types.has(kind(value))) {
    if (types.has('array') && !isJson && raw.includes(',')) {
      value = pieces();
    } else if (types.has('array') && kind(value) !== 'object') {
      value = [value];
    } else if (types.has('string') && isJson && kind(value) !== 'object' && kind(value) !== 'array') {
      value = raw;
    }
  }
  return value;
}

/**
 * The config given by flags (`undefined` members left out), checked against the schema.
 * Path keys given as strings are made absolute from `cwd`.
 * @throws UsageError naming the flag when a value does not fit its key.
 */
export function configFromFlags(opts: Record<string, unknown>, flags: ConfigFlag[], cwd: string): EvalConfig {
  const config: Record<string, unknown> = {};
  for (const f of flags) {
    const raw = opts[f.attribute] ?? (f.aliasAttribute ? opts[f.aliasAttribute] : undefined);
    if (raw === undefined) continue;
    let value = parseFlagValue(f.key, String(raw));
    if (typeof value === 'string' && takesPath(f.key)) value = resolve(cwd, value);
    config[f.key] = value;
  }
  const bootstrap: Record<string, unknown> = { ...((config.bootstrap as object | undefined) ?? {}) };
  for (const [attr, name] of [
    ['bootstrapN', 'n'],
    ['confidence', 'confidence'],
    ['seed', 'seed'],
  ] as const) {
    const raw = opts[attr];
    if (raw === undefined) continue;
    const n = Number(raw);
    bootstrap[name] = String(raw).trim() !== '' && Number.isFinite(n) ? n : raw;
  }
  if (Object.keys(bootstrap).length > 0) config.bootstrap = bootstrap;
  const problems = configProblems(config);
  if (problems.length > 0) {
    const flagOfPointer = (pointer: string): string => {
      const top = pointer.split('/')[1] ?? '';
      const sub = pointer.split('/')[2];
      if (
        top === 'bootstrap' &&
        sub &&
        ['n', 'confidence', 'seed'].includes(sub) &&
        opts[sub === 'n' ? 'bootstrapN' : sub] !== undefined
      )
        return sub === 'n' ? '--bootstrap-n' : `--${sub}`;
      return flags.find((f) => f.key === top)?.flag ?? keyPath(pointer);
    };
    const lines = problems.map((p) => `invalid value for ${flagOfPointer(p.pointer)}: ${p.message}`);
    throw new UsageError(lines.join('\n'));
  }
  return config as EvalConfig;
}
