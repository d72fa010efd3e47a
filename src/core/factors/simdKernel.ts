/**
 * The scoring kernel in WebAssembly with 128-bit SIMD (two float64 lanes), used when the engine
 * supports it (Node ≥ 16.4, every VS Code); else the JavaScript loop of topK.ts runs.
 *
 * It computes a tile of 4 users × 4 items at a time: per factor f, two vector loads bring
 * V[i..i+3][f] (items interleaved in pairs, laid out once per thread), each user's U[u][f] is
 * loaded and splatted once, and eight vector multiply-adds update 16 scores. Each score is still
 * `((0 + u[0]·v[0]) + u[1]·v[1]) + …` in factor order with a separate multiply and add (no fused
 * multiply-add in standard WebAssembly SIMD), so every score equals the JavaScript loop's bit for bit.
 *
 * The module is small enough to be written here as bytes (WebAssembly Core Specification 2.0,
 * binary format, https://webassembly.github.io/spec/core/binary/; SIMD opcodes as in its
 * "Vector Instructions" section), so there is no build step and no dependency.
 *
 * kernel(uPtr, vPtr, outPtr, userQuads, itemQuads, rowBytes, strideBytes):
 *   U block: userQuads·4 rows of rowBytes (= factors·8) bytes, row-major float64;
 *   V: itemQuads blocks of factors × [v(4q)[f], v(4q+1)[f], v(4q+2)[f], v(4q+3)[f]] float64;
 *   out: userQuads·4 rows of strideBytes (≥ itemQuads·32) bytes, score of (user r, item i) at
 *   outPtr + r·strideBytes + i·8.
 */

/** Unsigned LEB128. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 (for i32.const). */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (s: string): number[] => [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];

// Opcodes.
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const I32_CONST = 0x41;
const I32_ADD = 0x6a;
const I32_MUL = 0x6c;
const I32_SHL = 0x74;
const I32_LT_U = 0x49;
const LOOP = 0x03;
const BR_IF = 0x0d;
const END = 0x0b;
const VOID = 0x40;
const SIMD = 0xfd;
const V128_LOAD = [SIMD, ...uleb(0x00)];
const V128_STORE = [SIMD, ...uleb(0x0b)];
const V128_LOAD64_SPLAT = [SIMD, ...uleb(0x0a)];
const V128_CONST_ZERO = [SIMD, ...uleb(0x0c), ...new Array<number>(16).fill(0)];
const F64X2_ADD = [SIMD, ...uleb(0xf0)];
const F64X2_MUL = [SIMD, ...uleb(0xf2)];
const I32 = 0x7f;
const V128 = 0x7b;

/** memarg: alignment (log2) and offset. */
const mem = (align: number, offset: number): number[] => [align, ...uleb(offset)];

// Parameters 0–6, then locals.
const [U_PTR, V_PTR, OUT_PTR, USER_QUADS, ITEM_QUADS, ROW_BYTES, STRIDE] = [0, 1, 2, 3, 4, 5, 6];
const R = 7; // user quad
const P = 8; // item quad
const FO = 9; // byte offset of the factor in a user row
const U0 = 10; // first user row of the quad
const VP = 11; // current V position
const O0 = 12; // first output row of the quad
const ACC = 13; // 8 v128 accumulators: 13..20
const X = 21; // V[4p, 4p+1][f]
const Y = 22; // V[4p+2, 4p+3][f]
const S = 23; // splatted U[u][f]

function body(): number[] {
  const c: number[] = [];
  const get = (l: number) => c.push(LOCAL_GET, ...uleb(l));
  const set = (l: number) => c.push(LOCAL_SET, ...uleb(l));
  const i32 = (n: number) => c.push(I32_CONST, ...sleb(n));
  // r = 0 (locals start at zero)
  c.push(LOOP, VOID); // loop over user quads
  {
    // u0 = uPtr + r * 4 * rowBytes ; o0 = outPtr + r * 4 * stride
    get(U_PTR);
    get(R);
    i32(2);
    c.push(I32_SHL);
    get(ROW_BYTES);
    c.push(I32_MUL, I32_ADD);
    set(U0);
    get(OUT_PTR);
    get(R);
    i32(2);
    c.push(I32_SHL);
    get(STRIDE);
    c.push(I32_MUL, I32_ADD);
    set(O0);
    i32(0);
    set(P);
    get(V_PTR);
    set(VP);
    c.push(LOOP, VOID); // loop over item quads
    {
      for (let a = 0; a < 8; a++) {
        c.push(...V128_CONST_ZERO);
        set(ACC + a);
      }
      i32(0);
      set(FO);
      c.push(LOOP, VOID); // loop over factors
      {
        get(VP);
        c.push(...V128_LOAD, ...mem(3, 0));
        set(X);
        get(VP);
        c.push(...V128_LOAD, ...mem(3, 16));
        set(Y);
        for (let j = 0; j < 4; j++) {
          // s = splat(U[u0 + j][f]) : address u0 + j * rowBytes + fo
          get(U0);
          get(FO);
          c.push(I32_ADD);
          if (j > 0) {
            get(ROW_BYTES);
            i32(j);
            c.push(I32_MUL, I32_ADD);
          }
          c.push(...V128_LOAD64_SPLAT, ...mem(3, 0));
          set(S);
          // acc[2j] += s * x ; acc[2j + 1] += s * y
          for (const [acc, v] of [
            [ACC + 2 * j, X],
            [ACC + 2 * j + 1, Y],
          ]) {
            get(acc);
            get(S);
            get(v);
            c.push(...F64X2_MUL, ...F64X2_ADD);
            set(acc);
          }
        }
        // vp += 32 ; fo += 8 ; continue while fo < rowBytes
        get(VP);
        i32(32);
        c.push(I32_ADD);
        set(VP);
        get(FO);
        i32(8);
        c.push(I32_ADD);
        set(FO);
        get(FO);
        get(ROW_BYTES);
        c.push(I32_LT_U, BR_IF, 0);
      }
      c.push(END);
      // store: row j of the quad at o0 + j * stride + p * 32 (+16 for the second pair)
      for (let j = 0; j < 4; j++) {
        for (const half of [0, 1]) {
          get(O0);
          get(P);
          i32(5);
          c.push(I32_SHL, I32_ADD);
          if (j > 0) {
            get(STRIDE);
            i32(j);
            c.push(I32_MUL, I32_ADD);
          }
          get(ACC + 2 * j + half);
          c.push(...V128_STORE, ...mem(3, half * 16));
        }
      }
      // p += 1 ; continue while p < itemQuads
      get(P);
      i32(1);
      c.push(I32_ADD);
      set(P);
      get(P);
      get(ITEM_QUADS);
      c.push(I32_LT_U, BR_IF, 0);
    }
    c.push(END);
    get(R);
    i32(1);
    c.push(I32_ADD);
    set(R);
    get(R);
    get(USER_QUADS);
    c.push(I32_LT_U, BR_IF, 0);
  }
  c.push(END);
  c.push(END); // function
  // locals: 6 i32 (R, P, FO, U0, VP, O0), then 11 v128 (8 accumulators, X, Y, S)
  const locals = vec([
    [6, I32],
    [11, V128],
  ]);
  const code = [...locals, ...c];
  return [...uleb(code.length), ...code];
}

function moduleBytes(): Uint8Array<ArrayBuffer> {
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, ...vec(new Array<number[]>(7).fill([I32])), 0x00]])),
    // import "e" "m": a memory of at least 1 page, no maximum
    ...section(2, vec([[...name('e'), ...name('m'), 0x02, 0x00, 0x01]])),
    ...section(3, vec([[0x00]])),
    ...section(7, vec([[...name('k'), 0x00, 0x00]])),
    ...section(10, vec([body()])),
  ];
  return new Uint8Array(bytes);
}

const TILE_QUADS = 32;

/** The part of the WebAssembly JavaScript API used here (the core's type libraries have no DOM). */
interface WasmModule {
  readonly kind?: 'module';
}
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  validate(bytes: Uint8Array<ArrayBuffer>): boolean;
  Module: new (bytes: Uint8Array<ArrayBuffer>) => WasmModule;
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Instance: new (
    mod: WasmModule,
    imports: Record<string, Record<string, unknown>>,
  ) => { exports: Record<string, unknown> };
}
const wasmApi = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: WasmModule | null | undefined;

/** The compiled module, or null when this engine has no WebAssembly SIMD. */
function simdModule(): WasmModule | null {
  if (compiled !== undefined) return compiled;
  try {
    const bytes = moduleBytes();
    compiled = wasmApi && wasmApi.validate(bytes) ? new wasmApi.Module(bytes) : null;
  } catch {
    compiled = null;
  }
  return compiled;
}

/**
 * One thread's SIMD scorer: its own WebAssembly memory holding V interleaved by item quads (laid
 * out once), one block of user rows and one block of scores.
 */
export class SimdScorer {
  /**
   * Why the last {@link create} fell back to the JavaScript loop although the engine has SIMD
   * (instantiation failed), for a note; undefined when it did not. The module is compiled and
   * instantiated only here, when a factor model is scored, never when the program starts.
   */
  static fallback: string | undefined;
  /** Scores of the last block: row r at r · stride. */
  scores!: Float64Array;
  readonly stride: number;
  private readonly memory: WasmMemory;
  private readonly kernel: (...args: number[]) => void;
  private readonly uPtr: number;
  private readonly vPtr: number;
  private readonly outPtr: number;
  private readonly d: number;

  private constructor(mod: WasmModule, V: { rows: number; cols: number; data: ArrayLike<number> }, maxUsers: number) {
    const d = V.cols;
    this.d = d;
    const quads = Math.ceil(V.rows / 4);
    this.stride = quads * 4;
    const userRows = Math.ceil(maxUsers / 4) * 4;
    const vBytes = quads * 32 * d;
    const uBytes = userRows * d * 8;
    const outBytes = userRows * this.stride * 8;
    this.vPtr = 0;
    this.uPtr = vBytes;
    this.outPtr = vBytes + uBytes;
    const total = vBytes + uBytes + outBytes;
    if (total > 2 ** 31) throw new RangeError('too large for the SIMD kernel');
    const api = wasmApi!;
    this.memory = new api.Memory({ initial: Math.max(1, Math.ceil(total / 65536)) });
    const instance = new api.Instance(mod, { e: { m: this.memory } });
    this.kernel = instance.exports.k as (...args: number[]) => void;
    // V by item quads: for quad q and factor f, [v(4q)[f], v(4q+1)[f], v(4q+2)[f], v(4q+3)[f]]
    // (items past the end are zeros; their scores are never read).
    const vq = new Float64Array(this.memory.buffer, this.vPtr, quads * 4 * d);
    const v = V.data;
    for (let i = 0; i < V.rows; i++) {
      const q = i >> 2;
      const lane = i & 3;
      const base = q * 4 * d + lane;
      for (let f = 0; f < d; f++) vq[base + 4 * f] = v[i * d + f];
    }
    this.scores = new Float64Array(this.memory.buffer, this.outPtr, userRows * this.stride);
  }

  /** A SIMD scorer for V and blocks of up to `maxUsers` users, or null (no SIMD, too large, no factors). */
  static create(V: { rows: number; cols: number; data: ArrayLike<number> }, maxUsers: number): SimdScorer | null {
    const mod = simdModule();
    if (!mod || V.cols === 0 || V.rows === 0 || maxUsers === 0) return null;
    try {
      return new SimdScorer(mod, V, maxUsers);
    } catch (e) {
      // e.g. the memory cannot be allocated (a virtual-memory limit): the JavaScript loop runs instead
      SimdScorer.fallback = `the WebAssembly SIMD kernel could not start (${e instanceof Error ? e.message : String(e)}); scores were computed by the JavaScript loop (the same values, slower)`;
      return null;
    }
  }

  /** Scores users [b0, b1) of U (at most maxUsers) into `scores`. */
  score(U: { data: ArrayLike<number> }, b0: number, b1: number): void {
    const d = this.d;
    const n = b1 - b0;
    const quads = Math.ceil(n / 4);
    const ub = new Float64Array(this.memory.buffer, this.uPtr, quads * 4 * d);
    const u = U.data;
    const from = b0 * d;
    const count = n * d;
    if (u instanceof Float64Array) ub.set(u.subarray(from, from + count));
    else for (let p = 0; p < count; p++) ub[p] = u[from + p];
    ub.fill(0, count);
    // Item quads in tiles of TILE_QUADS (128 items: 64 KB of V at 64 factors), so a tile of V
    // stays in cache while every user of the block passes over it.
    const itemQuads = this.stride / 4;
    for (let q0 = 0; q0 < itemQuads; q0 += TILE_QUADS)
      this.kernel(
        this.uPtr,
        this.vPtr + q0 * 32 * d,
        this.outPtr + q0 * 32,
        quads,
        Math.min(TILE_QUADS, itemQuads - q0),
        d * 8,
        this.stride * 8,
      );
  }
}
