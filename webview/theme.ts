/**
 * Colours from the VS Code theme (`--vscode-*` CSS variables), read with getComputedStyle for
 * chart.js and the heatmap, so light, dark and high-contrast themes all work.
 */
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
const FALLBACK: Record<Colour, string> = { blue: '#3794ff', red: '#f14c4c', green: '#89d185', yellow: '#cca700', orange: '#d18616', purple: '#b180d7', foreground: '#cccccc' };

export interface Theme {
  colour(c: Colour): string;
  alpha(c: Colour | string, a: number): string;
  foreground: string;
  muted: string;
  grid: string;
  background: string;
  font: string;
  highContrast: boolean;
}

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || getComputedStyle(document.body).getPropertyValue(name).trim();
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

export function readTheme(): Theme {
  const get = (c: Colour): string => cssVar(VARS[c]) || (c === 'foreground' ? cssVar('--vscode-foreground') : '') || FALLBACK[c];
  const foreground = cssVar('--vscode-foreground') || '#cccccc';
  const highContrast = document.body.classList.contains('vscode-high-contrast') || document.body.classList.contains('vscode-high-contrast-light');
  return {
    colour: get,
    alpha: (c, a) => withAlpha(c in VARS ? get(c as Colour) : c, a),
    foreground,
    muted: cssVar('--vscode-descriptionForeground') || foreground,
    grid: highContrast ? cssVar('--vscode-contrastBorder') || foreground : withAlpha(cssVar('--vscode-editorWidget-border') || cssVar('--vscode-panel-border') || foreground, 0.35),
    background: cssVar('--vscode-editor-background') || '#1e1e1e',
    font: cssVar('--vscode-font-family') || 'sans-serif',
    highContrast,
  };
}
