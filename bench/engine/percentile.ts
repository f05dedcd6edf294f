/**
 * The nearest-rank percentile (`fraction` in 0..1) of `samples`: a value that was really
 * measured, never an interpolation between two. NaN for no samples.
 */
export function percentile(samples: readonly number[], fraction: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((left, right) => left - right);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(fraction * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

/** The nearest-rank median: `percentile(samples, 0.5)`. */
export const median = (samples: readonly number[]): number => percentile(samples, 0.5);

/** `value` rounded to `decimals` places, as a number (so tables can compare it to a budget). */
export const roundTo = (value: number, decimals: number): number => Number(value.toFixed(decimals));
