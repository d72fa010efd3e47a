// How a bench/*.bench.ts becomes the script that runs: bundled by esbuild into one CommonJS file
// that sits in a dist/ folder beside the bundled worker scripts (so the bootstrap and reading
// threads start from dist/ as in the CLI and the extension), with the npm packages left external.
// Shared by bench/run.mjs and bench/compare.mjs, so both measure the same kind of build.
import * as esbuild from 'esbuild';

/** Bundles `entry` into `outfile`; throws (with esbuild's message unless `logLevel` is 'silent') when it does not build. */
export function bundleBench(entry, outfile, logLevel = 'warning') {
  return esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    logLevel,
  });
}
