/** Measures of a signal for the resampling tests: how loud it is, and how much of it is one tone. */

/** The middle of a signal: `edgeSeconds` left out at either end, where a filter fades in and out. */
export const middle = (samples: Float32Array, rate: number, edgeSeconds = 0.1) =>
  samples.subarray(Math.round(rate * edgeSeconds), samples.length - Math.round(rate * edgeSeconds));

/** Mean power of `samples` (a sine of amplitude a has a²/2). */
export const power = (samples: Float32Array) =>
  samples.reduce((sum, value) => sum + value * value, 0) / samples.length;

/** Mean power of the `hz` component (Goertzel): how much of the signal is that tone. */
export function powerAt(samples: Float32Array, rate: number, hz: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * hz) / rate);
  let previous = 0;
  let before = 0;
  for (const sample of samples) {
    const current = sample + coefficient * previous - before;
    before = previous;
    previous = current;
  }
  const magnitude = previous * previous + before * before - coefficient * previous * before;
  return (2 * magnitude) / (samples.length * samples.length);
}
