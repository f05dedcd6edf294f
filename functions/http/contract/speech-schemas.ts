import type { SchemaType } from './schema-type';
import { SPEECH_LIMITS } from './speech-limits';

/** POST media/tts/speak and speak/stream: `{"text"}`, as the node's TTS provider sends it. */
export const speakRequestSchema = {
  $id: 'SpeakRequest',
  type: 'object',
  required: ['text'],
  properties: {
    text: {
      type: 'string',
      minLength: 1,
      maxLength: SPEECH_LIMITS.speakCharacters,
      // Something to say: whitespace alone is nothing (the synthesizer would have no piece).
      pattern: '\\S',
      description: `What to say: at most ${SPEECH_LIMITS.speakCharacters} characters, not only whitespace (400 otherwise).`,
    },
  },
} as const;

/** media/whisper/transcribe's answer; the node reads `text` (and `speaker`, never sent here). */
export const transcriptionResponseSchema = {
  type: 'object',
  required: ['text'],
  properties: {
    text: {
      type: 'string',
      maxLength: SPEECH_LIMITS.transcriptCharacters,
      description: `What was said; empty when nothing was heard. At most ${SPEECH_LIMITS.transcriptCharacters} characters, voice/command's utterance limit: a recognizer that says more answers 502 speech_provider_failed, never a cut text.`,
    },
  },
} as const;

export type TranscriptionResponse = SchemaType<typeof transcriptionResponseSchema>;
