// One esbuild script for every bundle: the extension host entry, its worker, the CLI and the
// webview. `vscode` stays external (the host provides it); the webview is bundled for the browser.
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { generateConfigValidator } from './gen-config-validator.mjs';
import { generateByteCopies } from './gen-byte-copies.mjs';
import { coreSurface } from './core-surface-imports.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/**
 * Writes the non-ASCII characters left in a Node bundle as \u escapes. esbuild escapes those of
 * strings and identifiers; the ones of comments and regular expressions stay, and one is enough for
 * Node to hold the whole bundle's source as a two-byte string: the CLI's 2.4 MB of source took
 * 4.7 MB in every process (2.4 MB of its peak memory). A \u escape means the same character in a
 * regular expression (with or without the u flag) and is plain text in a comment; the source map's
 * columns after such a character on its line are off by five a character.
 */
const asciiOnly = {
  name: 'ascii-only',
  setup(build) {
    build.onEnd(async (result) => {
      for (const file of Object.keys(result.metafile?.outputs ?? {})) {
        if (!/\.m?js$/.test(file)) continue;
        const text = await readFile(file, 'utf8');
        // eslint-disable-next-line no-control-regex
        if (!/[^\x00-\x7f]/.test(text)) continue;
        const escape = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
        // eslint-disable-next-line no-control-regex
        await writeFile(file, text.replace(/[^\x00-\x7f]/g, escape));
      }
    });
  },
};

const node = {
  bundle: true,
  metafile: true,
  plugins: [asciiOnly],
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

/**
 * The CLI as ES modules split at its dynamic imports (src/cli/main.ts: one per subcommand; the
 * core's task runners and its Parquet and .npz readers): dist/cli.mjs and its parts dist/cli-*.mjs,
 * each read and compiled only when a command needs it. In one CommonJS bundle every module's code
 * was parsed, compiled and run at the start of every command: about 20 MB beside Node.js's 40
 * before the first row was read (docs/benchmarks.md, "Scaling"). The parts sit beside the worker
 * scripts, which the core finds beside itself (`__dirname`, defined here for ES modules, as is
 * `require` for the CommonJS packages bundled). dist/cli.js, which bin/eval-lens.js and the
 * scripts run, loads dist/cli.mjs. The parts of a previous build are removed first (their names
 * carry a hash of their content), and so is the source map of the single bundle of earlier builds.
 */
const cliParts = {
  name: 'cli-parts',
  setup(build) {
    build.onStart(async () => {
      if (!existsSync('dist')) return;
      for (const f of await readdir('dist'))
        if (/^cli(-[A-Z0-9]+)?\.mjs(\.map)?$|^cli\.js\.map$/.test(f)) await rm(`dist/${f}`, { force: true });
    });
    build.onEnd(async (result) => {
      if (result.errors.length > 0) return;
      await writeFile(
        'dist/cli.js',
        "'use strict';\n// The Eval Lens CLI is dist/cli.mjs and its parts (scripts/build.mjs).\nimport('./cli.mjs');\n",
      );
    });
  },
};
const cli = {
  ...node,
  plugins: [coreSurface, cliParts, ...node.plugins],
  entryPoints: { cli: 'src/cli/main.ts' },
  outdir: 'dist',
  format: 'esm',
  splitting: true,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'cli-[hash]',
  banner: {
    js: [
      "import { createRequire as __createRequire } from 'node:module';",
      "import { fileURLToPath as __fileURLToPath } from 'node:url';",
      "import { dirname as __dirnameOf } from 'node:path';",
      'const require = __createRequire(import.meta.url);',
      'const __filename = __fileURLToPath(import.meta.url);',
      'const __dirname = __dirnameOf(__filename);',
    ].join(' '),
  },
};

const entries = [
  cli,
  { ...node, entryPoints: { extension: 'src/extension/extension.ts' }, outdir: 'dist', external: ['vscode'] },
  { ...node, entryPoints: { worker: 'src/extension/worker.ts' }, outdir: 'dist', external: ['vscode'] },
  // the long-lived row inspection worker (one per window, while a report is open)
  {
    ...node,
    entryPoints: { inspectWorker: 'src/extension/inspect/inspectWorker.ts' },
    outdir: 'dist',
    external: ['vscode'],
  },
  // the bootstrap's resampling threads (started by the CLI and by the evaluation worker)
  { ...node, entryPoints: { ciWorker: 'src/core/tasks/classificationCiWorker.ts' }, outdir: 'dist' },
  { ...node, entryPoints: { rankingCiWorker: 'src/core/tasks/rankingCiWorker.ts' }, outdir: 'dist' },
  // the threads that read parts of a large classification CSV/TSV file
  { ...node, entryPoints: { readWorker: 'src/core/io/classificationReadWorker.ts' }, outdir: 'dist' },
  // the thread that reads a ranking evaluation's train file while the run is read
  { ...node, entryPoints: { trainReadWorker: 'src/core/io/ranking/trainReadWorker.ts' }, outdir: 'dist' },
  // the factor model's scoring threads (top-K lists from user and item factor matrices)
  { ...node, entryPoints: { factorsWorker: 'src/core/factors/factorsWorker.ts' }, outdir: 'dist' },
  // the metric core as a library, for the benchmarks (bench/*.bench.mjs measure the bundled code)
  ...(production ? [] : [{ ...node, entryPoints: { core: 'src/core/library.ts' }, outdir: 'dist' }]),
  {
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
    entryPoints: { webview: 'webview/main.ts' },
    outdir: 'dist',
  },
].filter((e) => Object.values(e.entryPoints).every((p) => existsSync(p)));

// The config validator and the byte copies of the hot loops are generated code that the bundles
// import (not kept in git: see gen-config-validator.mjs, gen-byte-copies.mjs); made first, from the
// schema and the templates as they are now.
await generateConfigValidator();
await generateByteCopies();

if (watch) {
  for (const e of entries) await (await esbuild.context(e)).watch();
} else {
  await Promise.all(entries.map((e) => esbuild.build(e)));
}
