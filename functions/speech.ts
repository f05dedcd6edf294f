import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { wavHeader } from '../shared/adapters/speech/wav-format';
import { SpeechBusyError, SpeechProviderError } from '../shared/ports/speech';
import { SPEECH_METRICS } from './http/answers/speech-metrics';
import {
  pcmHeaders,
  speechTimeoutMs,
  startSpeaking,
  synthesizeWhole,
} from './http/answers/spoken-audio';
import {
  type ApiRoute,
  apiFunctions,
  apiRoute,
  type RouteUpload,
} from './http/contract/api-routes';
import { speakRequestSchema, type TranscriptionResponse } from './http/contract/speech-schemas';
import { createRoute } from './http/edge/create-route';
import { dispatchRoutes, type ProxyHandler } from './http/edge/dispatch-routes';
import type { RouteHandler } from './http/edge/route-request';
import { type StreamingHandler, streamResponses } from './http/edge/stream-responses';
import { SpeechNotConfiguredError } from './http/errors/speech-not-configured-error';
import { wavUpload } from './http/request-body/upload-body';
import { jsonBody } from './http/request-body/validate-request';
import { createSpeechToText } from './wiring/create-speech-to-text';
import { createTextToSpeech } from './wiring/create-text-to-speech';
import { lazyHandler } from './wiring/lazy-handler';
import type { ServiceDependencies } from './wiring/service-dependencies';

/**
 * POST /api/v0/media/whisper/transcribe: the node's WAV recording (multipart, part `file`),
 * checked (size before anything, then a 16-bit PCM WAV), to text.
 */
export function createTranscribeHandler(dependencies: ServiceDependencies): RouteHandler {
  const route = apiRoute('media-transcribe');
  return createRoute({
    route,
    body: wavUpload(uploadOf(route)),
    dependencies: dependencies.route,
    handle: async ({ body: recording, metrics, timeLeftMs, clientGone }) => {
      const speechToText = dependencies.speech.speechToText;
      if (speechToText === null) throw new SpeechNotConfiguredError('speech_to_text');
      const deadline = dependencies.conversation.settings.turnDeadlineMs;
      const timeoutMs = speechTimeoutMs(deadline, timeLeftMs());
      // A client gone gives up its place: a provider's call stops, the embedded recognizer lets
      // it go and drops the text (embedded-speech-to-text.ts).
      const options = { timeoutMs, signal: clientGone };
      const transcript = await speechToText.transcribe(recording, options).catch((error) => {
        // A busy embedded recognizer did nothing: a 503 to retry, not a provider's failure; nor
        // is a recognition the client stopped by leaving.
        if (error instanceof SpeechBusyError || clientGone.aborted) throw error;
        metrics.addMetric(SPEECH_METRICS.providerErrors, MetricUnit.Count, 1);
        throw error instanceof SpeechProviderError
          ? error
          : new SpeechProviderError('unavailable', 'speech_to_text', 'the transcription failed', {
              cause: error,
            });
      });
      metrics.addMetric(
        SPEECH_METRICS.audioSecondsTranscribed,
        MetricUnit.Seconds,
        recording.durationSeconds,
      );
      return {
        statusCode: 200,
        body: { text: transcript.text } satisfies TranscriptionResponse,
      };
    },
  });
}

/** POST /api/v0/media/tts/speak: `{"text"}` to one WAV file. */
export function createSpeakHandler(dependencies: ServiceDependencies): RouteHandler {
  return createRoute({
    route: apiRoute('media-speak'),
    body: jsonBody(speakRequestSchema),
    dependencies: dependencies.route,
    handle: async ({ body, metrics, timeLeftMs, clientGone }) => {
      const textToSpeech = dependencies.speech.textToSpeech;
      if (textToSpeech === null) throw new SpeechNotConfiguredError('text_to_speech');
      const deadline = dependencies.conversation.settings.turnDeadlineMs;
      const timeoutMs = speechTimeoutMs(deadline, timeLeftMs());
      // A client gone stops the synthesis: nobody is left to take the file.
      const { format, pcm } = await synthesizeWhole(textToSpeech, body.text, {
        timeoutMs,
        metrics,
        signal: clientGone,
      });
      return {
        statusCode: 200,
        headers: { 'Content-Type': 'audio/wav' },
        bytes: Buffer.concat([wavHeader(format, pcm.length), pcm]),
      };
    },
  });
}

/** POST /api/v0/media/tts/speak/stream: `{"text"}` to raw PCM, sent as it is synthesized. */
export function createSpeakStreamHandler(dependencies: ServiceDependencies): RouteHandler {
  return createRoute({
    route: apiRoute('media-speak-stream'),
    body: jsonBody(speakRequestSchema),
    dependencies: dependencies.route,
    handle: async ({ body, logger, metrics, lateMetrics, timeLeftMs, clientGone }) => {
      const textToSpeech = dependencies.speech.textToSpeech;
      if (textToSpeech === null) throw new SpeechNotConfiguredError('text_to_speech');
      const deadline = dependencies.conversation.settings.turnDeadlineMs;
      const timeoutMs = speechTimeoutMs(deadline, timeLeftMs());
      // A client gone stops the synthesis, before its first bytes or between any two.
      const speech = await startSpeaking(textToSpeech, body.text, {
        timeoutMs,
        logger,
        metrics,
        lateMetrics,
        signal: clientGone,
      });
      return { statusCode: 200, headers: pcmHeaders(speech.format), bytes: speech.chunks };
    },
  });
}

function uploadOf(route: ApiRoute): RouteUpload {
  if (route.upload === undefined) throw new Error(`${route.name} takes no upload`);
  return route.upload;
}

/** Every route of the speech function, before their answers are written to the stream. */
function createRoutes(dependencies: ServiceDependencies): ProxyHandler {
  return dispatchRoutes(apiFunctions.speech, {
    'media-transcribe': createTranscribeHandler(dependencies),
    'media-speak': createSpeakHandler(dependencies),
    'media-speak-stream': createSpeakStreamHandler(dependencies),
  });
}

/** The speech function as Lambda runs it: its answers written to the response stream. */
export function createHandler(dependencies: ServiceDependencies): StreamingHandler {
  return streamResponses(createRoutes(dependencies));
}

export const handler = streamResponses(
  lazyHandler({
    function: apiFunctions.speech,
    create: createRoutes,
    speechIn: createSpeechToText,
    speechOut: createTextToSpeech,
  }),
);
