/**
 * The inspection worker (`dist/inspectWorker.js`): a long-lived thread that keeps a few loaded
 * prediction files (keyed by path and SHA-256, least recently used dropped first) and answers
 * row queries a page at a time, slice tables and subset evaluations. It reads the prediction file
 * and nothing else, and writes nothing. Before answering it checks that the file still has the
 * SHA-256 recorded in the results; if not, it answers `stale` instead of rows of another file.
 */
import { stat } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { diffRuns } from '../../core';
import { StaleSourceError } from '../../core';
import { fileInfo } from '../../core';
import { findSlicesBetween } from '../../core';
import { serializeError } from '../serializeError';
import { loadInspection, type Inspection } from './backend';
import type { InspectRequest, InspectResponse, InspectSource } from './inspectProtocol';

/** Loaded files kept at once (each holds the parsed rows of one file). */
const MAX_LOADED = 3;

interface Loaded {
  key: string;
  /** Size and mtime of the file when it was read: a change of either means checking its hash again. */
  size: number;
  mtimeMs: number;
  inspection: Promise<Inspection>;
}

/** path → loaded file, in least-recently-used order (Map keeps insertion order). */
const loaded = new Map<string, Loaded>();

function keyOf(source: InspectSource): string {
  return `${source.sha256}\n${source.configPath ?? ''}\n${JSON.stringify(source.defaults)}`;
}

function remember(path: string, entry: Loaded): void {
  loaded.delete(path);
  loaded.set(path, entry);
  while (loaded.size > MAX_LOADED) loaded.delete(loaded.keys().next().value!);
}

/**
 * The loaded file of `source`, read again when it is new or changed on disk. An unchanged size
 * and mtime keep what is held (a query then costs no read); a changed one is hashed again, and a
 * hash that differs from the results' is a StaleSourceError.
 */
async function inspectionOf(source: InspectSource): Promise<Inspection> {
  const st = await stat(source.path);
  const key = keyOf(source);
  const hit = loaded.get(source.path);
  if (hit && hit.key === key) {
    if (hit.size === st.size && hit.mtimeMs === st.mtimeMs) {
      remember(source.path, hit);
      return hit.inspection;
    }
    const now = await fileInfo(source.path);
    if (now.sha256 === source.sha256) {
      remember(source.path, { ...hit, size: st.size, mtimeMs: st.mtimeMs });
      return hit.inspection;
    }
    loaded.delete(source.path);
    throw new StaleSourceError(source.path, source.sha256, now.sha256);
  }
  const entry: Loaded = { key, size: st.size, mtimeMs: st.mtimeMs, inspection: loadInspection(source) };
  remember(source.path, entry);
  // A failed load is not kept: the next request tries again (the person may have fixed the file).
  entry.inspection.catch(() => {
    if (loaded.get(source.path) === entry) loaded.delete(source.path);
  });
  return entry.inspection;
}

async function answer(req: InspectRequest): Promise<unknown> {
  if (req.op === 'findSlicesBetween') {
    const { path, configPath, defaults, root } = req.source;
    return findSlicesBetween(path, req.pathB, { configPath, defaults, root, ...req.options });
  }
  if (req.op === 'diff') {
    const { path, configPath, defaults, root } = req.source;
    return diffRuns(path, req.pathB, { configPath, defaults, root, ...req.options });
  }
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
    case 'findSlices':
      return insp.findSlices(req.options);
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
      res = {
        id: req.id,
        ok: false,
        error: serializeError(err),
        ...(err instanceof StaleSourceError ? { stale: true } : {}),
      };
    }
    parentPort!.postMessage(res);
  });
});
