import { LanguageModelFailure } from '../../ports/language-model';
import { SpeechFailure, SpeechProviderError } from '../../ports/speech';
import { classifyFailure, type Redact } from '../openai/classify-failure';

type Direction = SpeechProviderError['direction'];

/** The SDK's verdicts, in speech's words: a throttle is the provider being unavailable. */
const speechFailureOf: Record<LanguageModelFailure, SpeechFailure> = {
  [LanguageModelFailure.rateLimited]: SpeechFailure.unavailable,
  [LanguageModelFailure.unavailable]: SpeechFailure.unavailable,
  [LanguageModelFailure.timeout]: SpeechFailure.timeout,
  [LanguageModelFailure.rejected]: SpeechFailure.rejected,
  [LanguageModelFailure.malformedReply]: SpeechFailure.malformedReply,
  [LanguageModelFailure.busy]: SpeechFailure.unavailable,
  // The AWS refusals of the Bedrock model (classify-aws-refusal.ts): never a speech server's.
  [LanguageModelFailure.credentialsRejected]: SpeechFailure.rejected,
  [LanguageModelFailure.permissionDenied]: SpeechFailure.rejected,
  [LanguageModelFailure.modelAccessDenied]: SpeechFailure.rejected,
};

/**
 * What the `openai` SDK (or the body stream under it) threw, as a `SpeechProviderError`: the
 * same rules as the model's (classify-failure.ts), the key scrubbed from every message. An abort
 * is a timeout when the deadline fired. An error none of them explains is a bug, rethrown.
 * `nowMs` is the adapter's wall clock (its Timing), which a `Retry-After` date is read against.
 */
export function speechFailureFromSdk(
  error: unknown,
  direction: Direction,
  redact: Redact,
  deadlineExpired: boolean,
  nowMs: number,
): SpeechProviderError {
  if (error instanceof SpeechProviderError) return error;
  if (deadlineExpired || isAbort(error)) {
    return new SpeechProviderError(
      SpeechFailure.timeout,
      direction,
      'no answer within the time given',
    );
  }
  const judged = classifyFailure(error, redact, nowMs);
  if (judged === null) throw error;
  return new SpeechProviderError(speechFailureOf[judged.failure], direction, judged.detail, {
    cause: judged.cause,
  });
}

const isAbort = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError');
