/**
 * Worker entry of the classification bootstrap (bundled as `dist/ciWorker.js`): computes ranges
 * of resamples of a {@link CiJob} and posts their values (resample-major Float64Array).
 */
import { serveResampleRanges } from '../stats/resampleWorker';
import { ciResampleStat, type CiJob } from './classificationCi';

serveResampleRanges<CiJob>(ciResampleStat);
