import type { Logger } from '@aws-lambda-powertools/logger';
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import {
  MAX_SPOKEN_SECONDS,
  type PcmFormat,
  SpeechBusyError,
  SpeechProviderError,
  SpeechTooLongError,
  type SynthesizedSpeech,
  TextNotSpeakableError,
  type TextToSpeech,
} from '../../../shared/ports/speech';
import { SPEECH_METRICS } from './speech-metrics';

/** Speech whose first bytes have arrived: the route can answer 200 and stream the rest. */
export interface StartedSpeech {
  readonly format: PcmFormat;
  /** Every chunk, the first one included; a failure midway ends it early (logged, counted). */
  readonly chunks: AsyncIterable<Uint8Array>;
}

export interface SpeakOptions {
  readonly timeoutMs: number;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** For what happens after the response left: a failure midway. */
  readonly lateMetrics: () => Metrics;
  /**
   * The client gone: the synthesis stops, before its first bytes too (the first piece of the
   * embedded synthesizer may take a second of CPU; a provider may take until the deadline).
   */
  readonly signal: AbortSignal;
}

/**
 * Starts synthesizing `text` and waits for its first bytes only, so the response can go out as
 * soon as the provider yields them; the time to them is the `time_to_first_audio_byte` metric.
 * A failure before them throws a `SpeechProviderError` (the route answers 502, or its JSON); one
 * after them cannot change the status any more: the stream ends there, and it is logged and
 * counted apart.
 */
export async function startSpeaking(
  textToSpeech: TextToSpeech,
  text: string,
  options: SpeakOptions,
): Promise<StartedSpeech> {
  const { metrics, logger } = options;
  const startedAt = performance.now();
  metrics.addMetric(SPEECH_METRICS.charactersSynthesized, MetricUnit.Count, text.length);
  let speech: SynthesizedSpeech;
  let iterator: AsyncIterator<Uint8Array>;
  let first: IteratorResult<Uint8Array>;
  try {
    speech = await textToSpeech.synthesize(text, {
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
    iterator = speech.chunks[Symbol.asyncIterator]();
    first = await iterator.next();
  } catch (error) {
    // A text the voice cannot say is the caller's to change, not a provider's failure.
    if (error instanceof TextNotSpeakableError) throw error;
    // A synthesis the client stopped by leaving is no provider's failure.
    if (!options.signal.aborted)
      metrics.addMetric(SPEECH_METRICS.providerErrors, MetricUnit.Count, 1);
    throw asProviderError(error);
  }
  const firstByteMs = Math.round(performance.now() - startedAt);
  metrics.addMetric(SPEECH_METRICS.timeToFirstAudioByte, MetricUnit.Milliseconds, firstByteMs);
  logger.info('speech started', { characters: text.length, first_audio_byte_ms: firstByteMs });
  return { format: speech.format, chunks: rest(first, iterator, options) };
}

async function* rest(
  first: IteratorResult<Uint8Array>,
  iterator: AsyncIterator<Uint8Array>,
  options: SpeakOptions,
): AsyncGenerator<Uint8Array> {
  if (first.done === true) return;
  let done = false;
  try {
    yield first.value;
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) {
        done = true;
        return;
      }
      yield next.value;
    }
  } catch (error) {
    done = true;
    // The client left, which stopped the synthesis: nobody lost audio to a provider's failure.
    if (options.signal.aborted) return;
    const late = options.lateMetrics();
    late.addMetric(SPEECH_METRICS.providerErrors, MetricUnit.Count, 1);
    late.publishStoredMetrics();
    options.logger.warn('speech failed after its first bytes; the audio ends early', {
      reason: asProviderError(error).message,
    });
  } finally {
    // Left early (the client went away): the provider's work stops too.
    if (!done) await iterator.return?.();
  }
}

/** Left at the end of the invocation to finish the audio and write the request's log lines. */
const END_MARGIN_MS = 1_000;

/**
 * How long a speech provider call may take: the turn's deadline, but never past the invocation
 * (a synthesis after a long turn gets what the Lambda timeout leaves, less a margin).
 */
export function speechTimeoutMs(turnDeadlineMs: number, timeLeftMs: number): number {
  return Math.max(1, Math.min(turnDeadlineMs, timeLeftMs - END_MARGIN_MS));
}

/** The headers the node reads the PCM's format from (api.md, speak/stream). */
export function pcmHeaders(format: PcmFormat): Record<string, string> {
  return {
    'Content-Type': 'audio/pcm',
    'X-Audio-Sample-Rate': String(format.sampleRate),
    'X-Audio-Channels': String(format.channels),
    'X-Audio-Sample-Width': String(format.sampleWidth),
  };
}

/**
 * The whole synthesis of `text` in one buffer (media/tts/speak): a failure at any point throws a
 * `SpeechProviderError`, since nothing has been answered yet; speech that lasts past
 * `MAX_SPOKEN_SECONDS` throws `SpeechTooLongError` rather than answer its first minute as if
 * it were all. `signal` (the client gone) stops the synthesis wherever it is; the failure that
 * follows is not the provider's, and is not counted as one.
 */
export async function synthesizeWhole(
  textToSpeech: TextToSpeech,
  text: string,
  options: Pick<SpeakOptions, 'timeoutMs' | 'metrics'> & { readonly signal: AbortSignal },
): Promise<{ readonly format: PcmFormat; readonly pcm: Uint8Array }> {
  options.metrics.addMetric(SPEECH_METRICS.charactersSynthesized, MetricUnit.Count, text.length);
  const { timeoutMs, signal } = options;
  try {
    const speech = await textToSpeech.synthesize(text, { timeoutMs, signal });
    const parts: Uint8Array[] = [];
    for await (const chunk of speech.chunks) parts.push(chunk);
    if (speech.cut()) throw new SpeechTooLongError(MAX_SPOKEN_SECONDS);
    return { format: speech.format, pcm: Buffer.concat(parts) };
  } catch (error) {
    if (error instanceof SpeechTooLongError || error instanceof TextNotSpeakableError) throw error;
    if (!signal.aborted)
      options.metrics.addMetric(SPEECH_METRICS.providerErrors, MetricUnit.Count, 1);
    throw asProviderError(error);
  }
}

/**
 * Adapters throw `SpeechProviderError` (or `SpeechBusyError`: every slot taken); anything else
 * from a provider call is a `SpeechProviderError` too.
 */
function asProviderError(error: unknown): SpeechProviderError | SpeechBusyError {
  if (error instanceof SpeechProviderError || error instanceof SpeechBusyError) return error;
  return new SpeechProviderError('unavailable', 'text_to_speech', 'the synthesis failed', {
    cause: error,
  });
}
