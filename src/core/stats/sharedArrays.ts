/**
 * Typed arrays over shared memory, for the data a bootstrap job hands to its worker threads
 * (stats/parallelBootstrap.ts). A job reaches each worker by structured clone, which copies the
 * bytes of an ArrayBuffer into the message and again into the worker's own memory, but hands a
 * SharedArrayBuffer over as it is: per-row arrays made here are read by every thread from the one
 * copy. The values are the same either way; nothing writes these arrays once the job is sent.
 */

/** The typed arrays a bootstrap job's per-row data is made of. */
export type JobArray = Int32Array | Uint16Array | Uint8Array | Float64Array;

/** `length` zeros of `type` over shared memory when the host has it, else ordinary ones. */
export function sharedZeros<T extends JobArray>(
  type: { new (length: number): T; new (buffer: SharedArrayBuffer): T; readonly BYTES_PER_ELEMENT: number },
  length: number,
): T {
  if (typeof SharedArrayBuffer !== 'function') return new type(length);
  return new type(new SharedArrayBuffer(length * type.BYTES_PER_ELEMENT));
}

/** `a` itself when it is over shared memory already (or the host has none), else a copy of it there. */
export function toShared<T extends JobArray>(a: T): T {
  if (typeof SharedArrayBuffer !== 'function' || a.buffer instanceof SharedArrayBuffer) return a;
  const out = sharedZeros(a.constructor as unknown as Parameters<typeof sharedZeros<T>>[0], a.length);
  out.set(a as never);
  return out;
}
