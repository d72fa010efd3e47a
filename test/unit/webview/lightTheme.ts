/**
 * A light theme for the webview's tests: white background, a blue of #1a85ff for every series,
 * colours parsed without a canvas (happy-dom has none), in place of `readTheme()`.
 */
import { parseColour } from '../../../src/shared/contrast';
import type { Theme } from '../../../webview/theme';

const BLUE = '#1a85ff';

export function lightTheme(): Theme {
  return {
    colour: () => BLUE,
    alpha: (c) => c,
    foreground: '#1f1f1f',
    muted: '#444444',
    grid: '#cccccc',
    background: '#ffffff',
    font: 'sans-serif',
    highContrast: false,
    rgb: (c) => parseColour(c)!,
  };
}
