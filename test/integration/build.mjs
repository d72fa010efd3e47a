// Bundles the integration suite for the extension host: index.ts and every *.test.ts to
// out/test/integration/*.js (CommonJS, `vscode` provided by the host, mocha required at run time
// from node_modules so that its reporters and globals are the real ones).
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const outdir = join(root, 'out/test/integration');
rmSync(outdir, { recursive: true, force: true });
const entryPoints = readdirSync(here).filter((n) => n === 'index.ts' || n.endsWith('.test.ts')).map((n) => join(here, n));
await esbuild.build({
  entryPoints, outdir, bundle: true, platform: 'node', target: 'node20', format: 'cjs',
  sourcemap: 'inline', external: ['vscode', 'mocha'], logLevel: 'warning',
});
