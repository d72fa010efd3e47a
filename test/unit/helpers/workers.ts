// A worker thread's script bundled into a temporary folder, as `npm run build` bundles it into dist/
// (a .ts worker does not load under tsx).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { buildSync } from 'esbuild';

/** Bundles `entry` (a path from the project root) and returns the script's path. */
export function bundledWorker(entry: string): string {
  const outfile = join(mkdtempSync(join(tmpdir(), 'eval-lens-worker-')), basename(entry).replace(/\.ts$/, '.js'));
  buildSync({
    entryPoints: [join(__dirname, '../../..', entry)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}
