/**
 * Speech in and speech out, beside `LanguageModel`: the core and the edge see PCM and text,
 * never a vendor or HTTP. Adapters: an OpenAI-compatible audio API (speech in and out), Amazon
 * Polly (speech out), Amazon Transcribe streaming (speech in), and for `npm start` an embedded synthesizer (speech out) and an embedded
 * whisper.cpp recognizer (speech in).
 */

/** How the PCM samples of a recording or a synthesis are laid out (little-endian, signed). */
export interface PcmFormat {
  readonly sampleRate: number;
  readonly channels: number;
  /** Bytes per sample: 2 for 16-bit PCM. */
  readonly sampleWidth: number;
}

/** A recording checked at the edge: its WAV bytes as sent, and what its header says. */
export interface Recording {
  /** The whole WAV file, header included (what transcription APIs take). */
  readonly wav: Uint8Array;
  readonly format: PcmFormat;
  readonly durationSeconds: number;
}

export interface Transcript {
  readonly text: string;
}

export interface SpeechCallOptions {
  /** Time left for this call; the adapter never waits past it. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** Turns a recording into text. Failures are thrown as `SpeechProviderError`. */
export interface SpeechToText {
  transcribe(recording: Recording, options: SpeechCallOptions): Promise<Transcript>;
}

/**
 * Speech as it is synthesized: the format is known before the first byte, the chunks come as
 * the provider yields them, so a route can start sending at once.
 */
export interface SynthesizedSpeech {
  readonly format: PcmFormat;
  /** Raw PCM in `format`; a failure while reading throws `SpeechProviderError`. */
  readonly chunks: AsyncIterable<Uint8Array>;
  /**
   * Once `chunks` has ended: whether the speech stopped at `MAX_SPOKEN_SECONDS` with more left to
   * say (the text's next pieces, the provider's next bytes). A buffered answer refuses it
   * (`SpeechTooLongError`); a streamed one has sent its status already, and ends there.
   */
  readonly cut: () => boolean;
}

/** Turns text into PCM. Failures (before or during the stream) are `SpeechProviderError`s. */
export interface TextToSpeech {
  synthesize(text: string, options: SpeechCallOptions): Promise<SynthesizedSpeech>;
}

export const SpeechFailure = {
  /** 5xx, a connection failure, a throttle: the provider could not answer. */
  unavailable: 'unavailable',
  /** No answer within the time given. */
  timeout: 'timeout',
  /** 4xx: the provider refused the request (bad key, unknown voice or model, text refused). */
  rejected: 'rejected',
  /** An answer that is not what was asked for (no text, audio in another format). */
  malformedReply: 'malformed_reply',
  /** An AWS provider refused the credentials the call was signed with (missing, expired). */
  credentialsRejected: 'credentials_rejected',
  /** An AWS provider refused the role: the IAM action is not allowed. */
  permissionDenied: 'permission_denied',
  /** An AWS provider's quota refused the call (Transcribe's concurrent streams, its rate). */
  throttled: 'throttled',
} as const;
export type SpeechFailure = (typeof SpeechFailure)[keyof typeof SpeechFailure];

export class SpeechProviderError extends Error {
  override readonly name = 'SpeechProviderError';
  constructor(
    readonly failure: SpeechFailure,
    /** `speech_to_text` or `text_to_speech`: which way the failing call went. */
    readonly direction: 'speech_to_text' | 'text_to_speech',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The most audio one synthesis yields: a spoken answer nobody listens to past a minute (3,000
 * digits read one by one last 14 minutes). What a synthesizer makes beyond it is not sent: the
 * embedded synthesizer stops at the last piece that fits and says `SPOKEN_CUT_MARKER`; a
 * provider's body is not read further (docs/speech-limits.md).
 */
export const MAX_SPOKEN_SECONDS = 60;

/** Said after speech cut at `MAX_SPOKEN_SECONDS`, so the listener knows there was more. */
export const SPOKEN_CUT_MARKER = 'The rest is not read aloud.';

/**
 * A text whose speech lasts longer than `MAX_SPOKEN_SECONDS`: `media/tts/speak` answers it with
 * a 413 rather than a WAV of its first minute (docs/decisions/2026-11-26-speech-past-its-limit.md).
 */
export class SpeechTooLongError extends Error {
  override readonly name = 'SpeechTooLongError';
  constructor(readonly maxSeconds: number) {
    super(`the text's speech lasts longer than ${maxSeconds} s`);
  }
}

/**
 * A text with a letter or digit the synthesizer's voice cannot say (the embedded synthesizer
 * speaks English: "你好" was a 200 of silence). Nothing was synthesized; a buffered or streamed
 * speak route answers it 400 `text_not_speakable`, a voice stream route its JSON.
 */
export class TextNotSpeakableError extends Error {
  override readonly name = 'TextNotSpeakableError';
  constructor(
    /** The first character it cannot say, and where it stands (in code points). */
    readonly character: string,
    readonly index: number,
    /** The language the voice speaks. */
    readonly language: string,
  ) {
    super(`the ${language} voice cannot say "${character}" (character ${index})`);
  }
}

/**
 * An embedded synthesizer or recognizer already has as much work as it takes (every synthesis
 * slot; one recognition running and a few waiting): nothing was done, the caller may retry after
 * `retryAfterSeconds`.
 */
export class SpeechBusyError extends Error {
  override readonly name = 'SpeechBusyError';
  constructor(
    readonly direction: 'speech_to_text' | 'text_to_speech',
    /** The work it holds: the syntheses running, or the recording heard and those waiting. */
    readonly capacity: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      `the embedded ${direction === 'text_to_speech' ? 'synthesizer' : 'recognizer'} is busy (${capacity} in hand); retry in ${retryAfterSeconds} s`,
    );
  }
}
