/**
 * The report as one self-contained HTML file ("Export Report → HTML", `eval-lens report`): inline
 * CSS, charts as inline SVG at a fixed size (640 px wide, as drawn: legible, never scaled down with
 * the page; a narrow window scrolls the chart) with their data tables, no script and no external
 * resource, readable in light and dark (`prefers-color-scheme`, or a fixed theme) and printable.
 * Every text from the data is escaped, in attributes too; class names come from fixed lists.
 */
import { chartToSvg, escapeXml as esc } from './svgChart';
import { DASH_PATTERNS, type CardModel, type ReportModel, type TableModel } from './model';
import { formatCell } from './tableText';
import type { HtmlTheme } from './htmlTheme';

export { HTML_THEMES, type HtmlTheme } from './htmlTheme';

/** Light and dark palettes: every series colour keeps a contrast of at least 3:1 with the background. */
const LIGHT =
  '--fg:#1f2328;--muted:#59636e;--bg:#fff;--panel:#f6f8fa;--border:#d1d9e0;--blue:#0969da;--red:#cf222e;--green:#1a7f37;--yellow:#9a6700;--orange:#bc4c00;--purple:#8250df;--foreground:#1f2328';
const DARK =
  '--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--panel:#151b23;--border:#3d444d;--blue:#4493f8;--red:#f85149;--green:#3fb950;--yellow:#d29922;--orange:#db6d28;--purple:#ab7df8;--foreground:#e6edf3';

function themeCss(theme: HtmlTheme): string {
  if (theme === 'light') return `:root{color-scheme:light;${LIGHT}}`;
  if (theme === 'dark') return `:root{color-scheme:dark;${DARK}}`;
  return `:root{color-scheme:light dark;${LIGHT}}\n@media (prefers-color-scheme:dark){:root{${DARK}}}`;
}

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg);margin:24px auto;max-width:1100px;padding:0 16px}
h1{font-size:22px;margin:0 0 8px}h2{font-size:18px;margin:32px 0 8px;border-bottom:1px solid var(--border);padding-bottom:4px}h3{font-size:15px;margin:20px 0 6px}
dl.header{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0 0 12px}dl.header dt{color:var(--muted)}dl.header dd{margin:0;word-break:break-all}
.warnings{border-left:3px solid var(--yellow);padding:4px 12px;background:var(--panel)}
.cards{display:flex;flex-wrap:wrap;gap:8px}.card{border:1px solid var(--border);background:var(--panel);border-radius:6px;padding:8px 12px;min-width:150px}
.card .k{color:var(--fg);font-weight:600;font-size:12px}.card .key{color:var(--muted);font-size:11px;font-family:monospace;word-break:break-all}.card .v{font-size:20px;font-variant-numeric:tabular-nums}.card .ci,.card .x{color:var(--muted);font-size:12px}.card .cav{color:var(--yellow);font-size:11px;max-width:220px}
table{border-collapse:collapse;margin:6px 0 12px;font-variant-numeric:tabular-nums}th,td{border:1px solid var(--border);padding:2px 8px}th{background:var(--panel);text-align:left}td.n{text-align:right}
td.p1{font-weight:700}td.p2{text-decoration:underline}td.p3{font-style:italic}
figure{margin:12px 0;overflow-x:auto}figure svg{display:block;flex:none;max-width:none;font-size:11px}figcaption{font-weight:600}.note{color:var(--muted);font-size:12px}
details summary{cursor:pointer;color:var(--muted)}
svg text{fill:var(--fg)}svg .tick{fill:var(--muted)}svg .grid{stroke:var(--border);stroke-width:.5}svg .axis{stroke:var(--muted)}
svg .line{fill:none;stroke-width:1.8}svg .legend-line{stroke-width:1.8}svg .dashed{stroke-dasharray:5 4}svg .dotted{stroke-dasharray:2 3}${DASH_PATTERNS.map((d, i) => `svg .dash-${i}{stroke-dasharray:${d.join(' ')}}`).join('')}svg .ref{stroke-dasharray:3 3;stroke-width:1}svg .band{opacity:.1}svg .area{opacity:.18;stroke:none}svg .band-label{fill:var(--muted);font-size:10px}
svg .cell{fill:var(--blue)}svg .cell-label{font-size:10px}svg .cell-label.on-dark{fill:#fff}
${['blue', 'red', 'green', 'yellow', 'orange', 'purple', 'foreground'].map((c) => `svg .c-${c}{stroke:var(--${c});fill:var(--${c})}svg .line.c-${c},svg .ref.c-${c}{fill:none}svg .c-${c}-text,svg .ref-label.c-${c}{fill:var(--${c});stroke:none}`).join('')}
@media print{body{margin:0}}`;

function cardHtml(c: CardModel): string {
  return `<div class="card" data-metric="${esc(c.key)}" title="${esc([`${c.name ?? c.key} (${c.key})`, c.explain].filter((x) => !!x).join('\n'))}"><div class="k">${esc(c.name ?? c.key)}${c.direction === 'higher' ? ' ↑' : c.direction === 'lower' ? ' ↓' : ''}</div>${c.name && c.name !== c.key ? `<div class="key">${esc(c.key)}</div>` : ''}<div class="v">${esc(c.text)}</div>${c.ci ? `<div class="ci">${esc(c.ci)}</div>` : ''}${(c.extra ?? []).map((x) => `<div class="x">${esc(x)}</div>`).join('')}${c.caveat ? `<div class="cav">${esc(c.caveat)}</div>` : ''}</div>`;
}

/**
 * The class of a best / second / third cell. An allow-list, not string building: a mark comes from
 * a comparison file that someone else wrote, and anything but 1, 2, 3 must not reach an attribute.
 */
function placeClass(place: unknown): string {
  return place === 1 ? 'p1' : place === 2 ? 'p2' : place === 3 ? 'p3' : '';
}

export function tableHtml(t: TableModel): string {
  const head = `<tr>${t.columns.map((c) => `<th scope="col">${esc(c)}</th>`).join('')}</tr>`;
  const body = t.rows
    .map(
      (r, i) =>
        `<tr>${r
          .map((v, j) => {
            const kind = t.kinds[j] ?? 'text';
            const classes = [kind !== 'text' ? 'n' : '', placeClass(t.marks?.[i]?.[j])].filter(Boolean).join(' ');
            const why = t.cellTitles?.[i]?.[j];
            return `<td${classes ? ` class="${classes}"` : ''}${why ? ` title="${esc(why)}"` : ''}>${esc(formatCell(v, kind))}${esc(t.suffixes?.[i]?.[j] ?? '')}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('\n');
  return `<table><caption class="note">${esc(t.title)}</caption><thead>${head}</thead><tbody>${body}</tbody></table>${t.note ? `<p class="note">${esc(t.note)}</p>` : ''}`;
}

/** The whole report; `generator` goes in a meta tag. */
export function reportToHtml(model: ReportModel, opts: { generator?: string; theme?: HtmlTheme } = {}): string {
  const out: string[] = [];
  out.push(
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
  );
  if (opts.generator) out.push(`<meta name="generator" content="${esc(opts.generator)}">`);
  out.push(
    `<title>${esc(model.title)} — Eval Lens report</title>`,
    `<style>${themeCss(opts.theme ?? 'auto')}${CSS}</style>`,
    '</head>',
    '<body>',
  );
  out.push(`<h1>${esc(model.header.title)}</h1>`);
  out.push(
    `<dl class="header">${model.header.lines.map((l) => `<dt>${esc(l.label)}</dt><dd>${esc(l.value)}</dd>`).join('')}</dl>`,
  );
  if (model.header.warnings.length > 0)
    out.push(
      `<div class="warnings"><strong>Warnings (${model.header.warnings.length})</strong><ul>${model.header.warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul></div>`,
    );
  const notes = model.header.notes ?? [];
  if (notes.length > 0)
    out.push(
      `<div class="note"><strong>Notes (${notes.length})</strong><ul>${notes.map((w) => `<li>${esc(w)}</li>`).join('')}</ul></div>`,
    );
  if (model.headline.length > 0) out.push(`<div class="cards headline">${model.headline.map(cardHtml).join('')}</div>`);
  for (const tab of model.tabs) {
    out.push(`<section id="${esc(tab.id)}"><h2>${esc(tab.title)}</h2>`);
    if (tab.cards.length > 0) out.push(`<div class="cards">${tab.cards.map(cardHtml).join('')}</div>`);
    for (const t of tab.leadTables ?? []) out.push(`<h3>${esc(t.title)}</h3>`, tableHtml(t));
    for (const c of tab.charts) {
      out.push(
        `<figure id="${esc(c.id)}"><figcaption>${esc(c.title)}</figcaption>${chartToSvg(c)}${c.note ? `<p class="note">${esc(c.note)}</p>` : ''}<details><summary>Data</summary>${tableHtml(c.table)}</details></figure>`,
      );
    }
    for (const t of tab.tables) out.push(`<h3>${esc(t.title)}</h3>`, tableHtml(t));
    for (const n of tab.notes) out.push(`<p class="note">${esc(n)}</p>`);
    out.push('</section>');
  }
  out.push('</body>', '</html>');
  return out.join('\n') + '\n';
}
