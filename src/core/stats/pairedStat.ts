/**
 * The statistic of a paired comparison's resample (compare/pairedBootstrap.ts): both runs' plans
 * evaluated on the same multiplicities of the matched units, each reading them through its own
 * gather (its statistic may walk the units in an order of its own). It lives with the resampling
 * engine because the bootstrap threads of every task serve paired jobs too (a task's worker entry
 * builds either its own statistic or this pair of them).
 */
import type { ResampleStat } from './resampleDraws';

/** What a worker needs to build the paired statistic (structured-cloneable). */
export interface PairedJob<J = unknown> {
  paired: true;
  a: J;
  b: J;
  /** Position p of run A's statistic reads the multiplicity of matched unit gatherA[p]. */
  gatherA: Int32Array;
  gatherB: Int32Array;
  KA: number;
  KB: number;
}

export function isPairedJob(job: unknown): job is PairedJob {
  return typeof job === 'object' && job !== null && (job as { paired?: unknown }).paired === true;
}

/**
 * The statistic of both runs on one resample of the matched units: A's values at out[0..KA),
 * B's at out[KA..KA+KB). Byte multiplicities pass through when both sides take them.
 */
export function pairedStat(
  statA: ResampleStat,
  statB: ResampleStat,
  gatherA: Int32Array,
  gatherB: Int32Array,
  KA: number,
  KB: number,
): ResampleStat {
  const ca = new Int32Array(gatherA.length);
  const cb = new Int32Array(gatherB.length);
  const oa = new Float64Array(KA);
  const ob = new Float64Array(KB);
  const stat: ResampleStat = (counts, out) => {
    for (let p = 0; p < ca.length; p++) ca[p] = counts[gatherA[p]];
    for (let p = 0; p < cb.length; p++) cb[p] = counts[gatherB[p]];
    oa.fill(NaN);
    ob.fill(NaN);
    statA(ca, oa);
    statB(cb, ob);
    out.set(oa, 0);
    out.set(ob, KA);
  };
  const ba = statA.bytes;
  const bb = statB.bytes;
  if (ba && bb && ba.limit === undefined && bb.limit === undefined) {
    const ya = new Uint8Array(gatherA.length);
    const yb = new Uint8Array(gatherB.length);
    stat.bytes = {
      run: (counts, out) => {
        for (let p = 0; p < ya.length; p++) ya[p] = counts[gatherA[p]];
        for (let p = 0; p < yb.length; p++) yb[p] = counts[gatherB[p]];
        oa.fill(NaN);
        ob.fill(NaN);
        if (!ba.run(ya, oa) || !bb.run(yb, ob)) return false;
        out.set(oa, 0);
        out.set(ob, KA);
        return true;
      },
    };
  }
  return stat;
}

/** The paired statistic of a {@link PairedJob}, each side built by `make` (a worker's entry). */
export function pairedStatOf<J>(job: PairedJob<J>, make: (job: J) => ResampleStat): ResampleStat {
  return pairedStat(make(job.a), make(job.b), job.gatherA, job.gatherB, job.KA, job.KB);
}
