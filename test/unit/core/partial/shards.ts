/**
 * Helpers of the partial/merge tests: a CSV cut into shards at row boundaries, the partial file of
 * each shard, and the results of a merge and of the whole file, with what must be equal.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateFile } from '../../../../src/core/evaluate';
import { partialOfFile } from '../../../../src/core/partial/partial';
import type { Results } from '../../../../src/core/results/types';

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'eval-lens-partial-'));
}

/** The CSV text without the named columns (e.g. the examples' `split` column). */
export function dropColumns(csv: string, drop: readonly string[]): string {
  const lines = csv.replace(/\n$/, '').split('\n');
  const header = lines[0]!.split(',');
  const keep = header.map((h, j) => (drop.includes(h) ? -1 : j)).filter((j) => j >= 0);
  return lines.map((l) => keep.map((j) => l.split(',')[j]).join(',')).join('\n') + '\n';
}

/** Writes `csv` whole and cut into shards after the given data rows (0-based cut points). */
export function writeShards(
  dir: string,
  name: string,
  csv: string,
  cuts: readonly number[],
): { whole: string; shards: string[] } {
  const lines = csv.replace(/\n$/, '').split('\n');
  const header = lines[0]!;
  const rows = lines.slice(1);
  const whole = join(dir, `${name}.csv`);
  writeFileSync(whole, csv);
  const bounds = [0, ...cuts, rows.length];
  const shards = bounds.slice(1).map((end, i) => {
    const p = join(dir, `${name}.part${i + 1}.csv`);
    writeFileSync(p, [header, ...rows.slice(bounds[i], end)].join('\n') + '\n');
    return p;
  });
  return { whole, shards };
}

/** Each shard's partial file (made with --shard i/N when `numbered`), written beside it. */
export async function writePartials(shards: readonly string[], configPath: string, numbered = true): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < shards.length; i++) {
    const { bytes } = await partialOfFile(shards[i]!, {
      configPath,
      root: '/',
      shard: numbered ? { index: i + 1, count: shards.length } : null,
    });
    const p = shards[i]!.replace(/\.csv$/, '.npz');
    writeFileSync(p, bytes);
    out.push(p);
  }
  return out;
}

/** The whole file's results with the bootstrap off, as the merge gives them. */
export function evaluateWhole(path: string, configPath: string): Promise<Results> {
  return evaluateFile(path, { configPath, root: '/', overrides: { bootstrap: { n: 0 } }, perItem: false });
}

/** What must be equal between a merge and the whole file's evaluation: every metric, family, curve and table. */
export function assertSameResults(merged: Results, whole: Results, label: string): void {
  assert.deepEqual(Object.keys(merged.metrics), Object.keys(whole.metrics), `${label}: metric keys`);
  for (const k of Object.keys(whole.metrics)) assert.deepEqual(merged.metrics[k], whole.metrics[k], `${label}: ${k}`);
  assert.deepEqual(merged.families, whole.families, `${label}: families`);
  assert.deepEqual(merged.curves, whole.curves, `${label}: curves`);
  assert.deepEqual(merged.tables, whole.tables, `${label}: tables`);
  assert.deepEqual(merged.config, whole.config, `${label}: config`);
  // the same warnings (their messages name the merged shards instead of the whole file)
  assert.deepEqual(
    merged.warnings.map((w) => w.code),
    whole.warnings.map((w) => w.code),
    `${label}: warnings`,
  );
  assert.equal(merged.task, whole.task);
  assert.equal(merged.source.rowsUsed, whole.source.rowsUsed);
  assert.deepEqual(merged.source.columns, whole.source.columns);
}

export function readText(p: string): string {
  return readFileSync(p, 'utf8');
}
