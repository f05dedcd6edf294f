import { SpeechProviderError } from '../../shared/ports/speech';

/** The SpeechProviderError a speech call rejects with; anything else (or success) fails the test. */
export async function speechFailureOf(promise: Promise<unknown>): Promise<SpeechProviderError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof SpeechProviderError))
    throw new Error(`not a SpeechProviderError: ${error}`);
  return error;
}
