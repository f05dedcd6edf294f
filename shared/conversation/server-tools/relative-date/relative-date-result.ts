/** What the tool needs to know about the node: its IANA zone and the reference instant. */
export interface RelativeDateContext {
  readonly timezone: string;
  /** Epoch milliseconds, from the Clock port. */
  readonly now: number;
}

/** `instant`: one moment; `day`: one calendar day; `days`: several; `period`: a span such as tonight. */
export type RelativeDateKind = 'instant' | 'day' | 'days' | 'period';

export interface ResolvedRelativeDate {
  readonly resolved: true;
  readonly term: string;
  readonly timezone: string;
  readonly kind: RelativeDateKind;
  /** ISO-8601 with the zone's offset, e.g. 2026-01-17T00:00:00-05:00: each day's local start, or the instant. */
  readonly values: readonly string[];
  /**
   * Each covered day's start in UTC, e.g. 2026-01-17T05:00:00Z (for an instant: its UTC form).
   * Node commands typed array<datetime> take these directly.
   */
  readonly utcValues: readonly string[];
  /** For periods such as this_morning or tonight: start and end, ISO with offset. */
  readonly start?: string;
  readonly end?: string;
  readonly description: string;
}

export interface UnresolvedRelativeDate {
  readonly resolved: false;
  readonly term: string;
  readonly message: string;
  readonly acceptedTerms: readonly string[];
}

export type RelativeDateResult = ResolvedRelativeDate | UnresolvedRelativeDate;
