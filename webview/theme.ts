/**
 * Colours from the VS Code theme (`--vscode-*` CSS variables), read with getComputedStyle for
 * chart.js and the heatmap, so light, dark and high-contrast themes all work. Series colours are
 * checked against the editor background at run time and darkened or lightened until they reach
 * 3:1 contrast (a theme's chart colour is not always readable on its own editor background).
 */
import { ensureContrast, parseColour, type Rgb } from '../src/shared/contrast';
import type { Colour } from '../src/shared/model';

const VARS: Record<Colour, string> = {
  blue: '--vscode-charts-blue',
  red: '--vscode-charts-red',
  green: '--vscode-charts-green',
  yellow: '--vscode-charts-yellow',
  orange: '--vscode-charts-orange',
  purple: '--vscode-charts-purple',
  foreground: '--vscode-charts-foreground',
};
const FALLBACK: Record<Colour, string> = {
  blue: '#3794ff',
  red: '#f14c4c',
  green: '#89d185',
  yellow: '#cca700',
  orange: '#d18616',
  purple: '#b180d7',
  foreground: '#cccccc',
};

export interface Theme {
  /** A series colour with at least 3:1 contrast against {@link Theme.background}. */
  colour(c: Colour): string;
  alpha(c: Colour | string, a: number): string;
  foreground: string;
  muted: string;
  grid: string;
  background: string;
  font: string;
  highContrast: boolean;
  /** Any CSS colour as channels (via the canvas's own parser); black when unparsable. */
  rgb(colour: string): Rgb;
}

function cssVar(name: string): string {
  return (
    getComputedStyle(document.documentElement).getPropertyValue(name).trim() ||
    getComputedStyle(document.body).getPropertyValue(name).trim()
  );
}

const probe = document.createElement('canvas').getContext('2d')!;

/** `rgba(r, g, b, a)` from any CSS colour. */
export function withAlpha(colour: string, a: number): string {
  probe.fillStyle = '#000';
  probe.fillStyle = colour;
  const c = String(probe.fillStyle);
  if (c.startsWith('#')) {
    const n = parseInt(c.slice(1, 7), 16);
    return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
  }
  const m = /rgba?\(([^)]+)\)/.exec(c);
  if (!m) return colour;
  const [r, g, b] = m[1]!.split(',').map((s) => s.trim());
  return `rgba(${r}, ${g}, ${b}, ${a})`;
}

/** Any CSS colour as channels, parsed by the canvas (names, hsl(), …); black when unparsable. */
export function toRgb(colour: string): Rgb {
  probe.fillStyle = '#000';
  probe.fillStyle = colour;
  return parseColour(String(probe.fillStyle)) ?? { r: 0, g: 0, b: 0, a: 1 };
}

export function readTheme(): Theme {
  const background = cssVar('--vscode-editor-background') || '#1e1e1e';
  const bg = toRgb(background);
  const raw = (c: Colour): string =>
    cssVar(VARS[c]) || (c === 'foreground' ? cssVar('--vscode-foreground') : '') || FALLBACK[c];
  const cache = new Map<Colour, string>();
  const get = (c: Colour): string => {
    let v = cache.get(c);
    if (v === undefined) cache.set(c, (v = ensureContrast(toRgb(raw(c)), bg)));
    return v;
  };
  const foreground = cssVar('--vscode-foreground') || '#cccccc';
  const highContrast =
    document.body.classList.contains('vscode-high-contrast') ||
    document.body.classList.contains('vscode-high-contrast-light');
  return {
    colour: get,
    alpha: (c, a) => withAlpha(c in VARS ? get(c as Colour) : c, a),
    foreground,
    muted: cssVar('--vscode-descriptionForeground') || foreground,
    grid: highContrast
      ? cssVar('--vscode-contrastBorder') || foreground
      : withAlpha(cssVar('--vscode-editorWidget-border') || cssVar('--vscode-panel-border') || foreground, 0.35),
    background,
    font: cssVar('--vscode-font-family') || 'sans-serif',
    highContrast,
    rgb: toRgb,
  };
}

/**
 * The colours of a chart saved as a PNG for a paper or slides: white background, near-black text
 * and VS Code's light chart colours (each kept at 3:1 on white), whatever the editor's theme.
 */
export function paperTheme(font: string): Theme {
  const white = { r: 255, g: 255, b: 255, a: 1 };
  const light: Record<Colour, string> = {
    blue: '#1a85ff',
    red: '#e51400',
    green: '#388a34',
    yellow: '#bf8803',
    orange: '#d18616',
    purple: '#652d90',
    foreground: '#1f1f1f',
  };
  const colour = (c: Colour): string => ensureContrast(parseColour(light[c])!, white);
  return {
    colour,
    alpha: (c, a) => withAlpha(c in light ? colour(c as Colour) : c, a),
    foreground: '#1f1f1f',
    muted: '#444444',
    grid: 'rgba(0, 0, 0, 0.15)',
    background: '#ffffff',
    font,
    highContrast: false,
    rgb: toRgb,
  };
}
