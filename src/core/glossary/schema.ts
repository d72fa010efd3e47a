/**
 * The metric map of the results JSON Schema (`definitions.metricMap` of
 * schemas/eval-lens.results.schema.json), generated from the glossary: every metric key as a
 * property (exact keys) or a pattern (`recall@<K>` → `^recall@(\d+)$`) whose description is the
 * key's name, direction and meaning, so an editor hovering a key of a results file explains it.
 * Validation is unchanged: every entry is the same metric value schema as any other key.
 * `scripts/glossary-docs.mjs` writes it into the schema; a unit test fails when they differ.
 */
import { GLOSSARY } from './entries';
import { keyPatternSource } from './index';

const METRIC_VALUE = { $ref: '#/definitions/metricValue' } as const;

const BETTER = { higher: 'higher is better', lower: 'lower is better', none: 'a count' } as const;

/** Which way is better, in words: a spread over users has no better direction and is not a count. */
function better(e: { direction: keyof typeof BETTER; kind: string }): string {
  return e.direction === 'none' && e.kind !== 'count' ? 'neither direction is better' : BETTER[e.direction];
}

export interface MetricMapSchema {
  type: 'object';
  description: string;
  properties: Record<string, { description: string; allOf: [typeof METRIC_VALUE] }>;
  patternProperties: Record<string, { description: string; allOf: [typeof METRIC_VALUE] }>;
  additionalProperties: typeof METRIC_VALUE;
}

export function metricMapSchema(): MetricMapSchema {
  const out: MetricMapSchema = {
    type: 'object',
    description:
      "Metric key → value. Keys are stable; `eval-lens explain KEY` prints a key's name, meaning, formula, direction and reference.",
    properties: {},
    patternProperties: {},
    additionalProperties: METRIC_VALUE,
  };
  for (const e of GLOSSARY) {
    if (e.family === 'comparison') continue;
    const source = keyPatternSource(e.pattern);
    const explain = source === undefined ? `\`eval-lens explain ${e.pattern}\`` : '`eval-lens explain` with the key';
    const entry = {
      description: `${e.name} (${better(e)}). ${e.meaning} ${explain} gives its formula, convention and references.`,
      allOf: [METRIC_VALUE] as [typeof METRIC_VALUE],
    };
    if (source === undefined) out.properties[e.pattern] = entry;
    else out.patternProperties[source] = entry;
  }
  return out;
}

/**
 * `schemaText` (the results schema as written) with its `"metricMap": {…}` definition replaced by
 * {@link metricMapSchema}, the rest of the file byte for byte as it was.
 */
export function withMetricMap(schemaText: string): string {
  const head = '\n    "metricMap": ';
  const start = schemaText.indexOf(head);
  if (start < 0) throw new Error('the results schema has no definitions.metricMap');
  const open = start + head.length;
  // The matching close brace (no brace occurs inside the strings of that definition but as text; skip strings).
  let depth = 0;
  let end = -1;
  for (let i = open; i < schemaText.length && end < 0; i++) {
    const ch = schemaText[i];
    if (ch === '"') {
      for (i++; schemaText[i] !== '"'; i++) if (schemaText[i] === '\\') i++;
    } else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) end = i + 1;
  }
  return schemaText.slice(0, open) + metricMapText() + schemaText.slice(end);
}

/** The definition as the schema file writes it: one line per key (as the rest of the file is laid out). */
function metricMapText(): string {
  const m = metricMapSchema();
  const one = (v: unknown): string =>
    JSON.stringify(v)
      .replace(/^\{"/, '{ "')
      .replace(/"\}$/, '" }')
      .replace(/\}\]\}$/, '}] }')
      .replace(/":/g, '": ')
      .replace(/,"/g, ', "')
      .replace(/\[\{"/g, '[{ "')
      .replace(/"\}\]/g, '" }]');
  const block = (o: Record<string, unknown>): string =>
    Object.entries(o)
      .map(([k, v]) => `        ${JSON.stringify(k)}: ${one(v)}`)
      .join(',\n');
  return [
    '{',
    `      "type": "object",`,
    `      "description": ${JSON.stringify(m.description)},`,
    `      "properties": {\n${block(m.properties)}\n      },`,
    `      "patternProperties": {\n${block(m.patternProperties)}\n      },`,
    `      "additionalProperties": ${one(m.additionalProperties)}`,
    '    }',
  ].join('\n');
}
