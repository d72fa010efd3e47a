/**
 * Where a new report panel opens: beside the active editor group, but in an existing other group
 * when there is one — `ViewColumn.Beside` from the second of two groups would create a third,
 * narrow group each time.
 */
/** The column for a new report given the groups' columns and the active one. */
export function reportColumn(groups: readonly number[], active: number | undefined): number | 'beside' {
  const others = groups.filter((g) => g !== active);
  if (others.length === 0 || active === undefined) return 'beside';
  // Prefer the nearest group to the right of the active one, else the nearest to its left.
  const right = others.filter((g) => g > active).sort((a, b) => a - b)[0];
  const left = others.filter((g) => g < active).sort((a, b) => b - a)[0];
  return right ?? left ?? 'beside';
}
