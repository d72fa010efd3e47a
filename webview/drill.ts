/**
 * Drill-down targets declared by the component that draws them: each is an element a click (or
 * Enter, the element being focusable) opens rows from, with the rows behind it and where the rows
 * panel opens. A component lists its targets in `drillTargets` and opens them itself through the
 * {@link OpenRows} it is given. A chart's points are no elements: the figure around the chart
 * (`<eval-figure>`) finds the point under a click; the keyboard reaches them through the chart's table.
 */
import type { DrillSpec } from '../src/shared/drillSpec';

/** Lists the rows of `spec` under `anchor` (the rows panel); `origin` gets the focus back. */
export type OpenRows = (spec: DrillSpec, anchor: HTMLElement, origin: HTMLElement) => void;

export interface DrillTarget {
  /** The focusable element that stands for the rows. */
  element: HTMLElement;
  /** The rows behind it (the rows panel's title and filter). */
  spec: DrillSpec;
  /** The rows panel opens after this element (the component itself: outside what it draws). */
  anchor: HTMLElement;
}

/** A component that declares its drill-down targets. */
export interface DrillSource {
  readonly drillTargets: readonly DrillTarget[];
}

/** The accessible hint of a target. */
export const ROWS_HINT = 'Press Enter (or click) to list the rows behind it.';

/** Enter or Space on a focused target does what a click does (a table row is no button). */
export function activates(e: KeyboardEvent): boolean {
  if (e.key !== 'Enter' && e.key !== ' ') return false;
  e.preventDefault();
  return true;
}
