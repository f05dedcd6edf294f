import { SpeechFailure, SpeechProviderError } from '../../ports/speech';
import { AWS_CREDENTIAL_ERRORS } from '../openai/classify-aws-refusal';
import { replyTooLargeIn } from './aws-reply-limit';

const DIRECTION = 'speech_to_text';

/** Transcribe's refusals that mean "not now": its quotas of streams and of calls a second. */
const THROTTLES = new Set([
  'LimitExceededException',
  'ThrottlingException',
  'TooManyRequestsException',
]);

/** What the operator must do about each refusal of the service itself. */
const FIXES = {
  [SpeechFailure.credentialsRejected]:
    'AWS refused the credentials the stream was signed with (missing, expired or invalid): in ' +
    "Lambda, check the function's role; locally, refresh them (aws sso login, AWS_PROFILE)",
  [SpeechFailure.permissionDenied]:
    "the role may not stream to Transcribe: allow the IAM action transcribe:StartStreamTranscription on the function's role (the stack grants it with sttProvider transcribe: docs/deploy.md)",
  [SpeechFailure.throttled]:
    "Transcribe's quota refused a new stream (concurrent HTTP/2 streams, or StartStreamTranscription calls a second, in the region; 5 each by default): request more in Service Quotas, or fewer recordings at once",
} as const;

/** AWS's words may quote the canonical request: a signature or a token never reaches a log. */
const scrub = (text: string): string =>
  text
    .replace(/[0-9a-f]{64}/g, '[redacted]')
    .replace(/(X-Amz-Security-Token|x-amz-security-token)[:=]\s*\S+/g, '$1: [redacted]')
    .slice(0, 300);

interface AwsErrorShape {
  readonly name: string;
  readonly message: string;
  readonly $fault?: 'client' | 'server';
  readonly $metadata?: { readonly httpStatusCode?: number };
}

const isAwsError = (error: unknown): error is Error & AwsErrorShape =>
  error instanceof Error && '$metadata' in error;

/**
 * What the Transcribe streaming client (or its event stream) threw, as a `SpeechProviderError`.
 * The service's own refusals each have a failure and a fix: the credentials, the IAM action,
 * the quotas. A request Transcribe finds wrong (an unknown language, a rate it does not take) is
 * `rejected`; its 5xx, a network failure or a stream cut off `unavailable`; a call `stopped` (the
 * deadline, or the caller gone) a `timeout`. No credential, token or signature is ever part of a message.
 */
export function speechFailureFromTranscribe(error: unknown, stopped: boolean): SpeechProviderError {
  if (error instanceof SpeechProviderError) return error;
  const fail = (failure: SpeechFailure, message: string, keepWords = true) =>
    new SpeechProviderError(failure, DIRECTION, message, { cause: copyOf(error, keepWords) });
  const tooLarge = replyTooLargeIn(error);
  if (tooLarge !== null) return fail(SpeechFailure.malformedReply, tooLarge.message);
  if (stopped || (error instanceof Error && error.name === 'AbortError')) {
    return fail(
      SpeechFailure.timeout,
      'Transcribe did not finish within the time given, or the caller left',
    );
  }
  if (error instanceof Error && error.name === 'CredentialsProviderError') {
    // The chain's own message names where it looked, never a value.
    return refusal(SpeechFailure.credentialsRejected, `no AWS credentials: ${error.message}`);
  }
  if (isAwsError(error)) {
    const status = error.$metadata?.httpStatusCode;
    const named = `Transcribe ${error.name}${status === undefined ? '' : ` (HTTP ${status})`}`;
    if (AWS_CREDENTIAL_ERRORS.has(error.name) || status === 401) {
      // Its words may quote the string that was signed: only the name is kept.
      return refusal(SpeechFailure.credentialsRejected, named, false);
    }
    if (error.name === 'AccessDeniedException' || status === 403) {
      return refusal(SpeechFailure.permissionDenied, `${named}: ${scrub(error.message)}`);
    }
    if (THROTTLES.has(error.name) || status === 429) {
      return refusal(SpeechFailure.throttled, `${named}: ${scrub(error.message)}`);
    }
    const detail = `${named}: ${scrub(error.message)}`;
    return fail(
      error.$fault === 'server' ? SpeechFailure.unavailable : SpeechFailure.rejected,
      detail,
    );
  }
  if (error instanceof Error) {
    // Connection refused or reset, a stream cut off: the SDK's and Node's own errors.
    return fail(
      SpeechFailure.unavailable,
      `Transcribe could not be reached: ${error.name}: ${scrub(error.message)}`,
    );
  }
  throw error;

  function refusal(failure: keyof typeof FIXES, detail: string, keepWords = true) {
    return fail(failure, `${detail}. To fix: ${FIXES[failure]}`, keepWords);
  }
}

/**
 * The SDK error carries the raw response (and the request's headers); a log of `cause` should
 * not. Without `keepWords`, only its name.
 */
function copyOf(error: unknown, keepWords: boolean): Error | undefined {
  if (!(error instanceof Error)) return undefined;
  const copy = new Error(keepWords ? scrub(error.message) : '');
  copy.name = error.name;
  return copy;
}
