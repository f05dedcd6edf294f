/** A request to the API as the bench timed it, on the real clock (`performance.now()`). */
export interface CallWindow {
  readonly realStartMs: number;
  readonly realEndMs: number;
}

/** What the latency model recorded of one model request (a `ServedRequest`'s timing fields). */
export interface ModelRequestTiming {
  readonly realArrivalMs: number;
  readonly realEndMs: number | null;
  /** Modeled clock. */
  readonly arrivalMs: number;
  readonly finishMs: number;
  readonly abandoned: boolean;
}

/** A model request the API made for `call`: it arrived while the call ran. */
const arrivedDuring = (call: CallWindow, request: ModelRequestTiming): boolean =>
  request.realArrivalMs >= call.realStartMs && request.realArrivalMs <= call.realEndMs;

/**
 * How long an API request takes with the modeled model, from the server's own accounting: the
 * real time the API spent on its own (everything but waiting for the model) plus, for each model
 * request it made, the modeled time from arrival to answer (queue wait, prompt, generation). A
 * model request the API gave up on (the turn deadline) counts the real time it was waited for,
 * scaled, which is how the API's deadline saw it. The real time of the API's own work is not
 * scaled, so a turn's server overhead stays what it is (a few ms), not 20 times that.
 */
export function modeledCallMs(
  call: CallWindow,
  requests: readonly ModelRequestTiming[],
  timeScale: number,
): number {
  let waitedRealMs = 0;
  let modeledMs = 0;
  for (const request of requests) {
    if (!arrivedDuring(call, request)) continue;
    const end = Math.min(request.realEndMs ?? call.realEndMs, call.realEndMs);
    const answered =
      !request.abandoned && request.realEndMs !== null && request.realEndMs <= call.realEndMs;
    const waitedMs = Math.max(0, end - request.realArrivalMs);
    waitedRealMs += waitedMs;
    modeledMs += answered ? request.finishMs - request.arrivalMs : waitedMs * timeScale;
  }
  return call.realEndMs - call.realStartMs - waitedRealMs + modeledMs;
}

/** What the model wrote for an API request: the tokens its model requests generated, and how long that took. */
export interface ModelWriting {
  readonly tokens: number;
  readonly ms: number;
}

/** The generation of every model request that arrived while `call` ran (modeled). */
export function modelWritingDuring(
  call: CallWindow,
  requests: readonly (ModelRequestTiming & {
    readonly generatedTokens: number;
    readonly generationMs: number;
  })[],
): ModelWriting {
  let tokens = 0;
  let ms = 0;
  for (const request of requests) {
    if (!arrivedDuring(call, request)) continue;
    tokens += request.generatedTokens;
    ms += request.generationMs;
  }
  return { tokens, ms };
}
