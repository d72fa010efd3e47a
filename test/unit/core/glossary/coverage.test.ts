// Every metric key the core emits (evaluated on the examples of every task, plus the fields of a
// paired comparison) has a glossary entry with a name, a meaning, a formula, a direction that
// agrees with the results, and at least one published reference with a DOI or URL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { evaluateFile } from '../../../../src/core/evaluate';
import { compareRuns } from '../../../../src/core/compare/compareRuns';
import type { Results } from '../../../../src/core/results/types';
import type { EvalConfig } from '../../../../src/core/config/types';
import {
  GLOSSARY,
  REFERENCES,
  explainKey,
  metricColumn,
  metricName,
  referencesOf,
  formatExplanation,
} from '../../../../src/core/glossary';

const EX = join(process.cwd(), 'examples');
const NO_BOOT: EvalConfig = { bootstrap: { n: 0 } } as EvalConfig;

async function evaluated(): Promise<Results[]> {
  const files = [
    'digits-lt/logreg.csv',
    'digits-lt/knn.csv',
    'digits-lt/gaussian_nb.csv',
    'cifar100-lt-like/logreg.csv',
    'iw-breast-cancer/logreg.csv',
    'ranking-debian-deps/popularity.jsonl',
    'ranking-debian-deps/cooccurrence.jsonl',
  ];
  return Promise.all([
    ...files.map((f) => evaluateFile(join(EX, f), { overrides: NO_BOOT })),
    // worst-group error over a per-row attribute: the digits runs' split column as the subgroups
    evaluateFile(join(EX, 'digits-lt/logreg.csv'), {
      overrides: { ...NO_BOOT, subgroupColumn: 'split' } as EvalConfig,
    }),
    // the selective group errors reweighted to the train distribution (weighted_balanced_error)
    evaluateFile(join(EX, 'cifar100-lt-like/logreg.csv'), {
      overrides: { ...NO_BOOT, reweight: true } as EvalConfig,
    }),
  ]);
}

const INTERNAL = /seed ?0|seed's|METRICS\.md|DESIGN\.md|section ?-?[0-9]|Eq\. ?[0-9]/i;

test('every metric key of every example (and of its baselines) has a glossary entry with a reference', async () => {
  const results = await evaluated();
  const keys = new Set<string>();
  for (const r of results) {
    for (const k of Object.keys(r.metrics)) keys.add(k);
    for (const b of Object.values(r.baselines ?? {})) for (const k of Object.keys(b)) keys.add(k);
  }
  assert.ok(keys.size >= 80, `expected the keys of four tasks, got ${keys.size}`);
  const missing = [...keys].filter((k) => !explainKey(k));
  assert.deepEqual(missing, [], 'keys without a glossary entry');
  for (const k of keys) {
    const e = explainKey(k)!;
    assert.ok(e.refs.length > 0, `${k}: no reference`);
    for (const r of referencesOf(e)) assert.ok(r.doi || r.url, `${k}: reference "${r.title}" has neither DOI nor URL`);
    assert.notEqual(metricName(k), k, `${k}: the name is the key`);
    assert.ok(!/<[kKg]>/.test(e.name + e.meaning + e.formula), `${k}: a placeholder left unfilled`);
  }
  // Which way is better: the glossary and the results agree wherever a run can win.
  for (const r of results) {
    for (const [k, m] of Object.entries(r.metrics)) {
      const d = explainKey(k)!.direction;
      if (d !== 'none') assert.equal(d, m.direction, `${k}: direction`);
    }
  }
  // No dead entries: every metric pattern is reached by some emitted key.
  const reached = new Set([...keys].map((k) => explainKey(k)!.pattern));
  const unreached = GLOSSARY.filter((e) => e.family !== 'comparison' && !reached.has(e.pattern)).map((e) => e.pattern);
  assert.deepEqual(unreached, [], 'glossary entries no example emits');
});

test('every field of a paired comparison test (with Holm and the bootstrap interval) has an entry', async () => {
  const runs = await Promise.all(
    ['logreg.csv', 'knn.csv', 'gaussian_nb.csv'].map((f) =>
      evaluateFile(join(EX, 'digits-lt', f), { overrides: NO_BOOT }),
    ),
  );
  const c = await compareRuns(runs, { bootstrap: { n: 20, confidence: 0.95, seed: 1 } });
  const fields = new Set(
    c.tests.flatMap((t) => Object.keys(t)).filter((f) => !['run', 'baseline', 'metric'].includes(f)),
  );
  assert.ok(fields.has('p_holm') && fields.has('ci_diff'), 'three runs with a bootstrap give p_holm and ci_diff');
  for (const f of fields) {
    const e = explainKey(f, 'comparison');
    assert.ok(e, `comparison field ${f} has no entry`);
    assert.ok(e.refs.length > 0, `${f}: no reference`);
    assert.equal(e.direction, 'none', `${f}: a test field is not a score to win`);
  }
  for (const m of new Set(c.tests.map((t) => t.metric))) assert.ok(explainKey(m), `compared metric ${m}`);
});

test('patterns: parameters are filled in; exact keys win; unknown keys are undefined', () => {
  assert.equal(metricName('top5_accuracy'), 'Top-5 accuracy');
  assert.equal(metricName('recall@10'), 'Recall at 10');
  assert.equal(metricName('error_group.tail'), 'Selective error, class group tail');
  assert.equal(
    metricName('weighted_error_group.head'),
    'Error of class group head, reweighted to the train distribution',
  );
  assert.equal(metricName('acc_group.a.b'), 'Accuracy, class group a.b', 'a group name may contain dots');
  assert.equal(metricName('aurc_grid101_0.2_1'), 'AURC, 101-point grid, coverage 0.2–1');
  assert.equal(explainKey('coverage')!.family, 'selective');
  assert.equal(explainKey('coverage@20')!.family, 'ranking');
  assert.equal(explainKey('recall')!.family, 'importance');
  assert.deepEqual(explainKey('ndcg@20')!.params, { K: '20' });
  assert.equal(explainKey('topk_accuracy'), undefined);
  assert.equal(explainKey('recall@'), undefined);
  assert.equal(metricName('my_column'), 'my_column');
});

test('column headings: every metric entry has one, short, distinct from the others, with its parameters filled in', () => {
  const metricEntries = GLOSSARY.filter((e) => e.family !== 'comparison');
  for (const e of metricEntries) {
    assert.ok(e.column !== undefined, `${e.pattern} has a column heading`);
    // a typical parameter: a one-digit top-k, a two-digit cutoff, a group name of four letters
    const filled = e.column.replace('<k>', '5').replace('<K>', '10').replace('<g>', 'tail');
    assert.ok(filled.length <= 18, `${e.pattern}: "${filled}" is short enough for a column`);
  }
  // two keys of the same family never share a heading (the families differ for coverage and coverage@K)
  const seen = new Map<string, string>();
  for (const e of metricEntries) {
    const k = `${e.family}:${e.column}`;
    assert.equal(seen.get(k), undefined, `${e.pattern} and ${seen.get(k)} share "${e.column}"`);
    seen.set(k, e.pattern);
  }
  assert.equal(metricColumn('balanced_accuracy'), 'Bal. acc.');
  assert.equal(metricColumn('top5_accuracy'), 'Top-5 acc.');
  assert.equal(metricColumn('ndcg@10'), 'NDCG@10');
  assert.equal(metricColumn('error_group.tail'), 'Sel. err. tail');
  assert.equal(metricColumn('acc_few'), 'Few-shot');
  assert.equal(metricColumn('aurc_worst_grid101_0.2_1'), 'Worst AURC (0.2–1)');
  assert.equal(metricColumn('p_t'), 'p-value, paired t-test (two-sided)', 'no heading of its own: the name');
  assert.equal(metricColumn('my_column'), 'my_column', 'unknown: the key');
});

test('entries: complete, one-sentence meanings, no project-internal names, every reference used', () => {
  const patterns = GLOSSARY.map((e) => e.pattern);
  assert.equal(new Set(patterns).size, patterns.length, 'patterns are unique');
  const used = new Set<string>();
  for (const e of GLOSSARY) {
    for (const f of ['name', 'meaning', 'formula', 'convention', 'notThis'] as const)
      assert.ok(e[f].trim().length > 0, `${e.pattern}.${f} is empty`);
    assert.match(e.meaning, /^[A-Z].*\.$/s, `${e.pattern}: the meaning is a sentence`);
    assert.ok(e.name.length <= 64, `${e.pattern}: name too long for a card title`);
    const text = formatExplanation(
      explainKey(e.pattern.replace('<k>', '5').replace('<K>', '10').replace('<g>', 'tail'), e.family)!,
    );
    assert.ok(!INTERNAL.test(text), `${e.pattern}: internal name in "${INTERNAL.exec(text)?.[0]}"`);
    e.refs.forEach((r) => used.add(r));
  }
  const unused = Object.keys(REFERENCES).filter((r) => !used.has(r));
  assert.deepEqual(unused, [], 'references no entry cites');
});
