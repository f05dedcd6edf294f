import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { LanguageModelFailure } from '../../ports/language-model';
import { AwsCredentialsUnavailableError } from './bedrock-signing-fetch';
import { classifyAwsRefusal } from './classify-aws-refusal';
import { ReplyHeadersRefusedError } from './provider-fetch';
import { ReplyBodyTooLargeError } from './reply-body-limit';
import { ReplyFramingRefusedError } from './reply-framing-guard';
import { readRetryAfterMs } from './retry-delay';

/** One failed attempt, judged: what it means for the caller and whether another may help. */
export interface AttemptFailure {
  readonly failure: LanguageModelFailure;
  readonly retryable: boolean;
  /** What the server asked us to wait, if it said. */
  readonly retryAfterMs: number | null;
  /** Human-readable, already scrubbed of the API key. */
  readonly detail: string;
  /** The original error's name and scrubbed message, never the SDK error itself (see below). */
  readonly cause: Error;
}

/** Removes every occurrence of the API key from a text that came from the SDK or the server. */
export type Redact = (text: string) => string;

/**
 * Sorts what the SDK threw into our failures. Rules: 429 is rate limiting; 5xx and connection
 * failures mean the server is unavailable; a timeout is a timeout, not retried (each attempt
 * has all the time the call has left); every other status is the
 * request being refused and is not retried. A body that does not parse is a malformed reply; one
 * over the byte limit too, but retried, as are headers over theirs (provider-fetch.ts).
 * `x-should-retry: false` (OpenAI's own hint) vetoes a retry.
 * With `aws` (Bedrock, signed with SigV4), a 401/403/404 says which of the credentials, the IAM
 * policy or the model access to fix (classify-aws-refusal.ts), and credentials that cannot be
 * found fail at once: none of these is retried.
 * Returns null for an error that is none of these: a bug, which the caller rethrows.
 */
export function classifyFailure(
  error: unknown,
  redact: Redact,
  nowMs: number,
  aws: { readonly region: string } | null = null,
): AttemptFailure | null {
  const judge = (
    failed: Error,
    failure: LanguageModelFailure,
    retryable: boolean,
    detail: string,
    retryAfterMs: number | null = null,
    fix?: string,
  ) => judged(failed, redact, { failure, retryable, retryAfterMs, detail }, fix);
  if (error instanceof APIUserAbortError) {
    // The caller's signal fired: its own deadline, in practice.
    return judge(
      error,
      LanguageModelFailure.timeout,
      false,
      'the call was cancelled by the caller',
    );
  }
  if (error instanceof APIConnectionTimeoutError) {
    // The attempt was given all the time the call had left: none remains for another.
    return judge(error, LanguageModelFailure.timeout, false, 'no reply within the time given');
  }
  if (
    error instanceof APIConnectionError &&
    error.cause instanceof AwsCredentialsUnavailableError
  ) {
    // What the signer threw before sending: the SDK reports it as a connection failure.
    const fix = 'give the function a role, or locally AWS credentials (aws sso login, AWS_PROFILE)';
    return judge(
      error,
      LanguageModelFailure.credentialsRejected,
      false,
      error.cause.message,
      null,
      fix,
    );
  }
  if (error instanceof APIConnectionError && error.cause instanceof ReplyHeadersRefusedError) {
    // Headers over their limits, or not HTTP: as a body over its limit, another attempt at once.
    return judge(error, LanguageModelFailure.malformedReply, true, error.cause.message, 0);
  }
  if (error instanceof APIConnectionError) {
    return judge(
      error,
      LanguageModelFailure.unavailable,
      true,
      `connection failed: ${error.message}`,
    );
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const retryable = error.headers?.get('x-should-retry') !== 'false';
    const retryAfterMs = readRetryAfterMs(error.headers, nowMs);
    const detail = `HTTP ${error.message}`;
    const refusal =
      aws === null
        ? null
        : classifyAwsRefusal(
            error.status,
            error.type ?? error.headers?.get('x-amzn-errortype') ?? null,
            error.message,
            aws.region,
          );
    if (refusal !== null) {
      const typed = error.type === undefined ? '' : ` (${error.type})`;
      return judge(error, refusal.failure, false, `${detail}${typed}`, null, refusal.fix);
    }
    if (error.status === 429) {
      return judge(error, LanguageModelFailure.rateLimited, retryable, detail, retryAfterMs);
    }
    if (error.status >= 500) {
      return judge(error, LanguageModelFailure.unavailable, retryable, detail, retryAfterMs);
    }
    return judge(error, LanguageModelFailure.rejected, false, detail);
  }
  if (error instanceof ReplyFramingRefusedError) {
    // Framing outgrew its body (chunk-size lines, extensions): as a body over its limit.
    return judge(error, LanguageModelFailure.malformedReply, true, error.message, 0);
  }
  if (error instanceof ReplyBodyTooLargeError) {
    // Never read whole nor parsed; another generation may well be of a sane size. At once, as the
    // turn asks again after a text over its limit: the server is not overloaded, it misbehaved.
    return judge(error, LanguageModelFailure.malformedReply, true, error.message, 0);
  }
  if (error instanceof SyntaxError) {
    // A body announced as JSON that does not parse: garbage, or a reply cut off mid-way.
    return judge(
      error,
      LanguageModelFailure.malformedReply,
      false,
      `the body is not valid JSON: ${error.message}`,
    );
  }
  if (error instanceof TypeError) {
    // What fetch throws when the connection drops while the body is being read ("terminated").
    const reason = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return judge(
      error,
      LanguageModelFailure.unavailable,
      true,
      `connection failed: ${error.message}${reason}`,
    );
  }
  return null;
}

function judged(
  error: Error,
  redact: Redact,
  verdict: Omit<AttemptFailure, 'cause'>,
  fix?: string,
): AttemptFailure {
  // The SDK error carries the response body and headers, which a self-hosted server may fill
  // with the key it received; a logger serializing `cause` would print them. Keep only a copy.
  const cause = new Error(redact(error.message));
  cause.name = error.name;
  // The fix is ours and short: never cut off with the server's words.
  const detail = truncate(redact(verdict.detail)) + (fix === undefined ? '' : `. To fix: ${fix}`);
  return { ...verdict, detail, cause };
}

const truncate = (text: string): string => (text.length > 300 ? `${text.slice(0, 300)}...` : text);
