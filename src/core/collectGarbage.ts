/**
 * A full garbage collection on this thread, taken where an evaluation has just let go of large
 * arrays (a ranking run's list slots, the reading's buffers), so that their memory is given
 * back before the next stage allocates its own.
 *
 * Why it is needed: V8 frees the memory behind a typed array only when its collector finds the
 * array unreachable, and it schedules collections by the growth of its own heap. A typed array's
 * data lives outside that heap, so tens of megabytes let go by one stage can stay resident while
 * the next stage allocates: the process's peak then holds both. Measured on a ranking run of
 * 100,000 users × 100 items (96 MB) with a 26 MB train file: a peak resident size of 203–219 MB
 * without these collections, 160–163 MB with them, for 6–8 ms per collection (docs/benchmarks.md).
 *
 * How: Node hands out its collector only under the `--expose-gc` flag. The flag is turned on for
 * as long as it takes to read the `gc` function from a fresh context, then off again, so no later
 * context sees it; if the engine refuses, nothing is collected (only memory is at stake, never a
 * value). This is the method of Jest's leak detector (jest-leak-detector, `LeakDetector`,
 * https://github.com/jestjs/jest/tree/main/packages/jest-leak-detector).
 *
 * A full collection pauses the thread that runs it, so it is taken only where the caller allows
 * it: the command line, and worker threads (the extension evaluates in one). A program that calls
 * the library on its main thread opts in with `collectGarbage: true`.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isMainThread } from 'node:worker_threads';

/**
 * Arrays let go of below this many bytes are left to the collector's own schedule. A collection of
 * a heap of 15–25 MB takes a few milliseconds; 4 MiB covers the 8 MB of ids a 1-million-row
 * classification file lets go once they are checked.
 */
export const COLLECT_AFTER_BYTES = 4 * 2 ** 20;

let collector: (() => void) | null | undefined;
let threshold = COLLECT_AFTER_BYTES;
let taken = 0;

/** Collections taken on this thread so far (for tests). */
export function collectionsTaken(): number {
  return taken;
}

/** Sets the threshold in bytes (tests: a small evaluation reaches its collection points); returns the previous one. */
export function setCollectAfterBytes(bytes: number): number {
  const was = threshold;
  threshold = bytes;
  return was;
}

function theCollector(): (() => void) | null {
  if (collector !== undefined) return collector;
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return (collector = exposed as () => void);
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    collector = typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    collector = null;
  } finally {
    try {
      setFlagsFromString('--no-expose-gc');
    } catch {
      // the flag could not be set either way: nothing to undo
    }
  }
  return collector;
}

/** Whether collections are taken when the caller did not say: on worker threads only. */
export function collectsByDefault(): boolean {
  return !isMainThread;
}

/**
 * Runs a full collection when `allowed` and at least {@link COLLECT_AFTER_BYTES} were just let go
 * (`freedBytes`); returns whether one ran.
 */
export function collectGarbage(allowed: boolean, freedBytes: number): boolean {
  if (!allowed || !(freedBytes >= threshold)) return false;
  const gc = theCollector();
  if (gc === null) return false;
  gc();
  taken++;
  return true;
}
