import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { TurnAnswer } from '../../../shared/conversation';
import type { TextToSpeech } from '../../../shared/ports/speech';
import { SPEECH_LIMITS } from '../contract/speech-limits';
import { SPEECH_METRICS } from './speech-metrics';
import { pcmHeaders, type SpeakOptions, startSpeaking } from './spoken-audio';

/** A surrogate without its pair: what JSON's `\ud800` escapes leave in a string. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The text with each lone surrogate as U+FFFD (what `String.prototype.toWellFormed` does): a
 * model's JSON may escape one (`\ud800`), and `encodeURIComponent` throws on it, which made the
 * voice stream routes answer 500 after the turn was recorded.
 */
const wellFormed = (text: string): string => text.replace(LONE_SURROGATE, '\ufffd');

/** The answer's text in `X-Assistant-Message` stays well inside what a response header may hold. */
const MAX_MESSAGE_HEADER_BYTES = 8 * 1024;

/** A final answer being spoken: the 200 of a voice stream route. */
export interface SpokenAnswer {
  readonly headers: Readonly<Record<string, string>>;
  readonly chunks: AsyncIterable<Uint8Array>;
}

/**
 * The final answer of a turn as speech, or null when the route answers its 202 JSON instead:
 * no speech out configured, not a final answer (`complete`) with text, a text over the speak
 * limit, or a synthesis that failed before its first byte (a speech failure never loses the
 * turn: the JSON carries the answer, and the node speaks it itself).
 */
export async function speakAnswer(
  textToSpeech: TextToSpeech | null,
  answer: TurnAnswer,
  options: SpeakOptions,
): Promise<SpokenAnswer | null> {
  const text = wellFormed(answer.assistantMessage?.trim() ?? '');
  if (textToSpeech === null || answer.stopReason !== 'complete' || text === '') return null;
  const message = encodeURIComponent(text);
  // Characters as the speak routes count them: code points (an emoji is one).
  const characters = [...text].length;
  if (characters > SPEECH_LIMITS.speakCharacters || message.length > MAX_MESSAGE_HEADER_BYTES)
    return null;
  // The client left during the turn (which is kept, for its retry to replay): nobody to speak to.
  if (options.signal.aborted) return null;
  try {
    const speech = await startSpeaking(textToSpeech, text, options);
    return {
      headers: {
        ...pcmHeaders(speech.format),
        'X-Assistant-Message': message,
        ...(answer.replayed ? { 'Idempotent-Replayed': 'true' } : {}),
      },
      chunks: speech.chunks,
    };
  } catch (error) {
    // The client left: nobody reads the JSON either.
    if (options.signal.aborted) return null;
    options.metrics.addMetric(SPEECH_METRICS.fallbacks, MetricUnit.Count, 1);
    options.logger.warn('speech failed before its first byte; answering the JSON instead', {
      reason: error instanceof Error ? error.message : String(error),
    });
    return null;
  }
}
