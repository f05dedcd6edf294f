export { ACCEPTED_TERMS } from './accepted-terms';
export { buildDateContext, type DateContext } from './date-context';
export type {
  RelativeDateContext,
  RelativeDateKind,
  RelativeDateResult,
  ResolvedRelativeDate,
  UnresolvedRelativeDate,
} from './relative-date-result';
export { MAX_TERM_LENGTH, resolveRelativeDate } from './resolve-relative-date';
export { resolveRelativeDateTool } from './resolve-relative-date-tool';
