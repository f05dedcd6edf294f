/**
 * The limits of the speech routes (docs/speech-limits.md): each is answered with
 * a 4xx naming it, before the provider is asked.
 */
export const SPEECH_LIMITS = {
  /**
   * An upload to media/whisper/transcribe, in bytes as sent. A node's default recording (7 s at
   * 48 kHz, mono, 16-bit) is 672,044 bytes; 4 MiB leaves room for a node recording up to 43 s at
   * 48 kHz (or two channels). The bound that matters is Lambda's 6 MB invocation payload: API
   * Gateway hands a binary body to Lambda base64-encoded (4/3 larger), so 4 MiB becomes 5.6 MB
   * with the event around it; API Gateway's own 10 MB limit is never the one reached.
   */
  uploadBytes: 4 * 1024 * 1024,
  /** A recording's duration as its header says: what a transcription of one utterance needs. */
  recordingSeconds: 60,
  /**
   * The text every recognizer may answer, in characters: voice/command's utterance limit, so the
   * node can send it on. Speech runs about 15 characters a second; a model that loops on noise
   * writes up to 224 tokens per 30 s window: past the limit a 502, never a cut text
   * (shared/adapters/speech/transcript-limit.ts).
   */
  transcriptCharacters: 2_000,
  /**
   * Text to speak, in characters: Amazon Polly's SynthesizeSpeech takes 3,000 billed characters
   * (OpenAI's speech API 4,096), so every provider takes what we accept.
   */
  speakCharacters: 3_000,
} as const;
