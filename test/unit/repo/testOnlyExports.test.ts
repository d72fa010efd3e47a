// Code that only tests use lives under test/ (test/unit/README.md): an export of src/ that no
// module of the shipped code reads — not its own module, nor any file of src/, webview/, scripts/,
// bench/ or bin/ — is either dead or a test's reference implementation, and goes to the tests (or
// is no longer exported). A few are read by something outside the code and are listed here with
// the reason.
//
// The check is by name: every identifier of every file is collected with the TypeScript parser
// (comments and strings do not count), and an export is used when its name appears as an
// identifier outside its declaration. A property of the same name elsewhere also counts as a use,
// so the check can miss an unused export, never flag a used one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** Exports no module reads, and who does read them. */
const READ_OUTSIDE_THE_CODE: Record<string, string> = {
  'src/extension/extension.ts activate': "the editor calls it (the manifest's `main`)",
  'src/extension/extension.ts deactivate': "the editor calls it (the manifest's `main`)",
  'src/core/collectGarbage.ts collectionsTaken':
    "the tests read this module's count of collections: it lives in the module",
  'src/core/collectGarbage.ts setCollectAfterBytes':
    "the tests lower this module's threshold so that a small evaluation reaches its collection points",
  'src/core/results/tables.ts TABLE_NAMES':
    'the enumeration of the typed table map, beside the map: the tests check the schema against it',
  'src/core/results/tables.ts otherTables':
    'the typed table map’s complement, beside the map: the tests check that every table written is typed',
};

const SHIPPED = ['src', 'webview', 'scripts', 'bench', 'bin'];
const CODE = /\.(ts|tsx|mjs|cjs|js)$/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'node_modules' || p === join('bench', 'data')) return [];
    if (statSync(p).isDirectory()) return files(p);
    // generated modules (git-ignored) exist only after a build; their templates are read here
    return CODE.test(name) && !name.includes('.generated.') ? [p.split('\\').join('/')] : [];
  });
}

function parse(path: string): ts.SourceFile {
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : path.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, kind);
}

/** How often each identifier occurs in the file. */
function identifiers(sf: ts.SourceFile): Map<string, number> {
  const out = new Map<string, number>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) out.set(node.text, (out.get(node.text) ?? 0) + 1);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const exported = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The names of the values a module exports by declaration (functions, classes, constants, enums). */
function exportedValues(sf: ts.SourceFile): string[] {
  const out: string[] = [];
  for (const s of sf.statements) {
    if (!exported(s)) continue;
    if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isEnumDeclaration(s)) && s.name)
      out.push(s.name.text);
    else if (ts.isVariableStatement(s))
      for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) out.push(d.name.text);
  }
  return out;
}

const shipped = SHIPPED.flatMap(files).map((path) => {
  const sf = parse(path);
  return { path, sf, names: identifiers(sf) };
});

test('no export of src/ is read by tests alone', () => {
  const unread: string[] = [];
  let checked = 0;
  for (const f of shipped) {
    if (!f.path.startsWith('src/') || f.path.endsWith('.js')) continue;
    for (const name of exportedValues(f.sf)) {
      checked++;
      // the declaration itself is one occurrence
      if ((f.names.get(name) ?? 0) > 1) continue;
      if (shipped.some((g) => g !== f && g.names.has(name))) continue;
      const key = `${f.path} ${name}`;
      if (!(key in READ_OUTSIDE_THE_CODE)) unread.push(key);
    }
  }
  assert.ok(checked > 500, `${checked} exports checked`);
  assert.deepEqual(
    unread,
    [],
    `exported but read by no shipped module (move a test's reference implementation under test/, or stop exporting it): ${unread.join(', ')}`,
  );
});

test('every export listed as read outside the code is still exported by its module', () => {
  const gone = Object.keys(READ_OUTSIDE_THE_CODE).filter((key) => {
    const [path, name] = key.split(' ');
    const f = shipped.find((g) => g.path === path);
    return !f || !exportedValues(f.sf).includes(name!);
  });
  assert.deepEqual(gone, [], `listed but no longer exported: ${gone.join(', ')}`);
});
