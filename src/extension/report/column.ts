/**
 * Where a new report panel opens. Reports stack as tabs in one group, so a second report never
 * halves the first: the group that already shows a report; else the active group when it is empty
 * (nothing to sit beside); else an existing other group that holds editors — `ViewColumn.Beside`
 * from the second of two groups would create a third, narrow group each time; else beside the
 * active one.
 */

/** An editor group: its column and how many tabs it holds. */
export interface GroupState {
  column: number;
  tabs: number;
}

/**
 * The column for a new report given the groups, the active one and the columns of the open report
 * panels (the most recently active first).
 */
export function reportColumn(
  groups: readonly GroupState[],
  active: number | undefined,
  reportColumns: readonly (number | undefined)[] = [],
): number | 'beside' {
  const withReport = reportColumns.find((c) => c !== undefined && groups.some((g) => g.column === c));
  if (withReport !== undefined) return withReport;
  const current = groups.find((g) => g.column === active);
  if (current && current.tabs === 0) return current.column;
  const others = groups.filter((g) => g.column !== active && g.tabs > 0).map((g) => g.column);
  if (others.length === 0 || active === undefined) return 'beside';
  // Prefer the nearest group to the right of the active one, else the nearest to its left.
  const right = others.filter((g) => g > active).sort((a, b) => a - b)[0];
  const left = others.filter((g) => g < active).sort((a, b) => b - a)[0];
  return right ?? left ?? 'beside';
}
