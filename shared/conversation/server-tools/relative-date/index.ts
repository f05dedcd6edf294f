export { ACCEPTED_TERMS } from './accepted-terms';
export type { RelativeDateResult, ResolvedRelativeDate } from './relative-date-result';
export { MAX_TERM_LENGTH, resolveRelativeDate } from './resolve-relative-date';
export { resolveRelativeDateTool } from './resolve-relative-date-tool';
