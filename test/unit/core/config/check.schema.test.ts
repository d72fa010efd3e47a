import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import Ajv from 'ajv';
import schema from '../../../../schemas/eval-lens.config.schema.json';
import type { BootstrapConfig, ColumnsConfig, CompareConfig, EvalConfig } from '../../../../src/core/config/types';
import { CONFIG_DEFAULTS } from '../../../../src/core/config/types';
import { configKeys, configKeySchema } from '../../../../src/core/config/check';

/**
 * The keys of EvalConfig, kept here by hand. The type below fails to compile when EvalConfig
 * gains a key missing from this list (or the list names a key EvalConfig lacks), and the tests
 * check the schema against the list and against types.ts itself.
 */
const EVAL_CONFIG_KEYS = [
  'task',
  'columns',
  'invalidRows',
  'bootstrap',
  'classes',
  'trainCounts',
  'classWeights',
  'trainTotal',
  'shotThresholds',
  'groups',
  'groupNames',
  'subgroupColumn',
  'imbalanceRatio',
  'T',
  'shiftProtocol',
  'shiftTestSize',
  'reweight',
  'reweightEpsilon',
  'score',
  'acceptThreshold',
  'targetCoverage',
  'topK',
  'eceBins',
  'costGrid',
  'splitNames',
  'randomSplit',
  'metricsOn',
  'populationSize',
  'biasedSize',
  'threshold',
  'positiveLabel',
  'k',
  'relevant',
  'train',
  'itemEmbeddings',
  'userEmbeddings',
  'userFactors',
  'itemFactors',
  'userIds',
  'itemIds',
  'items',
  'itemPopularity',
  'maskSeen',
  'coldThreshold',
  'catalogSize',
  'mapNormaliser',
  'gain',
  'activityBins',
  'slices',
  'sliceBins',
  'minSliceSize',
  'compare',
] as const satisfies readonly (keyof EvalConfig)[];
type MissingFromList = Exclude<keyof EvalConfig, (typeof EVAL_CONFIG_KEYS)[number]>;
const _exhaustive: [MissingFromList] extends [never] ? true : MissingFromList = true;
void _exhaustive;

const NESTED_KEYS = {
  columns: [
    'label',
    'pred',
    'probs',
    'probsArray',
    'logitsArray',
    'logits',
    'score',
    'accept',
    'group',
    'weight',
    'split',
    'fold',
    'id',
    'stratum',
    'user',
    'item',
    'rank',
    'rel',
    'userFactors',
    'itemFactors',
  ] satisfies (keyof ColumnsConfig)[],
  bootstrap: ['n', 'confidence', 'seed', 'stratified'] satisfies (keyof BootstrapConfig)[],
  compare: ['runs', 'baseline', 'matchBy', 'metrics', 'directions', 'adjust', 'gate'] satisfies (keyof CompareConfig)[],
  shotThresholds: ['many', 'few'] satisfies (keyof NonNullable<EvalConfig['shotThresholds']>)[],
  splitNames: ['validation', 'test'] satisfies (keyof NonNullable<EvalConfig['splitNames']>)[],
};

type SchemaNode = {
  properties?: Record<string, SchemaNode>;
  additionalProperties?: unknown;
  description?: string;
  type?: unknown;
  $ref?: string;
  anyOf?: SchemaNode[];
  items?: SchemaNode;
  default?: unknown;
  definitions?: Record<string, SchemaNode>;
};
const root = schema as unknown as SchemaNode;

/** Member names of an interface (or a type literal property) in types.ts, read with the TS parser. */
function membersIn(source: ts.SourceFile, iface: string, property?: string): string[] {
  let found: string[] | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === iface) {
      let members: ts.NodeArray<ts.TypeElement> = node.members;
      if (property) {
        const prop = node.members.find((m) => m.name && ts.isIdentifier(m.name) && m.name.text === property) as
          ts.PropertySignature | undefined;
        const t = prop?.type;
        if (!t || !ts.isTypeLiteralNode(t)) throw new Error(`${iface}.${property} is not a type literal`);
        members = t.members;
      }
      found = members.map((m) =>
        m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? m.name.text : '?',
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!found) throw new Error(`interface ${iface} not found`);
  return found;
}

const typesTs = ts.createSourceFile(
  'types.ts',
  readFileSync('src/core/config/types.ts', 'utf8'),
  ts.ScriptTarget.ES2022,
  true,
);

test('the hand-kept key list matches EvalConfig in types.ts', () => {
  assert.deepEqual([...membersIn(typesTs, 'EvalConfig')].sort(), [...EVAL_CONFIG_KEYS].sort());
  assert.deepEqual(membersIn(typesTs, 'ColumnsConfig').sort(), [...NESTED_KEYS.columns].sort());
  assert.deepEqual(membersIn(typesTs, 'BootstrapConfig').sort(), [...NESTED_KEYS.bootstrap].sort());
  assert.deepEqual(membersIn(typesTs, 'CompareConfig').sort(), [...NESTED_KEYS.compare].sort());
  assert.deepEqual(membersIn(typesTs, 'EvalConfig', 'shotThresholds').sort(), [...NESTED_KEYS.shotThresholds].sort());
});

test('every key of EvalConfig is in the schema, and the schema has no other key (besides $schema)', () => {
  assert.deepEqual([...configKeys()].sort(), [...EVAL_CONFIG_KEYS].sort());
  for (const [parent, keys] of Object.entries(NESTED_KEYS)) {
    assert.deepEqual(Object.keys(root.properties![parent]!.properties!).sort(), [...keys].sort(), parent);
  }
});

test('every key has a description, and every object level forbids unknown keys', () => {
  const walk = (node: SchemaNode, path: string): void => {
    if (node.properties) {
      assert.equal(node.additionalProperties, false, `${path} must set additionalProperties: false`);
      for (const [k, child] of Object.entries(node.properties)) {
        assert.ok(
          typeof child.description === 'string' && child.description.length >= 15,
          `${path}.${k} needs a description`,
        );
        walk(child, `${path}.${k}`);
      }
    }
  };
  walk(root, 'config');
  for (const key of EVAL_CONFIG_KEYS) assert.ok(configKeySchema(key), key);
});

test('the schema compiles in strict ajv, and the defaults it states are CONFIG_DEFAULTS', () => {
  new Ajv({ strict: true, allowUnionTypes: true }).compile(schema);
  for (const [key, value] of Object.entries(CONFIG_DEFAULTS)) {
    if (key === 'bootstrap' || key === 'shotThresholds') {
      for (const [k, v] of Object.entries(value))
        assert.deepEqual(root.properties![key]!.properties![k]!.default, v, `${key}.${k}`);
    } else {
      assert.deepEqual(root.properties![key]!.default, value, key);
    }
  }
});
