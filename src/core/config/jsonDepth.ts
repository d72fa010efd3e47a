/** The byte and code unit of `"`. */
const QUOTE = 34;

/**
 * The nesting bound of JSON read from inputs and configs. `JSON.parse` itself survives deep
 * nesting, but every recursive step after it (printing a value in a message, writing results,
 * the config parser) would overflow the stack; a value nested this deep is never meaningful input.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * Where JSON text first nests deeper than `limit` (`[`/`{`, strings skipped): the index of the
 * bracket that opens level `limit + 1`, or -1 when it never does.
 */
export function tooDeepAt(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > limit) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return -1;
}

/** The message of a value nested too deep. */
export const TOO_DEEP = `expected JSON nested at most ${MAX_JSON_DEPTH} levels deep, got a value nested deeper than ${MAX_JSON_DEPTH}.`;
