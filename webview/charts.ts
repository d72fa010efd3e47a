/**
 * Drawing a {@link ChartModel}: chart.js for x–y and bar charts (with small plugins for shot-group
 * bands, reference lines and error bars), a plain canvas for the confusion heatmap. Colours come
 * from the theme; canvas sizes from CSS classes (no inline styles in the markup).
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
  type ChartConfiguration,
  type Plugin,
  type Scale,
  type ScaleOptionsByType,
} from 'chart.js';
import type { Axis, ChartModel } from '../src/shared/model';
import { formatNumber } from '../src/shared/format';
import type { Theme } from './theme';

Chart.register(LineController, BarController, ScatterController, LineElement, BarElement, PointElement, LinearScale, LogarithmicScale, CategoryScale, Filler, Legend, Tooltip);

/** Something drawn on a canvas that can be redrawn and removed. */
export interface Drawn {
  canvas: HTMLCanvasElement;
  destroy(): void;
}

function bandsPlugin(model: ChartModel, theme: Theme): Plugin<'line'> {
  return {
    id: 'evalLensBands',
    beforeDatasetsDraw(chart) {
      const x = chart.scales.x as Scale | undefined;
      const area = chart.chartArea;
      if (!x || !model.bands) return;
      const g = chart.ctx;
      g.save();
      for (const b of model.bands) {
        const a = Math.max(area.left, x.getPixelForValue(b.from));
        const z = Math.min(area.right, x.getPixelForValue(b.to));
        if (!(z > a)) continue;
        g.fillStyle = theme.alpha(b.colour, theme.highContrast ? 0.18 : 0.1);
        g.fillRect(a, area.top, z - a, area.bottom - area.top);
        g.fillStyle = theme.muted;
        g.font = `11px ${theme.font}`;
        g.textAlign = 'center';
        g.fillText(b.label, (a + z) / 2, area.top + 12);
      }
      g.restore();
    },
  };
}

function linesPlugin(model: ChartModel, theme: Theme): Plugin<'line'> {
  return {
    id: 'evalLensLines',
    afterDatasetsDraw(chart) {
      const g = chart.ctx;
      const area = chart.chartArea;
      g.save();
      for (const l of model.lines ?? []) {
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
        g.fillStyle = theme.colour(l.colour);
        g.font = `11px ${theme.font}`;
        g.textAlign = 'right';
        if (l.axis === 'y') g.fillText(l.label, area.right - 4, p - 4);
        else g.fillText(l.label, p - 4, area.top + 12);
      }
      // Error bars of every series that has them.
      model.series.forEach((s, di) => {
        if (!s.errorBars) return;
        const meta = chart.getDatasetMeta(di);
        const y = chart.scales.y as Scale;
        g.strokeStyle = theme.colour(s.colour);
        g.lineWidth = 1.5;
        s.errorBars.forEach((e, i) => {
          const el = meta.data[i];
          if (!e || !el) return;
          const x = el.x;
          const lo = y.getPixelForValue(e.lo);
          const hi = y.getPixelForValue(e.hi);
          g.beginPath();
          g.moveTo(x, lo);
          g.lineTo(x, hi);
          g.moveTo(x - 5, lo);
          g.lineTo(x + 5, lo);
          g.moveTo(x - 5, hi);
          g.lineTo(x + 5, hi);
          g.stroke();
        });
      });
      g.restore();
    },
  };
}

function scaleOptions(axis: Axis, theme: Theme): Partial<ScaleOptionsByType<'linear' | 'logarithmic' | 'category'>> {
  const common = {
    title: { display: true, text: axis.label, color: theme.muted, font: { family: theme.font } },
    grid: { color: theme.grid },
    border: { color: theme.grid },
    ticks: { color: theme.muted, font: { family: theme.font } },
  };
  if (axis.type === 'category') return { ...common, type: 'category', labels: axis.categories ?? [], offset: true } as Partial<ScaleOptionsByType<'category'>>;
  const o: Record<string, unknown> = { ...common, type: axis.type === 'log' ? 'logarithmic' : 'linear' };
  if (axis.min !== undefined) o.min = axis.min;
  if (axis.max !== undefined) o.max = axis.max;
  if (axis.type === 'log') o.ticks = { ...common.ticks, callback: (v: number | string) => { const n = Number(v); const e = Math.log10(n); return Math.abs(e - Math.round(e)) < 1e-9 || [2, 5].includes(Math.round(n / 10 ** Math.floor(e))) ? String(n) : ''; } };
  return o as Partial<ScaleOptionsByType<'linear'>>;
}

export function drawChart(canvas: HTMLCanvasElement, model: ChartModel, theme: Theme): Drawn {
  if (model.heatmap) return drawHeatmap(canvas, model, theme);
  const category = model.x.type === 'category';
  const datasets = model.series.map((s) => {
    const colour = theme.colour(s.colour);
    const data = category ? s.points.map((p) => p.y) : s.points.map((p) => ({ x: p.x, y: p.y }));
    const many = s.points.length > 60;
    return {
      type: s.style === 'bar' ? ('bar' as const) : ('line' as const),
      label: s.label,
      data,
      borderColor: colour,
      backgroundColor: s.style === 'bar' ? theme.alpha(colour, 0.7) : s.fill ? theme.alpha(colour, 0.18) : colour,
      borderWidth: s.style === 'bar' ? 1 : 2,
      borderDash: s.dotted ? [2, 3] : s.dashed ? [6, 4] : [],
      showLine: s.style !== 'points' && s.style !== 'bar',
      stepped: s.style === 'step' ? ('before' as const) : false,
      fill: s.fill ? 'origin' : false,
      pointRadius: s.style === 'points' ? 4 : many ? 0 : 2.5,
      pointHoverRadius: 5,
      spanGaps: false,
      tension: 0,
    };
  });
  const labels = (i: number, di: number): string | undefined => model.series[di]?.pointLabels?.[i];
  const config: ChartConfiguration<'line'> = {
    type: 'line',
    data: { datasets: datasets as unknown as ChartConfiguration<'line'>['data']['datasets'], ...(category ? { labels: model.x.categories ?? [] } : {}) },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      parsing: category ? undefined : false,
      normalized: true,
      interaction: { mode: 'nearest', intersect: false },
      color: theme.foreground,
      font: { family: theme.font },
      scales: { x: scaleOptions(model.x, theme), y: scaleOptions(model.y, theme) } as never,
      plugins: {
        legend: { display: model.series.length > 1, labels: { color: theme.foreground, boxWidth: 14, font: { family: theme.font } } },
        tooltip: {
          callbacks: {
            label: (item) => {
              const extra = labels(item.dataIndex, item.datasetIndex);
              const y = item.parsed.y;
              const x = category ? model.x.categories?.[item.dataIndex] : formatNumber(item.parsed.x);
              return `${item.dataset.label}: ${formatNumber(y)} at ${model.x.label} ${x}${extra ? ` (${extra})` : ''}`;
            },
          },
        },
      },
    },
    plugins: [bandsPlugin(model, theme), linesPlugin(model, theme)],
  };
  const chart = new Chart(canvas, config);
  return { canvas, destroy: () => chart.destroy() };
}

/** Confusion heatmap on a plain canvas: counts shaded from the background to the theme's blue. */
function drawHeatmap(canvas: HTMLCanvasElement, model: ChartModel, theme: Theme): Drawn {
  const h = model.heatmap!;
  const render = (): void => {
    const box = canvas.parentElement!.getBoundingClientRect();
    const n = h.rows.length;
    const m = h.cols.length;
    const left = Math.min(120, 14 + 7 * Math.max(...h.rows.map((r) => r.length)));
    const bottom = Math.min(120, 20 + 6 * Math.max(...h.cols.map((c) => c.length)));
    const cell = Math.max(6, Math.min(36, Math.floor(Math.min((box.width - left - 10) / m, 560 / n))));
    const width = left + m * cell + 10;
    const height = 24 + n * cell + bottom;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = width * dpr;
    canvas.height = height * dpr;
    canvas.classList.add('heatmap-canvas');
    // The cell geometry, for finding the cell under a click (drill-down).
    canvas.dataset.grid = `${left},24,${cell},${n},${m}`;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    const g = canvas.getContext('2d')!;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, width, height);
    const max = Math.max(1, ...h.values.flat());
    g.font = `11px ${theme.font}`;
    g.fillStyle = theme.muted;
    g.fillText(`rows: ${h.rowTitle} · columns: ${h.colTitle}`, left, 14);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < m; j++) {
        const v = h.values[i]![j]!;
        const a = v === 0 ? 0.04 : 0.15 + 0.85 * (v / max);
        g.fillStyle = theme.alpha(i === j ? 'green' : 'blue', a);
        g.fillRect(left + j * cell, 24 + i * cell, cell - 1, cell - 1);
        if (cell >= 22 && v > 0) {
          g.fillStyle = a > 0.6 ? theme.background : theme.foreground;
          g.textAlign = 'center';
          g.fillText(String(v), left + j * cell + cell / 2, 24 + i * cell + cell / 2 + 4);
        }
      }
    }
    g.fillStyle = theme.foreground;
    g.textAlign = 'right';
    h.rows.forEach((r, i) => g.fillText(r, left - 6, 24 + i * cell + cell / 2 + 4));
    h.cols.forEach((c, j) => {
      g.save();
      g.translate(left + j * cell + cell / 2 + 3, 24 + n * cell + 6);
      g.rotate(-Math.PI / 3);
      g.fillText(c, 0, 0);
      g.restore();
    });
  };
  render();
  return { canvas, destroy: () => undefined };
}

/** A PNG of the canvas on the theme's background (a transparent PNG is unreadable in the other theme). */
export function canvasPng(canvas: HTMLCanvasElement, background: string): string {
  const out = document.createElement('canvas');
  out.width = canvas.width;
  out.height = canvas.height;
  const g = out.getContext('2d')!;
  g.fillStyle = background;
  g.fillRect(0, 0, out.width, out.height);
  g.drawImage(canvas, 0, 0);
  return out.toDataURL('image/png');
}
