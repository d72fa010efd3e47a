/**
 * The WebAssembly build of the bootstrap's unit-mass walk (unitMassWalk.c, compiled into
 * unitMassWalk.generated.ts): one instance per resampler, with the walk's arrays in its memory.
 *
 * The arrays the walk reads and writes are views of the instance's memory, and the resampler's
 * TypeScript (the events the walk stops at: tied blocks, grid points, the operating point) uses the
 * same views, so nothing is copied back and forth during a resample; the multiplicities are copied
 * in once per resample (a memcpy of n bytes or 4n bytes). The memory is sized once and never grown:
 * growing would detach every view.
 */
import { Buffer } from 'node:buffer';
import { UNIT_MASS_WALK_WASM } from './unitMassWalk.generated';

/**
 * The part of the WebAssembly JavaScript API used here: a global of Node (and of every thread the core
 * runs on) that TypeScript declares only with the DOM library, which the core does not load.
 */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: { env: { memory: WasmMemory } }) => { exports: unknown };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
};
interface WasmModule {
  readonly compiled: unique symbol;
}
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

/** Exports of the compiled walk (unitMassWalk.c). */
interface WalkExports {
  setup(...offsetsAndSizes: number[]): void;
  walkBytes(p0: number, q1: number, skip: number): number;
  walkInt32(p0: number, q1: number, skip: number): number;
  __heap_base: { value: number };
}

/** Sizes of the walk's arrays. */
export interface UnitMassWalkSizes {
  /** Rows (positions). */
  n: number;
  /** Groups (0: none). */
  G: number;
  /** ECE bins (0: no calibration keys). */
  B: number;
  /** Length of the harmonic table: the largest resample size + 1. */
  hLength: number;
  /** Slots of the walk's running state. */
  stateSize: number;
  /** Grid points of the risk–coverage curve. */
  gridPoints: number;
  /** Whether the walk gathers the classification sums (`fuse`), their (label, prediction) cells and counts array. */
  fuse: boolean;
  cells: number;
  counts: number;
  /** Offset of the rank histogram in the counts array. */
  rankHistAt: number;
}

/** A walk instance: its entry points and the views of its memory. */
export interface UnitMassWalkKernel {
  walkBytes(p0: number, q1: number, skip: number): number;
  walkInt32(p0: number, q1: number, skip: number): number;
  mult8: Uint8Array;
  mult32: Int32Array;
  code: Int32Array;
  unit: Float64Array;
  harmonic: Float64Array;
  state: Float64Array;
  groupSums: Float64Array;
  binSums: Float64Array;
  chunk: Float64Array;
  gridK: Float64Array;
  cells: Int32Array;
  counts: Int32Array;
  word: Int32Array;
  terms: Float64Array;
}

const PAGE = 65536;
/** Bytes below the arrays: the module's stack (64 KiB by default) and static data. */
const RESERVED = 4 * PAGE;
/** Most bytes a wasm32 memory holds (65,536 pages). */
const MAX_BYTES = 65536 * PAGE;

let compiled: WasmModule | null = null;

/** Compiled once per thread, on first use (about 8 KB of code). */
function walkModule(): WasmModule {
  if (compiled === null) compiled = new WebAssembly.Module(Buffer.from(UNIT_MASS_WALK_WASM, 'base64'));
  return compiled;
}

/** A new instance with zeroed arrays of the given sizes. */
export function unitMassWalkKernel(s: UnitMassWalkSizes): UnitMassWalkKernel {
  const fuse = s.fuse;
  const lengths = {
    code: s.n,
    mult8: s.n,
    mult32: s.n,
    state: s.stateSize,
    groupSums: 3 * s.G,
    binSums: 2 * (s.B + 1),
    chunk: Math.max(s.B, 1),
    harmonic: s.hLength,
    unit: s.B > 0 ? s.n : 0,
    gridK: s.gridPoints,
    cells: s.cells,
    counts: s.counts,
    word: fuse ? s.n : 0,
    terms: fuse ? 2 * s.n : 0,
  };
  const bytesPer = { code: 4, mult8: 1, mult32: 4, cells: 4, counts: 4, word: 4 } as Record<string, number>;
  let need = RESERVED;
  for (const [k, len] of Object.entries(lengths)) need += 8 + len * (bytesPer[k] ?? 8);
  if (need > MAX_BYTES)
    throw new RangeError(
      `The bootstrap's walk needs ${Math.ceil(need / 2 ** 20)} MiB for ${s.n} rows, more than the 4 GiB a WebAssembly memory holds.`,
    );
  const memory = new WebAssembly.Memory({ initial: Math.ceil(need / PAGE) });
  const instance = new WebAssembly.Instance(walkModule(), { env: { memory } });
  const x = instance.exports as unknown as WalkExports;
  if (x.__heap_base.value > RESERVED) throw new Error('The bootstrap walk module reserves more memory than expected.');
  let at = RESERVED;
  const view = <T>(make: (buf: ArrayBuffer, offset: number, length: number) => T, len: number, size: number): T => {
    at = (at + 7) & ~7;
    const v = make(memory.buffer, at, len);
    at += len * size;
    return v;
  };
  const i32 = (len: number) => view((b, o, l) => new Int32Array(b, o, l), len, 4);
  const f64 = (len: number) => view((b, o, l) => new Float64Array(b, o, l), len, 8);
  const k: UnitMassWalkKernel = {
    walkBytes: x.walkBytes,
    walkInt32: x.walkInt32,
    code: i32(lengths.code),
    mult8: view((b, o, l) => new Uint8Array(b, o, l), lengths.mult8, 1),
    mult32: i32(lengths.mult32),
    state: f64(lengths.state),
    groupSums: f64(lengths.groupSums),
    binSums: f64(lengths.binSums),
    chunk: f64(lengths.chunk),
    harmonic: f64(lengths.harmonic),
    unit: f64(lengths.unit),
    gridK: f64(lengths.gridK),
    cells: i32(lengths.cells),
    counts: i32(lengths.counts),
    word: i32(lengths.word),
    terms: f64(lengths.terms),
  };
  x.setup(
    k.code.byteOffset,
    k.mult8.byteOffset,
    k.mult32.byteOffset,
    k.state.byteOffset,
    k.groupSums.byteOffset,
    k.binSums.byteOffset,
    k.chunk.byteOffset,
    k.harmonic.byteOffset,
    k.unit.byteOffset,
    k.gridK.byteOffset,
    k.cells.byteOffset,
    k.counts.byteOffset + 4 * s.rankHistAt,
    k.word.byteOffset,
    k.terms.byteOffset,
    s.G,
    s.B,
    fuse ? 1 : 0,
    s.B > 0 ? 1 : 0,
  );
  return k;
}
