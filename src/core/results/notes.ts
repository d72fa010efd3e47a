/**
 * Entries of `results.warnings` that inform rather than warn: a choice the tool made about what to
 * report, with nothing wrong in the input (top-k accuracy left out for k ≥ the number of classes,
 * where every row would be a hit). Every surface lists them apart, as notes, so that a warning
 * keeps meaning "look at this". The results JSON is unchanged: they stay in `warnings` with their code.
 */
export const NOTE_CODES: ReadonlySet<string> = new Set(['topk-skipped', 'per-item-not-written', 'simd-fallback']);

export function isNote(w: { code: string }): boolean {
  return NOTE_CODES.has(w.code);
}

/** The entries split into notes and warnings, each in its original order. */
export function splitNotes<W extends { code: string }>(entries: readonly W[]): { notes: W[]; warnings: W[] } {
  return { notes: entries.filter(isNote), warnings: entries.filter((w) => !isNote(w)) };
}
