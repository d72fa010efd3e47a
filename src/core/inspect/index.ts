/**
 * Row inspection: everything the CLI's `rows` command and the extension's inspection worker use,
 * from one module. See open.ts (the inspection object), ../rows/where.ts (the filter language),
 * ../rows/sliceValues.ts and ../tasks/slices.ts (metrics per slice value), subset.ts (evaluating
 * the rows of a filter) and ../rows/types.ts (the plain-JSON pages).
 */
export * from '../rows/types';
export { parseWhere, formatWhere, formatTerm, WhereSyntaxError } from '../rows/where';
export { QueryError } from '../rows/queryError';
export { StaleSourceError } from './errors';
export type { RowSample, RowSampleQuery } from './rowTable';
export { openInspection, type Inspection, type InspectionOptions, type Freshness } from './open';
export { sliceCandidates, sliceValues, MAX_SLICE_VALUES, type SliceValues } from '../rows/sliceValues';
export type { SliceRow, SliceMetricValue } from '../tasks/slices';
