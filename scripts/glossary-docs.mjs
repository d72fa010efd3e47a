// Writes the "Names and references" section of each docs page, and the described metric keys of the
// results JSON Schema, from the glossary module
// (src/core/glossary). Run after changing the glossary: node --import tsx scripts/glossary-docs.mjs
// A unit test (test/unit/core/glossary/markdown.test.ts) fails while a page is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { GLOSSARY_PAGES, withGlossarySection } from '../src/core/glossary/markdown.ts';
import { withMetricMap } from '../src/core/glossary/schema.ts';

for (const [path, families] of Object.entries(GLOSSARY_PAGES)) {
  const before = readFileSync(path, 'utf8');
  const after = withGlossarySection(before, families);
  if (after !== before) {
    writeFileSync(path, after);
    console.log(`updated ${path}`);
  }
}

// The results schema's metric map: one described entry per metric key (editor hover on a key).
const SCHEMA = 'schemas/eval-lens.results.schema.json';
const schemaBefore = readFileSync(SCHEMA, 'utf8');
const schemaAfter = withMetricMap(schemaBefore);
if (schemaAfter !== schemaBefore) {
  writeFileSync(SCHEMA, schemaAfter);
  console.log(`updated ${SCHEMA}`);
}
