/**
 * Worker entry of the ranking bootstrap (bundled as `dist/rankingCiWorker.js`): computes ranges of
 * resamples of a {@link RankingJob} (the task's families over the one kernel of user means), of a
 * plain {@link UserMeanJob}, or of a paired comparison of two such jobs, and posts their values
 * (resample-major Float64Array).
 */
import { serveResampleRanges } from '../stats/resampleWorker';
import { isPairedJob, pairedStatOf, type PairedJob } from '../stats/pairedStat';
import type { ResampleStat } from '../stats/resampleDraws';
import {
  isRankingJob,
  rankingStat,
  threadRankingRun,
  userMeanStat,
  type RankingJob,
  type UserMeanJob,
} from './rankingCi';

type Job = RankingJob | UserMeanJob;

const statOf = (job: Job): ResampleStat =>
  isRankingJob(job) ? rankingStat(job, threadRankingRun(job)) : userMeanStat(job);

serveResampleRanges<Job | PairedJob<Job>>((job) =>
  isPairedJob(job) ? pairedStatOf(job as PairedJob<Job>, statOf) : statOf(job as Job),
);
