/**
 * A claim on one request id of one conversation while its turn runs. It keeps a repeat of the
 * request (a node that timed out and resent) from starting a second model call: the repeat finds
 * the claim and is told to retry, then finds the recorded response.
 */
export interface RequestClaim {
  readonly nodeId: string;
  readonly conversationId: string;
  readonly requestId: string;
  /** Hash of what the request asked; a repeat with another fingerprint is a reused id. */
  readonly fingerprint: string;
  /** Epoch milliseconds after which the claim is void: its request died without releasing it. */
  readonly heldUntil: number;
}

export type ClaimResult =
  /** `token` names this claim alone: only its holder can release it. */
  | { readonly acquired: true; readonly token: string }
  /** A live claim on the same id exists; `fingerprint` is what that request asked. */
  | { readonly acquired: false; readonly fingerprint: string };

export interface RequestLocks {
  /** Takes the claim unless a live claim on the same id exists. Never waits. */
  acquire(claim: RequestClaim): Promise<ClaimResult>;
  /** Gives up the claim `token` names if it still holds; another request's claim is left alone. */
  release(claim: RequestClaim, token: string): Promise<void>;
}
