/**
 * The inspection worker (`dist/inspectWorker.js`): a long-lived thread that keeps a few loaded
 * prediction files (keyed by path and SHA-256, least recently used dropped first) and answers
 * row queries a page at a time, slice tables and subset evaluations. It reads the prediction file
 * and nothing else, and writes nothing. Before answering it checks that the file still has the
 * SHA-256 recorded in the results; if not, it answers `stale` instead of rows of another file.
 */
import { stat } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { EvalLensError } from '../../core/diagnostics';
import { fileInfo } from '../../core/io/fileInfo';
import type { SerializedError } from '../workerProtocol';
import { loadInspection, type Inspection } from './backend';
import type { InspectRequest, InspectResponse, InspectSource } from './inspectProtocol';

/** Loaded files kept at once (each holds the parsed rows of one file). */
const MAX_LOADED = 3;

interface Loaded {
  key: string;
  /** Size and mtime when hashed: a change of either means hashing again. */
  size: number;
  mtimeMs: number;
  sha256: string;
  inspection: Promise<Inspection>;
}

/** path → loaded file, in least-recently-used order (Map keeps insertion order). */
const loaded = new Map<string, Loaded>();
/** path → the last hash seen with the size and mtime it was computed for. */
const hashes = new Map<string, { size: number; mtimeMs: number; sha256: string }>();

class StaleError extends Error {
  constructor(source: InspectSource, actual: string) {
    super(`${source.path} changed since it was evaluated (SHA-256 ${actual.slice(0, 12)}…, the results record ${source.sha256.slice(0, 12)}…). Re-evaluate it to inspect its rows.`);
    this.name = 'StaleError';
  }
}

async function currentHash(path: string): Promise<{ size: number; mtimeMs: number; sha256: string }> {
  const st = await stat(path);
  const known = hashes.get(path);
  if (known && known.size === st.size && known.mtimeMs === st.mtimeMs) return known;
  const info = await fileInfo(path);
  const h = { size: st.size, mtimeMs: st.mtimeMs, sha256: info.sha256 };
  hashes.set(path, h);
  return h;
}

async function inspectionOf(source: InspectSource): Promise<Inspection> {
  const h = await currentHash(source.path);
  if (h.sha256 !== source.sha256) throw new StaleError(source, h.sha256);
  const key = `${source.path}\n${h.sha256}\n${source.configPath ?? ''}\n${JSON.stringify(source.defaults)}`;
  const hit = loaded.get(source.path);
  if (hit && hit.key === key) {
    loaded.delete(source.path);
    loaded.set(source.path, hit);
    return hit.inspection;
  }
  const entry: Loaded = { key, ...h, inspection: loadInspection(source) };
  loaded.delete(source.path);
  loaded.set(source.path, entry);
  // A failed load is not kept: the next request tries again (the person may have fixed the file).
  entry.inspection.catch(() => {
    if (loaded.get(source.path) === entry) loaded.delete(source.path);
  });
  while (loaded.size > MAX_LOADED) loaded.delete(loaded.keys().next().value!);
  return entry.inspection;
}

function serialize(err: unknown): SerializedError {
  if (err instanceof EvalLensError) return { name: err.name, message: err.message, code: err.code, location: err.location, stack: err.stack };
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { name: 'Error', message: String(err) };
}

async function answer(req: InspectRequest): Promise<unknown> {
  const insp = await inspectionOf(req.source);
  switch (req.op) {
    case 'query':
      return insp.query(req.query);
    case 'sliceCandidates':
      return insp.sliceCandidates();
    case 'slices':
      return insp.slices(req.by);
    case 'subset':
      return insp.evaluateSubset(req.where);
  }
}

// One request at a time: a query waits for the load before it, never races it.
let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (req: InspectRequest) => {
  queue = queue.then(async () => {
    let res: InspectResponse;
    try {
      res = { id: req.id, ok: true, value: await answer(req) };
    } catch (err) {
      res = { id: req.id, ok: false, error: serialize(err), ...(err instanceof StaleError ? { stale: true } : {}) };
    }
    parentPort!.postMessage(res);
  });
});
