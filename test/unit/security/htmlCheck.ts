// Parses HTML with parse5 (the WHATWG parser browsers follow) and lists what the project does not write.
import { parse, type DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];

export const EVIL = `"><script>alert(1)</script><img src=x onerror="alert(2)">'&<svg onload=alert(3)>`;

const ELEMENTS = new Set([
  'html',
  'head',
  'body',
  'meta',
  'title',
  'style',
  'h1',
  'h2',
  'h3',
  'dl',
  'dt',
  'dd',
  'div',
  'strong',
  'ul',
  'li',
  'section',
  'figure',
  'figcaption',
  'p',
  'details',
  'summary',
  'table',
  'caption',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'svg',
  'g',
  'text',
  'tspan',
  'rect',
  'line',
  'path',
  'circle',
]);
const ATTRIBUTES = new Set([
  'lang',
  'charset',
  'name',
  'content',
  'class',
  'data-metric',
  'id',
  'scope',
  'xmlns',
  'viewBox',
  'role',
  'aria-label',
  'title',
  'transform',
  'x',
  'y',
  'x1',
  'x2',
  'y1',
  'y2',
  'width',
  'height',
  'text-anchor',
  'd',
  'cx',
  'cy',
  'r',
  'dx',
  'fill-opacity',
]);
const COLOURS = ['blue', 'red', 'green', 'yellow', 'orange', 'purple', 'foreground'];
const CLASSES = new Set([
  'p1',
  'p2',
  'p3',
  'n',
  'card',
  'k',
  'key',
  'v',
  'ci',
  'x',
  'cav',
  'cards',
  'headline',
  'warnings',
  'header',
  'note',
  'line',
  'dashed',
  'dotted',
  'ref',
  'band',
  'area',
  'band-label',
  'cell',
  'cell-label',
  'on-dark',
  'tick',
  'grid',
  'axis',
  'axis-label',
  'legend',
  'dot',
  'bar',
  'ref-label',
  'legend-line',
  // One class per dash pattern of the charts (baselines of metric × K).
  ...[0, 1, 2, 3, 4].map((i) => `dash-${i}`),
  ...COLOURS.flatMap((c) => [`c-${c}`, `c-${c}-text`]),
]);

/** Every element, attribute and class token of the parsed page that the project does not write. */
export function foreign(html: string): string[] {
  const out: string[] = [];
  const walk = (n: Node): void => {
    if ('tagName' in n) {
      if (!ELEMENTS.has(n.tagName)) out.push(`element <${n.tagName}>`);
      for (const a of n.attrs) {
        if (!ATTRIBUTES.has(a.name)) out.push(`attribute ${a.name} on <${n.tagName}>`);
        if (a.name === 'class')
          for (const c of a.value.split(/\s+/).filter(Boolean))
            if (!CLASSES.has(c)) out.push(`class ${JSON.stringify(c)}`);
      }
      if (n.tagName === 'style' && n.childNodes.some((c) => 'value' in c && c.value.includes('alert')))
        out.push('hostile text inside <style>');
    }
    if ('childNodes' in n) for (const c of n.childNodes) walk(c);
    if ('content' in n && n.content) walk(n.content as Node);
  };
  walk(parse(html));
  return out;
}

export function textOf(html: string): string {
  let s = '';
  const walk = (n: Node): void => {
    if (n.nodeName === '#text' && 'value' in n) s += n.value;
    if ('childNodes' in n) for (const c of n.childNodes) walk(c);
  };
  walk(parse(html));
  return s;
}
