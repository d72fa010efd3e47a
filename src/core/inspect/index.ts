/**
 * Row inspection: everything the CLI's `rows` command and the extension's inspection worker use,
 * from one module. See open.ts (the inspection object), where.ts (the filter language),
 * sliceValues.ts and slices.ts (metrics per slice value), subset.ts (evaluating the rows of a
 * filter) and types.ts (the plain-JSON pages).
 */
export * from './types';
export { parseWhere, formatWhere, formatTerm, WhereSyntaxError } from './where';
export { QueryError, StaleSourceError } from './errors';
export type { RowSample, RowSampleQuery } from './rowTable';
export { openInspection, type Inspection, type InspectionOptions, type Freshness } from './open';
export { sliceCandidates, sliceValues, MAX_SLICE_VALUES, type SliceValues } from './sliceValues';
export type { SliceRow, SliceMetricValue } from './slices';
