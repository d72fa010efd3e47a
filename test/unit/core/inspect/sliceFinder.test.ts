/**
 * The slice finder: a planted weak slice (one value of one column 15 points less accurate) comes
 * first in one-run and two-run mode; on 50 null datasets few report any slice (Benjamini–Hochberg
 * at 5%); one slice's statistics by hand; the per-slice tests and intervals against scipy and
 * statsmodels (scripts/golden/slice_finder.py → test/golden/slice_finder.json).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { TextColumn } from '../../../../src/core/data/textColumn';
import {
  agrestiMinInterval,
  findSlices,
  fisherExact,
  newcombeInterval,
  normalQuantile,
  wilsonInterval,
} from '../../../../src/core/inspect/sliceFinder';
import { bhAdjust, mcnemarExact } from '../../../../src/core/stats/tests';
import { createRng, type Rng } from '../../../../src/core/stats/rng';

function textColumn(name: string, cells: string[]): TextColumn {
  const index = new Map<string, number>();
  const values: string[] = [];
  const codes = Int32Array.from(cells, (c) => {
    let k = index.get(c);
    if (k === undefined) {
      k = values.length;
      index.set(c, k);
      values.push(c);
    }
    return k;
  });
  return { name, values, codes };
}

const REGIONS = ['north', 'south', 'east', 'west', 'central'];
const DEVICES = ['mobile', 'desktop', 'tablet'];
const SOURCES = ['web', 'app', 'partner', 'email'];
const PLANS = ['free', 'pro'];

interface Dataset {
  columns: TextColumn[];
  region: string[];
  correct: Uint8Array;
}

/** Four categorical columns and a numeric one; accuracy `base`, minus `drop` where region = west. */
function dataset(rng: Rng, n: number, base: number, drop: number): Dataset {
  const pick = (xs: string[]): string => xs[rng.int(xs.length)];
  const region = Array.from({ length: n }, () => pick(REGIONS));
  const device = Array.from({ length: n }, () => pick(DEVICES));
  const source = Array.from({ length: n }, () => pick(SOURCES));
  const plan = Array.from({ length: n }, () => pick(PLANS));
  const age = Array.from({ length: n }, () => String(18 + rng.int(60)));
  const correct = Uint8Array.from(region, (r) => (rng.next() < base - (r === 'west' ? drop : 0) ? 1 : 0));
  return {
    columns: [
      textColumn('region', region),
      textColumn('device', device),
      textColumn('source', source),
      textColumn('plan', plan),
      textColumn('age', age),
    ],
    region,
    correct,
  };
}

test('one run: the planted weak slice (region = west, 15 points lower) is the top slice', () => {
  const d = dataset(createRng(11), 3000, 0.82, 0.15);
  const r = findSlices({ columns: d.columns, correct: d.correct });
  assert.equal(r.mode, 'one-run');
  assert.equal(r.minSupport, 30);
  assert.deepEqual(r.columns, ['region', 'device', 'source', 'plan', 'age']);
  assert.ok(r.slices.length >= 1);
  const top = r.slices[0];
  assert.equal(top.slice, 'region = west');
  assert.deepEqual(top.where, [{ key: 'region', op: '=', value: 'west' }]);
  assert.equal(top.whereText, 'region = west');
  const rows = d.region.map((x, i) => (x === 'west' ? i : -1)).filter((i) => i >= 0);
  const right = rows.reduce((s, i) => s + d.correct[i], 0);
  const whole = d.correct.reduce((s, x) => s + x, 0) / d.correct.length;
  assert.equal(top.n, rows.length);
  assert.equal(top.accuracy, right / rows.length);
  assert.equal(top.delta, right / rows.length - whole);
  assert.ok(top.delta < -0.09 && top.delta > -0.16, `Δ = ${top.delta}`);
  assert.ok(top.q <= 1e-6, `q = ${top.q}`);
  assert.ok(top.deltaCi[0] < top.delta && top.delta < top.deltaCi[1] && top.deltaCi[1] < 0);
  // its refinements (region = west and …) are flagged too, but not listed: west is
  assert.ok(r.subsumed > 0);
  assert.ok(r.slices.every((s) => !s.slice.startsWith('region = west and')));
});

test('two runs: B 15 points worse than A only on region = west → that slice first', () => {
  const rng = createRng(12);
  const d = dataset(rng, 3000, 0.8, 0);
  // B: A's outcome on 90% of rows, a fresh draw at the same accuracy on the rest; on west, a
  // right row of A becomes wrong with probability 0.15/0.8 (15 points)
  const correctB = Uint8Array.from(d.correct, (a, i) => {
    let b = rng.next() < 0.9 ? a : rng.next() < 0.8 ? 1 : 0;
    if (d.region[i] === 'west' && b === 1 && rng.next() < 0.15 / 0.8) b = 0;
    return b;
  });
  const r = findSlices({ columns: d.columns, correct: d.correct, correctB });
  assert.equal(r.mode, 'two-runs');
  assert.equal(r.test, 'mcnemar-exact');
  const top = r.slices[0];
  assert.equal(top.slice, 'region = west');
  const rows = d.region.map((x, i) => (x === 'west' ? i : -1)).filter((i) => i >= 0);
  const lost = rows.filter((i) => d.correct[i] === 1 && correctB[i] === 0).length;
  const gained = rows.filter((i) => d.correct[i] === 0 && correctB[i] === 1).length;
  assert.equal(top.lost, lost);
  assert.equal(top.gained, gained);
  assert.equal(top.delta, (gained - lost) / rows.length);
  assert.equal(top.p, mcnemarExact(lost, gained).p);
  assert.ok(top.delta < -0.1, `Δ = ${top.delta}`);
  assert.ok(top.q <= 1e-6);
  // the other regions did not change: none of them is listed
  assert.ok(r.slices.every((s) => !/^region = (north|south|east|central)$/.test(s.slice)));
});

test('50 null datasets: few report any slice at q ≤ 0.05 (Benjamini–Hochberg over the slices tried)', () => {
  let oneRun = 0;
  let twoRuns = 0;
  let tried = 0;
  for (let s = 0; s < 50; s++) {
    const rng = createRng(1000 + s);
    const d = dataset(rng, 2000, 0.8, 0);
    const r1 = findSlices({ columns: d.columns, correct: d.correct });
    if (r1.flagged > 0) oneRun++;
    tried += r1.tried;
    const correctB = Uint8Array.from(d.correct, (a) => (rng.next() < 0.7 ? a : rng.next() < 0.8 ? 1 : 0));
    const r2 = findSlices({ columns: d.columns, correct: d.correct, correctB });
    if (r2.flagged > 0) twoRuns++;
  }
  console.log(
    `slice finder, 50 null datasets: ${oneRun} report a slice (one run), ${twoRuns} (two runs); ${(tried / 50).toFixed(0)} slices tried per dataset`,
  );
  assert.ok(tried / 50 > 100, 'single values, quartiles and pairs are tried');
  assert.ok(oneRun <= 5, `one run: ${oneRun} of 50`);
  assert.ok(twoRuns <= 5, `two runs: ${twoRuns} of 50`);
});

test('one slice by hand: g = a, 1 right of 10, against 11 of 14 in the rest', () => {
  // 24 rows: g = a (10 rows, 1 right), g = b (14 rows, 11 right). Whole accuracy 12/24 = 0.5.
  const g = [...Array(10).fill('a'), ...Array(14).fill('b')] as string[];
  const correct = Uint8Array.from(g, (x, i) => (x === 'a' ? (i === 0 ? 1 : 0) : i < 21 ? 1 : 0));
  const r = findSlices({ columns: [textColumn('g', g)], correct }, { minSupport: 5 });
  // Tried: g = a and g = b (no pairs with one column).
  assert.equal(r.tried, 2);
  assert.deepEqual(r.whole, { accuracy: 0.5 });
  assert.equal(r.slices.length, 1);
  const s = r.slices[0];
  assert.equal(s.slice, 'g = a');
  assert.equal(s.n, 10);
  assert.equal(s.accuracy, 0.1);
  assert.equal(s.delta, 0.1 - 0.5);
  // Fisher: margins 10 (slice) and 12 (right) of 24; P(x) = C(12, x)·C(12, 10 − x)/C(24, 10),
  // C(24, 10) = 1,961,256. P(1) ∝ 12·220 = 2640; no more likely: x = 0 (66), 1 (2640), 9 (2640),
  // 10 (66); x = 2 gives 66·495 = 32,670. p = 2·(66 + 2640)/1,961,256.
  const p = (2 * (66 + 2640)) / 1961256;
  assert.ok(Math.abs(s.p - p) <= 1e-15, `${s.p} vs ${p}`);
  // BH over two slices: g = b has the mirrored table, the same p, so q = p·2/2 = p.
  assert.ok(Math.abs(s.q - p) <= 1e-15);
  // Wilson 95%: z = 1.959963984540054, center (0.1 + z²/20)/(1 + z²/10), half z/(1 + z²/10)·√(0.009 + z²/400)
  const z = 1.959963984540054;
  const den = 1 + (z * z) / 10;
  const center = (0.1 + (z * z) / 20) / den;
  const half = (z / den) * Math.sqrt(0.009 + (z * z) / 400);
  assert.ok(Math.abs(s.ci![0] - (center - half)) < 1e-12 && Math.abs(s.ci![1] - (center + half)) < 1e-12);
  // Δ vs whole = (14/24)·(0.1 − 11/14); its interval is Newcombe's of slice − rest, scaled the same
  assert.ok(Math.abs(s.delta - (14 / 24) * (0.1 - 11 / 14)) < 1e-15);
  const [lo, hi] = newcombeInterval(1, 10, 11, 14, z);
  assert.ok(Math.abs(s.deltaCi[0] - (14 / 24) * lo) < 1e-15 && Math.abs(s.deltaCi[1] - (14 / 24) * hi) < 1e-15);
});

test('two runs by hand: lost 1, gained 5 of 20 rows → Δ = +0.2, McNemar p = 0.21875, Agresti–Min interval', () => {
  const z = normalQuantile(0.975);
  // Agresti–Min: b* = 1.5, c* = 5.5, n* = 22, Δ* = 4/22, se = √(7 − 16/22)/22
  const [lo, hi] = agrestiMinInterval(1, 5, 20, z);
  const se = Math.sqrt(7 - 16 / 22) / 22;
  assert.ok(Math.abs(lo - (4 / 22 - z * se)) < 1e-15 && Math.abs(hi - (4 / 22 + z * se)) < 1e-15);
  assert.ok(Math.abs(mcnemarExact(1, 5).p - 0.21875) < 1e-15); // 2·(1 + 6)/2⁶
});

interface Golden {
  fisher: { table: [number, number, number, number]; p: number }[];
  wilson: { k: number; n: number; confidence: number; ci: [number, number] }[];
  newcombe: { k1: number; n1: number; k2: number; n2: number; confidence: number; ci: [number, number] }[];
  mcnemar: { lost: number; gained: number; p: number }[];
  bh: { p: number[]; q: number[] };
}

test('golden: Fisher, Wilson, Newcombe, McNemar and BH equal scipy / statsmodels', () => {
  const g = JSON.parse(readFileSync('test/golden/slice_finder.json', 'utf8')) as Golden;
  assert.ok(g.fisher.length >= 15);
  for (const { table, p } of g.fisher) {
    const got = fisherExact(...table);
    const tol = Math.max(1e-300, 1e-12 * p);
    assert.ok(Math.abs(got - p) <= tol, `fisher ${table}: ${got} vs ${p}`);
  }
  for (const { k, n, confidence, ci } of g.wilson) {
    const got = wilsonInterval(k, n, normalQuantile(1 - (1 - confidence) / 2));
    assert.ok(
      Math.abs(got[0] - ci[0]) < 1e-12 && Math.abs(got[1] - ci[1]) < 1e-12,
      `wilson ${k}/${n}: ${got} vs ${ci}`,
    );
  }
  for (const { k1, n1, k2, n2, confidence, ci } of g.newcombe) {
    const got = newcombeInterval(k1, n1, k2, n2, normalQuantile(1 - (1 - confidence) / 2));
    assert.ok(Math.abs(got[0] - ci[0]) < 1e-12 && Math.abs(got[1] - ci[1]) < 1e-12, `newcombe: ${got} vs ${ci}`);
  }
  for (const { lost, gained, p } of g.mcnemar)
    assert.ok(Math.abs(mcnemarExact(lost, gained).p - p) <= 1e-12 * Math.max(p, 1e-300), `mcnemar ${lost}, ${gained}`);
  const q = bhAdjust(g.bh.p);
  g.bh.q.forEach((x, i) => assert.ok(Math.abs(q[i]! - x) < 1e-15, `bh ${i}`));
});
