/**
 * How an adapter waits: real timers in production, a fake in tests, so a timeout is tested
 * without sleeping. A handle is whatever `set` returned.
 */
export interface SpeechTimers {
  set(callback: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

/** Node fires longer timers after 1 ms; an unbounded `timeoutMs` must not turn into that. */
const longestTimerMs = 2 ** 31 - 1;

export const systemTimers: SpeechTimers = {
  set: (callback, delayMs) => setTimeout(callback, Math.min(delayMs, longestTimerMs)).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** One call's deadline: its signal aborts when the time is up or the caller's signal aborts. */
export interface SpeechDeadline {
  readonly signal: AbortSignal;
  /** Whether the deadline (not the caller) ended the call. */
  expired(): boolean;
  /** Stops the timer; the call is over. */
  clear(): void;
}

/**
 * Starts the deadline of a call that must end within `timeoutMs`, body included (the SDK's own
 * timeout stops at the response headers; a stream can stall after them).
 */
export function startDeadline(
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  timers: SpeechTimers,
): SpeechDeadline {
  const controller = new AbortController();
  let expired = false;
  const handle = timers.set(
    () => {
      expired = true;
      controller.abort(new Error(`no answer within ${timeoutMs} ms`));
    },
    Math.max(0, timeoutMs),
  );
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    expired: () => expired,
    clear: () => {
      timers.clear(handle);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}
