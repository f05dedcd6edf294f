import { PollyServiceException } from '@aws-sdk/client-polly';
import { SpeechFailure, SpeechProviderError } from '../../ports/speech';
import { replyTooLargeIn } from './aws-reply-limit';

const DIRECTION = 'text_to_speech';

/** Polly's throttles are 400s by status; they mean "not now", not "never". */
const THROTTLES = new Set(['ThrottlingException', 'TooManyRequestsException']);

/**
 * What the Polly client (or the audio stream under it) threw, as a `SpeechProviderError`: a
 * refusal of the request (an unknown voice, a voice without that engine, text too long) is
 * `rejected`; a throttle, a 5xx or a network failure `unavailable`; the deadline a `timeout`.
 * Messages carry Polly's error name and message, never credentials (Polly sends none back).
 */
export function speechFailureFromPolly(
  error: unknown,
  deadlineExpired: boolean,
): SpeechProviderError {
  if (error instanceof SpeechProviderError) return error;
  const fail = (failure: SpeechFailure, message: string) =>
    new SpeechProviderError(failure, DIRECTION, message, { cause: copyOf(error) });
  const tooLarge = replyTooLargeIn(error);
  if (tooLarge !== null) {
    // Its own words: the SDK appends a hint about the raw response to the message it threw.
    return fail(SpeechFailure.malformedReply, `${tooLarge.message}; not read further`);
  }
  if (deadlineExpired || (error instanceof Error && error.name === 'AbortError')) {
    return fail(SpeechFailure.timeout, 'Polly did not answer within the time given');
  }
  if (error instanceof PollyServiceException) {
    const detail = `Polly ${error.name} (HTTP ${error.$metadata.httpStatusCode ?? '?'}): ${error.message}`;
    const unavailable = error.$fault === 'server' || THROTTLES.has(error.name);
    return fail(unavailable ? SpeechFailure.unavailable : SpeechFailure.rejected, detail);
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    return fail(SpeechFailure.timeout, `Polly: ${error.message}`);
  }
  if (error instanceof Error) {
    // Connection refused or reset, DNS, a body cut off: the SDK's and Node's own errors.
    return fail(
      SpeechFailure.unavailable,
      `Polly could not be reached: ${error.name}: ${error.message}`,
    );
  }
  throw error;
}

/** The SDK error carries the raw response; a logger serializing `cause` should not. */
function copyOf(error: unknown): Error | undefined {
  if (!(error instanceof Error)) return undefined;
  const copy = new Error(error.message);
  copy.name = error.name;
  return copy;
}
