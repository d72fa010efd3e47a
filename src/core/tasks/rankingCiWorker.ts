/**
 * Worker entry of the ranking bootstrap (bundled as `dist/rankingCiWorker.js`): computes ranges of
 * resamples of a {@link UserMeanJob} and posts their values (resample-major Float64Array).
 */
import { serveResampleRanges } from '../stats/resampleWorker';
import { userMeanStat, type UserMeanJob } from './rankingCi';

serveResampleRanges<UserMeanJob>(userMeanStat);
