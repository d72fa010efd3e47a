/**
 * String order of UTF-8 bytes, as C's `strcmp` sees the ids trec_eval reads. UTF-8 byte order is
 * code point order; JavaScript's `<` compares UTF-16 code units, which puts a character above
 * U+FFFF (a surrogate pair, D800–DFFF) before U+E000…U+FFFF. Shifting the code units of the two
 * ranges past each other at the first difference gives code point order.
 */
export function compareUtf8(x: string, y: string): number {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const a = x.charCodeAt(i);
    const b = y.charCodeAt(i);
    if (a !== b) return fixup(a) - fixup(b);
  }
  return x.length - y.length;
}

function fixup(c: number): number {
  if (c < 0xd800) return c;
  return c >= 0xe000 ? c - 0x800 : c + 0x2000;
}
