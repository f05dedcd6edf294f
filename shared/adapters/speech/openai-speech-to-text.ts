import type OpenAI from 'openai';
import { toFile } from 'openai';
import {
  type Recording,
  type SpeechCallOptions,
  SpeechFailure,
  SpeechProviderError,
  type SpeechToText,
  type Transcript,
} from '../../ports/speech';
import { type OpenAiAudioOptions, openAiSdkClient, redactKey } from '../openai/openai-sdk-client';
import { tracedEndpointUrl } from '../openai/traced-completions-url';
import { systemTiming, type Timing } from '../system/timing';
import { traced } from '../tracing/xray-subsegments';
import { speechFailureFromSdk } from './classify-speech-failure';
import { startDeadline } from './speech-deadline';
import { transcriptTooLongError, transcriptWithinLimit } from './transcript-limit';

const DIRECTION = 'speech_to_text';

/**
 * The most bytes a transcription reply may have, counted as they arrive, before the SDK parses
 * it: a recording is at most 60 s, about 1 KiB of text (even spelled out, 60 s of speech is
 * under 4 KiB), sent as `{"text": ...}` with a few fields beside it. A longer reply is not read
 * further: a malformed reply (502).
 */
export const TRANSCRIPT_REPLY_LIMIT_BYTES = 16 * 1024;

/**
 * Speech in over an OpenAI-compatible `audio/transcriptions` (OpenAI, Groq, whisper servers such
 * as faster-whisper-server or speaches): the recording uploaded as the WAV it came as, `json` back.
 * One attempt within `timeoutMs`; in a traced invocation it is an X-Ray subsegment.
 */
export class OpenAiSpeechToText implements SpeechToText {
  readonly #client: OpenAI;
  readonly #model: string;
  readonly #redact: (text: string) => string;
  readonly #timing: Timing;
  readonly #url: string;
  readonly #maxCharacters: number;

  constructor(
    options: OpenAiAudioOptions & {
      /** The most characters a transcript may have; past them a 502 (transcript-limit.ts). */
      readonly maxCharacters: number;
      readonly timing?: Timing;
    },
  ) {
    this.#client = openAiSdkClient(options, TRANSCRIPT_REPLY_LIMIT_BYTES);
    this.#model = options.model;
    this.#redact = redactKey(options.apiKey);
    this.#timing = options.timing ?? systemTiming;
    this.#url = tracedEndpointUrl(options.baseURL, '/audio/transcriptions');
    this.#maxCharacters = options.maxCharacters;
  }

  transcribe(recording: Recording, options: SpeechCallOptions): Promise<Transcript> {
    const facts = {
      name: `speech to text ${this.#model}`,
      namespace: 'remote' as const,
      http: { request: { url: this.#url, method: 'POST' } },
    };
    return traced(facts, () => this.#transcribe(recording, options));
  }

  async #transcribe(recording: Recording, options: SpeechCallOptions): Promise<Transcript> {
    const deadline = startDeadline(options.timeoutMs, options.signal, this.#timing);
    let reply: unknown;
    try {
      const file = await toFile(recording.wav, 'recording.wav', { type: 'audio/wav' });
      reply = await this.#client.audio.transcriptions.create(
        { file, model: this.#model, response_format: 'json' },
        {
          timeout: Math.max(1, Math.ceil(options.timeoutMs)),
          maxRetries: 0,
          signal: deadline.signal,
        },
      );
    } catch (error) {
      throw speechFailureFromSdk(
        error,
        DIRECTION,
        this.#redact,
        deadline.expired(),
        this.#timing.now(),
      );
    } finally {
      deadline.clear();
    }
    const text = (reply as { text?: unknown } | null)?.text;
    if (typeof text !== 'string') {
      throw new SpeechProviderError(
        SpeechFailure.malformedReply,
        DIRECTION,
        'the transcription reply has no text',
      );
    }
    const within = transcriptWithinLimit(text, this.#maxCharacters);
    if (within === null)
      throw transcriptTooLongError('the transcription server', this.#maxCharacters);
    return { text: within };
  }
}
