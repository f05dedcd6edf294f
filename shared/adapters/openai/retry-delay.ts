/** How the adapter spaces its attempts. The deadline of each call bounds them all. */
export interface BackoffSettings {
  /** Delay before the first retry, before jitter. */
  readonly baseDelayMs: number;
  /** Upper bound of the exponential delay. A server's `Retry-After` is not capped by it. */
  readonly maxDelayMs: number;
  /** Attempts per call, the first included, even when time would allow more. */
  readonly maxAttempts: number;
}

export const defaultBackoff: BackoffSettings = {
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxAttempts: 5,
};

/**
 * The delay the server asks for, in milliseconds: `retry-after-ms` (OpenAI's own header) first,
 * then `Retry-After` as seconds or as an HTTP date. Null when absent or unreadable.
 */
export function readRetryAfterMs(
  headers: { get(name: string): string | null } | undefined,
  nowMs: number,
): number | null {
  const milliseconds = parseNonNegative(headers?.get('retry-after-ms'));
  if (milliseconds !== null) {
    return milliseconds;
  }
  const header = headers?.get('retry-after')?.trim();
  if (header === undefined || header === '') {
    return null;
  }
  const seconds = parseNonNegative(header);
  if (seconds !== null) {
    return seconds * 1000;
  }
  // An HTTP date always names its day and month; without letters, `Date.parse` would read "-1"
  // as the year -1.
  const date = /[a-z]/i.test(header) ? Date.parse(header) : Number.NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

/**
 * Exponential backoff with "equal jitter": half the exponential delay is kept, the other half is
 * random, so clients spread out yet never retry at once. `retryNumber` counts from 1.
 * `random` is a number in [0, 1).
 */
export function backoffDelayMs(
  retryNumber: number,
  settings: BackoffSettings,
  random: number,
): number {
  const exponential = settings.baseDelayMs * 2 ** Math.max(0, retryNumber - 1);
  const capped = Math.min(settings.maxDelayMs, exponential);
  return capped / 2 + (random * capped) / 2;
}

function parseNonNegative(text: string | null | undefined): number | null {
  if (text === null || text === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(text)) {
    return null;
  }
  return Number.parseFloat(text);
}
