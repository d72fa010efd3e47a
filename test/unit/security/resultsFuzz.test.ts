// Seeded fuzz of results and comparison files: a few hundred mutations of valid files (a value
// replaced by hostile text, an extreme number, null, a nested array; a key removed or added). Each
// is refused by the schema check with a message naming the file, or accepted — and then its
// exported HTML (extension and CLI report) holds only elements, attributes and classes the project
// writes, and rendering never throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EvalLensError } from '../../../src/core/diagnostics';
import { parseEvalLensJson } from '../../../src/core/compare/evalLensFile';
import { reportToHtml } from '../../../src/shared/exportHtml';
import { buildReportModel } from '../../../src/shared/report';
import { buildCompareModel } from '../../../src/shared/compareModel';
import { exportReport, reportInputFromJson } from '../../../src/shared/exportReport';
import { classificationResults, compareResults, rankingResults } from '../helpers/reportFixtures';
import { EVIL, foreign } from './htmlCheck';
import { createRng } from '../../../src/core/stats/rng';

const SEED = 7;
const CASES = 300;

/** The project's seeded generator, as a function: a failing case replays from its number. */
function rng(seed: number): () => number {
  const g = createRng(seed);
  return () => g.next();
}

const VALUES: unknown[] = [
  EVIL,
  `1" onmouseover="x`,
  'p1 x',
  '',
  '__proto__',
  -1,
  0,
  1,
  4,
  1e308,
  -1e308,
  0.5,
  null,
  true,
  [],
  [EVIL],
  {},
  { [EVIL]: 1 },
  '\u001b[2J',
  'x'.repeat(3000),
];

/** Every path to a value in `o`. */
function paths(o: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(o)) o.forEach((v, i) => paths(v, [...at, i], out));
  else if (o !== null && typeof o === 'object') for (const [k, v] of Object.entries(o)) paths(v, [...at, k], out);
  return out;
}

function mutate(r: () => number, obj: Record<string, unknown>): string {
  const ps = paths(obj).filter((p) => p.length > 0);
  const p = ps[Math.floor(r() * ps.length)]!;
  let parent = obj as Record<string | number, unknown>;
  for (const k of p.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = p[p.length - 1]!;
  const kind = r();
  if (kind < 0.15 && !Array.isArray(parent)) {
    delete parent[last];
    return `delete ${p.join('.')}`;
  }
  if (kind < 0.3 && !Array.isArray(parent)) {
    const key = r() < 0.5 ? EVIL : '__proto__';
    Object.defineProperty(parent, key, {
      value: VALUES[Math.floor(r() * VALUES.length)],
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return `add key ${JSON.stringify(key).slice(0, 20)} at ${p.slice(0, -1).join('.')}`;
  }
  const v = VALUES[Math.floor(r() * VALUES.length)];
  parent[last] = v;
  return `${p.join('.')} = ${JSON.stringify(v)?.slice(0, 30)}`;
}

test(
  `${CASES} mutated results and comparison files: refused naming the file and a field, or rendered with nothing foreign`,
  { timeout: 120_000 },
  () => {
    const r = rng(SEED);
    const makers = [classificationResults, rankingResults, compareResults] as (() => object)[];
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < CASES; i++) {
      const obj = JSON.parse(JSON.stringify(makers[i % makers.length]!())) as Record<string, unknown>;
      const what = mutate(r, obj);
      const text = JSON.stringify(obj);
      const label = `case ${i} (${what})`;
      let parsed;
      try {
        parsed = parseEvalLensJson('f.json', text);
      } catch (e) {
        if (!(e instanceof EvalLensError)) assert.fail(`${label}: internal error ${(e as Error).stack}`);
        assert.match(e.message, /^f\.json: /, label);
        refused++;
        continue;
      }
      accepted++;
      const model =
        parsed.kind === 'results'
          ? buildReportModel(parsed.results)
          : parsed.kind === 'compare'
            ? buildCompareModel(parsed.compare)
            : undefined;
      if (model) assert.deepEqual(foreign(reportToHtml(model)), [], `${label}: extension export`);
      const cli = exportReport(reportInputFromJson(JSON.parse(text), 'f.json'), 'html');
      assert.deepEqual(foreign(cli), [], `${label}: CLI report`);
    }
    assert.ok(accepted > 20 && refused > 20, `both outcomes occur (accepted ${accepted}, refused ${refused})`);
  },
);
