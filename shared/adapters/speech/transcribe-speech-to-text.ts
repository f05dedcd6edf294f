import type {
  AudioStream,
  TranscribeStreamingClient,
  TranscriptResultStream,
} from '@aws-sdk/client-transcribe-streaming';
import {
  type Recording,
  type SpeechCallOptions,
  SpeechFailure,
  SpeechProviderError,
  type SpeechToText,
  type Transcript,
} from '../../ports/speech';
import { ERROR_REPLY_LIMIT_BYTES } from '../system/body-reads';
import { systemTiming, type Timing } from '../system/timing';
import { traced } from '../tracing/xray-subsegments';
import { limitReplyBody, type ReplyLimits } from './aws-reply-limit';
import { FramingWatch, framingGuardedHttp2 } from './http2-framing-guard';
import { startDeadline } from './speech-deadline';
import { TRANSCRIBE_CHUNK_MS, type TranscribeAudio, transcribeAudio } from './transcribe-audio';
import { speechFailureFromTranscribe } from './transcribe-failure';
import { transcriptCharacters, transcriptTooLongError } from './transcript-limit';

/**
 * The most bytes of Transcribe's event stream one recording may cost, counted as they arrive,
 * before the SDK decodes them. Partial results repeat the words of their segment, with one item
 * a word (about 150 bytes each): 60 s of speech, about 150 words, sends well under 1 MiB. A
 * longer stream is not read further: a malformed reply (502).
 */
export const TRANSCRIBE_REPLY_LIMIT_BYTES = 4 * 1024 * 1024;

const TRANSCRIBE_REPLY_LIMITS: ReplyLimits = {
  service: 'Transcribe',
  success: 'event stream',
  errorBytes: ERROR_REPLY_LIMIT_BYTES,
  successBytes: TRANSCRIBE_REPLY_LIMIT_BYTES,
};

export interface TranscribeSpeechToTextOptions {
  readonly region: string;
  /** Transcribe's language code (TRANSCRIBE_LANGUAGE), e.g. `en-US`. */
  readonly languageCode: string;
  /** The most characters of final text a transcript may have; past them a 502 (transcript-limit.ts). */
  readonly maxCharacters: number;
  /** Another endpoint than AWS's (tests, TRANSCRIBE_ENDPOINT); credentials then as given. */
  readonly endpoint?: string;
  readonly credentials?: {
    readonly accessKeyId: string;
    readonly secretAccessKey: string;
    readonly sessionToken?: string;
  };
  /** The deadline, and the pace of the audio events (each due at its own time from the first). */
  readonly timing?: Timing;
}

type Sdk = typeof import('@aws-sdk/client-transcribe-streaming');

/**
 * Speech in through Amazon Transcribe streaming (`StartStreamTranscription` over HTTP/2): the
 * recording's PCM sent as audio events of 100 ms, paced at real time as Transcribe's best
 * practices ask, the final results joined into the text (partial ones are only progress). No
 * key: the function's role needs `transcribe:StartStreamTranscription`. One attempt within
 * `timeoutMs`; the stream ends (audio and results) at the deadline, on the caller's signal, or
 * when the results pass their limits. The SDK is loaded when the adapter is made, not when its
 * module is: a function that never transcribes through Transcribe never loads it.
 */
export class TranscribeSpeechToText implements SpeechToText {
  readonly #client: Promise<{ sdk: Sdk; client: TranscribeStreamingClient }>;
  readonly #options: TranscribeSpeechToTextOptions;
  readonly #timing: Timing;

  constructor(options: TranscribeSpeechToTextOptions) {
    this.#options = options;
    this.#timing = options.timing ?? systemTiming;
    this.#client = import('@aws-sdk/client-transcribe-streaming').then((sdk) => ({
      sdk,
      client: boundedClient(sdk, options),
    }));
    // A failed import is reported by the first transcription, never as an unhandled rejection.
    this.#client.catch(() => undefined);
  }

  transcribe(recording: Recording, options: SpeechCallOptions): Promise<Transcript> {
    const facts = {
      name: 'Transcribe',
      namespace: 'aws' as const,
      aws: { operation: 'StartStreamTranscription', region: this.#options.region },
    };
    return traced(facts, () => this.#transcribe(recording, options));
  }

  async #transcribe(recording: Recording, options: SpeechCallOptions): Promise<Transcript> {
    const deadline = startDeadline(options.timeoutMs, options.signal, this.#timing);
    // Ends the stream both ways whatever ends the call: the deadline, the caller, a limit, a bug.
    const call = new AbortController();
    const stop = () => call.abort(deadline.signal.reason);
    deadline.signal.addEventListener('abort', stop, { once: true });
    if (deadline.signal.aborted) stop();
    const framing = new FramingWatch();
    try {
      const audio = transcribeAudio(recording);
      const { sdk, client } = await this.#client;
      const output = await framing.run(() =>
        client.send(
          new sdk.StartStreamTranscriptionCommand({
            LanguageCode: this.#options.languageCode as never,
            MediaEncoding: 'pcm',
            MediaSampleRateHertz: audio.sampleRate,
            AudioStream: this.#audioEvents(audio, call.signal),
          }),
          { abortSignal: call.signal },
        ),
      );
      if (output.TranscriptResultStream === undefined) {
        throw new SpeechProviderError(
          SpeechFailure.malformedReply,
          'speech_to_text',
          'Transcribe sent no result stream',
        );
      }
      return { text: await this.#finalText(output.TranscriptResultStream, call.signal) };
    } catch (error) {
      // The deadline or the caller (a client gone) ended it: whatever the SDK threw, a timeout.
      throw speechFailureFromTranscribe(framing.reason(error), deadline.signal.aborted);
    } finally {
      call.abort();
      deadline.signal.removeEventListener('abort', stop);
      deadline.clear();
    }
  }

  /**
   * The audio as events of TRANSCRIBE_CHUNK_MS, the n-th due n chunks after the first: a late
   * timer (a busy machine) delays one event, never the ones after it.
   */
  async *#audioEvents(audio: TranscribeAudio, signal: AbortSignal): AsyncGenerator<AudioStream> {
    const started = this.#timing.monotonic();
    let index = 0;
    for (const chunk of audio.chunks(TRANSCRIBE_CHUNK_MS)) {
      if (index > 0) {
        const due = started + index * TRANSCRIBE_CHUNK_MS;
        // A wait the signal ends is no failure: the check below stops the audio.
        await this.#timing.sleep(Math.max(0, due - this.#timing.monotonic()), signal).catch(ignore);
      }
      if (signal.aborted) return;
      index += 1;
      yield { AudioEvent: { AudioChunk: chunk } };
    }
  }

  /** The final results' text, in order; a partial result is skipped, an error event thrown. */
  async #finalText(
    events: AsyncIterable<TranscriptResultStream>,
    signal: AbortSignal,
  ): Promise<string> {
    const { maxCharacters } = this.#options;
    const finals: string[] = [];
    let characters = 0;
    for await (const event of events) {
      if (signal.aborted) throw abortError();
      const exception = streamException(event);
      if (exception !== null) throw exception;
      for (const result of event.TranscriptEvent?.Transcript?.Results ?? []) {
        if (result.IsPartial !== false) continue;
        const text = result.Alternatives?.[0]?.Transcript?.trim() ?? '';
        if (text === '') continue;
        characters += transcriptCharacters(text) + (finals.length === 0 ? 0 : 1);
        // Not read further: the text past the limit is answered as every recognizer's is.
        if (characters > maxCharacters) throw transcriptTooLongError('Transcribe', maxCharacters);
        finals.push(text);
      }
    }
    if (signal.aborted) throw abortError();
    return finals.join(' ');
  }
}

const abortError = () => new DOMException('the transcription was stopped', 'AbortError');

/** An error event of the result stream (BadRequestException, LimitExceededException...). */
function streamException(event: TranscriptResultStream): Error | null {
  for (const [name, value] of Object.entries(event)) {
    if (name === 'TranscriptEvent' || value === undefined) continue;
    const message = (value as { Message?: unknown }).Message;
    const error = new Error(typeof message === 'string' ? message : name);
    error.name = name;
    // The shape the failure rules read of the SDK's own errors: an event's refusal is the client's.
    return Object.assign(error, {
      $fault: /Internal|Unavailable/.test(name) ? 'server' : 'client',
      $metadata: {},
    });
  }
  return null;
}

const ignore = () => undefined;
const SILENT = { trace: ignore, debug: ignore, info: ignore, warn: ignore, error: ignore };

/**
 * A client of one attempt (the deadline rules, not retries) whose replies are counted as their
 * bytes arrive: past TRANSCRIBE_REPLY_LIMIT_BYTES (an event stream) or ERROR_REPLY_LIMIT_BYTES
 * (an error reply, which the SDK reads whole to parse) the body stops and the call fails.
 */
function boundedClient(sdk: Sdk, options: TranscribeSpeechToTextOptions) {
  const client = new sdk.TranscribeStreamingClient({
    region: options.region,
    maxAttempts: 1,
    // Its handler is HTTP/2, one session a request (the SDK's default): framing counted too.
    requestHandler: {
      disableConcurrentStreams: true,
      nodeHttp2ConnectOptions: framingGuardedHttp2,
    },
    // Without a logger of its own the SDK writes a plain warning of every failed stream to the
    // console: the route's one `request failed` line already says what failed and what to fix.
    logger: SILENT,
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
  });
  client.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      limitReplyBody(result.response, TRANSCRIBE_REPLY_LIMITS);
      return result;
    },
    // Innermost: it sees the raw HTTP response before the deserializer reads it.
    { step: 'deserialize', priority: 'low', name: 'jccTranscribeReplyLimit' },
  );
  return client;
}
