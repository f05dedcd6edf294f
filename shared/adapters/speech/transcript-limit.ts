import { SpeechFailure, SpeechProviderError } from '../../ports/speech';

/**
 * A recognizer's text, trimmed, or null when it holds more than `maxCharacters` (UTF-16 code
 * units, as JSON Schema's maxLength counts voice/command's `voice_command`, where the node sends
 * it). Speech runs about 15 characters a second, so no recording within its limit says that much:
 * a longer text is a model looping on a window of noise, and a cut of it would be a success the
 * node could not tell from what was said.
 */
export function transcriptWithinLimit(text: string, maxCharacters: number): string | null {
  const trimmed = text.trim();
  return trimmed.length <= maxCharacters ? trimmed : null;
}

/**
 * Every recognizer's answer to a transcript past the limit (the embedded one, Transcribe, a
 * transcription server): `502 speech_provider_failed` (`malformed_reply`), no text.
 */
export function transcriptTooLongError(
  recognizer: string,
  maxCharacters: number,
): SpeechProviderError {
  return new SpeechProviderError(
    SpeechFailure.malformedReply,
    'speech_to_text',
    `${recognizer}'s transcript passed ${maxCharacters} characters, voice/command's utterance limit`,
  );
}
