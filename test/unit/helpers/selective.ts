// Test helpers for the selective family: random inputs, a LITERAL transcription of a selective-classification evaluation script's
// `calculate_selective_errors` / `generate_rc_curve` / `calculate_aurc` / `calculate_aurc_from_02`,
// and slow obvious references.
import { createRng, type Rng } from '../../../src/core/stats/rng';

export interface RandomRows {
  scores: number[];
  labels: number[];
  preds: number[];
  wrong: number[];
  /** group of the TRUE class per row */
  groups: number[];
}

/** Random rows with heavy ties (scores from `levels` values). classToGroup: class c → c % nGroups. */
export function randomRows(
  rng: Rng,
  n: number,
  opts: { levels?: number; classes?: number; nGroups?: number; pWrong?: number } = {},
): RandomRows {
  const levels = opts.levels ?? 4;
  const C = opts.classes ?? 5;
  const G = opts.nGroups ?? 2;
  const pWrong = opts.pWrong ?? 0.35;
  const out: RandomRows = { scores: [], labels: [], preds: [], wrong: [], groups: [] };
  for (let i = 0; i < n; i++) {
    const y = rng.int(C);
    const bad = rng.next() < pWrong;
    const p = bad ? (y + 1 + rng.int(C - 1)) % C : y;
    out.scores.push((1 + rng.int(levels)) / (levels + 1));
    out.labels.push(y);
    out.preds.push(p);
    out.wrong.push(bad ? 1 : 0);
    out.groups.push(y % G);
  }
  return out;
}

export { createRng };

// ---------------------------------------------------------------------------------------------
// The AR-GSE evaluation scripts' selective metrics, transcribed line by line (torch/numpy replaced by
// plain arrays): an independent reference for the fast code.
// ---------------------------------------------------------------------------------------------

export interface SeedMetrics {
  coverage: number;
  balanced_error: number;
  worst_error: number;
  group_errors: number[];
  overall_error: number;
}

/** `calculate_selective_errors(preds, labels, accepted_mask, class_to_group, num_groups)`. */
export function seedCalculateSelectiveErrors(
  preds: number[],
  labels: number[],
  acceptedMask: boolean[],
  classToGroup: number[],
  numGroups: number,
): SeedMetrics {
  const acceptedPreds: number[] = [];
  const acceptedLabels: number[] = [];
  for (let i = 0; i < labels.length; i++) {
    if (acceptedMask[i]) {
      acceptedPreds.push(preds[i]);
      acceptedLabels.push(labels[i]);
    }
  }
  const coverage = acceptedMask.filter(Boolean).length / acceptedMask.length;
  const groupErrors: number[] = [];
  for (let k = 0; k < numGroups; k++) {
    const groupMask = acceptedLabels.map((y) => classToGroup[y] === k);
    if (groupMask.filter(Boolean).length === 0) {
      groupErrors.push(1.0);
    } else {
      let c = 0;
      let m = 0;
      groupMask.forEach((g, j) => {
        if (g) {
          m++;
          if (acceptedPreds[j] === acceptedLabels[j]) c++;
        }
      });
      groupErrors.push(1.0 - c / m);
    }
  }
  let correct = 0;
  for (let j = 0; j < acceptedLabels.length; j++) if (acceptedPreds[j] === acceptedLabels[j]) correct++;
  const overallError = 1.0 - correct / acceptedLabels.length;
  return {
    coverage,
    balanced_error: groupErrors.reduce((a, b) => a + b, 0) / groupErrors.length,
    worst_error: Math.max(...groupErrors),
    group_errors: groupErrors,
    overall_error: overallError,
  };
}

/** `generate_rc_curve(margins, preds, labels, class_to_group, num_groups, num_points=101)` with a stable argsort. */
export function seedGenerateRcCurve(
  margins: number[],
  preds: number[],
  labels: number[],
  classToGroup: number[],
  numGroups: number,
  numPoints = 101,
): SeedMetrics[] {
  const totalSamples = labels.length;
  const sortedIndices = margins.map((_, i) => i).sort((a, b) => margins[b] - margins[a] || a - b);
  const rcData: SeedMetrics[] = [];
  for (let i = 1; i < numPoints + 1; i++) {
    const coverageTarget = i / numPoints;
    const numToAccept = Math.trunc(totalSamples * coverageTarget);
    const acceptedMask = labels.map(() => false);
    for (const j of sortedIndices.slice(0, numToAccept)) acceptedMask[j] = true;
    rcData.push(seedCalculateSelectiveErrors(preds, labels, acceptedMask, classToGroup, numGroups));
  }
  return rcData;
}

/** `np.trapz(y, x)`. */
export function npTrapz(y: number[], x: number[]): number {
  let s = 0;
  for (let i = 1; i < x.length; i++) s += ((x[i] - x[i - 1]) * (y[i] + y[i - 1])) / 2.0;
  return s;
}

type RiskKey = 'balanced_error' | 'worst_error' | 'overall_error';

/** `calculate_aurc(rc_dataframe, risk_key)`. */
export function seedCalculateAurc(rc: SeedMetrics[], riskKey: RiskKey = 'balanced_error'): number {
  return npTrapz(
    rc.map((r) => r[riskKey]),
    rc.map((r) => r.coverage),
  );
}

/** `calculate_aurc_from_02(rc_dataframe, risk_key)`. */
export function seedCalculateAurcFrom02(rc: SeedMetrics[], riskKey: RiskKey = 'balanced_error'): number {
  const filtered = rc.filter((r) => r.coverage >= 0.2);
  const aurcRaw = npTrapz(
    filtered.map((r) => r[riskKey]),
    filtered.map((r) => r.coverage),
  );
  const coverageRange = 1.0 - 0.2;
  return aurcRaw / coverageRange;
}

// ---------------------------------------------------------------------------------------------
// Brute force over orders inside tied blocks.
// ---------------------------------------------------------------------------------------------

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs.slice()];
  const out: T[][] = [];
  xs.forEach((x, i) => {
    for (const rest of permutations([...xs.slice(0, i), ...xs.slice(i + 1)])) out.push([x, ...rest]);
  });
  return out;
}

/** Every total order consistent with "score descending" (all orders inside each tied block). */
export function allTieOrders(scores: number[]): number[][] {
  const distinct = [...new Set(scores)].sort((a, b) => b - a);
  let orders: number[][] = [[]];
  for (const s of distinct) {
    const block = scores.map((v, i) => (v === s ? i : -1)).filter((i) => i >= 0);
    const perms = permutations(block);
    const next: number[][] = [];
    for (const o of orders) for (const p of perms) next.push([...o, ...p]);
    orders = next;
  }
  return orders;
}

/** (1/n) Σ_k risk(top-k) of one fixed order. */
export function aurcOfOrder(order: number[], wrong: number[]): number {
  let e = 0;
  let s = 0;
  order.forEach((i, k) => {
    e += wrong[i];
    s += e / (k + 1);
  });
  return s / order.length;
}

/** AURC averaged over every order inside tied blocks. */
export function bruteForceAurc(scores: number[], wrong: number[]): number {
  const orders = allTieOrders(scores);
  return orders.reduce((a, o) => a + aurcOfOrder(o, wrong), 0) / orders.length;
}

/** The documented aurc* formula, literally. */
export function aurcStarFormula(wrong: number[]): number {
  const n = wrong.length;
  const r = wrong.reduce((a, b) => a + b, 0);
  let s = 0;
  for (let k = 1; k <= n; k++) s += Math.max(0, k - (n - r)) / k;
  return s / n;
}

/**
 * Slow reference of the fractional-count rule for balanced / worst risk: for each k = 1..n,
 * recompute from scratch the fractional group counts of the top-k (whole blocks before, the
 * fraction j/m of every row of the block that k falls into).
 */
export function slowFractionalAurc(
  scores: number[],
  wrong: number[],
  groups: number[],
  G: number,
): { balanced: number; worst: number; standard: number } {
  const n = scores.length;
  const distinct = [...new Set(scores)].sort((a, b) => b - a);
  let bal = 0;
  let worst = 0;
  let std = 0;
  for (let k = 1; k <= n; k++) {
    const frac = new Array(n).fill(0);
    let taken = 0;
    for (const s of distinct) {
      const block = scores.map((v, i) => (v === s ? i : -1)).filter((i) => i >= 0);
      const m = block.length;
      if (taken + m <= k) {
        for (const i of block) frac[i] = 1;
        taken += m;
      } else {
        const j = k - taken;
        for (const i of block) frac[i] = j / m;
        break;
      }
    }
    const a = new Array(G).fill(0);
    const e = new Array(G).fill(0);
    let ta = 0;
    let te = 0;
    for (let i = 0; i < n; i++) {
      a[groups[i]] += frac[i];
      e[groups[i]] += frac[i] * wrong[i];
      ta += frac[i];
      te += frac[i] * wrong[i];
    }
    const errs = a.map((x, g) => (x > 0 ? e[g] / x : 1.0));
    bal += errs.reduce((p, q) => p + q, 0) / G;
    worst += Math.max(...errs);
    std += te / ta;
  }
  return { balanced: bal / n, worst: worst / n, standard: std / n };
}

/** Expands rows by multiplicities (copies adjacent, in row order). */
export function expand<T>(xs: T[], mult: number[]): T[] {
  const out: T[] = [];
  xs.forEach((x, i) => {
    for (let c = 0; c < mult[i]; c++) out.push(x);
  });
  return out;
}
