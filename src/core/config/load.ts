/**
 * Finding, reading, checking and layering `eval-lens.json` (docs/configuration.md).
 *
 * - `loadConfigFile` reads one file: JSON syntax errors carry the 1-based line and column; every
 *   schema violation names the key path, the line of the key, what was expected and what was
 *   found; an unknown key names the nearest known key. All are {@link EvalLensError}s.
 * - `resolveConfig` layers configs, weakest first, over {@link CONFIG_DEFAULTS}.
 * - `resolveConfigPath` turns a path written in a config into an absolute path that must stay
 *   inside the workspace root.
 */
import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { EvalLensError } from '../diagnostics';
import { isInside, linkedOutside } from '../workspacePath';
import { CONFIG_DEFAULTS, type EvalConfig, type ResolvedConfig } from './types';
import { configProblems, throwConfigProblems } from './check';
import { JsonSyntaxError, lineOf, parseJsonWithLocations } from './jsonWithLocations';

/** The config file's name looked for beside an input. */
const CONFIG_FILE_NAME = 'eval-lens.json';

/** `eval-lens.json` in the folder of `inputAbsPath`, if it exists (a regular file). */
export async function findConfigBeside(inputAbsPath: string): Promise<string | undefined> {
  const candidate = join(dirname(inputAbsPath), CONFIG_FILE_NAME);
  try {
    return (await stat(candidate)).isFile() ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads and checks a config file. The `$schema` key (for editors) is accepted and dropped.
 * @throws EvalLensError `config-read` (missing/unreadable), `config-empty`, `config-syntax`,
 *   `config-unknown-key`, `config-invalid`; the message starts with `file:line`.
 */
export async function loadConfigFile(path: string): Promise<EvalConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder, not a file' : (err as Error).message;
    throw new EvalLensError('config-read', `${path}: cannot read the config file: ${why}.`, { file: path });
  }
  if (text.replace(/^\uFEFF/, '').trim() === '') {
    throw new EvalLensError(
      'config-empty',
      `${path}:1: the config file is empty; write {} or the keys you need, e.g. {"bootstrap": {"n": 1000}}.`,
      { file: path, line: 1 },
    );
  }
  let parsed;
  try {
    parsed = parseJsonWithLocations(text);
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    throw new EvalLensError(
      'config-syntax',
      `${path}:${err.line}:${err.column}: invalid JSON at line ${err.line}, column ${err.column}: ${err.message}.`,
      { file: path, line: err.line },
    );
  }
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const got = Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value;
    throw new EvalLensError(
      'config-invalid',
      `${path}:${lineOf(parsed, '') ?? 1}: expected a JSON object ({ … }) at the top of the config, got ${got}.`,
      { file: path, line: lineOf(parsed, '') ?? 1 },
    );
  }
  const problems = configProblems(value, parsed);
  if (problems.length > 0) throwConfigProblems(problems, path);
  const { $schema: _schema, ...config } = value as EvalConfig & { $schema?: string };
  return config;
}

/** Keys whose object values are merged key by key across layers (arrays and scalars replace). */
const NESTED = ['bootstrap', 'shotThresholds', 'columns', 'compare'] as const;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Sets an own property, also for keys such as `__proto__` (a class named so in a class→count map):
 * a plain assignment would replace the object's prototype instead.
 */
function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** Copies without undefined members, one level deep for plain objects, arrays copied. */
function definedCopy(v: unknown): unknown {
  if (Array.isArray(v)) return [...v];
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) setOwn(out, k, definedCopy(x));
    return out;
  }
  return v;
}

/**
 * Layers configs over {@link CONFIG_DEFAULTS}, weakest first (settings, file, flags). Scalars and
 * arrays of a stronger layer replace; `bootstrap`, `shotThresholds`, `columns` and `compare`
 * (and `compare.directions`) are merged key by key; an `undefined` member leaves the weaker value.
 * A `$schema` key is dropped. `configFile` is recorded when given.
 */
export function resolveConfig(layers: EvalConfig[], configFile?: string): ResolvedConfig {
  const out = definedCopy(CONFIG_DEFAULTS) as Record<string, unknown>;
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) {
      if (value === undefined || key === '$schema') continue;
      if ((NESTED as readonly string[]).includes(key) && isPlainObject(value) && isPlainObject(out[key])) {
        const merged = { ...(out[key] as Record<string, unknown>) };
        for (const [k, x] of Object.entries(value)) {
          if (x === undefined) continue;
          setOwn(
            merged,
            k,
            key === 'compare' && k === 'directions' && isPlainObject(x) && isPlainObject(merged[k])
              ? { ...merged[k], ...(definedCopy(x) as object) }
              : definedCopy(x),
          );
        }
        setOwn(out, key, merged);
      } else {
        setOwn(out, key, definedCopy(value));
      }
    }
  }
  if (configFile !== undefined) out.configFile = configFile;
  return out as unknown as ResolvedConfig;
}

/**
 * Resolves a path written in a config (`trainCounts`, `relevant`, `train`, embeddings, …): a
 * relative path is taken from `baseDir` (the config file's folder); the result must lie inside
 * `opts.root` (the workspace root; default `baseDir`). A `..` escape or an absolute path outside
 * the root is an error naming the key (and its line, when `configFile` is given and holds it).
 * So is a symbolic link (the file or a folder on its way) whose real path is outside the root; the
 * linked file is not read, so none of its content can appear in a message.
 */
export function resolveConfigPath(
  value: string,
  baseDir: string,
  opts: { root?: string; key?: string; configFile?: string } = {},
): string {
  const key = opts.key ?? 'path';
  const file = opts.configFile ?? baseDir;
  const root = resolve(opts.root ?? baseDir);
  const problem = (what: string): never => {
    const line = opts.configFile && opts.key ? keyLine(opts.configFile, opts.key) : undefined;
    throw new EvalLensError(
      'config-path',
      `${file}${line !== undefined ? `:${line}` : ''}: \`${key}\`${line !== undefined ? ` at line ${line}` : ''}: ${what}`,
      { file, line },
    );
  };
  if (typeof value !== 'string' || value.trim() === '') problem(`expected a path, got ${JSON.stringify(value)}.`);
  if (value.includes('\0')) problem('the path contains a NUL character.');
  const abs = isAbsolute(value) ? resolve(value) : resolve(baseDir, value);
  if (!isInside(root, abs)) {
    problem(
      `the path ${JSON.stringify(value)} resolves to ${abs}, outside the workspace ${root}. ` +
        'Paths in eval-lens.json are relative to the config file and must stay inside the workspace; move the file into the workspace.',
    );
  }
  const real = linkedOutside(root, abs);
  if (real !== null) {
    problem(
      `the path ${JSON.stringify(value)} is a symbolic link to ${real}, outside the workspace ${root}; it was not read. Copy the file into the workspace.`,
    );
  }
  return abs;
}

/** Line of a top-level (or dotted nested) key in a config file; undefined when unknown. */
function keyLine(configFile: string, key: string): number | undefined {
  try {
    const parsed = parseJsonWithLocations(readFileSync(configFile, 'utf8'));
    const pointer =
      '/' +
      key
        .split('.')
        .map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1'))
        .join('/');
    return lineOf(parsed, pointer);
  } catch {
    return undefined;
  }
}
