/**
 * An error as a worker thread posts it to the extension host (structured clone keeps no class):
 * for an Eval Lens error its code, location and every located problem (the Problems panel marks
 * each), so that the evaluation worker and the inspection worker report a bad file alike.
 */
import { EvalLensError } from '../core';
import type { SerializedError } from './workerProtocol';

export function serializeError(err: unknown): SerializedError {
  if (err instanceof EvalLensError)
    return {
      name: err.name,
      message: err.message,
      code: err.code,
      location: err.location,
      ...(err.problems ? { problems: err.problems } : {}),
      stack: err.stack,
    };
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { name: 'Error', message: String(err) };
}
