import type OpenAI from 'openai';
import { LanguageModelFailure, type ModelReply } from '../../ports/language-model';
import { type AttemptFailure, classifyFailure, type Redact } from './classify-failure';
import { readChatReply } from './read-chat-reply';

/** What one chat completion request came to: a reply, or a failure the caller may retry. */
export type AttemptOutcome =
  | { readonly ok: true; readonly reply: ModelReply }
  | { readonly ok: false; readonly failed: AttemptFailure };

/** Node fires longer timers after 1 ms; an unbounded `timeoutMs` must not turn into that. */
const longestTimerMs = 2 ** 31 - 1;

export interface ChatAttempt {
  readonly client: OpenAI;
  readonly redact: Redact;
  /** Wall-clock milliseconds, for a `Retry-After` date. */
  readonly now: () => number;
  /** Bedrock's region when the client signs for it: its refusals are judged as AWS's. */
  readonly aws: { readonly region: string } | null;
}

/**
 * One request through the SDK with its own retries off, within `remainingMs`. `body` is the
 * request's JSON (chatRequestText), posted as it is: the SDK's generic `post` sends a string body
 * with its content type unchanged, with the same authentication, errors and timeout as
 * `chat.completions.create`, which would encode the whole request again. Failures the SDK
 * throws are classified (anything else is a bug and thrown on); a reply that does not read as a
 * chat completion is a non-retryable `malformed_reply`, its issues redacted.
 */
export async function attemptChat(
  attempt: ChatAttempt,
  body: string,
  remainingMs: number,
  signal: AbortSignal | undefined,
): Promise<AttemptOutcome> {
  let response: unknown;
  try {
    response = await attempt.client.post('/chat/completions', {
      body,
      headers: { 'content-type': 'application/json' },
      timeout: Math.min(Math.ceil(remainingMs), longestTimerMs),
      maxRetries: 0,
      signal: signal ?? null,
    });
  } catch (error) {
    const failed = classifyFailure(error, attempt.redact, attempt.now(), attempt.aws);
    if (failed === null) {
      throw error;
    }
    return { ok: false, failed };
  }
  const reply = readChatReply(response);
  if (reply.ok) {
    return { ok: true, reply: reply.value };
  }
  const detail = attempt.redact(reply.issues.join('; '));
  return {
    ok: false,
    failed: {
      failure: LanguageModelFailure.malformedReply,
      retryable: false,
      retryAfterMs: null,
      detail,
      cause: new Error(detail),
    },
  };
}
