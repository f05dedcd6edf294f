import type { ScriptStep } from '../support/scripted-llm-server';

/**
 * One hostile request through the real handlers (hostile-requests.ts, reply-side-requests.ts,
 * multiplied-requests.ts): a registration, what the model sends, the request, and the statuses it
 * may get.
 */
export interface HostileRequestCase {
  readonly name: string;
  readonly registration: Record<string, unknown>;
  /** The model's replies to the hostile request, in order (repeated up to the retry budget). */
  readonly modelReplies: readonly ScriptStep[];
  /** The request's path and body; null when the registration itself is the attack. */
  readonly request: { readonly path: string; readonly body: Record<string, unknown> } | null;
  /** Sent instead of the node's key: the request is anonymous. */
  readonly anonymous?: boolean;
  readonly expectedStatuses: readonly number[];
}

export const VOICE_COMMAND_PATH = '/api/v0/voice/command';

/** A voice/command saying `text`: the request most cases make. */
export const utterance = (text: string) => ({
  path: VOICE_COMMAND_PATH,
  body: { voice_command: text },
});
