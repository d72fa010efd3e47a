/**
 * The metric core as one CommonJS bundle (`dist/core.js`, development builds only) for scripts and
 * benchmarks that must measure the code as it ships (bundled by esbuild), not as tsx compiles it.
 */
export { evaluateFile } from './evaluate';
export * from './inspect/index';
// the CSV reader on its own (bench/read.bench.mjs)
export { loadClassification } from './io/loadClassification';
export { resolveConfig } from './config/load';
export { Warnings } from './diagnostics';
