// The bootstrap's worker threads are started when reading ends, before the point estimates (so
// that their start overlaps them); an evaluation that stops before the bootstrap — cancelled, or
// failing — must stop them too, or they would keep the process (the CLI, the extension's
// evaluation worker) alive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { CancelledError } from '../../../../src/core/diagnostics';
import { evaluateFile } from '../../../../src/core/evaluate';
import { StartedResampleWorkers } from '../../../../src/core/stats/parallelBootstrap';
import { bundledWorker } from '../../helpers/bundledWorker';

const FILE = 'examples/digits-lt/logreg.csv';

for (const [how, stop, expected] of [
  ['cancelled', 'cancel', CancelledError],
  ['failing', 'throw', /a step failed/],
] as const)
  test(`an evaluation ${how} before its bootstrap stops the bootstrap workers it started`, async (t) => {
    if (availableParallelism() < 2) return t.skip('one core: no worker is started');
    // the worker script bundled (a worker thread cannot load the .ts source under the test runner)
    const worker = bundledWorker('src/core/tasks/classificationCiWorker.ts');
    const start = StartedResampleWorkers.start.bind(StartedResampleWorkers);
    const made: StartedResampleWorkers[] = [];
    t.mock.method(StartedResampleWorkers, 'start', (_file: string | null, count: number) => {
      const s = start(worker, count);
      if (s) made.push(s);
      return s;
    });
    let cancelled = false;
    await assert.rejects(
      evaluateFile(FILE, {
        // enough resamples × rows for a second thread
        // every row of the split file (300)
        overrides: { bootstrap: { n: 100_000, seed: 1 }, metricsOn: 'all' },
        progress: {
          report: (stage) => {
            if (stage !== 'calibration') return;
            if (stop === 'cancel') cancelled = true;
            else throw new Error('a step failed');
          },
          isCancelled: () => cancelled,
        },
      }),
      expected,
    );
    assert.equal(made.length, 1);
    assert.ok(made[0]!.threadIds.length >= 1);
    assert.equal(made[0]!.running, 0);
  });
