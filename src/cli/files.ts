/** File checks shared by the CLI's subcommands. */
import { unlinkSync, type Stats } from 'node:fs';
import { mkdir, open, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { isInside } from '../core';
import { EvalLensError } from '../core';
import { writeChunks } from '../core';
import { UsageError } from './errors';

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

/** The current folder when `anchor` (the config, else the first input) is inside it, else the anchor's folder. */
export function defaultRoot(cwd: string, anchor: string): string {
  return isInside(cwd, anchor) ? cwd : dirname(anchor);
}

/**
 * The workspace root of every command (paths in a config must stay inside it): `--root` when
 * given, else {@link defaultRoot} of the config, or of the first input when there is no config.
 */
export function workspaceRoot(cwd: string, rootFlag: string | undefined, anchor: string): string {
  return rootFlag !== undefined ? resolve(cwd, rootFlag) : defaultRoot(cwd, anchor);
}

/**
 * The real path of `p`, symbolic links resolved; for a file not created yet, the real path of its
 * nearest existing folder joined with the rest, so that two outputs named through different
 * (linked) folders compare equal when they would be the same file.
 */
export async function real(p: string): Promise<string> {
  try {
    return await realpath(p);
  } catch {
    const parent = dirname(p);
    return parent === p ? p : join(await real(parent), basename(p));
  }
}

/** What `st` is when it is not a regular file ("a FIFO (named pipe)", …), for a message; null for a regular file. */
function notRegular(st: Stats): string | null {
  if (st.isFile()) return null;
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Checks an output given on the command line as `flag given` before anything is computed: true
 * when a regular file is there already, false when nothing is. A folder, a FIFO, a device or a
 * socket is a usage error: writing would hang (a FIFO without a reader) or replace it (a device
 * such as /dev/null). The suggestion names a file, `<given>/<example>` for a folder.
 */
export async function checkOutputTarget(path: string, flag: string, given: string, example: string): Promise<boolean> {
  let st: Stats;
  try {
    st = await stat(path);
  } catch {
    return false;
  }
  if (st.isDirectory())
    throw new UsageError(
      `${flag} ${given} is a folder; give a file name, e.g. ${given.replace(/\/$/, '')}/${example}.`,
    );
  const kind = notRegular(st);
  if (kind !== null)
    throw new UsageError(
      `${flag} ${given} is ${kind}, not a regular file; refusing to write to it. Give the name of a file, e.g. ${example}.`,
    );
  return true;
}

/** The step that creates the temporary file: exclusively, so never through a link or a FIFO put there. */
const openExclusive = (tmp: string): Promise<FileHandle> => open(tmp, 'wx');

/** The default write step: one string at once, or the chunks of a long text (jsonChunks.ts) one by one. */
const writeText = (file: FileHandle, text: string | Iterable<string>): Promise<void> =>
  typeof text === 'string' ? file.writeFile(text, 'utf8') : writeChunks(file, text);

/**
 * Writes to a temporary file beside `path`, then renames it over `path`, so an interrupted run
 * never leaves half a file. `text` is one string or its chunks, written as they are made (a results
 * file too long for one string). Ctrl-C (SIGINT) from the start of this call removes the temporary
 * file and exits 130; otherwise the CLI installs no SIGINT handler (see main.ts). While the
 * temporary file is being opened, the removal waits for the open to settle: an open on its way
 * (on the thread pool) would otherwise create the file after it was removed. `what` names the
 * content in the error ("the results"). `write` fills the temporary file and `openTmp` creates it
 * (tests replace them).
 */
export async function writeAtomically(
  path: string,
  text: string | Iterable<string>,
  what: string,
  write: (file: FileHandle, text: string | Iterable<string>) => Promise<void> = writeText,
  openTmp: (tmp: string) => Promise<FileHandle> = openExclusive,
): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  let opening = false;
  let interrupted = false;
  const removeAndExit = (): never => {
    try {
      unlinkSync(tmp);
    } catch {
      // not created, or already renamed
    }
    process.exit(130);
  };
  const onSigint = (): void => {
    interrupted = true;
    if (!opening) removeAndExit(); // else once the open has settled, below
  };
  process.on('SIGINT', onSigint);
  try {
    // The commands check their outputs first (checkOutputTarget); this is the last word, whatever
    // the caller: a FIFO, a device or a socket is never replaced by the rename below.
    const st = await stat(path).catch(() => null);
    const kind = st && notRegular(st);
    if (kind)
      throw new EvalLensError(
        'output-write',
        `${resolve(path)}: cannot write ${what}: it is ${kind}, not a regular file; refusing to replace it.`,
        { file: path },
      );
    await mkdir(dirname(path), { recursive: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST' && err.code !== 'ENOTDIR') throw err;
      throw new EvalLensError(
        'output-write',
        `${resolve(path)}: cannot write ${what}: a part of the folder path ${dirname(path)} is a file, not a folder.`,
        { file: path },
      );
    });
    await unlink(tmp).catch(() => undefined); // left by an earlier process of the same id
    opening = true;
    let file: FileHandle;
    try {
      file = await openTmp(tmp);
    } finally {
      opening = false;
      if (interrupted) removeAndExit();
    }
    try {
      await write(file, text);
    } finally {
      await file.close();
    }
    await rename(tmp, path);
  } catch (err) {
    if (err instanceof EvalLensError) throw err;
    await unlink(tmp).catch(() => undefined);
    throw new EvalLensError('output-write', `${resolve(path)}: cannot write ${what}: ${(err as Error).message}.`, {
      file: path,
    });
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

/**
 * What the output `path` (given on the command line as `flag given`) already holds, read by
 * `read`; null when there is nothing there yet (or it cannot be read). What is not a regular file
 * is a usage error ({@link checkOutputTarget}).
 */
export async function existingOutput(
  path: string,
  flag: string,
  given: string,
  example: string,
  read: (path: string) => Promise<string>,
): Promise<string | null> {
  if (!(await checkOutputTarget(path, flag, given, example))) return null;
  try {
    return await read(path);
  } catch {
    return null;
  }
}
