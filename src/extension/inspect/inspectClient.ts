/**
 * The host's side of the inspection worker: started on the first request, shared by every report
 * panel that holds a lease, terminated when the last lease is released (the panels closed). The
 * host only forwards requests and waits; it never parses or computes.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type * as vscode from 'vscode';
import type { SerializedError } from '../workerProtocol';
import type { InspectAnswers, InspectRequest, InspectResponse } from './inspectProtocol';

/** A failed inspection request; `stale` when the prediction file changed since the evaluation. */
export class InspectFailed extends Error {
  constructor(
    readonly error: SerializedError,
    readonly stale: boolean,
  ) {
    super(error.message);
    this.name = 'InspectFailed';
  }
}

type Op = InspectRequest['op'];
type Body<O extends Op> = Omit<Extract<InspectRequest, { op: O }>, 'id' | 'op'>;

export class InspectClient implements vscode.Disposable {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private leases = 0;

  constructor(
    private readonly extensionPath: string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Whether the worker thread is running (for the tests: it stops when the panels close). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Held by each report panel; the worker stops when none is held. */
  lease(): vscode.Disposable {
    this.leases++;
    let released = false;
    return {
      dispose: () => {
        if (released) return;
        released = true;
        if (--this.leases === 0) this.stop();
      },
    };
  }

  request<O extends Op>(op: O, body: Body<O>): Promise<InspectAnswers[O]> {
    const w = this.start();
    const id = this.nextId++;
    return new Promise<InspectAnswers[O]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      w.postMessage({ id, op, ...body } as InspectRequest);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(path.join(this.extensionPath, 'dist', 'inspectWorker.js'));
    this.log.info('Inspection worker started');
    w.on('message', (m: InspectResponse) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.value);
      else p.reject(new InspectFailed(m.error, m.stale === true));
    });
    const fail = (message: string): void => {
      if (this.worker !== w) return;
      this.worker = undefined;
      for (const p of this.pending.values()) p.reject(new InspectFailed({ name: 'Error', message }, false));
      this.pending.clear();
    };
    w.on('error', (err) => {
      this.log.error(`Inspection worker: ${err.stack ?? err.message}`);
      fail(`The inspection worker failed (${err.message}).`);
    });
    w.on('exit', (code) => fail(`The inspection worker stopped unexpectedly (exit code ${code}).`));
    this.worker = w;
    return w;
  }

  private stop(): void {
    const w = this.worker;
    if (!w) return;
    this.worker = undefined;
    for (const p of this.pending.values())
      p.reject(new InspectFailed({ name: 'Error', message: 'The report was closed.' }, false));
    this.pending.clear();
    void w.terminate();
    this.log.info('Inspection worker stopped (no report open)');
  }

  dispose(): void {
    this.leases = 0;
    this.stop();
  }
}
