// Fails (exit 1) when the relative imports of the TypeScript under src/, webview/, scripts/ and
// test/ form a cycle, and prints each cycle. Type-only imports count too: a cycle of types is still
// two modules that cannot be read, moved or tested one without the other.
// Usage: node scripts/check-import-cycles.mjs
//
// There is no allow-list: every cycle fails. Break one by moving what both modules share into a
// module of its own, or by handing a dependency to a constructor instead of importing it.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const roots = ['src', 'webview', 'scripts', 'test'];
const exts = ['.ts', '.tsx', '.mts', '.mjs', '.js'];

function walk(dir, out) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'fixtures' || name === 'golden') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|tsx|mts|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The file a relative specifier names, or undefined (package imports are not followed). */
function resolveSpec(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.(js|mjs|ts)$/, '');
  for (const c of [base, ...exts.map((e) => stem + e), ...exts.map((e) => join(base, 'index' + e))]) {
    if (existsSync(c) && statSync(c).isFile()) return c;
  }
  return undefined;
}

const importRe =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const files = roots.flatMap((r) => walk(join(root, r), []));
const graph = new Map();
for (const f of files) {
  const text = readFileSync(f, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const deps = new Set();
  for (const m of text.matchAll(importRe)) {
    const target = resolveSpec(f, m[1] ?? m[2] ?? m[3]);
    if (target) deps.add(target);
  }
  graph.set(f, [...deps]);
}

// Tarjan's strongly connected components: every component with more than one module (or a module
// importing itself) holds a cycle.
let index = 0;
const idx = new Map(),
  low = new Map(),
  onStack = new Set(),
  stack = [],
  components = [];
function connect(v) {
  idx.set(v, index);
  low.set(v, index);
  index++;
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!idx.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const comp = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      comp.push(w);
    } while (w !== v);
    if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(comp);
  }
}
for (const v of graph.keys()) if (!idx.has(v)) connect(v);

const rel = (f) => relative(root, f).split('\\').join('/');
if (components.length === 0) {
  console.log(`import cycles: none among ${files.length} modules`);
} else {
  for (const comp of components) {
    console.error('import cycle among:\n  ' + comp.map(rel).sort().join('\n  '));
  }
  console.error(`${components.length} import cycle(s)`);
  process.exit(1);
}
