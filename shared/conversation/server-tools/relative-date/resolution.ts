import type { PlainDate } from './plain-date';

/**
 * A term resolved but not yet formatted: instants are epoch milliseconds, days are calendar days
 * of the node's zone. Kept apart from formatting so each resolver stays small and testable.
 */
export type Resolution =
  | { readonly kind: 'instant'; readonly instant: number }
  | { readonly kind: 'day' | 'days'; readonly days: readonly PlainDate[] }
  | {
      readonly kind: 'period';
      /** The day the period is named after (tonight: the evening's day). */
      readonly day: PlainDate;
      readonly start: number;
      readonly end: number;
    };

/** A single calendar day. */
export const singleDay = (day: PlainDate): Resolution => ({ kind: 'day', days: [day] });

/** Several calendar days, in order. */
export const severalDays = (days: readonly PlainDate[]): Resolution => ({ kind: 'days', days });
