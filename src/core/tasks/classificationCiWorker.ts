/**
 * Worker entry of the classification bootstrap (bundled as `dist/ciWorker.js`): computes ranges
 * of resamples of a {@link CiJob} — or of a paired comparison of two such jobs
 * (compare/pairedBootstrap.ts, stats/pairedStat.ts) — and posts their values (resample-major Float64Array).
 */
import { serveResampleRanges } from '../stats/resampleWorker';
import { isPairedJob, pairedStatOf, type PairedJob } from '../stats/pairedStat';
import { ciResampleStat, type CiJob } from './classificationCi';

serveResampleRanges<CiJob | PairedJob<CiJob>>((job) =>
  isPairedJob(job) ? pairedStatOf(job as PairedJob<CiJob>, ciResampleStat) : ciResampleStat(job as CiJob),
);
