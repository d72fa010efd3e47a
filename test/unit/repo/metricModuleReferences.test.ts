import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// Every metric module cites its published sources in its TSDoc (a References section, as
// scikit-learn's docstrings do) and points to its page under docs/metrics/; every source it cites
// is one the documentation already cites, so the code and the docs name the same papers.

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : name.endsWith('.ts') ? [p] : [];
  });
}

const modules = tsFiles('src/core/metrics');
const docsText = readdirSync('docs/metrics')
  .map((f) => readFileSync(join('docs/metrics', f), 'utf8'))
  .join('\n');
const glossaryRefs = readFileSync('src/core/glossary/references.ts', 'utf8');

/** The link is cited in docs/metrics, or is a DOI or URL of the glossary's references. */
function citedElsewhere(link: string): boolean {
  if (docsText.includes(link)) return true;
  const doi = /^https:\/\/doi\.org\/(.+)$/.exec(link)?.[1];
  return doi ? glossaryRefs.includes(`doi: '${doi}'`) : glossaryRefs.includes(`url: '${link}'`);
}

test('metric modules: there are some (the walk found the folder)', () => {
  assert.ok(modules.length >= 20, `${modules.length} modules`);
});

for (const file of modules) {
  test(`metric module ${file}: References in its TSDoc and a docs/metrics page`, () => {
    const text = readFileSync(file, 'utf8');
    assert.ok(text.startsWith('/**'), 'starts with its TSDoc');
    const doc = text.slice(0, text.indexOf('*/'));
    const refs = doc.slice(doc.indexOf(' * References'));
    assert.ok(doc.includes(' * References'), 'has a References section');
    const entries = refs.split('\n * - ').slice(1);
    assert.ok(entries.length >= 1, 'lists at least one source');
    for (const entry of entries) {
      const flat = entry.replace(/\n \*\s+/g, ' ');
      assert.match(flat, /\(\d{4}\)\. .+\. .+/, `author (year). title. venue: ${flat}`);
      const link = /(https?:\/\/\S+)/.exec(flat)?.[1];
      assert.ok(link, `has a DOI or URL: ${flat}`);
      assert.ok(citedElsewhere(link), `${link} is cited in docs/metrics or the glossary`);
    }
    const page = /@see (docs\/metrics\/[\w-]+\.md)/.exec(doc)?.[1];
    assert.ok(page, 'points to its docs/metrics page with @see');
    assert.ok(existsSync(page), `${page} exists`);
  });
}
