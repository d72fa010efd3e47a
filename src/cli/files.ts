/** File checks shared by the CLI's subcommands. */
import { mkdir, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { EvalLensError } from '../core/diagnostics';

/** An input must exist and be a regular file; the message names the path as the user gave it. */
export async function checkInput(input: string, given: string): Promise<void> {
  let st;
  try {
    st = await stat(input);
  } catch {
    throw new EvalLensError('input-read', `${given}: no such file.`, { file: given });
  }
  if (!st.isFile()) throw new EvalLensError('input-read', `${given}: not a file (a folder?).`, { file: given });
}

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The current folder when `anchor` (the config, else the first input) is inside it, else the anchor's folder. */
export function defaultRoot(cwd: string, anchor: string): string {
  return inside(cwd, anchor) ? cwd : dirname(anchor);
}

/**
 * The workspace root of every command (paths in a config must stay inside it): `--root` when
 * given, else {@link defaultRoot} of the config, or of the first input when there is no config.
 */
export function workspaceRoot(cwd: string, rootFlag: string | undefined, anchor: string): string {
  return rootFlag !== undefined ? resolve(cwd, rootFlag) : defaultRoot(cwd, anchor);
}

/** The real path when the file exists (symlinks resolved), else the path itself. */
export async function real(p: string): Promise<string> {
  try {
    return await realpath(p);
  } catch {
    return p;
  }
}

/**
 * Writes to a temporary file beside `path`, then renames it over `path`, so an interrupted run
 * never leaves half a file. `what` names the content in the error ("the results").
 */
export async function writeAtomically(path: string, text: string, what: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, text, 'utf8');
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw new EvalLensError('output-write', `${resolve(path)}: cannot write ${what}: ${(err as Error).message}`, { file: path });
  }
}
