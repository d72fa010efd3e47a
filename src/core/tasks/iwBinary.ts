/** Runner of the iw-binary task. Replaced by the family's implementation (iw-binary (issue 4)). */
import { EvalLensError } from '../diagnostics';
import type { TaskRunner } from './types';

export const runIwBinary: TaskRunner = async (ctx) => {
  throw new EvalLensError('task-not-available', `${ctx.path}: the iw-binary task is not available in this build.`);
};
