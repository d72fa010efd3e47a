// Worker scripts for tests: under the test runner's TypeScript loader a worker thread cannot load
// a .ts entry (the loader is not inherited by workers in Node 20), so a pool would quietly compute
// everything on the calling thread. The entry is bundled with esbuild into a temporary .js file,
// as the build bundles it into dist/.
import { buildSync } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const built = new Map<string, string>();

/** The path of a bundled copy of the worker entry `entry` (a path from the repository root), built once per test file. */
export function bundledWorker(entry: string): string {
  let out = built.get(entry);
  if (!out) {
    out = join(mkdtempSync(join(tmpdir(), 'eval-lens-worker-')), basename(entry).replace(/\.ts$/, '.js'));
    buildSync({
      entryPoints: [join(__dirname, '../../..', entry)],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      logLevel: 'error',
    });
    built.set(entry, out);
  }
  return out;
}
