/** File checks shared by the CLI's subcommands. */
import { realpath, stat } from 'node:fs/promises';
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
