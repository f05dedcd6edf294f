/**
 * Expected failures are values, not exceptions: a check either yields its value or the full list
 * of issues it found, so callers can report every problem at once.
 */
export type Result<T, I> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly I[] };

export const success = <T>(value: T): { readonly ok: true; readonly value: T } => ({
  ok: true,
  value,
});

export const failure = <I>(
  issues: readonly I[],
): { readonly ok: false; readonly issues: readonly I[] } => ({
  ok: false,
  issues,
});
