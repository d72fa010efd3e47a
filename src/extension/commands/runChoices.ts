/**
 * Which results files a comparison may offer (no vscode import, so a unit test can run it): the
 * results of the index other than the runs already chosen, and, when the first run's task is
 * known, only results of that task — runs of different tasks cannot be compared.
 */
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
