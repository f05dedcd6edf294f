import { SpeechFailure, SpeechProviderError } from '../../ports/speech';

/**
 * A recognizer's text, trimmed, or null when it holds more than `maxCharacters`
 * (`transcriptCharacters`). Speech runs about 15 characters a second, so no recording within its
 * limit says that much: a longer text is a model looping on a window of noise, and a cut of it
 * would be a success the node could not tell from what was said.
 */
export function transcriptWithinLimit(text: string, maxCharacters: number): string | null {
  const trimmed = text.trim();
  return transcriptCharacters(trimmed) <= maxCharacters ? trimmed : null;
}

/**
 * Characters of a transcript as the limit counts them: code points (an emoji is one), as the
 * schemas' `maxLength` counts voice/command's `voice_command`, where the node sends the text on,
 * and the transcript in the response. Counted in UTF-16 units, a text of the limit's length in
 * emoji or in the rarer CJK ideographs was refused though the node could send it.
 */
export function transcriptCharacters(text: string): number {
  let characters = 0;
  for (const _ of text) characters += 1;
  return characters;
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
