/** File checks shared by the CLI's subcommands. */
import { mkdir, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
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
