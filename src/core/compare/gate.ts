/**
 * A gate for CI: rules on Δ = run − baseline that a comparison must not break. A rule is
 * `METRIC OP TOLERANCE` with OP one of `<`, `<=`, `>`, `>=`: `accuracy<-0.01` fails when some
 * run's accuracy is more than 0.01 below the baseline's, `aurc>+0.005` when some run's AURC is more
 * than 0.005 above it. A tolerance ending in `%` is relative to the baseline's value
 * (`accuracy<-2%`: Δ/|baseline| < −0.02). The rule is checked on the point Δ of every run
 * against the baseline; the interval is printed beside it so that a reader sees whether the
 * change is within the noise. Rules come from `--fail-if` (comma-separated) or the config's
 * `compare.gate`.
 */
import { fail } from '../diagnostics';
import { formatDelta } from './render';
import { deltaOf } from './longForm';
import type { CompareResults } from './types';

export interface GateRule {
  text: string;
  metric: string;
  op: '<' | '<=' | '>' | '>=';
  tolerance: number;
  relative: boolean;
}

export interface GateViolation {
  rule: GateRule;
  run: string;
  delta: number;
  /** Δ as the rule compares it (relative when the rule is). */
  compared: number;
  ci: [number, number] | null;
  message: string;
}

const RULE = /^\s*([^<>\s]+)\s*(<=|>=|<|>)\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*(%?)\s*$/;

/** Parses gate rules (each may hold several, comma-separated); `source` names them in errors. */
export function parseGate(rules: readonly string[], source: string): GateRule[] {
  const out: GateRule[] = [];
  for (const text of rules
    .flatMap((r) => r.split(','))
    .map((r) => r.trim())
    .filter((r) => r !== '')) {
    const m = RULE.exec(text);
    if (!m)
      fail(
        'compare-bad-gate',
        { file: source },
        `expected gate rules like "accuracy<-0.01" or "aurc>+0.005" (METRIC, one of < <= > >=, a number, optionally %), but got "${text}".`,
      );
    const tolerance = Number(m[3]) / (m[4] ? 100 : 1);
    out.push({ text, metric: m[1], op: m[2] as GateRule['op'], tolerance, relative: m[4] === '%' });
  }
  return out;
}

function breaks(x: number, op: GateRule['op'], t: number): boolean {
  return op === '<' ? x < t : op === '<=' ? x <= t : op === '>' ? x > t : x >= t;
}

/**
 * The violations of `rules` by each run against the baseline. A rule naming a metric the
 * comparison does not have is an error (a gate that silently checks nothing would pass forever).
 */
export function checkGate(c: CompareResults, rules: readonly GateRule[], source: string): GateViolation[] {
  const out: GateViolation[] = [];
  for (const rule of rules) {
    if (!c.metrics.includes(rule.metric))
      fail(
        'compare-bad-gate',
        { file: source },
        `gate rule "${rule.text}" names "${rule.metric}", which is not compared here. Compared: ${c.metrics.join(', ')}.`,
      );
    for (const run of c.runs) {
      if (run === c.baseline) continue;
      const delta = deltaOf(c, run, rule.metric);
      const base = c.table[c.baseline]?.[rule.metric] ?? null;
      const name = c.names[c.runs.indexOf(run)] ?? run;
      if (delta === null) {
        out.push({
          rule,
          run,
          delta: NaN,
          compared: NaN,
          ci: null,
          message: `${rule.metric}: ${name} has no value to compare with the baseline's (rule ${rule.text}).`,
        });
        continue;
      }
      const compared = rule.relative ? (base !== null && base !== 0 ? delta / Math.abs(base) : NaN) : delta;
      if (!(Number.isNaN(compared) || breaks(compared, rule.op, rule.tolerance))) continue;
      const t = c.tests.find((x) => x.run === run && x.metric === rule.metric);
      const ci = t?.ci_diff ?? null;
      const shownDelta = rule.relative
        ? `${formatDelta(compared * 100)
            .replace(/0+$/, '')
            .replace(/\.$/, '')}%`
        : formatDelta(delta);
      out.push({
        rule,
        run,
        delta,
        compared,
        ci,
        message: `${rule.metric}: ${name} − baseline = ${shownDelta}${ci ? ` (interval [${formatDelta(ci[0])}, ${formatDelta(ci[1])}])` : ''} breaks "${rule.text}" (tolerance ${rule.relative ? `${rule.tolerance * 100}%` : rule.tolerance}).`,
      });
    }
  }
  return out;
}
