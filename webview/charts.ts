/**
 * Drawing a {@link ChartModel}: chart.js for x–y and bar charts (with small plugins for shot-group
 * bands, reference lines and error bars); the confusion matrix is an HTML grid (confusion.ts).
 * Colours come from the theme, kept at 3:1 contrast against the background; every colour also has
 * its own point marker (a second channel for readers who cannot tell the colours apart). Canvas
 * sizes come from CSS classes (no inline styles in the markup).
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Tooltip,
  layouts,
  type ChartConfiguration,
  type Plugin,
  type Scale,
  type ScaleOptionsByType,
} from 'chart.js';
import { drawPoint } from 'chart.js/helpers';
import type { Axis, ChartModel, RefLine } from '../src/shared/model';
import { formatAxisValue, formatNumber } from '../src/shared/format';
import { paperTheme, type Theme } from './theme';

Chart.register(
  LineController,
  BarController,
  ScatterController,
  LineElement,
  BarElement,
  PointElement,
  LinearScale,
  LogarithmicScale,
  CategoryScale,
  Filler,
  Legend,
  Tooltip,
);

/** Something drawn on a canvas that can be redrawn and removed. */
export interface Drawn {
  /** The chart's canvas; null for the confusion matrix (an HTML grid). */
  canvas: HTMLCanvasElement | null;
  destroy(): void;
  /**
   * Draws `lines` over the model's own reference lines (the threshold explorer's marker) and
   * paints the chart again; the model is not changed.
   */
  mark?(lines: readonly RefLine[]): void;
  /**
   * The points under a mouse event on the canvas, nearest first (of a category axis: the points of
   * the category under it): each its series and its index in the series.
   */
  pointsAt?(e: MouseEvent): ChartPoint[];
}

/** A point of a chart: its series (dataset) and its index in the series (the category's, on a category axis). */
export interface ChartPoint {
  series: number;
  index: number;
}

/** A box on the canvas in CSS pixels. */
interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const overlaps = (a: Box, b: Box): boolean => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * The box of every drawn data point (a marker: its radius, at least 3 px, and 1 px more; a bar: its
 * rectangle), which the annotation labels keep clear of.
 */
function dataBoxes(chart: Chart<'line'>): Box[] {
  const out: Box[] = [];
  chart.data.datasets.forEach((_, di) => {
    if (!chart.isDatasetVisible(di)) return;
    const meta = chart.getDatasetMeta(di);
    for (const el of meta.data) {
      const p = el.getProps(['x', 'y', 'base', 'width', 'skip'], true) as {
        x: number;
        y: number;
        base?: number;
        width?: number;
        skip?: boolean;
      };
      if (p.skip || !Number.isFinite(p.x) || !Number.isFinite(p.y)) continue;
      if (meta.type === 'bar' && p.base !== undefined && p.width !== undefined) {
        out.push({ x: p.x - p.width / 2, y: Math.min(p.y, p.base), w: p.width, h: Math.abs(p.base - p.y) });
      } else {
        const r = Math.max(3, Number((el.options as { radius?: number } | undefined)?.radius) || 0) + 1;
        out.push({ x: p.x - r, y: p.y - r, w: 2 * r, h: 2 * r });
      }
    }
  });
  return out;
}

/**
 * Height of the strip above the plot area that holds the shot-group bands' labels: a 14 px label
 * and 8 px below it, clear of a marker (up to 7 px across its centre) on the plot's top edge.
 */
const BAND_STRIP = 24;
const BAND_LABEL_H = 14;

/**
 * A strip between the legend and the plot area for the bands' labels: there they never cover a
 * data point (inside the plot they sat on the points at the top of the chart).
 */
function bandStripPlugin(model: ChartModel): Plugin<'line'> {
  return {
    id: 'evalLensBandStrip',
    beforeInit(chart) {
      if (!model.bands?.length) return;
      const box = {
        position: 'top' as const,
        // Below the legend (weight 1000): the strip touches the plot area.
        weight: 500,
        fullSize: false,
        options: {},
        width: 0,
        height: 0,
        left: 0,
        top: 0,
        right: 0,
        bottom: 0,
        isHorizontal: () => true,
        update(maxWidth: number): void {
          box.width = maxWidth;
          box.height = BAND_STRIP;
        },
        draw(): void {},
      };
      layouts.addBox(chart as unknown as Chart, box);
    },
  };
}

/**
 * Where the chart's labels went (`data-annotations`: text and box), its data points' boxes
 * (`data-point-boxes`) and its plot area (`data-plot-area`), in CSS pixels, for tests.
 */
function recordAnnotations(chart: Chart<'line'>, placed: { text: string; box: Box }[], points: Box[] | null): void {
  const r = (v: number): number => Math.round(v * 10) / 10;
  const c = chart.canvas;
  const prev = c.dataset.annotations ? (JSON.parse(c.dataset.annotations) as unknown[]) : [];
  c.dataset.annotations = JSON.stringify([
    ...prev,
    ...placed.map((p) => ({ text: p.text, x: r(p.box.x), y: r(p.box.y), w: r(p.box.w), h: r(p.box.h) })),
  ]);
  if (points) c.dataset.pointBoxes = JSON.stringify(points.map((b) => [r(b.x), r(b.y), r(b.w), r(b.h)]));
  const a = chart.chartArea;
  c.dataset.plotArea = JSON.stringify([r(a.left), r(a.top), r(a.right - a.left), r(a.bottom - a.top)]);
}

/** The reference lines drawn: the model's own, then the marks laid over them. */
type LinesOf = () => readonly RefLine[];

function bandsPlugin(model: ChartModel, theme: Theme, lines: LinesOf): Plugin<'line'> {
  return {
    id: 'evalLensBands',
    beforeDatasetsDraw(chart) {
      const x = chart.scales.x as Scale | undefined;
      const area = chart.chartArea;
      // Each drawing records its labels anew (the lines' labels follow in afterDatasetsDraw).
      delete chart.canvas.dataset.annotations;
      if (!x || !model.bands) return;
      const g = chart.ctx;
      g.save();
      g.font = `11px ${theme.font}`;
      const placed: { text: string; box: Box }[] = [];
      for (const b of model.bands) {
        const a = Math.max(area.left, x.getPixelForValue(b.from));
        const z = Math.min(area.right, x.getPixelForValue(b.to));
        if (!(z > a)) continue;
        g.fillStyle = theme.alpha(b.colour, theme.highContrast ? 0.18 : 0.1);
        g.fillRect(a, area.top, z - a, area.bottom - area.top);
        // The label in the strip above the plot, centred over its band, kept within the plot's
        // width and right of the label before it.
        const w = g.measureText(b.label).width;
        const last = placed[placed.length - 1]?.box;
        const after = last ? last.x + last.w + 8 : area.left;
        const left = Math.max(area.left, after, Math.min(area.right - w, (a + z) / 2 - w / 2));
        const top = area.top - BAND_STRIP + 2;
        placed.push({ text: b.label, box: { x: left, y: top, w, h: BAND_LABEL_H } });
        g.fillStyle = theme.muted;
        g.textAlign = 'left';
        g.textBaseline = 'middle';
        g.fillText(b.label, left, top + BAND_LABEL_H / 2);
      }
      g.restore();
      recordAnnotations(chart, placed, lines().length > 0 ? null : dataBoxes(chart));
    },
  };
}

/**
 * Where a reference line's label goes: the first of a few spots along the line (for a horizontal
 * line its right end, left end, middle and quarters, above it and then below it) whose box covers
 * no data point and no label placed before; when every spot covers one, the spot covering fewest.
 */
function placeLineLabel(
  width: number,
  line: { axis: 'x' | 'y'; at: number },
  area: { left: number; right: number; top: number; bottom: number },
  avoid: Box[],
): Box {
  const h = 14;
  const w = width + 6;
  const spots: Box[] = [];
  const span = area.right - area.left;
  if (line.axis === 'y') {
    const xs = [area.right - w - 2, area.left + 2, area.left + (span - w) / 2];
    xs.push(area.left + span / 4 - w / 2, area.left + (3 * span) / 4 - w / 2);
    for (const y of [line.at - h - 2, line.at + 2]) for (const x of xs) spots.push({ x, y, w, h });
  } else {
    const ys = [area.top + 2, area.bottom - h - 2, (area.top + area.bottom - h) / 2];
    for (const x of [line.at - w - 2, line.at + 2]) for (const y of ys) spots.push({ x, y, w, h });
  }
  const inside = spots.filter(
    (b) => b.x >= area.left && b.x + b.w <= area.right && b.y >= area.top && b.y + b.h <= area.bottom,
  );
  const cost = (b: Box): number => avoid.filter((o) => overlaps(b, o)).length;
  const pool = inside.length > 0 ? inside : spots;
  return pool.find((b) => cost(b) === 0) ?? pool.reduce((best, b) => (cost(b) < cost(best) ? b : best));
}

function linesPlugin(model: ChartModel, theme: Theme, linesOf: LinesOf): Plugin<'line'> {
  return {
    id: 'evalLensLines',
    afterDatasetsDraw(chart) {
      const g = chart.ctx;
      const area = chart.chartArea;
      const lines = linesOf();
      const points = lines.length > 0 ? dataBoxes(chart) : [];
      const placed: { text: string; box: Box }[] = [];
      g.save();
      for (const l of lines) {
        const scale = (l.axis === 'y' ? chart.scales.y : chart.scales.x) as Scale | undefined;
        if (!scale) continue;
        const p = scale.getPixelForValue(l.value);
        g.strokeStyle = theme.colour(l.colour);
        g.setLineDash([4, 4]);
        g.lineWidth = 1;
        g.beginPath();
        if (l.axis === 'y') {
          g.moveTo(area.left, p);
          g.lineTo(area.right, p);
        } else {
          g.moveTo(p, area.top);
          g.lineTo(p, area.bottom);
        }
        g.stroke();
        g.setLineDash([]);
        // The label beside its line where it covers no data point, on the background colour.
        g.font = `11px ${theme.font}`;
        const box = placeLineLabel(g.measureText(l.label).width, { axis: l.axis, at: p }, area, [
          ...points,
          ...placed.map((q) => q.box),
        ]);
        placed.push({ text: l.label, box });
        g.fillStyle = theme.alpha(theme.background, 0.85);
        g.fillRect(box.x, box.y, box.w, box.h);
        g.fillStyle = theme.colour(l.colour);
        g.textAlign = 'left';
        g.textBaseline = 'middle';
        g.fillText(l.label, box.x + 3, box.y + box.h / 2);
        g.textBaseline = 'alphabetic';
      }
      if (lines.length > 0) recordAnnotations(chart, placed, points);
      // Error bars of every series that has them: along the value axis (x for horizontal bars).
      model.series.forEach((s, di) => {
        if (!s.errorBars) return;
        const meta = chart.getDatasetMeta(di);
        const values = (model.horizontal ? chart.scales.x : chart.scales.y) as Scale;
        // A bar's whisker in the text colour: the bar's own colour would vanish inside the bar.
        g.strokeStyle = s.style === 'bar' ? theme.foreground : theme.colour(s.colour);
        g.lineWidth = 1.5;
        s.errorBars.forEach((e, i) => {
          const el = meta.data[i];
          if (!e || !el) return;
          const at = model.horizontal ? el.y : el.x;
          const lo = values.getPixelForValue(e.lo);
          const hi = values.getPixelForValue(e.hi);
          // (value, across) → canvas (x, y): swapped for horizontal bars.
          const to = (v: number, a: number, move: boolean): void => {
            const [px, py] = model.horizontal ? [v, a] : [a, v];
            if (move) g.moveTo(px, py);
            else g.lineTo(px, py);
          };
          g.beginPath();
          to(lo, at, true);
          to(hi, at, false);
          to(lo, at - 5, true);
          to(lo, at + 5, false);
          to(hi, at - 5, true);
          to(hi, at + 5, false);
          g.stroke();
        });
      });
      g.restore();
    },
  };
}

/** Paints the background (PNG export: a PNG has none of its own). */
function backgroundPlugin(colour: string | undefined): Plugin<'line'> {
  return {
    id: 'evalLensBackground',
    beforeDraw(chart) {
      if (!colour) return;
      const g = chart.ctx;
      g.save();
      g.fillStyle = colour;
      g.fillRect(0, 0, chart.width, chart.height);
      g.restore();
    },
  };
}

/**
 * What the chart drew, on the canvas's data attributes for tests and assistive tools: the
 * category axis's tick labels (`data-ticks`, after chart.js skipped the ones that do not fit), the
 * value axis's tick values and range (`data-value-ticks`, `data-value-range`) and the legend's
 * entries with their dash pattern (`data-legend`).
 */
function statePlugin(model: ChartModel): Plugin<'line'> {
  return {
    id: 'evalLensState',
    afterUpdate(chart) {
      const canvas = chart.canvas;
      const axis = model.x.type === 'category' ? (model.horizontal ? chart.scales.y : chart.scales.x) : undefined;
      if (axis) canvas.dataset.ticks = JSON.stringify(axis.ticks.map((t) => String(axis.getLabelForValue(t.value))));
      // The value axis's ticks (values) and its range: every tick the chart labels and draws a grid line at.
      const values = model.horizontal ? chart.scales.x : chart.scales.y;
      if (values) {
        canvas.dataset.valueTicks = JSON.stringify(values.ticks.map((t) => t.value));
        canvas.dataset.valueRange = JSON.stringify([values.min, values.max]);
      }
      const items = chart.legend?.legendItems ?? [];
      canvas.dataset.legend = JSON.stringify(
        chart.options.plugins?.legend?.display === false
          ? []
          : items.map((it) => ({
              text: it.text,
              dash: model.series[it.datasetIndex ?? -1]?.lineDash ?? dashOf(model.series[it.datasetIndex ?? -1]),
              colour: it.strokeStyle,
              swatch: it.pointStyle instanceof HTMLCanvasElement ? 'line' : String(it.pointStyle),
              points: chart.data.datasets[it.datasetIndex ?? -1]?.data.length ?? 0,
            })),
      );
    },
  };
}

/** The dash pattern of a series' line ([] for solid). */
function dashOf(s: ChartModel['series'][number] | undefined): number[] {
  if (!s) return [];
  return s.lineDash ?? (s.dotted ? [2, 3] : s.dashed ? [6, 4] : []);
}

/**
 * A legend swatch for a line: a short stretch of the line in its colour and dash pattern with the
 * series' marker in the middle, so the legend tells apart lines that differ only in their dashes.
 */
function lineSwatch(colour: string, dash: number[], marker: (typeof MARKERS)[number]): HTMLCanvasElement {
  const c = document.createElement('canvas');
  c.width = SWATCH_W;
  c.height = 12;
  const g = c.getContext('2d')!;
  g.strokeStyle = colour;
  g.fillStyle = colour;
  g.lineWidth = 2;
  g.setLineDash(dash);
  g.beginPath();
  g.moveTo(0, 6);
  g.lineTo(SWATCH_W, 6);
  g.stroke();
  g.setLineDash([]);
  drawPoint(g, { pointStyle: marker, radius: 3.5, borderWidth: 1, rotation: 0 }, SWATCH_W / 2, 6);
  return c;
}

/** Width of a line's legend swatch in CSS pixels (long enough to show two periods of any dash pattern). */
const SWATCH_W = 32;

function scaleOptions(
  axis: Axis,
  theme: Theme,
  horizontal = false,
): Partial<ScaleOptionsByType<'linear' | 'logarithmic' | 'category'>> {
  const common = {
    title: { display: true, text: axis.label, color: theme.muted, font: { family: theme.font } },
    grid: { color: theme.grid },
    border: { color: theme.grid },
    ticks: { color: theme.muted, font: { family: theme.font } },
  };
  if (axis.type === 'category')
    return {
      ...common,
      type: 'category',
      labels: axis.categories ?? [],
      offset: true,
      // Horizontal bars get a row of room per category: every category keeps its label.
      ...(horizontal ? { ticks: { ...common.ticks, autoSkip: false } } : {}),
    } as Partial<ScaleOptionsByType<'category'>>;
  // A given end (the paired differences pad theirs by a tenth of the span) bounds the axis but gets
  // no tick of its own: chart.js would add one at the odd value beside the even steps.
  const o: Record<string, unknown> = {
    ...common,
    type: axis.type === 'log' ? 'logarithmic' : 'linear',
    ...(axis.type === 'linear' ? { ticks: { ...common.ticks, includeBounds: false } } : {}),
  };
  if (axis.min !== undefined) o.min = axis.min;
  if (axis.max !== undefined) o.max = axis.max;
  if (axis.type === 'log')
    o.ticks = {
      ...common.ticks,
      callback: (v: number | string) => {
        const n = Number(v);
        const e = Math.log10(n);
        return Math.abs(e - Math.round(e)) < 1e-9 || [2, 5].includes(Math.round(n / 10 ** Math.floor(e)))
          ? String(n)
          : '';
      },
    };
  return o as Partial<ScaleOptionsByType<'linear'>>;
}

/** The event a click on a chart's bar or point fires (for drill-down handlers). */
export const CHART_POINT_EVENT = 'evallens:point';

/**
 * What was clicked: the chart id, the series, the point's index and values; `category` is the
 * x category (a class name on per-class bars, a bin label on binned charts), `label` the point's
 * tooltip text (a threshold on risk–coverage).
 */
export interface ChartPointDetail {
  chart: string;
  series: string;
  seriesIndex: number;
  index: number;
  x: number;
  y: number | null;
  category?: string;
  label?: string;
}

export function pointDetail(model: ChartModel, seriesIndex: number, index: number): ChartPointDetail {
  const s = model.series[seriesIndex]!;
  const p = s.points[index]!;
  const d: ChartPointDetail = { chart: model.id, series: s.label, seriesIndex, index, x: p.x, y: p.y };
  const category = model.x.type === 'category' ? model.x.categories?.[index] : undefined;
  if (category !== undefined) d.category = category;
  const label = s.pointLabels?.[index];
  if (label) d.label = label;
  return d;
}

/** Point markers, one per colour in order of first use: shape tells series apart without colour. */
const MARKERS = ['circle', 'triangle', 'rect', 'rectRot', 'crossRot', 'star', 'rectRounded', 'cross'] as const;

/** Markers on at most ~12 points of a long line (every point would hide the line). */
function markerEvery(n: number): number {
  return n <= 24 ? 1 : Math.ceil(n / 12);
}

export interface DrawOptions {
  /** Fixed size in CSS pixels (not responsive, twice the pixel density): for PNG export. */
  width?: number;
  height?: number;
  /** Lines drawn over the model's own reference lines (see {@link Drawn.mark}). */
  marks?: readonly RefLine[];
}

export function drawChart(canvas: HTMLCanvasElement, model: ChartModel, theme: Theme, opts: DrawOptions = {}): Drawn {
  if (model.heatmap) throw new Error('the confusion matrix is drawn by confusion.ts');
  let marks = opts.marks ?? [];
  const linesOf: LinesOf = () => (marks.length > 0 ? [...(model.lines ?? []), ...marks] : (model.lines ?? []));
  const category = model.x.type === 'category';
  const markerOf = new Map<string, (typeof MARKERS)[number]>();
  for (const s of model.series)
    if (!markerOf.has(s.colour) && s.colour !== 'foreground')
      markerOf.set(s.colour, MARKERS[markerOf.size % MARKERS.length]!);
  const datasets = model.series.map((s) => {
    const colour = s.faded ? theme.alpha(s.colour, 0.35) : theme.colour(s.colour);
    const data = category ? s.points.map((p) => p.y) : s.points.map((p) => ({ x: p.x, y: p.y }));
    // A scatter shows every point; a line only some markers.
    const every = s.style === 'points' ? 1 : markerEvery(s.points.length);
    const reference = s.colour === 'foreground' && s.points.length <= 2;
    const radius = s.radius ?? (s.style === 'points' ? 4 : reference ? 0 : 3);
    return {
      type: s.style === 'bar' ? ('bar' as const) : ('line' as const),
      label: s.label,
      data,
      borderColor: colour,
      backgroundColor: s.style === 'bar' ? theme.alpha(colour, 0.7) : s.fill ? theme.alpha(colour, 0.18) : colour,
      pointBackgroundColor: colour,
      borderWidth: s.style === 'bar' ? 1 : 2,
      borderDash: dashOf(s),
      showLine: s.style !== 'points' && s.style !== 'bar',
      stepped: s.style === 'step' ? ('before' as const) : false,
      fill: s.fill ? 'origin' : false,
      pointStyle: s.marker ?? markerOf.get(s.colour) ?? 'circle',
      // A cross is only strokes: thicker, to be seen among filled markers.
      ...(s.marker ? { pointBorderWidth: 2.5 } : {}),
      pointRadius: every === 1 ? radius : (ctx: { dataIndex: number }) => (ctx.dataIndex % every === 0 ? radius : 0),
      pointHoverRadius: 5,
      spanGaps: false,
      tension: 0,
    };
  });
  const labels = (i: number, di: number): string | undefined => model.series[di]?.pointLabels?.[i];
  const scatter = model.series.some((s) => s.style === 'points');
  const lines = model.series.some((s) => s.style === 'line' || s.style === 'step');
  const config: ChartConfiguration<'line'> = {
    type: 'line',
    data: {
      datasets: datasets as unknown as ChartConfiguration<'line'>['data']['datasets'],
      ...(category ? { labels: model.x.categories ?? [] } : {}),
    },
    options: {
      responsive: opts.width === undefined,
      maintainAspectRatio: false,
      ...(opts.width !== undefined ? { devicePixelRatio: 2 } : {}),
      animation: false,
      // Unparsed data is taken as sorted by x (chart.js then reads the x range from the ends):
      // true of lines, not of a scatter, which chart.js parses and checks.
      parsing: category || scatter ? undefined : false,
      normalized: !scatter,
      interaction: { mode: 'nearest', intersect: false },
      // Drill-down hook: a click on a bar or point fires `evallens:point` on the canvas (bubbling).
      onClick: (_event, elements) => {
        const hit = elements[0];
        if (!hit || opts.width !== undefined) return;
        canvas.dispatchEvent(
          new CustomEvent<ChartPointDetail>(CHART_POINT_EVENT, {
            bubbles: true,
            detail: pointDetail(model, hit.datasetIndex, hit.index),
          }),
        );
      },
      color: theme.foreground,
      font: { family: theme.font },
      // Horizontal bars: the categories go down the y axis and the values across the x axis.
      ...(model.horizontal ? { indexAxis: 'y' as const } : {}),
      scales: (model.horizontal
        ? { x: scaleOptions(model.y, theme), y: scaleOptions(model.x, theme, true) }
        : { x: scaleOptions(model.x, theme), y: scaleOptions(model.y, theme) }) as never,
      plugins: {
        legend: {
          display: model.series.length > 1,
          labels: {
            color: theme.foreground,
            boxWidth: 8,
            boxHeight: 8,
            usePointStyle: true,
            // Lines: a swatch of the line with its dash pattern and marker (dashes tell baselines apart).
            ...(lines ? { pointStyleWidth: SWATCH_W } : {}),
            generateLabels: (chart) =>
              Chart.defaults.plugins.legend.labels.generateLabels(chart).map((item) => {
                const s = model.series[item.datasetIndex ?? -1];
                if (!lines || !s || s.style === 'bar' || s.style === 'points') return item;
                const colour = s.faded ? theme.alpha(s.colour, 0.35) : theme.colour(s.colour);
                return { ...item, pointStyle: lineSwatch(colour, dashOf(s), markerOf.get(s.colour) ?? 'circle') };
              }),
            font: { family: theme.font },
          },
        },
        tooltip: {
          callbacks: {
            label: (item) => {
              const extra = labels(item.dataIndex, item.datasetIndex);
              // The item map: the item's own text (id, name, category, counts) and its coordinates.
              if (model.itemMap)
                return `${extra ?? item.dataset.label} (${formatNumber(item.parsed.x)}, ${formatNumber(item.parsed.y)})`;
              const y = model.horizontal ? item.parsed.x : item.parsed.y;
              const x = category ? model.x.categories?.[item.dataIndex] : formatAxisValue(item.parsed.x);
              // A count axis (users, rows) prints integers; a rate keeps its 4 decimals.
              const yText = Number.isInteger(y) && model.y.max !== 1 ? formatAxisValue(y) : formatNumber(y);
              return `${item.dataset.label}: ${yText} at ${model.x.label} ${x}${extra ? ` (${extra})` : ''}`;
            },
          },
        },
      },
    },
    plugins: [
      bandStripPlugin(model),
      bandsPlugin(model, theme, linesOf),
      linesPlugin(model, theme, linesOf),
      backgroundPlugin(opts.width !== undefined ? theme.background : undefined),
      statePlugin(model),
    ],
  };
  const chart = new Chart(canvas, config);
  return {
    canvas,
    destroy: () => chart.destroy(),
    mark: (lines) => {
      marks = lines;
      chart.draw();
    },
    pointsAt: (e) => {
      const onCategories = (chart.options.scales?.x as { type?: string } | undefined)?.type === 'category';
      return chart
        .getElementsAtEventForMode(e, onCategories ? 'index' : 'nearest', { intersect: false, axis: 'x' }, false)
        .map((h) => ({ series: h.datasetIndex, index: h.index }));
    },
  };
}

/**
 * A PNG of the chart for a paper: drawn again off screen at a fixed size (960 × 540 CSS pixels,
 * twice the density; horizontal bars taller, 28 px a category, so that every label fits) with
 * {@link paperTheme}: white background and dark text in every editor theme.
 */
export function chartPng(model: ChartModel, font: string, marks?: readonly RefLine[]): string {
  const canvas = document.createElement('canvas');
  const w = 960;
  const h = model.horizontal ? Math.max(540, 60 + 28 * (model.x.categories?.length ?? 0)) : 540;
  // A non-responsive chart takes its CSS size from the canvas attributes and multiplies them by devicePixelRatio.
  canvas.width = w;
  canvas.height = h;
  // chart.js sizes a non-responsive chart from the canvas; an off-DOM holder keeps it out of view.
  const holder = document.createElement('div');
  holder.className = 'png-holder';
  holder.append(canvas);
  document.body.append(holder);
  try {
    const d = drawChart(canvas, model, paperTheme(font), { width: w, height: h, ...(marks ? { marks } : {}) });
    const url = canvas.toDataURL('image/png');
    d.destroy();
    return url;
  } finally {
    holder.remove();
  }
}
