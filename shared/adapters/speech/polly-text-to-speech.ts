import {
  type Engine,
  PollyClient,
  SynthesizeSpeechCommand,
  type VoiceId,
} from '@aws-sdk/client-polly';
import type {
  PcmFormat,
  SpeechCallOptions,
  SynthesizedSpeech,
  TextToSpeech,
} from '../../ports/speech';
import { ERROR_REPLY_LIMIT_BYTES } from '../system/body-reads';
import { systemTiming, type Timing } from '../system/timing';
import { traced } from '../tracing/xray-subsegments';
import { limitReplyBody, type ReplyLimits } from './aws-reply-limit';
import { FramingWatch, framingGuardedHttp2 } from './http2-framing-guard';
import { speechFailureFromPolly } from './polly-failure';
import { startDeadline } from './speech-deadline';
import { readSpeechStream } from './speech-stream';

/** Error replies read to 16 KiB; the audio is left to its reader. */
const POLLY_REPLY_LIMITS: ReplyLimits = {
  service: 'Polly',
  success: 'audio',
  errorBytes: ERROR_REPLY_LIMIT_BYTES,
  successBytes: null,
};

/** Polly's PCM: signed 16-bit little-endian mono, at the rate asked (8 or 16 kHz). */
const POLLY_PCM: PcmFormat = { sampleRate: 16_000, channels: 1, sampleWidth: 2 };

export interface PollyTextToSpeechOptions {
  readonly region: string;
  readonly voice: string;
  readonly engine: Engine;
  /** Another endpoint than AWS's (tests); credentials then as given. */
  readonly endpoint?: string;
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
  readonly timing?: Timing;
}

/**
 * Speech out through Amazon Polly's SynthesizeSpeech as 16 kHz PCM: no key (the function's role
 * needs `polly:SynthesizeSpeech`), the AudioStream handed on as it arrives. One attempt within
 * `timeoutMs`, body included; the call up to the first audio is an X-Ray subsegment.
 */
export class PollyTextToSpeech implements TextToSpeech {
  readonly #client: PollyClient;
  readonly #options: PollyTextToSpeechOptions;
  readonly #timing: Timing;

  constructor(options: PollyTextToSpeechOptions) {
    this.#client = new PollyClient({
      region: options.region,
      // A spoken answer that comes late is no answer: the deadline, not retries, rules.
      maxAttempts: 1,
      // Its handler is HTTP/2, one session a request (the SDK's default): framing counted too.
      requestHandler: {
        disableConcurrentStreams: true,
        nodeHttp2ConnectOptions: framingGuardedHttp2,
      },
      ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
      ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    });
    // Innermost: it sees the raw HTTP response before the deserializer reads it. The SDK reads an
    // error body whole before it parses it (Polly answering 500 with an endless body filled
    // 1.3 GB and took 7.5 s of CPU, past the call's deadline, before this); the audio is bounded
    // by its reader (speech-stream.ts).
    this.#client.middlewareStack.add(
      (next) => async (args) => {
        const result = await next(args);
        limitReplyBody(result.response, POLLY_REPLY_LIMITS);
        return result;
      },
      { step: 'deserialize', priority: 'low', name: 'jccErrorReplyLimit' },
    );
    this.#options = options;
    this.#timing = options.timing ?? systemTiming;
  }

  synthesize(text: string, options: SpeechCallOptions): Promise<SynthesizedSpeech> {
    const facts = {
      name: 'Polly',
      namespace: 'aws' as const,
      aws: { operation: 'SynthesizeSpeech', region: this.#options.region },
    };
    return traced(facts, () => this.#synthesize(text, options));
  }

  async #synthesize(text: string, options: SpeechCallOptions): Promise<SynthesizedSpeech> {
    const deadline = startDeadline(options.timeoutMs, options.signal, this.#timing);
    const framing = new FramingWatch();
    const failure = (error: unknown) =>
      speechFailureFromPolly(framing.reason(error), deadline.expired());
    let stream: AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => void };
    try {
      const output = await framing.run(() =>
        this.#client.send(
          new SynthesizeSpeechCommand({
            Text: text,
            TextType: 'text',
            // Polly's list grows; an unknown voice is Polly's to refuse (a 400: rejected).
            VoiceId: this.#options.voice as VoiceId,
            Engine: this.#options.engine,
            OutputFormat: 'pcm',
            SampleRate: String(POLLY_PCM.sampleRate),
          }),
          { abortSignal: deadline.signal },
        ),
      );
      if (output.AudioStream === undefined) throw new Error('Polly sent no AudioStream');
      stream = output.AudioStream as unknown as typeof stream;
    } catch (error) {
      deadline.clear();
      throw failure(error);
    }
    // The abort signal ends the request; a body that stalls after the headers is ended here.
    const stop = () => stream.destroy?.(new Error('deadline'));
    deadline.signal.addEventListener('abort', stop, { once: true });
    return readSpeechStream(
      stream,
      { kind: 'pcm', format: POLLY_PCM },
      {
        failure,
        finish: () => {
          deadline.signal.removeEventListener('abort', stop);
          deadline.clear();
        },
        interrupted: () => deadline.signal.aborted,
      },
    );
  }
}
