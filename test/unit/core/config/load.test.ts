import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EvalLensError } from '../../../../src/core/diagnostics';
import { findConfigBeside, loadConfigFile, resolveConfig, resolveConfigPath } from '../../../../src/core/config/load';
import { CONFIG_DEFAULTS, type EvalConfig } from '../../../../src/core/config/types';
import { shotThresholdsProblem } from '../../../../src/core/config/check';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-config-'));
let counter = 0;
function configFile(text: string): string {
  const p = join(dir, `c${counter++}.json`);
  writeFileSync(p, text);
  return p;
}

/** Loads `text` as a config and returns the EvalLensError it throws. */
async function loadError(text: string): Promise<EvalLensError> {
  const p = configFile(text);
  try {
    await loadConfigFile(p);
  } catch (err) {
    assert.ok(err instanceof EvalLensError, `expected an EvalLensError, got ${String(err)}`);
    assert.equal(err.location?.file, p);
    assert.ok(err.message.startsWith(p), `message names the file: ${err.message}`);
    return err;
  }
  assert.fail(`expected ${JSON.stringify(text)} to be rejected`);
}

const FULL: EvalConfig = {
  task: 'classification',
  columns: {
    label: 'y',
    pred: 'yhat',
    probs: ['p0', 'p1'],
    score: 'conf',
    accept: 'acc',
    group: 'g',
    weight: 'w',
    split: 's',
    id: 'id',
    stratum: 'st',
    user: 'u',
    item: 'i',
    rank: 'r',
    rel: 'rel',
    probsArray: 'pa',
    logitsArray: 'la',
    logits: ['l0', 'l1'],
  },
  invalidRows: 'skip',
  bootstrap: { n: 200, confidence: 0.9, seed: 7, stratified: true },
  classes: ['a', 'b', 3],
  trainCounts: { a: 500, b: 20, '3': 3 },
  trainTotal: 523,
  shotThresholds: { many: 100, few: 20 },
  groups: [1, 2],
  groupNames: ['head', 'mid', 'tail'],
  imbalanceRatio: 0.01,
  T: 10,
  shiftProtocol: 'sampled',
  reweight: true,
  reweightEpsilon: 1e-9,
  score: 'margin',
  acceptThreshold: 0.7,
  topK: [2, 5],
  eceBins: 10,
  costGrid: [0, 0.5, 1],
  populationSize: 10000,
  biasedSize: 300,
  threshold: 0.4,
  positiveLabel: 'yes',
  k: [1, 10],
  relevant: 'qrels.txt',
  train: 'train.csv',
  itemEmbeddings: 'items.npy',
  userEmbeddings: 'users.npy',
  coldThreshold: 3,
  catalogSize: 1000,
  mapNormaliser: 'all',
  gain: 'exp',
  activityBins: [5, 20],
  compare: {
    runs: ['a.csv', 'b.csv'],
    baseline: 'a.csv',
    matchBy: 'id',
    metrics: ['accuracy'],
    directions: { acc: 'higher' },
  },
};

test('a full valid config loads unchanged; $schema is accepted and dropped', async () => {
  const p = configFile(JSON.stringify({ $schema: './schemas/eval-lens.config.schema.json', ...FULL }, null, 2));
  assert.deepEqual(await loadConfigFile(p), FULL);
});

test('{} is a valid config', async () => {
  assert.deepEqual(await loadConfigFile(configFile('{}\n')), {});
});

test('an empty file says so and what to write', async () => {
  for (const text of ['', '  \n\n']) {
    const e = await loadError(text);
    assert.equal(e.code, 'config-empty');
    assert.match(e.message, /is empty; write \{\}/);
    assert.equal(e.location?.line, 1);
  }
});

test('JSON syntax errors give the 1-based line and column', async () => {
  const cases: [string, number, number, RegExp][] = [
    ['{\n  "task": "classification"\n  "eceBins": 10\n}', 3, 3, /expected `,` or `}` after the value of `task`/],
    ['{\n  "topK": [1, 2,],\n}', 2, 17, /expected a value, got `]`/],
    ['{\n  // note\n}', 2, 3, /comments are not allowed/],
    ["{\n 'task': 1}", 2, 2, /expected a key in double quotes/],
    ['{"a": 1', 1, 8, /expected `,` or `}`/],
    ['{"topK": [1 2]}', 1, 13, /expected `,` or `\]` in the array, got `2\]}`/],
    ['{"topK": [1]', 1, 13, /expected `,` or `}` after the value of `topK`, got the end of the file/],
    ['{"task": "x"} extra', 1, 15, /end of the file/],
    ['{\n"task": "ranking",\n"task": "ranking"}', 3, 1, /duplicate key `task` \(first at line 2\)/],
    ['{"eceBins": 01}', 1, 13, /invalid number/],
  ];
  for (const [text, line, column, re] of cases) {
    const e = await loadError(text);
    assert.equal(e.code, 'config-syntax', text);
    assert.equal(e.location?.line, line, text);
    assert.match(
      e.message,
      new RegExp(`:${line}:${column}: invalid JSON at line ${line}, column ${column}`),
      e.message,
    );
    assert.match(e.message, re, e.message);
  }
});

test('the top level must be an object', async () => {
  const e = await loadError('[1, 2]');
  assert.equal(e.code, 'config-invalid');
  assert.match(e.message, /expected a JSON object .* got an array/);
});

test('each type error names the key path, its line, expected and got', async () => {
  const cases: [string, string, number, string][] = [
    [
      'task',
      '"classify"',
      2,
      '`task` at line 2: expected one of "classification", "iw-binary", "ranking", got "classify"',
    ],
    ['invalidRows', '"drop"', 2, '`invalidRows` at line 2: expected one of "error", "skip", got "drop"'],
    ['eceBins', '0', 2, '`eceBins` at line 2: expected an integer ≥ 1, got 0'],
    ['eceBins', '2.5', 2, '`eceBins` at line 2: expected an integer, got 2.5'],
    ['eceBins', '"15"', 2, '`eceBins` at line 2: expected an integer, got "15"'],
    ['reweight', '"yes"', 2, '`reweight` at line 2: expected true or false, got "yes"'],
    ['targetCoverage', '1.5', 2, '`targetCoverage` at line 2: expected a number ≤ 1, got 1.5'],
    ['targetCoverage', '0', 2, '`targetCoverage` at line 2: expected a number > 0, got 0'],
    ['topK', '[]', 2, '`topK` at line 2: expected at least 1 item, got 0'],
    ['topK', '5', 2, '`topK` at line 2: expected an array, got 5'],
    [
      'trainCounts',
      'true',
      2,
      '`trainCounts` at line 2: expected an array of numbers, an object mapping names to numbers or a path (string), got true',
    ],
    [
      'groupNames',
      '["a", "a"]',
      2,
      '`groupNames` at line 2: expected no repeated items, got "a" twice (items 0 and 1)',
    ],
    ['columns', '"label"', 2, '`columns` at line 2: expected an object, got "label"'],
    ['T', '0', 2, '`T` at line 2: expected an integer ≥ 1, got 0'],
    [
      'mapNormaliser',
      '"Min"',
      2,
      '`mapNormaliser` at line 2: expected one of "min", "all", "hits", got "Min". Did you mean "min"?',
    ],
  ];
  for (const [key, value, line, message] of cases) {
    const e = await loadError(`{\n  "${key}": ${value}\n}`);
    assert.equal(e.code, 'config-invalid', key);
    assert.equal(e.location?.line, line);
    assert.ok(e.message.endsWith(message), `${e.message}\n  expected to end with\n${message}`);
  }
});

test('errors inside arrays and nested objects point at the element and the nested key line', async () => {
  let e = await loadError('{\n  "trainCounts": [\n    10,\n    -2\n  ]\n}');
  assert.equal(e.location?.line, 4);
  assert.match(e.message, /`trainCounts\[1\]` at line 4: expected a number ≥ 0, got -2$/);
  e = await loadError('{\n  "bootstrap": {\n    "n": 100,\n    "confidence": 95\n  }\n}');
  assert.equal(e.location?.line, 4);
  assert.match(e.message, /`bootstrap\.confidence` at line 4: expected a number < 1, got 95$/);
  e = await loadError('{\n  "compare": {"directions": {"acc": "up"}}\n}');
  assert.match(e.message, /`compare\.directions\.acc` at line 2: expected one of "higher", "lower", got "up"/);
  e = await loadError('{"trainCounts": ""}');
  assert.match(e.message, /`trainCounts` at line 1: expected a non-empty string, got ""/);
});

test('every problem is listed, in line order', async () => {
  const e = await loadError('{\n  "eceBins": 0,\n  "task": "x",\n  "trainCount": [1]\n}');
  const lines = e.message.split('\n');
  assert.equal(lines.length, 3);
  assert.match(lines[0]!, /:2: `eceBins` at line 2/);
  assert.match(lines[1]!, /:3: `task` at line 3/);
  assert.match(lines[2]!, /:4: Unknown key `trainCount` at line 4/);
});

test('an unknown key names the nearest known key', async () => {
  const e = await loadError('{\n  "task": "classification",\n  "trainCount": [1, 2]\n}');
  assert.equal(e.code, 'config-unknown-key');
  assert.equal(e.location?.line, 3);
  assert.ok(e.message.endsWith('Unknown key `trainCount` at line 3. Did you mean `trainCounts`?'), e.message);
  const snake = await loadError('{"train_counts": [1]}');
  assert.match(snake.message, /Did you mean `trainCounts`\?/);
  const caseOnly = await loadError('{"topk": [1]}');
  assert.match(caseOnly.message, /Did you mean `topK`\?/);
});

test('an unknown nested key names its parent and the nearest key there', async () => {
  let e = await loadError('{\n  "bootstrap": {\n    "n": 10,\n    "sed": 3\n  }\n}');
  assert.equal(e.code, 'config-unknown-key');
  assert.equal(e.location?.line, 4);
  assert.ok(e.message.endsWith('Unknown key `sed` in `bootstrap` at line 4. Did you mean `seed`?'), e.message);
  e = await loadError('{"shotThresholds": {"medium": 50}}');
  assert.ok(
    e.message.endsWith(
      'Unknown key `medium` in `shotThresholds` at line 1. Known keys in `shotThresholds`: many, few.',
    ),
    e.message,
  );
  e = await loadError('{"zzzzqqq": 1}');
  assert.match(e.message, /Unknown key `zzzzqqq` at line 1\. See docs\/configuration\.md/);
});

test('keys that contradict each other are rejected with the line', async () => {
  let e = await loadError('{\n  "trainCounts": [1, 2],\n  "classWeights": [0.5, 0.5]\n}');
  assert.equal(e.location?.line, 3);
  assert.match(e.message, /give `trainCounts` or `classWeights`, not both/);
  e = await loadError('{"acceptThreshold": 0.5,\n"targetCoverage": 0.8}');
  assert.equal(e.location?.line, 2);
  e = await loadError('{"shotThresholds": {\n"many": 10,\n"few": 20}}');
  assert.equal(e.location?.line, 3);
  assert.match(e.message, /`shotThresholds\.few` at line 3: expected a number ≤ shotThresholds.many \(10\), got 20/);
});

test('shot thresholds: few ≤ many is the one rule, a side not given taking its default (many 100, few 20)', async () => {
  // Both given: few above many.
  let e = await loadError('{"shotThresholds": {"many": 30, "few": 31}}');
  assert.match(e.message, /`shotThresholds\.few` at line 1: expected a number ≤ shotThresholds.many \(30\), got 31/);
  // few alone, above the default many = 100.
  e = await loadError('{"shotThresholds": {\n"few": 150}}');
  assert.equal(e.location?.line, 2);
  assert.match(e.message, /expected a number ≤ shotThresholds.many \(100, its default\), got 150/);
  // many alone, below the default few = 20.
  e = await loadError('{"shotThresholds": {"many": 10}}');
  assert.match(
    e.message,
    /`shotThresholds\.many` at line 1: expected a number ≥ shotThresholds.few \(20, its default\), got 10/,
  );
  // The boundaries themselves are fine: few = many (then medium is the classes with n = many).
  for (const text of [
    '{"shotThresholds": {"many": 30, "few": 30}}',
    '{"shotThresholds": {"few": 100}}',
    '{"shotThresholds": {"many": 20}}',
    '{"shotThresholds": {}}',
  ])
    await loadConfigFile(configFile(text));
});

test('shotThresholdsProblem: the rule on its own', () => {
  assert.equal(shotThresholdsProblem(undefined), undefined);
  assert.equal(shotThresholdsProblem({}), undefined);
  assert.equal(shotThresholdsProblem({ many: 5, few: 5 }), undefined);
  assert.equal(shotThresholdsProblem({ many: 0, few: 0 }), undefined);
  assert.deepEqual(shotThresholdsProblem({ many: 5, few: 6 }), {
    key: 'few',
    what: 'expected a number ≤ shotThresholds.many (5), got 6',
  });
  assert.deepEqual(shotThresholdsProblem({ many: 19 }), {
    key: 'many',
    what: 'expected a number ≥ shotThresholds.few (20, its default), got 19',
  });
  assert.deepEqual(shotThresholdsProblem({ few: 100.5 }), {
    key: 'few',
    what: 'expected a number ≤ shotThresholds.many (100, its default), got 100.5',
  });
});

test('a missing config file is an EvalLensError', async () => {
  const p = join(dir, 'nope.json');
  await assert.rejects(
    loadConfigFile(p),
    (e: unknown) => e instanceof EvalLensError && e.code === 'config-read' && /no such file/.test(e.message),
  );
});

test('findConfigBeside finds eval-lens.json in the input folder only', async () => {
  const d = join(dir, 'beside');
  mkdirSync(join(d, 'sub'), { recursive: true });
  writeFileSync(join(d, 'preds.csv'), 'label,pred\n1,1\n');
  assert.equal(await findConfigBeside(join(d, 'preds.csv')), undefined);
  writeFileSync(join(d, 'eval-lens.json'), '{}');
  assert.equal(await findConfigBeside(join(d, 'preds.csv')), join(d, 'eval-lens.json'));
  assert.equal(await findConfigBeside(join(d, 'sub', 'x.csv')), undefined);
  mkdirSync(join(d, 'sub', 'eval-lens.json'));
  assert.equal(await findConfigBeside(join(d, 'sub', 'x.csv')), undefined, 'a folder of that name is not a config');
});

test('resolveConfig: defaults first, then layers weakest to strongest, nested objects merged by key', () => {
  const settings: EvalConfig = { eceBins: 20, bootstrap: { n: 500, seed: 3 }, topK: [3], columns: { label: 'y' } };
  const file: EvalConfig = {
    eceBins: 10,
    bootstrap: { confidence: 0.9 },
    columns: { pred: 'yhat' },
    shotThresholds: { few: 10 },
    compare: { directions: { a: 'lower' } },
  };
  const flags: EvalConfig = {
    bootstrap: { seed: 9 },
    topK: [1, 2],
    eceBins: undefined,
    compare: { directions: { b: 'higher' } },
  };
  const r = resolveConfig([settings, file, flags], '/w/eval-lens.json');
  assert.equal(r.eceBins, 10, 'file beats settings; an undefined flag does not clear it');
  assert.deepEqual(r.bootstrap, { n: 500, confidence: 0.9, seed: 9, stratified: false });
  assert.deepEqual(r.topK, [1, 2], 'arrays replace');
  assert.deepEqual(r.columns, { label: 'y', pred: 'yhat' });
  assert.deepEqual(r.shotThresholds, { many: 100, few: 10 });
  assert.deepEqual(r.compare, { directions: { a: 'lower', b: 'higher' } });
  assert.equal(r.configFile, '/w/eval-lens.json');
  assert.equal(r.invalidRows, 'error');
  assert.equal(r.mapNormaliser, 'min');
  assert.deepEqual(r.k, [5, 10, 20, 50]);
});

test('resolveConfig: no layers gives exactly the defaults, as fresh copies', () => {
  const r = resolveConfig([]);
  assert.deepEqual(r, JSON.parse(JSON.stringify(CONFIG_DEFAULTS)));
  assert.equal('configFile' in r, false);
  (r.topK as number[]).push(99);
  r.bootstrap.n = 1;
  assert.deepEqual(resolveConfig([]).topK, [5], 'defaults are not shared');
  assert.equal(resolveConfig([]).bootstrap.n, 1000);
});

test('resolveConfig: $schema is dropped', () => {
  const r = resolveConfig([{ $schema: 'x' } as EvalConfig]);
  assert.equal('$schema' in r, false);
});

test('resolveConfigPath: relative to the base folder, inside the root', () => {
  const base = resolve('/w/proj/runs');
  assert.equal(resolveConfigPath('train.json', base), join(base, 'train.json'));
  assert.equal(resolveConfigPath('./data/../train.json', base), join(base, 'train.json'));
  assert.equal(
    resolveConfigPath('../shared/counts.json', base, { root: '/w/proj' }),
    resolve('/w/proj/shared/counts.json'),
  );
  assert.equal(resolveConfigPath(resolve('/w/proj/x.json'), base, { root: '/w/proj' }), resolve('/w/proj/x.json'));
});

test('resolveConfigPath: escapes and absolute paths outside the root are rejected, naming the key and its line', () => {
  const d = join(dir, 'ws');
  mkdirSync(d, { recursive: true });
  const cfg = join(d, 'eval-lens.json');
  writeFileSync(cfg, '{\n  "task": "ranking",\n  "relevant": "../../etc/qrels"\n}\n');
  const check = (fn: () => unknown, re: RegExp, line?: number): void => {
    assert.throws(fn, (e: unknown) => {
      assert.ok(e instanceof EvalLensError);
      assert.equal(e.code, 'config-path');
      assert.match(e.message, re);
      assert.equal(e.location?.line, line);
      return true;
    });
  };
  check(
    () => resolveConfigPath('../../etc/qrels', d, { key: 'relevant', configFile: cfg }),
    /:3: `relevant` at line 3: the path "..\/..\/etc\/qrels" resolves to .* outside the workspace/,
    3,
  );
  check(
    () => resolveConfigPath('/etc/passwd', d, { key: 'train' }),
    /`train`: the path "\/etc\/passwd" resolves to \/etc\/passwd, outside the workspace/,
  );
  check(() => resolveConfigPath('..', d, { key: 'train' }), /outside the workspace/);
  check(() => resolveConfigPath('', d, { key: 'train' }), /expected a path/);
  // A sibling folder whose name starts like the root's is still outside.
  check(() => resolveConfigPath(`${d}-evil/x`, d, { key: 'train' }), /outside the workspace/);
  // Inside a wider root, `..` is fine.
  assert.equal(resolveConfigPath('../x.json', d, { root: dir }), join(dir, 'x.json'));
  assert.equal(readFileSync(cfg, 'utf8').includes('relevant'), true, 'the config file is only read');
});

test('checkConfig: settings and flags are checked without lines, naming their source', async () => {
  const { checkConfig } = await import('../../../../src/core/config/check');
  assert.deepEqual(checkConfig({ eceBins: 5 }, 'settings'), { eceBins: 5 });
  assert.throws(
    () => checkConfig({ eceBins: 0, topk: [1] }, 'settings'),
    (e: unknown) => {
      assert.ok(e instanceof EvalLensError);
      const lines = e.message.split('\n').sort();
      assert.deepEqual(lines, [
        '  settings: `eceBins`: expected an integer ≥ 1, got 0',
        'settings: Unknown key `topk`. Did you mean `topK`?',
      ]);
      return true;
    },
  );
});

test('a config that is not an object, checked without a file, says so', async () => {
  const { configProblems } = await import('../../../../src/core/config/check');
  assert.deepEqual(
    configProblems('x').map((p) => p.message),
    ['the config: expected an object, got "x"'],
  );
  assert.deepEqual(
    configProblems({ groups: { a: 1 } }).map((p) => p.message),
    ['`groups.a`: expected a string, got 1'],
  );
  assert.deepEqual(
    configProblems({ groups: [] }).map((p) => p.message),
    ['`groups`: expected at least 1 item, got 0'],
  );
});

test('two keys that are alternatives, both given: one problem each, at the second key and its line', async () => {
  const { configProblems } = await import('../../../../src/core/config/check');
  const { parseJsonWithLocations } = await import('../../../../src/core/config/jsonWithLocations');
  const text = [
    '{',
    '  "classWeights": { "a": 1 },',
    '  "acceptThreshold": 0.5,',
    '  "trainCounts": { "a": 3 },',
    '  "targetCoverage": 0.8',
    '}',
  ].join('\n');
  const value = JSON.parse(text) as unknown;
  assert.deepEqual(
    configProblems(value, parseJsonWithLocations(text)).map((p) => [p.code, p.pointer, p.line, p.message]),
    [
      [
        'config-invalid',
        '/classWeights',
        2,
        '`classWeights` at line 2: give `trainCounts` or `classWeights`, not both',
      ],
      [
        'config-invalid',
        '/targetCoverage',
        5,
        '`targetCoverage` at line 5: give `acceptThreshold` or `targetCoverage`, not both',
      ],
    ],
  );
  assert.deepEqual(configProblems({ trainCounts: { a: 3 }, targetCoverage: 0.8 }), []);
});

test('empty objects and arrays, with or without spaces inside, parse as JSON.parse does', async () => {
  const { parseJsonWithLocations } = await import('../../../../src/core/config/jsonWithLocations');
  for (const text of ['{}', '{ }', '{"a": [], "b": {}, "c": [ \n ], "d": {\t}, "e": [[], {}]}', '[]', '[ {} ]'])
    assert.deepEqual(parseJsonWithLocations(text).value, JSON.parse(text), text);
});
