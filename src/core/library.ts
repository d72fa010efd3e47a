/**
 * The metric core as one CommonJS bundle (`dist/core.js`, development builds only) for scripts and
 * benchmarks that must measure the code as it ships (bundled by esbuild), not as tsx compiles it.
 */
export { evaluateFile } from './evaluate';
export * from './inspect/index';
