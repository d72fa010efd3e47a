/**
 * Which runs a comparison may offer (no vscode import, so a unit test can run it): the results of
 * the index other than the runs already chosen and the workspace's prediction files, and, when the
 * first run's task is known, only those of that task — runs of different tasks cannot be compared.
 * Also the pickers' way of reading many files: a few at a time ({@link mapFewAtOnce}), and the
 * baseline runs they offer for a task ({@link baselineChoices}).
 */
import { BASELINES_OF_TASK, type BaselineKind } from '../../core';

/** A results-index entry, as far as the choice needs it. */
export interface IndexedFile {
  kind: 'results' | 'compare' | 'invalid';
  uri: { fsPath: string };
  results?: { task: string };
}

export function comparableResults<E extends IndexedFile>(
  entries: readonly E[],
  exclude: readonly string[],
  task?: string,
): E[] {
  const skip = new Set(exclude);
  return entries.filter(
    (e) => e.kind === 'results' && !skip.has(e.uri.fsPath) && (task === undefined || e.results?.task === task),
  );
}

/**
 * The prediction files a comparison may offer once their tasks are known: with `task`, those of
 * that task and those whose task could not be told (an unreadable file or an invalid config: its
 * evaluation then says what is wrong, so it is not hidden); without it, all. `hidden` counts the
 * files of other tasks left out, for the list to say so.
 */
export function comparablePredictions<U>(
  files: readonly { uri: U; task: string | undefined }[],
  task?: string,
): { offered: U[]; hidden: number } {
  const offered = files.filter((f) => task === undefined || f.task === undefined || f.task === task).map((f) => f.uri);
  return { offered, hidden: files.length - offered.length };
}

/** Files read at once by {@link mapFewAtOnce} (each a read of at most 64 KiB). */
export const FILES_AT_ONCE = 16;

/**
 * `f` over `items`, {@link FILES_AT_ONCE} at a time: thousands of files opened together could run
 * out of file descriptors, and a file that cannot be opened would then be judged wrongly.
 */
export async function mapFewAtOnce<T, R>(items: readonly T[], f: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += FILES_AT_ONCE)
    out.push(...(await Promise.all(items.slice(i, i + FILES_AT_ONCE).map(f))));
  return out;
}

/** A baseline run a comparison may add, as the pickers show it. */
export interface BaselineChoice {
  kind: BaselineKind;
  label: string;
  detail: string;
}

const BASELINE_CHOICES: Record<BaselineKind, Omit<BaselineChoice, 'kind'>> = {
  majority: {
    label: '$(symbol-constant) Majority-class baseline',
    detail: 'Every row predicts the most frequent true class (probabilities one-hot)',
  },
  prior: {
    label: '$(symbol-constant) Class-prior baseline',
    detail: "Every row's probabilities are the class frequencies of the true labels",
  },
  popularity: {
    label: '$(symbol-constant) Popularity baseline',
    detail: "The most frequent train items, each user's seen items excluded (the run's own popularity baseline)",
  },
  random: {
    label: '$(symbol-constant) Random baseline',
    detail: "Seeded random train items, each user's seen items excluded (the run's own random baseline)",
  },
};

/** The baseline runs that fit a run of `task` (none when the task is not known). */
export function baselineChoices(task: string | undefined): BaselineChoice[] {
  return (task === undefined ? [] : (BASELINES_OF_TASK[task] ?? [])).map((kind) => ({
    kind,
    ...BASELINE_CHOICES[kind],
  }));
}
