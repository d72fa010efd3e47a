/**
 * The metric core as one CommonJS bundle (`dist/core.js`, development builds only) for scripts and
 * benchmarks that must measure the code as it ships (bundled by esbuild), not as tsx compiles it:
 * the public surface the CLI and the extension use (index.ts), and the parts the benches time on
 * their own.
 */
export * from './index';
export * from './inspect/index';
// the CSV reader on its own (bench/read.bench.mjs)
export { loadClassification } from './io/loadClassification';
export { resolveConfig } from './config/load';
export { Warnings } from './diagnostics';
