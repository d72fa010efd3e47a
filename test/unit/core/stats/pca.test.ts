import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  addOuterProductUpper,
  JACOBI_MAX_DIM,
  jacobiEigen,
  pca2,
  project,
  scaleUpperAndMirror,
  type Pca2,
} from '../../../../src/core/stats/pca';
import { createRng } from '../../../../src/core/stats/rng';

const fromRows =
  (rows: number[][]) =>
  (i: number, out: Float64Array): void =>
    out.set(rows[i]);

function fit(rows: number[][], method?: 'jacobi' | 'krylov'): Pca2 {
  const r = pca2(rows.length, rows[0].length, fromRows(rows), method ? { method } : {});
  assert.ok(r.ok, r.ok ? '' : r.reason);
  return r.pca;
}

const close = (a: number, b: number, tol: number, what: string): void =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b} (tolerance ${tol})`);

test('hand example: a cross of four points on the axes', () => {
  // x: −1, 1, 0, 0 → var = (1 + 1)/(4 − 1) = 2/3; y: 0, 0, −2, 2 → var = (4 + 4)/3 = 8/3; cov = 0.
  // λ₁ = 8/3 along (0, 1), λ₂ = 2/3 along (1, 0); ratios (8/3)/(10/3) = 0.8 and 0.2.
  const p = fit([
    [-1, 0],
    [1, 0],
    [0, -2],
    [0, 2],
  ]);
  close(p.explainedVariance[0], 8 / 3, 1e-15, 'λ₁');
  close(p.explainedVariance[1], 2 / 3, 1e-15, 'λ₂');
  close(p.explainedVarianceRatio[0], 0.8, 1e-15, 'ratio₁');
  close(p.explainedVarianceRatio[1], 0.2, 1e-15, 'ratio₂');
  assert.deepEqual(Array.from(p.components), [0, 1, 1, 0]);
  // Coordinates: (y, x) of each point.
  assert.deepEqual(project(p, [-1, 0]), [0, -1]);
  assert.deepEqual(project(p, [0, 2]), [2, 0]);
});

test('hand example: three points on the diagonal (rank one)', () => {
  // Along u = (1, 1)/√2 the points sit at 0, 2√2, 4√2; centred −2√2, 0, 2√2; λ₁ = (8 + 8)/(3 − 1) = 8.
  // The entries of u tie in |value|: the first is made positive (both are).
  const p = fit([
    [0, 0],
    [2, 2],
    [4, 4],
  ]);
  close(p.explainedVariance[0], 8, 1e-14, 'λ₁');
  close(p.explainedVariance[1], 0, 1e-14, 'λ₂');
  close(p.explainedVarianceRatio[0], 1, 1e-15, 'ratio₁');
  close(p.components[0], Math.SQRT1_2, 1e-15, 'v₁[0]');
  close(p.components[1], Math.SQRT1_2, 1e-15, 'v₁[1]');
  const [x0, y0] = project(p, [0, 0]);
  close(x0, -2 * Math.SQRT2, 1e-14, 'x of (0, 0)');
  close(y0, 0, 1e-14, 'y of (0, 0)');
});

test('sign rule: each component has its largest-|loading| entry positive', () => {
  // Mirroring the data flips no sign of the output components.
  const rows = [
    [3, -1, 0.5],
    [-2, 0.5, 0.1],
    [1, 2, -0.3],
    [-4, -1.5, 0.2],
    [2, 0, -0.4],
  ];
  const a = fit(rows);
  const b = fit(rows.map((r) => r.map((v) => -v)));
  assert.deepEqual(
    Array.from(a.components).map((v) => v.toFixed(12)),
    Array.from(b.components).map((v) => v.toFixed(12)),
  );
  for (let c = 0; c < 2; c++) {
    const v = Array.from(a.components.subarray(c * 3, c * 3 + 3));
    const big = v.reduce((best, x, j) => (Math.abs(x) > Math.abs(v[best]) ? j : best), 0);
    assert.ok(v[big] > 0, `component ${c + 1}: ${v}`);
  }
});

interface GoldenCase {
  X: number[][];
  mean: number[];
  components: number[][];
  explained_variance: number[];
  explained_variance_ratio: number[];
  coords: number[][];
}

test('golden: scikit-learn PCA(n_components=2), signs included, to 1e-9 (each case by both methods)', () => {
  const golden = JSON.parse(readFileSync('test/golden/pca.json', 'utf8')) as { cases: Record<string, GoldenCase> };
  assert.ok(Object.keys(golden.cases).length >= 5);
  assert.ok(
    Object.values(golden.cases).some((g) => g.X[0].length > JACOBI_MAX_DIM),
    'a case above the Jacobi limit',
  );
  const runs = Object.entries(golden.cases).flatMap(([name, g]) =>
    (['jacobi', 'krylov'] as const).map((method) => ({ name: `${name}, ${method}`, g, method })),
  );
  for (const { name, g, method } of runs) {
    const p = fit(g.X, method);
    assert.equal(p.method, method);
    const d = g.X[0].length;
    g.mean.forEach((m, j) => close(p.mean[j], m, 1e-9, `${name} mean[${j}]`));
    for (let c = 0; c < 2; c++) {
      close(
        p.explainedVariance[c],
        g.explained_variance[c],
        1e-9 * Math.max(1, g.explained_variance[0]),
        `${name} λ${c + 1}`,
      );
      close(p.explainedVarianceRatio[c], g.explained_variance_ratio[c], 1e-9, `${name} ratio${c + 1}`);
      for (let j = 0; j < d; j++) close(p.components[c * d + j], g.components[c][j], 1e-9, `${name} v${c + 1}[${j}]`);
    }
    g.X.forEach((row, i) => {
      const [x, y] = project(p, row);
      close(x, g.coords[i][0], 1e-9, `${name} x[${i}]`);
      close(y, g.coords[i][1], 1e-9, `${name} y[${i}]`);
    });
  }
});

test('random symmetric matrices: Jacobi eigenpairs satisfy A v = λ v, orthonormal, Σλ = trace', () => {
  const r = createRng(7).next;
  for (const d of [1, 2, 3, 8, 17, 40]) {
    const a = new Float64Array(d * d);
    for (let i = 0; i < d; i++) for (let j = i; j < d; j++) a[i * d + j] = a[j * d + i] = r() * 2 - 1;
    const copy = Float64Array.from(a);
    const { values, vectors } = jacobiEigen(a, d);
    let trace = 0;
    let sum = 0;
    for (let i = 0; i < d; i++) {
      trace += copy[i * d + i];
      sum += values[i];
    }
    close(sum, trace, 1e-12, `d=${d} Σλ`);
    for (let k = 0; k < d; k++) {
      for (let i = 0; i < d; i++) {
        let av = 0;
        for (let j = 0; j < d; j++) av += copy[i * d + j] * vectors[j * d + k];
        close(av, values[k] * vectors[i * d + k], 1e-12, `d=${d} (Av − λv)[${i}] of pair ${k}`);
      }
      for (let m = 0; m < d; m++) {
        let dot = 0;
        for (let i = 0; i < d; i++) dot += vectors[i * d + k] * vectors[i * d + m];
        close(dot, k === m ? 1 : 0, 1e-12, `d=${d} v${k}·v${m}`);
      }
    }
  }
});

test('random data: the first component maximises the variance of a projection (a slow check)', () => {
  const r = createRng(11).next;
  const n = 200;
  const d = 6;
  const rows = Array.from({ length: n }, () => Array.from({ length: d }, (_, j) => (r() - 0.5) * (j + 1)));
  const p = fit(rows);
  // The variance of the projections on v₁ is λ₁; no random unit direction does better.
  const variance = (u: number[]): number => {
    const proj = rows.map((x) => x.reduce((s, v, j) => s + (v - p.mean[j]) * u[j], 0));
    return proj.reduce((s, v) => s + v * v, 0) / (n - 1);
  };
  close(variance(Array.from(p.components.subarray(0, d))), p.explainedVariance[0], 1e-10, 'variance on v₁');
  for (let t = 0; t < 200; t++) {
    const u = Array.from({ length: d }, () => r() - 0.5);
    const norm = Math.hypot(...u);
    assert.ok(variance(u.map((v) => v / norm)) <= p.explainedVariance[0] + 1e-12);
  }
});

test('Σ x xᵀ / s by upper triangle then mirror equals the full outer-product sum (slow reference, random rows)', () => {
  let seed = 7;
  const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  for (const d of [1, 2, 5]) {
    const rows = Array.from({ length: 6 }, () => Float64Array.from({ length: d }, rand));
    const a = new Float64Array(d * d);
    for (const x of rows) addOuterProductUpper(a, x, d);
    scaleUpperAndMirror(a, d, 5);
    for (let j = 0; j < d; j++)
      for (let k = 0; k < d; k++) {
        let sum = 0;
        for (const x of rows) sum += x[j] * x[k];
        assert.ok(Math.abs(a[j * d + k] - sum / 5) <= 1e-15, `d=${d} (${j}, ${k})`);
        assert.equal(a[j * d + k], a[k * d + j]);
      }
  }
  // By hand, d = 2: rows (1, 2) and (3, −1): Σ x xᵀ = [[1 + 9, 2 − 3], [2 − 3, 4 + 1]] = [[10, −1], [−1, 5]].
  const m = new Float64Array(4);
  addOuterProductUpper(m, Float64Array.of(1, 2), 2);
  addOuterProductUpper(m, Float64Array.of(3, -1), 2);
  scaleUpperAndMirror(m, 2, 1);
  assert.deepEqual(Array.from(m), [10, -1, -1, 5]);
});

/** ‖P_a − P_b‖_max for the projectors onto the planes of two maps' components (axes within the plane aside). */
function planeDistance(a: Pca2, b: Pca2): number {
  const d = a.dim;
  let worst = 0;
  for (let i = 0; i < d; i++)
    for (let j = 0; j < d; j++) {
      let pa = 0;
      let pb = 0;
      for (let c = 0; c < 2; c++) {
        pa += a.components[c * d + i] * a.components[c * d + j];
        pb += b.components[c * d + i] * b.components[c * d + j];
      }
      worst = Math.max(worst, Math.abs(pa - pb));
    }
  return worst;
}

test('the Krylov method against the whole covariance (Jacobi, the slow reference) on random data', () => {
  // Spectra from well separated to flat (all columns of one scale: the leading eigenvalues then
  // differ only by sampling noise, the slowest case); d above 64 makes the basis restart.
  const rng = createRng(20261125);
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  const spectra: [string, (j: number) => number][] = [
    ['decaying', (j) => 1 / Math.sqrt(1 + j)],
    ['two above the rest', (j) => (j === 3 ? 2 : j === 7 ? 1.6 : 0.5)],
    ['flat', () => 1],
  ];
  let passes = 0;
  for (const [n, d] of [
    [40, 3],
    [60, 20],
    [300, 90],
    [120, 150],
    [600, 160],
  ])
    for (const [label, scale] of spectra) {
      const rows = Array.from({ length: n }, () => Array.from({ length: d }, (_, j) => gauss() * scale(j) + j / d));
      const ref = fit(rows, 'jacobi');
      const kry = fit(rows, 'krylov');
      const what = `${n} × ${d}, ${label}`;
      const l1 = ref.explainedVariance[0];
      for (let c = 0; c < 2; c++) {
        close(kry.explainedVariance[c], ref.explainedVariance[c], 1e-10 * l1, `${what}: λ${c + 1}`);
        close(kry.explainedVarianceRatio[c], ref.explainedVarianceRatio[c], 1e-10, `${what}: ratio${c + 1}`);
      }
      close(kry.totalVariance, ref.totalVariance, 1e-12 * ref.totalVariance, `${what}: trace`);
      assert.ok(planeDistance(kry, ref) <= 1e-7, `${what}: the same plane (${planeDistance(kry, ref)})`);
      passes = Math.max(passes, kry.sweeps);
      // Axes are determined when the leading eigenvalues stand apart: then each component matches, sign included.
      const [e1, e2] = ref.explainedVariance;
      if (e1 - e2 > 1e-3 * e1)
        for (let j = 0; j < 2 * d; j++)
          close(kry.components[j], ref.components[j], 1e-6, `${what}: component entry ${j}`);
    }
  // A basis of 64 vectors holds 32 passes: one case at least went on from a restarted basis.
  assert.ok(passes > 32, `the most passes: ${passes}`);
});

test('equal leading eigenvalues: the Krylov method finds their plane (two vectors per pass)', () => {
  // Rows ±3·e₁, ±3·e₂ and ±1·e₃, ±1·e₄ in 300 dimensions (mean 0): λ₁ = λ₂ = 2·9/(8 − 1) exactly, the
  // plane span(e₁, e₂). A method that grows one vector at a time would see only one direction of it.
  const d = 300;
  const rows: number[][] = [];
  for (const [axis, size] of [
    [0, 3],
    [1, 3],
    [2, 1],
    [3, 1],
  ])
    for (const sign of [1, -1]) {
      const x = new Array<number>(d).fill(0);
      x[axis] = sign * size;
      rows.push(x);
    }
  const p = fit(rows);
  assert.equal(p.method, 'krylov');
  close(p.explainedVariance[0], 18 / 7, 1e-12, 'λ₁');
  close(p.explainedVariance[1], 18 / 7, 1e-12, 'λ₂');
  close(p.explainedVarianceRatio[0] + p.explainedVarianceRatio[1], 36 / 40, 1e-12, 'ratio₁ + ratio₂ = 36/(36 + 4)');
  // v₁ and v₂ lie in span(e₁, e₂): their first two entries hold all of their length.
  for (let c = 0; c < 2; c++)
    close(p.components[c * d] ** 2 + p.components[c * d + 1] ** 2, 1, 1e-12, `‖v${c + 1}‖ in the plane`);
});

test('the method by dimension: the whole covariance up to 256 dimensions, the Krylov method above', () => {
  const rng = createRng(3);
  for (const d of [JACOBI_MAX_DIM, JACOBI_MAX_DIM + 1]) {
    const rows = Array.from({ length: 5 }, () => Array.from({ length: d }, () => rng.next()));
    assert.equal(fit(rows).method, d > JACOBI_MAX_DIM ? 'krylov' : 'jacobi', `d = ${d}`);
  }
});
