/**
 * The partial-statistics file of one shard (`eval-lens partial`, docs/scaling.md): an `.npz`
 * archive holding `meta` (UTF-8 JSON as a uint8 array), the shard's `sum/*` arrays and its
 * sorted run `run/*` (the rows sorted by score, descending, ties in row order). This module holds
 * the meta's type, its JSON Schema and the checks of an archive read from disk: a partial file
 * comes from another machine or another person, so nothing in it is used before the meta has
 * passed the schema and every array its dtype and shape.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { EvalLensError, printable } from '../diagnostics';
import type { EvalWarning } from '../diagnostics';
import type { ResolvedConfig } from '../config/types';
import type { NpyArray } from '../io/npy';

/** The `format` of every partial file. */
export const PARTIAL_FORMAT = 'eval-lens/partial';
/** The version this build writes and reads; a file of another version is refused. */
export const PARTIAL_VERSION = 1;

/** The kinds of array of docs/scaling.md (sets are not written by the classification task). */
export type ArrayKind = 'sum' | 'run';

export interface PartialArrayInfo {
  name: string;
  kind: ArrayKind;
  dtype: string;
  shape: number[];
}

export interface PartialMeta {
  format: typeof PARTIAL_FORMAT;
  version: typeof PARTIAL_VERSION;
  /** The Eval Lens version that wrote it (informative: the format version decides). */
  tool: string;
  task: 'classification';
  /** The resolved config the shard was evaluated with, without `configFile`. */
  config: Record<string, unknown>;
  /** SHA-256 of the config as canonical JSON (keys sorted): shards merge only with equal hashes. */
  configHash: string;
  /** The config file's path on the machine that made the shard (not hashed), or null. */
  configFile: string | null;
  classes: string[];
  /** The class scores were logits (a softmax was applied); changes a metric note. */
  fromLogits: boolean;
  /** The name of a confidence/score/margin column, or null. */
  scoreColumnName: string | null;
  /**
   * How the probability score (`run/prob_score`, else `run/score`) was derived from the class
   * scores, or null without them: the max probability (other scores are not supported yet).
   */
  probScoreKind: 'msp' | null;
  /** The shard's prediction file. */
  source: {
    path: string;
    size: number;
    sha256: string;
    format: string;
    rows: number;
    rowsUsed: number;
    columns: Record<string, string | string[]>;
  };
  /** `--shard i/N` (1-based), or null; the merge orders the shards by it. */
  shard: { index: number; count: number } | null;
  /** Rows of the sorted run (the shard's rows used). */
  rows: number;
  /** Intervals are not part of this version: always n = 0. */
  bootstrap: { n: 0 };
  /** Warnings of reading the shard (skipped rows, unnormalised probabilities…). */
  warnings: EvalWarning[];
  arrays: PartialArrayInfo[];
}

const NAME = { type: 'string', maxLength: 4096 } as const;
const HEX64 = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;
const COUNT = { type: 'integer', minimum: 0, maximum: 2147483647 } as const;

/** JSON Schema (draft-07) of {@link PartialMeta}. */
export const PARTIAL_META_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  additionalProperties: false,
  required: [
    'format',
    'version',
    'tool',
    'task',
    'config',
    'configHash',
    'configFile',
    'classes',
    'fromLogits',
    'scoreColumnName',
    'probScoreKind',
    'source',
    'shard',
    'rows',
    'bootstrap',
    'warnings',
    'arrays',
  ],
  properties: {
    format: { type: 'string' },
    version: { type: 'integer' },
    tool: { type: 'string', maxLength: 100 },
    task: { type: 'string' },
    config: { type: 'object' },
    configHash: HEX64,
    configFile: { type: ['string', 'null'], maxLength: 4096 },
    classes: { type: 'array', minItems: 1, maxItems: 1000000, items: NAME },
    fromLogits: { type: 'boolean' },
    scoreColumnName: { type: ['string', 'null'], maxLength: 4096 },
    probScoreKind: { enum: ['msp', null] },
    source: {
      type: 'object',
      additionalProperties: false,
      required: ['path', 'size', 'sha256', 'format', 'rows', 'rowsUsed', 'columns'],
      properties: {
        path: NAME,
        size: { type: 'integer', minimum: 0 },
        sha256: HEX64,
        format: { enum: ['csv', 'tsv', 'jsonl', 'json', 'npz', 'parquet'] },
        rows: COUNT,
        rowsUsed: COUNT,
        columns: {
          type: 'object',
          maxProperties: 1000,
          additionalProperties: { anyOf: [NAME, { type: 'array', maxItems: 1000000, items: NAME }] },
        },
      },
    },
    shard: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['index', 'count'],
          properties: { index: { type: 'integer', minimum: 1 }, count: { type: 'integer', minimum: 1 } },
        },
      ],
    },
    rows: COUNT,
    bootstrap: {
      type: 'object',
      additionalProperties: false,
      required: ['n'],
      properties: { n: { type: 'integer', minimum: 0 } },
    },
    warnings: {
      type: 'array',
      maxItems: 10000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', maxLength: 200 },
          message: { type: 'string', maxLength: 100000 },
          file: NAME,
          line: COUNT,
          column: NAME,
          count: COUNT,
          lines: { type: 'array', maxItems: 100, items: COUNT },
        },
      },
    },
    arrays: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'kind', 'dtype', 'shape'],
        properties: {
          name: { type: 'string', maxLength: 100 },
          kind: { enum: ['sum', 'run'] },
          dtype: { type: 'string', maxLength: 10 },
          shape: { type: 'array', maxItems: 2, items: COUNT },
        },
      },
    },
  },
} as const;

let validate: ValidateFunction | undefined;

/** An error about the partial file `file`. */
export function partialError(file: string, what: string): EvalLensError {
  return new EvalLensError('bad-partial', `${file}: ${what}`, { file });
}

/**
 * The meta of the archive `arrays` read from `file`, checked against {@link PARTIAL_META_SCHEMA}
 * and the format version, and listing exactly the arrays the archive holds.
 */
export function partialMeta(arrays: Map<string, NpyArray>, file: string): PartialMeta {
  const raw = arrays.get('meta');
  if (!raw || raw.kind !== 'u' || raw.dtype.slice(1) !== 'u1' || raw.shape.length !== 1)
    throw partialError(
      file,
      'not an Eval Lens partial file: expected an array "meta" of uint8 (the UTF-8 JSON meta), as `eval-lens partial` writes.',
    );
  let meta: unknown;
  try {
    meta = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(raw.data!)));
  } catch (e) {
    throw partialError(file, `the meta is not UTF-8 JSON (${printable((e as Error).message)}).`);
  }
  const m = meta as Partial<PartialMeta> | null;
  // The format and version first, so that a file of another version is named as such.
  if (typeof m !== 'object' || m === null || m.format !== PARTIAL_FORMAT)
    throw partialError(file, `not an Eval Lens partial file: expected meta.format "${PARTIAL_FORMAT}".`);
  if (m.version !== PARTIAL_VERSION)
    throw partialError(
      file,
      `partial format version ${printable(JSON.stringify(m.version))}, expected ${PARTIAL_VERSION} (the version this Eval Lens reads); make the partial files again with the same Eval Lens version.`,
    );
  validate ??= new Ajv({ allErrors: false, strict: true, allowUnionTypes: true }).compile(PARTIAL_META_SCHEMA);
  if (!validate(meta)) {
    const e = validate.errors?.[0];
    throw partialError(
      file,
      `the meta does not match the partial format: ${printable(`${e?.instancePath || '/'} ${e?.message ?? ''}`)}.`,
    );
  }
  if (m.task !== 'classification')
    throw partialError(file, `task "${printable(String(m.task))}", expected "classification".`);
  const listed = new Set(m.arrays!.map((a) => a.name));
  for (const name of arrays.keys())
    if (name !== 'meta' && !listed.has(name))
      throw partialError(file, `the array "${printable(name)}" is not listed in the meta.`);
  for (const a of m.arrays!) {
    const got = arrays.get(a.name);
    if (!got) throw partialError(file, `the meta lists the array "${printable(a.name)}", which the archive lacks.`);
    if (got.dtype !== a.dtype || got.shape.join(',') !== a.shape.join(','))
      throw partialError(
        file,
        `the array "${printable(a.name)}" is ${got.dtype} of shape (${got.shape.join(', ')}), the meta says ${printable(a.dtype)} of shape (${a.shape.join(', ')}).`,
      );
  }
  return meta as PartialMeta;
}

/** The config as the meta stores it: without `configFile`, a path of the machine that made the shard. */
export function storedConfig(config: ResolvedConfig): Record<string, unknown> {
  const { configFile: _configFile, ...rest } = config;
  return JSON.parse(JSON.stringify(rest)) as Record<string, unknown>;
}

/** Canonical JSON (object keys sorted), the input of the config hash. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}
