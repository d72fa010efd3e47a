import { readFile } from 'node:fs/promises';

/**
 * The CLI imports the core through its public surface, src/core/index.ts (one `export { … } from`
 * line a module). With code splitting esbuild no longer honours package.json's "sideEffects"
 * (evanw/esbuild#1110): an import of that index evaluates every module it names, so every command
 * loaded the whole core. Here each `import { a, b } from '…/core'` of a CLI source is bundled as
 * imports from the modules that export `a` and `b`, as the index maps them; the sources keep
 * importing the index. A name the index does not export this way stops the build.
 */
export const coreSurface = {
  name: 'core-surface',
  setup(build) {
    let surface;
    build.onStart(async () => {
      surface = new Map();
      const index = await readFile('src/core/index.ts', 'utf8');
      for (const m of index.matchAll(/^export\s*\{([^}]*)\}\s*from\s*'\.\/([^']+)';/gm))
        for (const item of m[1]
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)) {
          const [name, alias] = item.replace(/^type\s+/, '').split(/\s+as\s+/);
          surface.set(alias ?? name, { module: m[2], name });
        }
    });
    build.onLoad({ filter: /[\\/]src[\\/]cli[\\/][^\\/]+\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const contents = text.replace(
        /^import\s+(type\s+)?\{([^}]*)\}\s*from\s*'((?:\.\.\/)+core)';/gm,
        (_, typeOnly, list, core) => {
          const byModule = new Map();
          for (const item of list
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)) {
            const isType = /^type\s/.test(item);
            const [name, local] = item.replace(/^type\s+/, '').split(/\s+as\s+/);
            const at = surface.get(name);
            if (!at) throw new Error(`${args.path}: ${name} is not exported by src/core/index.ts as export { … } from`);
            const spec = `${isType ? 'type ' : ''}${at.name}${at.name !== (local ?? name) ? ` as ${local ?? name}` : ''}`;
            byModule.set(at.module, [...(byModule.get(at.module) ?? []), spec]);
          }
          return [...byModule]
            .map(([module, specs]) => `import ${typeOnly ?? ''}{ ${specs.join(', ')} } from '${core}/${module}';`)
            .join(' ');
        },
      );
      return { contents, loader: 'ts' };
    });
  },
};
