/**
 * Prediction files made for the UI tests (written into the test's temp workspace, not kept in
 * the repository): 3 classes with five-digit counts, 20 classes with one 60-character class name.
 * Seeded, so every run draws the same rows.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../../scripts/vscode/codeServer.mjs';

/** A 31-bit linear congruential generator (Park–Miller): reproducible without a dependency. */
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

/** Rows `label,pred,confidence`; each true class is right with probability `acc`, else a neighbour. */
function rows(classes: string[], perClass: (c: number) => number, acc: (c: number) => number, seed: number): string {
  const rnd = lcg(seed);
  const q = (s: string): string => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const out = ['label,pred,confidence'];
  classes.forEach((c, i) => {
    for (let r = 0; r < perClass(i); r++) {
      const right = rnd() < acc(i);
      const off = 1 + Math.floor(rnd() * Math.min(3, classes.length - 1));
      const p = right ? i : (i + off) % classes.length;
      out.push(`${q(c)},${q(classes[p]!)},${(right ? 0.6 + 0.4 * rnd() : 0.3 + 0.5 * rnd()).toFixed(4)}`);
    }
  });
  return out.join('\n') + '\n';
}

/** The 60-character class name of the 20-class fixture. */
export const LONG_CLASS_NAME = 'Eastern North American migratory songbirds, juvenile plumage';

export function writeUiFixtures(workspace: string): { three: string; twenty: string } {
  const dir = join(workspace, 'ui-fixtures');
  mkdirSync(dir, { recursive: true });
  const three = join(dir, 'three-classes.csv');
  writeFileSync(
    three,
    rows(
      ['setosa', 'versicolor', 'virginica'],
      (c) => [14000, 11000, 12500][c]!,
      (c) => [0.97, 0.88, 0.91][c]!,
      42,
    ),
  );
  const names = Array.from({ length: 20 }, (_, i) =>
    i === 7 ? LONG_CLASS_NAME : `species_${String(i).padStart(2, '0')}`,
  );
  const twenty = join(dir, 'twenty-classes.csv');
  writeFileSync(
    twenty,
    rows(
      names,
      (c) => 40 + 15 * c,
      (c) => 0.55 + 0.02 * c,
      7,
    ),
  );
  return { three, twenty };
}

/**
 * 30 classes with non-Latin names (as on the data the per-class chart and confusion matrix were
 * found unreadable with): class c has 60 + 5c rows, right with probability 0.5 + 0.015c.
 */
export const THIRTY_CLASS_NAMES = Array.from({ length: 30 }, (_, i) =>
  i === 4 ? 'Ærøskøbing' : i === 9 ? '東京' : i === 17 ? 'Zürich–Genève' : `type_${String(i).padStart(2, '0')}`,
);

export function writeThirtyClasses(workspace: string): string {
  const dir = join(workspace, 'ui-fixtures');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'thirty-classes.csv');
  writeFileSync(
    file,
    rows(
      THIRTY_CLASS_NAMES,
      (c) => 60 + 5 * c,
      (c) => 0.5 + 0.015 * c,
      11,
    ),
  );
  return file;
}

/**
 * A comparison of bundled digits runs written by the built CLI into a workspace made by
 * copyExamples (runs named workspace-relative, the first one the baseline): by default logreg
 * against knn, without a bootstrap, in `digits-lt/logreg-vs-knn.compare.json`. Returns the file's
 * workspace-relative path.
 */
export function writeComparison(
  workspace: string,
  opts: { runs?: string[]; bootstrapN?: number; out?: string } = {},
): string {
  const out = opts.out ?? 'digits-lt/logreg-vs-knn.compare.json';
  const runs = opts.runs ?? ['logreg', 'knn'];
  const r = spawnSync(
    process.execPath,
    [
      join(root, 'bin/eval-lens.js'),
      'compare',
      ...runs.map((run) => `digits-lt/${run}.csv`),
      '--bootstrap-n',
      String(opts.bootstrapN ?? 0),
      '--out',
      out,
    ],
    { cwd: workspace, encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  return out;
}
