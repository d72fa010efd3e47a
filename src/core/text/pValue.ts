/**
 * The one way a p-value is written, in every surface (terminal tables, Markdown, LaTeX, CSV cells
 * meant for reading, the report and the panel), so that the same p reads the same everywhere:
 * - 4 decimals from 0.0001 up (`0.0500`, `0.0123`);
 * - below 0.0001, two significant digits in exponent form (`1.2e-5`), so that a very small p keeps
 *   its order of magnitude (which a Holm or Benjamini–Hochberg adjustment multiplies);
 * - below 2.2e-16 (the double-precision machine epsilon, where a computed p is rounding noise, an
 *   exact 0 included), `< 2.2e-16`, as R's `format.pval` writes it (R Core Team, "R: A Language
 *   and Environment for Statistical Computing", `format.pval` with `eps = .Machine$double.eps`);
 * - no value (null, NaN): an em dash.
 * Machine-read outputs (JSON, CSV columns of numbers) keep the full number.
 */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '—';
  if (p < 2.220446049250313e-16) return '< 2.2e-16';
  return p < 1e-4 ? p.toExponential(1) : p.toFixed(4);
}

/** `p = 0.0123`, `p = 1.2e-5`, `p < 2.2e-16` (never `p = < …`). */
export function pStatement(p: number | null | undefined): string {
  const s = formatP(p);
  return s.startsWith('<') ? `p ${s}` : `p = ${s}`;
}
