/**
 * Colour contrast, as WCAG 2.1 defines it: relative luminance of sRGB colours and the contrast
 * ratio (L1 + 0.05) / (L2 + 0.05). Charts keep every series at a ratio of at least 3:1 against
 * the editor background (WCAG 2.1 success criterion 1.4.11, "Non-text Contrast": graphical
 * objects need 3:1), whatever the theme. Pure functions, no DOM: the webview parses the theme's
 * CSS colours with these, and unit tests run them in Node.
 *
 * Reference: W3C, "Web Content Accessibility Guidelines (WCAG) 2.1", 2018, definitions of
 * "relative luminance" and "contrast ratio", https://www.w3.org/TR/WCAG21/.
 */

export interface Rgb {
  r: number;
  g: number;
  b: number;
  /** Opacity in [0, 1]. */
  a: number;
}

/** The minimum ratio for graphical objects (lines, markers, bars) against their background. */
export const MIN_GRAPHIC_CONTRAST = 3;

/** `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb(…)`, `rgba(…)` → channels; undefined otherwise. */
export function parseColour(text: string): Rgb | undefined {
  const s = text.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,8})$/.exec(s);
  if (hex) {
    let h = hex[1]!;
    if (h.length === 3 || h.length === 4) h = [...h].map((c) => c + c).join('');
    if (h.length !== 6 && h.length !== 8) return undefined;
    const n = (i: number): number => parseInt(h.slice(i, i + 2), 16);
    return { r: n(0), g: n(2), b: n(4), a: h.length === 8 ? n(6) / 255 : 1 };
  }
  const fn = /^rgba?\(([^)]+)\)$/.exec(s);
  if (fn) {
    const parts = fn[1]!.split(/[\s,/]+/).filter(Boolean);
    if (parts.length < 3) return undefined;
    const ch = (p: string): number => (p.endsWith('%') ? (parseFloat(p) / 100) * 255 : parseFloat(p));
    const alpha =
      parts[3] === undefined ? 1 : parts[3].endsWith('%') ? parseFloat(parts[3]) / 100 : parseFloat(parts[3]);
    const c = { r: ch(parts[0]!), g: ch(parts[1]!), b: ch(parts[2]!), a: alpha };
    return [c.r, c.g, c.b, c.a].every(Number.isFinite) ? c : undefined;
  }
  return undefined;
}

/** `#rrggbb` of an opaque colour (channels rounded and clamped). */
export function toHex(c: Rgb): string {
  const h = (v: number): string =>
    Math.round(Math.min(255, Math.max(0, v)))
      .toString(16)
      .padStart(2, '0');
  return `#${h(c.r)}${h(c.g)}${h(c.b)}`;
}

/** A translucent colour painted over an opaque background: the colour a reader sees. */
export function over(c: Rgb, background: Rgb): Rgb {
  const a = Math.min(1, Math.max(0, c.a));
  return {
    r: c.r * a + background.r * (1 - a),
    g: c.g * a + background.g * (1 - a),
    b: c.b * a + background.b * (1 - a),
    a: 1,
  };
}

/** WCAG relative luminance: 0.2126 R + 0.7152 G + 0.0722 B of the linearised sRGB channels. */
export function luminance(c: Rgb): number {
  const lin = (v: number): number => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

/** WCAG contrast ratio, from 1 (same luminance) to 21 (black on white). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function mix(c: Rgb, toward: Rgb, t: number): Rgb {
  return { r: c.r + (toward.r - c.r) * t, g: c.g + (toward.g - c.g) * t, b: c.b + (toward.b - c.b) * t, a: 1 };
}

/**
 * `colour` itself when it reaches `min` contrast against `background`; else the least change
 * that does: mixed toward black on a light background, toward white on a dark one (the hue is
 * kept, so a theme's "orange" stays recognisably orange). Returns `#rrggbb`.
 */
export function ensureContrast(colour: Rgb, background: Rgb, min = MIN_GRAPHIC_CONTRAST): string {
  const bg = over(background, { r: 255, g: 255, b: 255, a: 1 });
  const c = over(colour, bg);
  if (contrastRatio(c, bg) >= min) return toHex(c);
  const black = { r: 0, g: 0, b: 0, a: 1 };
  const white = { r: 255, g: 255, b: 255, a: 1 };
  // The side with more room: on mid-grey backgrounds either direction may be the only one that works.
  const toward = contrastRatio(black, bg) >= contrastRatio(white, bg) ? black : white;
  let lo = 0;
  let hi = 1;
  // Bisection on the mix fraction; contrast against the background grows monotonically with it.
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2;
    if (contrastRatio(mix(c, toward, mid), bg) >= min) hi = mid;
    else lo = mid;
  }
  // Rounding to 8-bit channels can lose a hair of contrast: step further until it holds.
  let t = hi;
  let out = mix(c, toward, t);
  while (contrastRatio(parseColour(toHex(out))!, bg) < min && t < 1) {
    t = Math.min(1, t + 0.01);
    out = mix(c, toward, t);
  }
  return toHex(out);
}

/** The one of `candidates` with the highest contrast against `background` (text on a shaded cell). */
export function bestContrast(background: Rgb, candidates: readonly Rgb[]): Rgb {
  let best = candidates[0]!;
  for (const c of candidates) if (contrastRatio(c, background) > contrastRatio(best, background)) best = c;
  return best;
}
