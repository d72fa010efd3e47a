/**
 * A {@link ChartModel} as a static SVG string, for the self-contained HTML export (no script, no
 * external resource). Colours are CSS classes (`c-blue`, …) that the exported page's stylesheet
 * defines for light and dark; the interactive webview draws the same models with chart.js.
 */
import { extent } from './extent';
import { formatNumber } from './format';
import { withOther } from './confusionView';
import { DASH_PATTERNS, type Axis, type ChartModel, type Colour } from './model';

const W = 640;
const H = 360;
const M = { l: 56, r: 16, t: 16, b: 64 };

export function escapeXml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

interface Scale {
  map(v: number): number;
  ticks: { v: number; label: string }[];
}

/** "Nice" linear ticks (1, 2, 5 × 10^k steps). */
export function niceTicks(lo: number, hi: number, n = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * mag).find((s) => s >= raw)!;
  const out: number[] = [];
  // Integer multiples of the step, rounded, so 3 × 0.2 prints as 0.6.
  for (let i = Math.ceil(lo / step - 1e-9); i * step <= hi + step * 1e-9; i++)
    out.push(i === 0 ? 0 : Number((i * step).toPrecision(12)));
  return out;
}

function tickLabel(v: number): string {
  return Math.abs(v) >= 1000 || (Number.isInteger(v) && Math.abs(v) >= 1)
    ? String(Math.round(v * 1e6) / 1e6)
    : formatNumber(v, '', 2).replace(/0+$/, '').replace(/\.$/, '');
}

function scale(axis: Axis, values: number[], from: number, to: number): Scale {
  if (axis.type === 'category') {
    const n = Math.max(1, axis.categories?.length ?? 0);
    const band = (to - from) / n;
    const every = Math.ceil(n / 20);
    return {
      map: (v) => from + band * (v + 0.5),
      ticks: (axis.categories ?? []).map((c, i) => ({ v: i, label: c })).filter((_, i) => i % every === 0),
    };
  }
  const finite = values.filter(Number.isFinite);
  if (axis.type === 'log') {
    const pos = finite.filter((v) => v > 0);
    // Decades of finite doubles only: a bound read from a file can be 0 or Infinity, and one tick
    // per decade must stay a bounded loop.
    const decade = (v: number, fallback: number): number => {
      const d = Math.log10(v);
      return Number.isFinite(d) ? Math.min(308, Math.max(-324, d)) : fallback;
    };
    const [pLo, pHi] = pos.length ? extent(pos) : [1, 10];
    const lo = decade(axis.min ?? pLo, 0);
    const hi = Math.max(lo, decade(axis.max ?? pHi, 308));
    const span = hi - lo || 1;
    const ticks: { v: number; label: string }[] = [];
    for (let e = Math.floor(lo); e <= Math.ceil(hi); e++)
      if (e >= lo - 1e-9 && e <= hi + 1e-9) ticks.push({ v: 10 ** e, label: tickLabel(10 ** e) });
    return { map: (v) => from + ((Math.log10(Math.max(v, 1e-300)) - lo) / span) * (to - from), ticks };
  }
  const [fLo, fHi] = finite.length ? extent(finite) : [0, 1];
  let lo = axis.min ?? fLo;
  let hi = axis.max ?? fHi;
  if (hi === lo) {
    lo -= 0.5;
    hi += 0.5;
  }
  const span = hi - lo;
  return {
    map: (v) => from + ((v - lo) / span) * (to - from),
    ticks: niceTicks(lo, hi).map((v) => ({ v, label: tickLabel(v) })),
  };
}

const COLOURS: ReadonlySet<string> = new Set<Colour>([
  'blue',
  'red',
  'green',
  'yellow',
  'orange',
  'purple',
  'foreground',
]);
/** The CSS class of a colour; anything outside the palette becomes `c-foreground` (class names come from an allow-list). */
const cls = (c: Colour): string => `c-${COLOURS.has(c) ? c : 'foreground'}`;

/** Longest tick or legend label drawn in full; longer ones are cut with "…" and the full text in a `<title>`. */
const MAX_LABEL = 24;
/** Approximate advance of one character of the 11 px chart font, to lay out legends. */
const CHAR_W = 6.4;

function cut(s: string, max = MAX_LABEL): string {
  const chars = [...s];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : s;
}

/** A text label cut to `max` characters, with the full text as its tooltip when cut. */
function labelText(s: string, max = MAX_LABEL): string {
  const c = cut(s, max);
  return c === s ? escapeXml(s) : `<title>${escapeXml(s)}</title>${escapeXml(c)}`;
}

/** Length of a line's legend swatch: two periods of the longest dash pattern. */
const SWATCH_W = 28;

/**
 * The CSS class of a series' dash ('' for solid): `dash-<i>` for the i-th of {@link DASH_PATTERNS}
 * (the exported page's stylesheet defines them), else `dotted` / `dashed`. Classes, not a
 * `stroke-dasharray` attribute: the export writes only its own attributes and class names.
 */
export function dashClass(s: ChartModel['series'][number]): string {
  if (s.lineDash) {
    const i = DASH_PATTERNS.findIndex(
      (d) => d.length === s.lineDash!.length && d.every((v, k) => v === s.lineDash![k]),
    );
    if (i >= 0) return `dash-${i}`;
  }
  return s.dotted ? 'dotted' : s.dashed || s.lineDash ? 'dashed' : '';
}

/**
 * Legend entries laid out in rows that fit the chart's width, and the height used. A line's entry
 * starts with a stretch of the line in its colour and dash pattern (baselines differ only in
 * their dashes); other series with a square of their colour.
 */
function legendSvg(series: ChartModel['series'], x0: number, width: number): { svg: string; height: number } {
  const rows: string[][] = [[]];
  let used = 0;
  for (const s of series) {
    const text = cut(s.label, 48);
    const line = s.style === 'line' || s.style === 'step';
    const swatch = line ? SWATCH_W + 4 : 0;
    const w = swatch + [...`${line ? '' : '■ '}${text}`].length * CHAR_W + 14;
    if (used > 0 && used + w > width) {
      rows.push([]);
      used = 0;
    }
    const y = 12 + (rows.length - 1) * 16;
    const x = x0 + used;
    const dash = dashClass(s);
    rows[rows.length - 1]!.push(
      (line
        ? `<line class="legend-line ${cls(s.colour)}${dash ? ` ${dash}` : ''}" x1="${x.toFixed(1)}" x2="${(x + SWATCH_W).toFixed(1)}" y1="${y - 4}" y2="${y - 4}"/>`
        : '') +
        `<text class="legend" x="${(x + swatch).toFixed(1)}" y="${y}"><tspan class="${cls(s.colour)}-text">${line ? '' : '■ '}${escapeXml(text)}</tspan></text>`,
    );
    used += w;
  }
  return { svg: rows.map((r) => r.join('')).join(''), height: rows.length * 16 + 2 };
}

/** Rotation of category tick labels under a vertical chart, and what it does to their extent. */
const TICK_ANGLE = 35;
const SIN = Math.sin((TICK_ANGLE * Math.PI) / 180);
const COS = Math.cos((TICK_ANGLE * Math.PI) / 180);
/** Font size of tick labels and gap from the lowest label to the axis title's baseline (px). */
const TICK_FONT = 11;
const AXIS_TITLE_GAP = 16;

/**
 * How far below the x axis the rotated category labels reach: each label starts 12 px below the
 * axis and runs down-left at 35°, so its lowest point is 12 + width × sin 35° + font × cos 35°.
 */
export function categoryTickDrop(ticks: { label: string }[]): number {
  const longest = Math.max(0, ...ticks.map((t) => [...cut(t.label, 14)].length));
  return 12 + longest * CHAR_W * SIN + TICK_FONT * COS;
}

/** An interval as a vertical line with a cap at each end (as the report's charts draw it). */
function whisker(x: number, lo: number, hi: number, colourClass: string): string {
  const [a, b, c, d] = [x - 4, x + 4, lo, hi].map((v) => v.toFixed(1));
  return `<path class="line ${colourClass}" d="M${x.toFixed(1)},${c}V${d}M${a},${c}H${b}M${a},${d}H${b}"/>`;
}

/** The chart as `<svg>…</svg>` with a `<title>` (its description) for screen readers. */
export function chartToSvg(chart: ChartModel): string {
  const parts: string[] = [];
  const x0 = M.l;
  const x1 = W - M.r;
  const y0 = H - M.b;
  const y1 = M.t;
  if (chart.heatmap) return heatmapSvg(chart);
  if (chart.horizontal) return horizontalBarsSvg(chart);
  const xs = chart.series.flatMap((s) => s.points.map((p) => p.x));
  const ys = chart.series
    .flatMap((s) => [
      ...s.points.map((p) => p.y ?? NaN),
      ...(s.errorBars ?? []).flatMap((e) => (e ? [e.lo, e.hi] : [])),
      ...(s.style === 'bar' ? [0] : []),
    ])
    .concat((chart.lines ?? []).filter((l) => l.axis === 'y').map((l) => l.value));
  const sx = scale(chart.x, xs.concat((chart.bands ?? []).flatMap((b) => [b.from, b.to])), x0, x1);
  const sy = scale(chart.y, ys, y0, y1);
  for (const b of chart.bands ?? []) {
    const a = sx.map(b.from);
    const z = sx.map(b.to);
    parts.push(
      `<rect class="band ${cls(b.colour)}" x="${a.toFixed(1)}" y="${y1}" width="${Math.max(0, z - a).toFixed(1)}" height="${y0 - y1}"/>`,
    );
    parts.push(
      `<text class="band-label" x="${((a + z) / 2).toFixed(1)}" y="${y1 + 12}" text-anchor="middle">${escapeXml(b.label)}</text>`,
    );
  }
  for (const t of sy.ticks)
    parts.push(
      `<line class="grid" x1="${x0}" x2="${x1}" y1="${sy.map(t.v).toFixed(1)}" y2="${sy.map(t.v).toFixed(1)}"/><text class="tick" x="${x0 - 6}" y="${(sy.map(t.v) + 4).toFixed(1)}" text-anchor="end">${escapeXml(t.label)}</text>`,
    );
  for (const t of sx.ticks) {
    const x = sx.map(t.v).toFixed(1);
    parts.push(
      chart.x.type === 'category'
        ? `<text class="tick" transform="translate(${x},${y0 + 12}) rotate(-${TICK_ANGLE})" text-anchor="end">${labelText(t.label, 14)}</text>`
        : `<line class="grid" x1="${x}" x2="${x}" y1="${y0}" y2="${y1}"/><text class="tick" x="${x}" y="${y0 + 16}" text-anchor="middle">${escapeXml(t.label)}</text>`,
    );
  }
  parts.push(
    `<line class="axis" x1="${x0}" x2="${x1}" y1="${y0}" y2="${y0}"/><line class="axis" x1="${x0}" x2="${x0}" y1="${y0}" y2="${y1}"/>`,
  );
  const nBars = chart.series.filter((s) => s.style === 'bar').length;
  let barIndex = 0;
  for (const s of chart.series) {
    const c = cls(s.colour);
    const valid = s.points.filter((p): p is { x: number; y: number } => p.y !== null && Number.isFinite(p.y));
    if (s.style === 'bar') {
      const n = Math.max(1, chart.x.categories?.length ?? valid.length);
      const band = (x1 - x0) / n;
      const w = (band * 0.8) / Math.max(1, nBars);
      for (const p of valid) {
        const x = sx.map(p.x) - band * 0.4 + barIndex * w;
        const y = sy.map(Math.max(0, p.y));
        parts.push(
          `<rect class="bar ${c}" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${w.toFixed(1)}" height="${Math.max(0, sy.map(0) - y).toFixed(1)}"/>`,
        );
      }
      // A bar's interval in the text colour: the bar's own colour would vanish inside the bar.
      s.errorBars?.forEach((e, i) => {
        const p = s.points[i];
        if (!e || !p) return;
        const X = sx.map(p.x) - band * 0.4 + (barIndex + 0.5) * w;
        parts.push(whisker(X, sy.map(e.lo), sy.map(e.hi), 'c-foreground'));
      });
      barIndex++;
      continue;
    }
    if (s.style !== 'points' && valid.length > 1) {
      let d = '';
      valid.forEach((p, i) => {
        const X = sx.map(p.x).toFixed(1);
        const Y = sy.map(p.y).toFixed(1);
        if (i === 0) d += `M${X},${Y}`;
        else if (s.style === 'step') d += `H${X}V${Y}`;
        else d += `L${X},${Y}`;
      });
      if (s.fill)
        parts.push(`<path class="area ${c}" d="${d}V${sy.map(0).toFixed(1)}H${sx.map(valid[0]!.x).toFixed(1)}Z"/>`);
      const dash = dashClass(s);
      parts.push(`<path class="line ${c}${dash ? ` ${dash}` : ''}" d="${d}"/>`);
    }
    if (s.style === 'points' || valid.length <= 30)
      for (const p of valid)
        parts.push(
          `<circle class="dot ${c}" cx="${sx.map(p.x).toFixed(1)}" cy="${sy.map(p.y).toFixed(1)}" r="${typeof s.radius === 'number' && s.radius > 0 && s.radius <= 10 ? s.radius : 3}"/>`,
        );
    s.errorBars?.forEach((e, i) => {
      const p = s.points[i];
      if (!e || !p) return;
      parts.push(whisker(sx.map(p.x), sy.map(e.lo), sy.map(e.hi), c));
    });
  }
  for (const l of chart.lines ?? []) {
    if (l.axis === 'y') {
      const y = sy.map(l.value).toFixed(1);
      parts.push(
        `<line class="ref ${cls(l.colour)}" x1="${x0}" x2="${x1}" y1="${y}" y2="${y}"/><text class="ref-label ${cls(l.colour)}" x="${x1 - 4}" y="${Number(y) - 4}" text-anchor="end">${escapeXml(l.label)}</text>`,
      );
    } else {
      const x = sx.map(l.value).toFixed(1);
      parts.push(`<line class="ref ${cls(l.colour)}" x1="${x}" x2="${x}" y1="${y0}" y2="${y1}"/>`);
    }
  }
  // The x axis title goes under the lowest tick label (category names are rotated by 35°).
  const titleY =
    chart.x.type === 'category' ? Math.max(H - 6, y0 + Math.ceil(categoryTickDrop(sx.ticks)) + AXIS_TITLE_GAP) : H - 6;
  parts.push(
    `<text class="axis-label" x="${(x0 + x1) / 2}" y="${titleY}" text-anchor="middle">${escapeXml(chart.x.label)}</text>`,
  );
  parts.push(
    `<text class="axis-label" transform="translate(14,${(y0 + y1) / 2}) rotate(-90)" text-anchor="middle">${escapeXml(chart.y.label)}</text>`,
  );
  const legend = legendSvg(chart.series, M.l, W - M.l - M.r);
  const height = titleY + 6 + legend.height;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" role="img" aria-label="${escapeXml(chart.description)}"><title>${escapeXml(chart.description)}</title><g transform="translate(0,${legend.height})">${parts.join('')}</g>${legend.svg}</svg>`;
}

function heatmapSvg(chart: ChartModel): string {
  const model = chart.heatmap!;
  // With its "other" row and column when some classes are not shown: every row adds up to its class's rows.
  const otherName = model.other ? `other (${model.other.classes} classes)` : '';
  const h = {
    ...model,
    rows: model.other ? [...model.rows, otherName] : model.rows,
    cols: model.other ? [...model.cols, otherName] : model.cols,
    values: withOther(model).values,
  };
  const n = h.rows.length;
  const m = h.cols.length;
  const size = Math.max(8, Math.min(28, Math.floor(480 / Math.max(n, m))));
  // Room for the longest row name (cut at 16 characters) so that none is clipped.
  const left = 12 + Math.min(16, Math.max(1, ...h.rows.map((r) => [...r].length))) * CHAR_W;
  const top = 20;
  const max = Math.max(1, ...model.values.flat());
  const parts: string[] = [];
  h.values.forEach((row, i) =>
    row.forEach((v, j) => {
      // The "other" cells are sums, not cells of the matrix: left unshaded.
      const isOther = i >= model.rows.length || j >= model.cols.length;
      const op = v === 0 || isOther ? 0.03 : 0.12 + 0.88 * Math.min(1, v / max);
      parts.push(
        `<rect class="cell" x="${left + j * size}" y="${top + i * size}" width="${size - 1}" height="${size - 1}" fill-opacity="${op.toFixed(3)}"><title>${escapeXml(`${h.rowTitle} ${h.rows[i]} → ${h.colTitle} ${h.cols[j]}: ${v}`)}</title></rect>`,
      );
      // A count is written in its cell only when it fits (about 6 px per digit at 10 px).
      if (v > 0 && String(v).length * 6 + 2 <= size)
        parts.push(
          `<text class="cell-label${op > 0.55 ? ' on-dark' : ''}" x="${left + j * size + size / 2}" y="${top + i * size + size / 2 + 4}" text-anchor="middle">${v}</text>`,
        );
    }),
  );
  h.rows.forEach((r, i) =>
    parts.push(
      `<text class="tick" x="${(left - 4).toFixed(1)}" y="${top + i * size + size / 2 + 4}" text-anchor="end">${labelText(r, 16)}</text>`,
    ),
  );
  h.cols.forEach((c, j) =>
    parts.push(
      `<text class="tick" transform="translate(${left + j * size + size / 2},${top + n * size + 8}) rotate(-50)" text-anchor="end">${labelText(c, 16)}</text>`,
    ),
  );
  // Column names are rotated by 50°: their drop is about sin 50° × their length.
  const drop = Math.min(16, Math.max(1, ...h.cols.map((c) => [...c].length))) * CHAR_W * 0.77 + 24;
  const width = Math.ceil(
    Math.max(left + m * size + 20, 12 + [...`rows: ${h.rowTitle}, columns: ${h.colTitle}`].length * CHAR_W),
  );
  const height = Math.ceil(top + n * size + 8 + drop);
  parts.push(
    `<text class="axis-label" x="12" y="12">${escapeXml(`rows: ${h.rowTitle}, columns: ${h.colTitle}`)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(chart.description)}"><title>${escapeXml(chart.description)}</title>${parts.join('')}</svg>`;
}

/** Height of one category's band in horizontal bars, as the webview draws them. */
const BAND_H = 28;

/**
 * Bars along the y axis (`chart.horizontal`): categories down the left side, values across, so long
 * category names stay legible. Only bar series and their error bars are drawn; the page grows with
 * the number of categories instead of squeezing them.
 */
function horizontalBarsSvg(chart: ChartModel): string {
  const cats = chart.x.categories ?? [];
  const n = Math.max(1, cats.length);
  const bars = chart.series.filter((s) => s.style === 'bar');
  const left = 16 + Math.min(MAX_LABEL, Math.max(1, ...cats.map((c) => [...c].length))) * CHAR_W;
  const x0 = left;
  const x1 = W - M.r;
  const y1 = M.t;
  const y0 = y1 + n * BAND_H;
  const values = bars.flatMap((s) => [
    ...s.points.map((p) => p.y ?? NaN),
    ...(s.errorBars ?? []).flatMap((e) => (e ? [e.lo, e.hi] : [])),
    0,
  ]);
  const sv = scale(chart.y, values, x0, x1);
  const parts: string[] = [];
  for (const t of sv.ticks) {
    const x = sv.map(t.v).toFixed(1);
    parts.push(
      `<line class="grid" x1="${x}" x2="${x}" y1="${y0}" y2="${y1}"/><text class="tick" x="${x}" y="${y0 + 16}" text-anchor="middle">${escapeXml(t.label)}</text>`,
    );
  }
  cats.forEach((c, i) =>
    parts.push(
      `<text class="tick" x="${x0 - 6}" y="${(y1 + BAND_H * (i + 0.5) + 4).toFixed(1)}" text-anchor="end">${labelText(c)}</text>`,
    ),
  );
  parts.push(
    `<line class="axis" x1="${x0}" x2="${x1}" y1="${y0}" y2="${y0}"/><line class="axis" x1="${x0}" x2="${x0}" y1="${y0}" y2="${y1}"/>`,
  );
  const h = (BAND_H * 0.8) / Math.max(1, bars.length);
  bars.forEach((s, k) => {
    const c = cls(s.colour);
    s.points.forEach((p, i) => {
      if (p.y === null || !Number.isFinite(p.y)) return;
      const y = y1 + BAND_H * (p.x + 0.1) + k * h;
      const a = sv.map(Math.min(0, p.y));
      const z = sv.map(Math.max(0, p.y));
      parts.push(
        `<rect class="bar ${c}" x="${a.toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(0, z - a).toFixed(1)}" height="${h.toFixed(1)}"/>`,
      );
      const e = s.errorBars?.[i];
      // The interval across the bar with a cap at each end, in the text colour (as on vertical bars).
      if (e) {
        const [lo, hi, Y, a1, a2] = [sv.map(e.lo), sv.map(e.hi), y + h / 2, y + h / 2 - 4, y + h / 2 + 4].map((v) =>
          v.toFixed(1),
        );
        parts.push(`<path class="line c-foreground" d="M${lo},${Y}H${hi}M${lo},${a1}V${a2}M${hi},${a1}V${a2}"/>`);
      }
    });
  });
  parts.push(
    `<text class="axis-label" x="${(x0 + x1) / 2}" y="${y0 + 36}" text-anchor="middle">${escapeXml(chart.y.label)}</text>`,
  );
  const legend = legendSvg(bars, x0, x1 - x0);
  const height = Math.ceil(y0 + 44 + legend.height);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" role="img" aria-label="${escapeXml(chart.description)}"><title>${escapeXml(chart.description)}</title><g transform="translate(0,${legend.height})">${parts.join('')}</g>${legend.svg}</svg>`;
}
