/**
 * What a route answers when a way of speech has no provider: the settings to set, for its 503.
 * Settings are read in shared/adapters/config; these are their names, nothing else.
 */
const speechNotConfigured = {
  speech_to_text: {
    settings: ['STT_BASE_URL', 'STT_MODEL', 'STT_PROVIDER'],
    message:
      'speech in is not configured: set STT_BASE_URL (an OpenAI-compatible transcription server) and STT_MODEL, or STT_PROVIDER=transcribe; under npm start, STT_MODEL alone (not none) hears with the embedded recognizer',
  },
  text_to_speech: {
    settings: ['TTS_PROVIDER'],
    message: 'speech out is not configured: set TTS_PROVIDER (polly, openai or embedded)',
  },
} as const satisfies Record<
  'speech_to_text' | 'text_to_speech',
  { readonly settings: readonly string[]; readonly message: string }
>;

/** A speech route asked for a way of speech this deployment has no provider for (a 503). */
export class SpeechNotConfiguredError extends Error {
  override readonly name = 'SpeechNotConfiguredError';
  readonly settings: readonly string[];
  constructor(readonly direction: keyof typeof speechNotConfigured) {
    super(speechNotConfigured[direction].message);
    this.settings = speechNotConfigured[direction].settings;
  }
}
