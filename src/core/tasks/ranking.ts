/** Runner of the ranking task. Replaced by the family's implementation (ranking (issue 5)). */
import { EvalLensError } from '../diagnostics';
import type { TaskRunner } from './types';

export const runRanking: TaskRunner = async (ctx) => {
  throw new EvalLensError('task-not-available', `${ctx.path}: the ranking task is not available in this build.`);
};
