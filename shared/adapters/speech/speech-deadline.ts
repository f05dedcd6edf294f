import type { Timing } from '../system/timing';

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
 * timeout stops at the response headers; a stream can stall after them). The wait is one of
 * `timing`'s sleeps, so a test ends it on a fake clock instead of waiting for it.
 */
export function startDeadline(
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  timing: Timing,
): SpeechDeadline {
  const controller = new AbortController();
  const cleared = new AbortController();
  let expired = false;
  timing.sleep(Math.max(0, timeoutMs), cleared.signal).then(
    () => {
      expired = true;
      controller.abort(new Error(`no answer within ${timeoutMs} ms`));
    },
    // Cleared: the call ended first.
    () => undefined,
  );
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    expired: () => expired,
    clear: () => {
      cleared.abort();
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}
