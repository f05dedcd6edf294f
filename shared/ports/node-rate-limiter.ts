/** Whether a node's request may run now, or when it may try again. */
export type RateDecision =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly retryAfterSeconds: number };

/** Fair use per node, shared by every container that serves it. */
export interface NodeRateLimiter {
  /** The limit this limiter enforces, for the messages of its refusals. */
  readonly limit: { readonly requests: number; readonly windowSeconds: number };
  /** Counts one request of `nodeId` and says whether it is within the limit. */
  admit(nodeId: string): Promise<RateDecision>;
}
