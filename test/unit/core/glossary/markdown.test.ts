// The docs pages agree with the glossary: each page's "Names and references" section is exactly
// what the glossary generates (scripts/glossary-docs.mjs rewrites it), and the hand-written part
// of each page defines every key of its families.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GLOSSARY, metricName } from '../../../../src/core/glossary';
import { GLOSSARY_END, GLOSSARY_PAGES, glossaryMarkdown } from '../../../../src/core/glossary/markdown';
import { metricMapSchema, withMetricMap } from '../../../../src/core/glossary/schema';

/** The generated section currently in `page`, or undefined. */
function glossarySectionOf(page: string): string | undefined {
  const start = page.indexOf('<!-- glossary:start');
  const end = page.indexOf(GLOSSARY_END);
  return start >= 0 && end > start ? page.slice(start, end + GLOSSARY_END.length) : undefined;
}

for (const [path, families] of Object.entries(GLOSSARY_PAGES)) {
  const page = readFileSync(path, 'utf8');

  test(`${path}: the generated section is up to date (run \`node --import tsx scripts/glossary-docs.mjs\`)`, () => {
    const section = glossarySectionOf(page);
    assert.ok(section, `${path} has no glossary section`);
    assert.equal(section, glossaryMarkdown(families));
  });

  test(`${path}: the page body defines every key of ${families.join(', ')}`, () => {
    const section = glossarySectionOf(page) ?? '';
    const body = page.replace(section, '');
    // The prose writes ranking cutoffs as `ndcg@K`; top-k and groups keep their placeholders.
    const spellings = (pattern: string): string[] => [
      pattern,
      pattern.replace(/<K>/g, 'K'),
      pattern.replace(/<k>/g, 'k'),
    ];
    const missing = GLOSSARY.filter((e) => families.includes(e.family))
      .filter(
        (e) =>
          !spellings(e.pattern).some(
            (s) =>
              body.includes(`\`${s}\``) ||
              body.includes(`\`${s},`) ||
              body.includes(` ${s} `) ||
              body.includes(`${s}\``),
          ),
      )
      .map((e) => e.pattern);
    assert.deepEqual(missing, [], `${path}: keys the page does not define`);
  });
}

test('the generated tables show each key with its glossary name and column heading', () => {
  const md = glossaryMarkdown(['selective']);
  assert.ok(
    md.includes(
      '| `aurc_grid101_0.2_1` | AURC, 101-point grid, coverage 0.2–1 | AURC (0.2–1) | ↓ | Geifman & El-Yaniv 2017; Geifman et al. 2019 |',
    ),
  );
  assert.ok(
    md.includes('| `error_group.<g>` | Selective error, class group &lt;g&gt; | Sel. err. &lt;g&gt; | ↓ |'),
    'placeholders are escaped in the name and column cells',
  );
  assert.ok(
    md.includes(
      '- Y. Geifman, G. Uziel, R. El-Yaniv (2019). Bias-Reduced Uncertainty Estimation for Deep Neural Classifiers.',
    ),
  );
  assert.equal(metricName('eaurc'), 'Excess AURC (E-AURC)');
});

test('the comparison JSON Schema describes each paired-test field by its glossary name and meaning', () => {
  const schema = JSON.parse(readFileSync('schemas/eval-lens.compare.schema.json', 'utf8')) as {
    definitions: { test: { properties: Record<string, { description?: string }> } };
  };
  const props = schema.definitions.test.properties;
  for (const e of GLOSSARY.filter((x) => x.family === 'comparison')) {
    assert.ok(props[e.pattern], `schema has no field ${e.pattern}`);
    assert.ok(
      props[e.pattern]!.description?.startsWith(`${e.name}. ${e.meaning} ${e.formula}.`),
      `${e.pattern}: ${props[e.pattern]!.description}`,
    );
  }
});

test('the results JSON Schema describes every metric key by its glossary entry (run `node --import tsx scripts/glossary-docs.mjs`)', () => {
  const text = readFileSync('schemas/eval-lens.results.schema.json', 'utf8');
  assert.equal(text, withMetricMap(text), 'the schema file is up to date');
  const schema = JSON.parse(text) as { definitions: { metricMap: ReturnType<typeof metricMapSchema> } };
  const map = schema.definitions.metricMap;
  assert.deepEqual(map, metricMapSchema());
  // Every metric entry is there once, as a property (exact key) or a pattern; the hover text of a
  // key a results file holds is its glossary name and meaning.
  const metricEntries = GLOSSARY.filter((e) => e.family !== 'comparison');
  assert.equal(Object.keys(map.properties).length + Object.keys(map.patternProperties).length, metricEntries.length);
  const hover = (key: string): string | undefined =>
    map.properties[key]?.description ??
    Object.entries(map.patternProperties).find(([re]) => new RegExp(re).test(key))?.[1].description;
  assert.match(
    hover('aurc_grid101_0.2_1')!,
    /^AURC, 101-point grid, coverage 0\.2–1 \(lower is better\)\. Mean overall error/,
  );
  assert.match(hover('ndcg@10')!, /^NDCG at <K> \(higher is better\)\./);
  assert.match(hover('weighted_error_group.head')!, /^Error of class group <g>, reweighted/);
  assert.match(hover('error_group.tail')!, /^Selective error, class group <g>/);
  // Exactly one pattern per parametric key (no pattern shadows another's keys).
  for (const key of [
    'top5_accuracy',
    'acc_group.a.b',
    'weighted_error_group.x',
    'error_group.x',
    'recall@10',
    'coverage@5',
  ])
    assert.equal(Object.keys(map.patternProperties).filter((re) => new RegExp(re).test(key)).length, 1, key);
  assert.equal(hover('coverage'), map.properties.coverage!.description);
  assert.equal(hover('my_metric'), undefined);
});
