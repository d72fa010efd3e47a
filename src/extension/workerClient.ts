/**
 * Runs a {@link WorkerJob} in a fresh `worker_threads` Worker with a cancellable progress
 * notification. The extension host only waits on messages; it never computes.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import type { CompareResults } from '../core';
import type { Results } from '../core';
import type { SerializedError, WorkerInput, WorkerJob, WorkerMessage } from './workerProtocol';
import { formatCount } from '../shared/format';

/** Thrown when the person cancels. */
export class JobCancelled extends Error {
  constructor() {
    super('Cancelled.');
    this.name = 'JobCancelled';
  }
}

/** An error from the core, carried across the thread boundary. */
export class JobFailed extends Error {
  constructor(readonly error: SerializedError) {
    super(error.message);
    this.name = error.name;
  }
}

/** How long a cancelled worker may take to notice its flag before it is terminated. */
const CANCEL_GRACE_MS = 1500;

function stageText(stage: string, done: number, total?: number): string {
  if (total !== undefined && total > 0) return `${stage} ${formatCount(done)} / ${formatCount(total)}`;
  if (done > 0 && done <= 1) return `${stage} ${Math.round(done * 100)}%`;
  if (done > 1) return `${stage}: ${formatCount(done)} rows`;
  return stage;
}

export type JobResult<J extends WorkerJob> = J extends { type: 'evaluate' } ? Results : CompareResults;

/**
 * Runs the job, showing `title` in a progress notification with a Cancel button.
 * @throws JobCancelled | JobFailed
 */
/** What the progress notification says is showing, before the final results. */
export function stageShown(m: Extract<WorkerMessage, { type: 'stage' }>): string {
  if (m.stage === 'point') return 'showing point estimates, intervals pending';
  const r = m.resamples;
  return r
    ? `showing provisional intervals (${formatCount(r.done)} of ${formatCount(r.total)} resamples)`
    : 'showing provisional intervals';
}

export function runJob<J extends WorkerJob>(
  extensionPath: string,
  job: J,
  title: string,
  log: vscode.LogOutputChannel,
  opts: { silent?: boolean; onStage?: (m: Extract<WorkerMessage, { type: 'stage' }>) => void } = {},
): Promise<JobResult<J>> {
  const work = (
    progress: vscode.Progress<{ message?: string; increment?: number }>,
    token: vscode.CancellationToken,
  ): Promise<JobResult<J>> =>
    new Promise((resolve, reject) => {
      const cancel = new SharedArrayBuffer(4);
      const started = Date.now();
      const worker = new Worker(path.join(extensionPath, 'dist', 'worker.js'), {
        workerData: { job, cancel } satisfies WorkerInput,
      });
      let settled = false;
      let lastFraction = 0;
      /** The stage shown in the report, said in front of every later progress message. */
      let shown = '';
      const finish = (f: () => void): void => {
        if (settled) return;
        settled = true;
        sub.dispose();
        f();
        void worker.terminate();
      };
      const sub = token.onCancellationRequested(() => {
        log.info(`${title}: cancel requested`);
        Atomics.store(new Int32Array(cancel), 0, 1);
        setTimeout(() => finish(() => reject(new JobCancelled())), CANCEL_GRACE_MS);
      });
      worker.on('message', (m: WorkerMessage) => {
        switch (m.type) {
          case 'progress': {
            const fraction = m.total ? m.done / m.total : m.done <= 1 ? m.done : undefined;
            const increment =
              fraction !== undefined && fraction > lastFraction ? (fraction - lastFraction) * 100 : undefined;
            if (fraction !== undefined) lastFraction = Math.max(lastFraction, fraction);
            progress.report({
              message: `${shown}${stageText(m.stage, m.done, m.total)}`,
              ...(increment ? { increment } : {}),
            });
            break;
          }
          case 'stage':
            log.info(`${title}: ${stageShown(m)} after ${((Date.now() - started) / 1000).toFixed(2)} s`);
            shown = `${stageShown(m)}; `;
            progress.report({ message: stageShown(m) });
            opts.onStage?.(m);
            break;
          case 'evaluated':
            log.info(`${title}: done in ${((Date.now() - started) / 1000).toFixed(2)} s`);
            finish(() => resolve(m.results as JobResult<J>));
            break;
          case 'compared':
            log.info(`${title}: done in ${((Date.now() - started) / 1000).toFixed(2)} s`);
            finish(() => resolve(m.compare as JobResult<J>));
            break;
          case 'failed':
            finish(() =>
              m.error.name === 'CancelledError' ? reject(new JobCancelled()) : reject(new JobFailed(m.error)),
            );
            break;
        }
      });
      worker.on('error', (err) =>
        finish(() => reject(new JobFailed({ name: err.name, message: err.message, stack: err.stack }))),
      );
      worker.on('exit', (code) =>
        finish(() =>
          reject(
            token.isCancellationRequested
              ? new JobCancelled()
              : new JobFailed({
                  name: 'Error',
                  message: `The evaluation worker stopped unexpectedly (exit code ${code}).`,
                }),
          ),
        ),
      );
    });
  if (opts.silent) {
    const cts = new vscode.CancellationTokenSource();
    return work({ report: () => undefined }, cts.token).finally(() => cts.dispose());
  }
  return Promise.resolve(
    vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, work),
  );
}
