/**
 * JSON text in pieces: the text of `JSON.stringify(value, null, 2)`, byte for byte, handed out as
 * chunks of about {@link JSON_CHUNK_SIZE} characters instead of one string, so that a value whose
 * text is longer than the engine's longest string (about 512 MiB in V8: "Invalid string length")
 * can still be written, and a file is written while its text is made.
 *
 * The rules are JSON.stringify's (ECMA-262, SerializeJSONProperty): `toJSON` is called with the
 * key; Number, String and Boolean objects are unwrapped; non-finite numbers are `null`; object
 * members whose value is undefined, a function or a symbol are left out, and such array elements
 * are `null`; a BigInt or a cycle throws a TypeError. Keys are the object's own enumerable string
 * keys in `Object.keys` order. A typed array is an object of its indices, as JSON.stringify
 * writes it. A chunk is longer than the target only by its last piece (one number, one key, or one
 * string value: a single string is never split).
 */
import type { FileHandle } from 'node:fs/promises';

/**
 * The size (UTF-16 code units) a chunk is handed out at: 64 Ki, so that a results file of a few
 * hundred kilobytes is not held whole as one string (and its UTF-8 copy) at the end of a run.
 */
export const JSON_CHUNK_SIZE = 1 << 16;

const GAP = '  ';

/** The chunks of `JSON.stringify(value, null, 2)` followed by `suffix`; nothing for a value JSON.stringify gives undefined for. */
export function* jsonChunks(value: unknown, suffix = '', chunkSize = JSON_CHUNK_SIZE): Generator<string, void, void> {
  const w = new ChunkState(chunkSize);
  const v = prepare(value, '');
  if (!isSerialisable(v)) return;
  yield* w.value(v, '');
  w.buf += suffix;
  if (w.buf !== '') yield w.buf;
}

/** Writes the chunks to an open file, in order. */
export async function writeChunks(file: FileHandle, chunks: Iterable<string>): Promise<void> {
  for (const c of chunks) await file.write(c, null, 'utf8');
}

/** toJSON and the unwrapping of boxed primitives (SerializeJSONProperty steps 2 and 4). */
function prepare(value: unknown, key: string): unknown {
  if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (k: string) => unknown).call(value, key);
  }
  if (typeof value === 'object' && value !== null) {
    if (value instanceof Number) return Number(value);
    if (value instanceof String) return String(value);
    if (value instanceof Boolean) return value.valueOf();
  }
  return value;
}

function isSerialisable(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}

/** The text of a prepared primitive, or null when `v` is an object to walk. */
function primitive(v: unknown): string | null {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    default:
      return v === null ? 'null' : null;
  }
}

type TypedArray = Exclude<ArrayBufferView, DataView>;

class ChunkState {
  buf = '';
  private readonly stack = new Set<object>();

  constructor(private readonly size: number) {}

  /** A prepared, serialisable value at indentation `indent`. */
  *value(v: unknown, indent: string): Generator<string, void, void> {
    const p = primitive(v);
    if (p !== null) {
      this.buf += p;
      return;
    }
    const o = v as object;
    if (this.stack.has(o)) throw new TypeError('Converting circular structure to JSON');
    this.stack.add(o);
    if (Array.isArray(o)) yield* this.array(o, indent);
    else if (ArrayBuffer.isView(o) && !(o instanceof DataView)) yield* this.typed(o as TypedArray, indent);
    else yield* this.object(o as Record<string, unknown>, indent);
    this.stack.delete(o);
  }

  private *array(a: readonly unknown[], indent: string): Generator<string, void, void> {
    const n = a.length;
    if (n === 0) {
      this.buf += '[]';
      return;
    }
    const inner = indent + GAP;
    const sep = ',\n' + inner;
    this.buf += '[\n' + inner;
    for (let i = 0; i < n; i++) {
      if (i > 0) this.buf += sep;
      const x = a[i];
      // Numbers, the bulk of large arrays, without a call per element.
      if (typeof x === 'number') this.buf += Number.isFinite(x) ? String(x) : 'null';
      else {
        const v = prepare(x, String(i));
        if (isSerialisable(v)) yield* this.value(v, inner);
        else this.buf += 'null';
      }
      if (this.buf.length >= this.size) {
        yield this.buf;
        this.buf = '';
      }
    }
    this.buf += '\n' + indent + ']';
  }

  /** A typed array as JSON.stringify writes it: an object of its indices. */
  private *typed(a: TypedArray, indent: string): Generator<string, void, void> {
    const n = (a as unknown as ArrayLike<number | bigint>).length;
    if (n === 0) {
      this.buf += '{}';
      return;
    }
    const inner = indent + GAP;
    this.buf += '{\n' + inner;
    const items = a as unknown as ArrayLike<number | bigint>;
    for (let i = 0; i < n; i++) {
      if (i > 0) this.buf += ',\n' + inner;
      this.buf += `"${i}": ` + primitive(items[i]);
      if (this.buf.length >= this.size) {
        yield this.buf;
        this.buf = '';
      }
    }
    this.buf += '\n' + indent + '}';
  }

  private *object(o: Record<string, unknown>, indent: string): Generator<string, void, void> {
    const inner = indent + GAP;
    let first = true;
    for (const key of Object.keys(o)) {
      const v = prepare(o[key], key);
      if (!isSerialisable(v)) continue;
      this.buf += (first ? '{\n' : ',\n') + inner + JSON.stringify(key) + ': ';
      first = false;
      yield* this.value(v, inner);
      if (this.buf.length >= this.size) {
        yield this.buf;
        this.buf = '';
      }
    }
    this.buf += first ? '{}' : '\n' + indent + '}';
  }
}
