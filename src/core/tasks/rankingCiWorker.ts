/**
 * Worker entry of the ranking bootstrap (bundled as `dist/rankingCiWorker.js`): computes ranges of
 * resamples of a {@link UserMeanJob} and posts their values (resample-major Float64Array).
 */
import { serveResampleRanges } from '../stats/resampleWorker';
import { isPairedJob, pairedStatOf, type PairedJob } from '../stats/pairedStat';
import { userMeanStat, type UserMeanJob } from './rankingCi';

serveResampleRanges<UserMeanJob | PairedJob<UserMeanJob>>((job) =>
  isPairedJob(job) ? pairedStatOf(job as PairedJob<UserMeanJob>, userMeanStat) : userMeanStat(job as UserMeanJob),
);
