import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bestContrast,
  contrastRatio,
  ensureContrast,
  luminance,
  MIN_GRAPHIC_CONTRAST,
  over,
  parseColour,
  toHex,
  type Rgb,
} from '../../../src/shared/contrast';

const rgb = (s: string): Rgb => parseColour(s)!;

test('parseColour reads the forms getComputedStyle and theme variables give', () => {
  assert.deepEqual(parseColour('#fff'), { r: 255, g: 255, b: 255, a: 1 });
  assert.deepEqual(parseColour('#1F1F1F'), { r: 31, g: 31, b: 31, a: 1 });
  assert.deepEqual(parseColour('#00000080'), { r: 0, g: 0, b: 0, a: 128 / 255 });
  assert.deepEqual(parseColour('rgb(55, 148, 255)'), { r: 55, g: 148, b: 255, a: 1 });
  assert.deepEqual(parseColour('rgba(55, 148, 255, 0.5)'), { r: 55, g: 148, b: 255, a: 0.5 });
  assert.equal(parseColour('var(--x)'), undefined);
  assert.equal(parseColour('#12345'), undefined);
  assert.equal(toHex({ r: 26, g: 133, b: 255, a: 1 }), '#1a85ff');
});

test('luminance and contrast ratio: the WCAG formulas worked by hand', () => {
  assert.equal(luminance(rgb('#000')), 0);
  assert.equal(luminance(rgb('#fff')), 1);
  // Black on white: (1 + 0.05) / (0 + 0.05) = 21.
  assert.equal(contrastRatio(rgb('#000'), rgb('#fff')), 21);
  // #777777: s = 119/255, linear ((s + 0.055) / 1.055)^2.4; luminance is that (grey: weights sum to 1).
  const s = 119 / 255;
  const l = ((s + 0.055) / 1.055) ** 2.4;
  assert.ok(Math.abs(luminance(rgb('#777777')) - l) < 1e-12);
  assert.ok(Math.abs(contrastRatio(rgb('#777777'), rgb('#fff')) - 1.05 / (l + 0.05)) < 1e-12);
  // Symmetric.
  assert.equal(contrastRatio(rgb('#fff'), rgb('#777777')), contrastRatio(rgb('#777777'), rgb('#fff')));
  // A channel at or below 0.04045·255 is linear: #0a0a0a → 10/255/12.92.
  assert.ok(Math.abs(luminance(rgb('#0a0a0a')) - 10 / 255 / 12.92) < 1e-15);
});

test('over: a translucent colour on its background', () => {
  assert.deepEqual(over({ r: 0, g: 0, b: 0, a: 0.5 }, rgb('#fff')), { r: 127.5, g: 127.5, b: 127.5, a: 1 });
});

// The chart colours and editor backgrounds of VS Code's Light Modern, Dark Modern and High Contrast themes.
const THEMES: Record<string, { background: string; series: string[] }> = {
  'Light Modern': { background: '#ffffff', series: ['#1a85ff', '#d18616', '#388a34', '#652d90', '#e51400', '#bf8803'] },
  'Dark Modern': { background: '#1f1f1f', series: ['#3794ff', '#d18616', '#89d185', '#b180d7', '#f14c4c', '#cca700'] },
  'High Contrast': {
    background: '#000000',
    series: ['#3794ff', '#d18616', '#89d185', '#b180d7', '#f14c4c', '#cca700'],
  },
  'High Contrast Light': {
    background: '#ffffff',
    series: ['#0f4a85', '#b5200d', '#374e06', '#652d90', '#b5200d', '#895503'],
  },
};

test('ensureContrast: every series of every theme reaches 3:1; colours that already do are kept', () => {
  for (const [name, t] of Object.entries(THEMES)) {
    const bg = rgb(t.background);
    for (const s of t.series) {
      const chosen = ensureContrast(rgb(s), bg);
      const ratio = contrastRatio(rgb(chosen), bg);
      assert.ok(ratio >= MIN_GRAPHIC_CONTRAST, `${name} ${s} → ${chosen}: ${ratio.toFixed(3)}`);
      if (contrastRatio(rgb(s), bg) >= MIN_GRAPHIC_CONTRAST) assert.equal(chosen, s, `${name} ${s} kept`);
      else
        assert.ok(ratio < MIN_GRAPHIC_CONTRAST + 0.15, `${name} ${s} changed no more than needed: ${ratio.toFixed(3)}`);
    }
  }
  // Light Modern's orange is below 3:1 on white (the case that made series hard to see): it darkens.
  assert.ok(contrastRatio(rgb('#d18616'), rgb('#ffffff')) < 3);
  const fixed = rgb(ensureContrast(rgb('#d18616'), rgb('#ffffff')));
  assert.ok(luminance(fixed) < luminance(rgb('#d18616')));
  // A near-background grey on a dark editor lightens.
  const grey = rgb(ensureContrast(rgb('#2a2a2a'), rgb('#1f1f1f')));
  assert.ok(luminance(grey) > luminance(rgb('#2a2a2a')));
  assert.ok(contrastRatio(grey, rgb('#1f1f1f')) >= 3);
});

test('ensureContrast on random colours and backgrounds always reaches the minimum', () => {
  let seed = 12345;
  const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 255;
  for (let i = 0; i < 2000; i++) {
    const c = { r: rnd(), g: rnd(), b: rnd(), a: 1 };
    const bg = { r: rnd(), g: rnd(), b: rnd(), a: 1 };
    // A mid-grey background can cap the reachable contrast below 3 on both sides: compare with the cap.
    const cap = Math.max(contrastRatio(rgb('#000'), bg), contrastRatio(rgb('#fff'), bg));
    const want = Math.min(MIN_GRAPHIC_CONTRAST, cap);
    const ratio = contrastRatio(rgb(ensureContrast(c, bg)), over(bg, rgb('#fff')));
    assert.ok(ratio >= want - 0.02, `${JSON.stringify(c)} on ${JSON.stringify(bg)}: ${ratio}`);
  }
});

test('bestContrast picks the readable text colour for a shaded cell', () => {
  assert.deepEqual(bestContrast(rgb('#0b3d91'), [rgb('#000'), rgb('#fff')]), rgb('#fff'));
  assert.deepEqual(bestContrast(rgb('#d6e8ff'), [rgb('#000'), rgb('#fff')]), rgb('#000'));
});
