/**
 * Number parsing for table cells: exact (the same double as `Number(s)`) and fast on the short
 * decimal strings prediction files are made of.
 *
 * Accepted text: optional spaces, `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`,
 * plus `nan`, `inf`, `infinity` in any case (read as NaN / ±Infinity so that a message can say
 * "got NaN"). Anything else (an empty cell, `0x10`, `1,5`, `abc`) is NaN. Callers decide what is
 * valid; every score, probability and weight must be finite.
 */

/** 10^0 … 10^22: exactly representable, so m / 10^k is the correctly rounded value (Clinger). */
const POW10: number[] = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Value of a numeric cell's text (see the module comment). */
export function parseNumberText(s: string): number {
  const v = fastDecimal(s);
  if (v === v) return v; // not NaN: done
  const t = s.trim();
  if (DECIMAL.test(t)) return Number(t);
  const l = t.toLowerCase();
  if (l === 'inf' || l === '+inf' || l === 'infinity' || l === '+infinity') return Infinity;
  if (l === '-inf' || l === '-infinity') return -Infinity;
  return NaN;
}

/**
 * The fast path: a plain decimal with at most 15 significant digits and a small exponent, computed
 * as an integer mantissa divided/multiplied by an exact power of ten (correctly rounded, hence
 * identical to `Number(s)`). NaN when the text is anything else (the caller falls back).
 */
function fastDecimal(s: string): number {
  const n = s.length;
  if (n === 0) return NaN;
  let i = 0;
  let c = s.charCodeAt(0);
  let neg = false;
  if (c === 45) {
    neg = true;
    i = 1;
  }
  let m = 0;
  let digits = 0;
  let exp = 0;
  for (; i < n; i++) {
    c = s.charCodeAt(i);
    if (c < 48 || c > 57) break;
    m = m * 10 + (c - 48);
    digits++;
  }
  if (i < n && c === 46) {
    for (i++; i < n; i++) {
      c = s.charCodeAt(i);
      if (c < 48 || c > 57) break;
      m = m * 10 + (c - 48);
      digits++;
      exp--;
    }
  }
  if (digits === 0 || digits > 15) return NaN;
  if (i < n) {
    if (c !== 101 && c !== 69) return NaN;
    i++;
    let eneg = false;
    c = s.charCodeAt(i);
    if (c === 45 || c === 43) {
      eneg = c === 45;
      i++;
    }
    let e = 0;
    let ed = 0;
    for (; i < n; i++) {
      c = s.charCodeAt(i);
      if (c < 48 || c > 57) return NaN;
      e = e * 10 + (c - 48);
      if (++ed > 4) return NaN;
    }
    if (ed === 0) return NaN;
    exp += eneg ? -e : e;
  }
  return scaledDecimal(m, exp, neg);
}

/**
 * Parses a plain decimal number in `buf` at `pos` (ASCII bytes). Returns the value and leaves the
 * position just after it in `out.end`; NaN (and `out.end` unspecified) when the bytes there are
 * not a plain decimal of ≤ 15 significant digits — the caller then decodes the cell and uses
 * {@link parseNumberText}. Same rounding as {@link parseNumberText}.
 */
export function parseDecimalBytes(buf: Uint8Array, pos: number, out: { end: number }): number {
  // `d` is the byte minus '0' (-48 past the end): one unsigned comparison per byte tells a digit,
  // and the digit counts come from positions rather than a counter per digit.
  let d = (buf[pos] | 0) - 48;
  let neg = false;
  if (d === -3 /* '-' */) {
    neg = true;
    d = (buf[++pos] | 0) - 48;
  }
  let m = 0;
  const intStart = pos;
  while (d >>> 0 < 10) {
    m = m * 10 + d;
    d = (buf[++pos] | 0) - 48;
  }
  let digits = pos - intStart;
  let exp = 0;
  if (d === -2 /* '.' */) {
    const fracStart = ++pos;
    d = (buf[pos] | 0) - 48;
    while (d >>> 0 < 10) {
      m = m * 10 + d;
      d = (buf[++pos] | 0) - 48;
    }
    exp = fracStart - pos;
    digits -= exp;
  }
  if (digits === 0 || digits > 15) return NaN;
  if (d === 53 /* 'e' */ || d === 21 /* 'E' */) {
    d = (buf[++pos] | 0) - 48;
    let eneg = false;
    if (d === -3 /* '-' */ || d === -5 /* '+' */) {
      eneg = d === -3;
      d = (buf[++pos] | 0) - 48;
    }
    let e = 0;
    const expStart = pos;
    while (d >>> 0 < 10) {
      e = e * 10 + d;
      d = (buf[++pos] | 0) - 48;
    }
    const ed = pos - expStart;
    if (ed === 0 || ed > 4) return NaN;
    exp += eneg ? -e : e;
  }
  out.end = pos;
  return scaledDecimal(m, exp, neg);
}

/**
 * ±m·10^exp for an integer mantissa m of at most 15 digits (below 2^53, so exact): one division or
 * multiplication by an exact power of ten, hence correctly rounded (Clinger), while |exp| ≤ 22;
 * NaN beyond, where the caller falls back to `Number`. Both fast paths end here.
 */
function scaledDecimal(m: number, exp: number, neg: boolean): number {
  let v: number;
  if (exp === 0) v = m;
  else if (exp < 0 && exp >= -22) v = m / POW10[-exp];
  else if (exp > 0 && exp <= 22) v = m * POW10[exp];
  else return NaN;
  return neg ? -v : v;
}
