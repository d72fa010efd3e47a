/** package.json contributions agree with the code: command ids, menus, views, schemas, settings. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, View } from '../../../src/extension/commandIds';

const root = join(import.meta.dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const c = pkg.contributes;

test('every command of the id table is contributed with the "Eval Lens" category, and only those', () => {
  const declared = c.commands.map((x: { command: string }) => x.command).sort();
  assert.deepEqual(declared, Object.values(Command).sort());
  for (const x of c.commands) assert.equal(x.category, 'Eval Lens', x.command);
});

test('menus name only contributed commands and views; item menus use viewItem', () => {
  const ids = new Set(Object.values(Command));
  for (const [menu, entries] of Object.entries(c.menus) as [string, { command: string; when?: string }[]][]) {
    for (const e of entries) {
      assert.ok(ids.has(e.command as never), `${menu}: ${e.command}`);
      if (menu === 'view/item/context') assert.match(e.when ?? '', /viewItem/);
    }
  }
  assert.ok(
    c.menus['explorer/context'].some(
      (e: { command: string; when: string }) => e.command === Command.compare && /listMultiSelection/.test(e.when),
    ),
  );
  assert.equal(c.views[View.container][0].id, View.results);
  assert.ok(c.viewsWelcome.some((w: { view: string }) => w.view === View.results));
  assert.ok(existsSync(join(root, c.viewsContainers.activitybar[0].icon)));
});

test('JSON schemas registered for results, config and comparisons exist', () => {
  const byMatch = Object.fromEntries(
    c.jsonValidation.map((j: { fileMatch: string; url: string }) => [j.fileMatch, j.url]),
  );
  assert.deepEqual(Object.keys(byMatch).sort(), ['*.compare.json', '*.eval.json', 'eval-lens.json']);
  for (const url of Object.values(byMatch)) assert.ok(existsSync(join(root, url as string)), url as string);
});

test('settings read by the extension are declared; activation is lazy', () => {
  const src = readFileSync(join(root, 'src/extension/settings.ts'), 'utf8');
  const used = [...src.matchAll(/(?:set<[^>]+>|get<[^>]+>)\('([^']+)'/g)].map((m) => `evalLens.${m[1]}`);
  assert.ok(used.length >= 9);
  for (const k of used) assert.ok(k in c.configuration.properties, k);
  assert.ok(!pkg.activationEvents.includes('*'));
  assert.ok(pkg.activationEvents.includes('onWebviewPanel:evalLens.report'));
  assert.equal(pkg.main, './dist/extension.js');
});
