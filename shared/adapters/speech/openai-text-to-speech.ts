import type OpenAI from 'openai';
import {
  type SpeechCallOptions,
  SpeechFailure,
  SpeechProviderError,
  type SynthesizedSpeech,
  type TextToSpeech,
} from '../../ports/speech';
import type { OpenAiSpeechFormat } from '../config/speech-config';
import { type OpenAiAudioOptions, openAiSdkClient, redactKey } from '../openai/openai-sdk-client';
import { tracedEndpointUrl } from '../openai/traced-completions-url';
import { systemTiming, type Timing } from '../system/timing';
import { traced } from '../tracing/xray-subsegments';
import { speechFailureFromSdk } from './classify-speech-failure';
import { startDeadline } from './speech-deadline';
import { type ExpectedAudio, readSpeechStream } from './speech-stream';

const DIRECTION = 'text_to_speech';

export interface OpenAiTextToSpeechOptions extends OpenAiAudioOptions {
  readonly voice: string;
  /** Raw PCM (16-bit mono at `sampleRate`: OpenAI's is 24 kHz) or WAV (its header says). */
  readonly format: OpenAiSpeechFormat;
  readonly timing?: Timing;
}

/**
 * Speech out over an OpenAI-compatible `audio/speech` (OpenAI, Kokoro-FastAPI, speaches...):
 * the body is handed on as it arrives, so a route sends the first audio before the server has
 * finished. `timeoutMs` bounds the whole call, body included. In a traced invocation the call up
 * to the first audio is an X-Ray subsegment.
 */
export class OpenAiTextToSpeech implements TextToSpeech {
  readonly #client: OpenAI;
  readonly #options: OpenAiTextToSpeechOptions;
  readonly #expected: ExpectedAudio;
  readonly #redact: (text: string) => string;
  readonly #timing: Timing;
  readonly #url: string;

  constructor(options: OpenAiTextToSpeechOptions) {
    this.#client = openAiSdkClient(options, null);
    this.#options = options;
    this.#expected =
      options.format.kind === 'wav'
        ? { kind: 'wav' }
        : {
            kind: 'pcm',
            format: { sampleRate: options.format.sampleRate, channels: 1, sampleWidth: 2 },
          };
    this.#redact = redactKey(options.apiKey);
    this.#timing = options.timing ?? systemTiming;
    this.#url = tracedEndpointUrl(options.baseURL, '/audio/speech');
  }

  synthesize(text: string, options: SpeechCallOptions): Promise<SynthesizedSpeech> {
    const facts = {
      name: `text to speech ${this.#options.model}`,
      namespace: 'remote' as const,
      http: { request: { url: this.#url, method: 'POST' } },
    };
    return traced(facts, () => this.#synthesize(text, options));
  }

  async #synthesize(text: string, options: SpeechCallOptions): Promise<SynthesizedSpeech> {
    const deadline = startDeadline(options.timeoutMs, options.signal, this.#timing);
    const failure = (error: unknown) =>
      speechFailureFromSdk(error, DIRECTION, this.#redact, deadline.expired(), this.#timing.now());
    let body: ReadableStream<Uint8Array> | null;
    try {
      const response = await this.#client.audio.speech.create(
        {
          model: this.#options.model,
          voice: this.#options.voice,
          input: text,
          response_format: this.#options.format.kind,
        },
        {
          timeout: Math.max(1, Math.ceil(options.timeoutMs)),
          maxRetries: 0,
          signal: deadline.signal,
        },
      );
      body = response.body;
    } catch (error) {
      deadline.clear();
      throw failure(error);
    }
    if (body === null) {
      deadline.clear();
      throw new SpeechProviderError(SpeechFailure.malformedReply, DIRECTION, 'no audio body');
    }
    return readSpeechStream(body, this.#expected, {
      failure,
      finish: () => deadline.clear(),
      interrupted: () => deadline.signal.aborted,
    });
  }
}
