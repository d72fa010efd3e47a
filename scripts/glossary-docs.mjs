// Writes the "Names and references" section of each docs page from the glossary module
// (src/core/glossary). Run after changing the glossary: node --import tsx scripts/glossary-docs.mjs
// A unit test (test/unit/core/glossary/markdown.test.ts) fails while a page is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { GLOSSARY_PAGES, withGlossarySection } from '../src/core/glossary/markdown.ts';

for (const [path, families] of Object.entries(GLOSSARY_PAGES)) {
  const before = readFileSync(path, 'utf8');
  const after = withGlossarySection(before, families);
  if (after !== before) {
    writeFileSync(path, after);
    console.log(`updated ${path}`);
  }
}
