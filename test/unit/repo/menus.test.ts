import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROWS_JSON_KEY as ROWS_JSON_KEY_NAME } from '../../../src/shared/rowsSniff';

const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../../package.json'), 'utf8')) as {
  contributes: { menus: Record<string, { command: string; when?: string }[]>; viewsWelcome: { contents: string }[] };
};

test('Evaluate is offered on a .json only when the sniffed context key lists it; other extensions as before', () => {
  const entries = Object.values(pkg.contributes.menus)
    .flat()
    .filter((m) => m.command === 'evalLens.evaluate' && m.when && m.when.includes('resourceExtname'));
  assert.ok(entries.length >= 3);
  for (const m of entries) {
    assert.ok(m.when!.includes(`resourceExtname == .json && resourcePath in ${ROWS_JSON_KEY_NAME}`), m.when);
    assert.doesNotMatch(m.when!, /\|json\|/, 'json is not in the plain extension list');
  }
});

test('the welcome view shows no raw Markdown code marks', () => {
  for (const v of pkg.contributes.viewsWelcome) assert.doesNotMatch(v.contents, /`/);
});
