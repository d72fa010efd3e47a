/**
 * The workspace rule for paths that come from files (a config's `trainCounts`, `relevant`, …; a
 * results file's `source.path`): the path must lie inside the workspace root, both as written and
 * after symbolic links are resolved. A refused file is never opened, so nothing of its content can
 * reach a message.
 */
import { realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** True when `abs` is `root` or below it, comparing the paths as written. */
export function isInside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

function realOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

/**
 * Where an existing `abs` really is when a symbolic link takes it outside the root; null when it
 * stays inside or does not exist (the reader then says "no such file").
 */
export function linkedOutside(root: string, abs: string): string | null {
  const real = realOrNull(abs);
  if (real === null) return null;
  const realRoot = realOrNull(root) ?? resolve(root);
  return isInside(realRoot, real) ? null : real;
}

/** A recorded source: its path, or why it is refused, or that it is not there. */
export type RecordedSource = { path: string } | { refused: string } | { missing: string };

/**
 * The prediction file a results file names in `source.path`, for *Re-evaluate*. A relative path is
 * taken from the workspace root, then (by file name) from the results file's folder. A path that
 * leads outside the workspace — absolute, through `..`, or through a symbolic link — is refused:
 * a results file from a cloned repository must not make the extension read, or write beside, a
 * file elsewhere on the machine.
 */
export async function resolveRecordedSource(
  recorded: string,
  resultsFile: string,
  root: string,
): Promise<RecordedSource> {
  const ws = resolve(root);
  if (recorded.includes('\0')) return { refused: 'the recorded source path contains a NUL character' };
  const written = isAbsolute(recorded) ? resolve(recorded) : resolve(ws, recorded);
  // A path that leads outside is refused outright, not replaced by a same-named file elsewhere.
  if (!isInside(ws, written))
    return {
      refused: `the recorded source ${JSON.stringify(recorded)} resolves to ${written}, outside the workspace ${ws}`,
    };
  const linked = linkedOutside(ws, written);
  if (linked !== null)
    return {
      refused: `the recorded source ${JSON.stringify(recorded)} is a symbolic link to ${linked}, outside the workspace ${ws}`,
    };
  const candidates = isAbsolute(recorded)
    ? [written]
    : [written, join(resolve(resultsFile, '..'), recorded.split(/[\\/]/).pop() ?? recorded)];
  let refusal: string | undefined;
  for (const c of candidates) {
    if (!isInside(ws, c)) continue;
    const real = linkedOutside(ws, c);
    if (real !== null) {
      refusal ??= `the recorded source ${JSON.stringify(recorded)} is a symbolic link to ${real}, outside the workspace ${ws}`;
      continue;
    }
    try {
      if ((await stat(c)).isFile()) return { path: c };
    } catch {
      // try the next candidate
    }
  }
  return refusal ? { refused: refusal } : { missing: `the recorded source ${JSON.stringify(recorded)} was not found` };
}
