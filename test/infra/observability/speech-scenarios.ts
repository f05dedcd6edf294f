import { type ApiRoute, apiRoute } from '../../../functions/http/contract/api-routes';
import { callsReply, textReply, toolCall } from '../../http/http-fixtures';
import { tonePcm, wavFile } from '../../support/speech-audio';
import { multipartUpload, type Send, SPEECH_RATE } from './metrics-harness';
import {
  type Configurations,
  expectStatus,
  HANG,
  INVALID_CALL,
  modelFailureOutcomes,
  pending,
  results,
  started,
} from './scenario-support';
import { commandOutcomes } from './turn-scenarios';

/** A short answer's audio, as the scripted speech server sends it. */
const speech = () => ({ audio: tonePcm(0.2, SPEECH_RATE) });
/** A speech server refusing the request: no retry, a provider failure. */
const refused = { status: 400 } as const;
const ANSWER = 'It is five.';

/** The node's 1 s recording at 16 kHz, as a WAV file. */
export const recording = () =>
  wavFile(tonePcm(1, 16_000), { sampleRate: 16_000, channels: 1, sampleWidth: 2 });

/** What every speech route meets when its provider answers, fails, or is not configured. */
async function speakOutcomes(c: Configurations, route: ApiRoute): Promise<void> {
  const body = { text: ANSWER };
  c.audio.enqueueSpeech(speech());
  expectStatus(await c.speaking(route, { body }), 200, 'spoken');
  c.audio.enqueueSpeech(refused);
  expectStatus(await c.speaking(route, { body }), 502, 'speech provider failed');
  expectStatus(await c.noModel(route, { body }), 503, 'speech not configured');
}

/** The speech routes' own outcomes, and the voice stream routes' (turns, then speech). */
export const speechOutcomes: Readonly<Record<string, (c: Configurations) => Promise<void>>> = {
  'media-transcribe': async (c) => {
    const route = apiRoute('media-transcribe');
    const upload = await multipartUpload(recording());
    const send = (to: Send) => to(route, { body: upload.body, contentType: upload.contentType });
    c.audio.enqueueTranscription({ text: 'what is two and three' });
    expectStatus(await send(c.speaking), 200, 'transcribed');
    c.audio.enqueueTranscription(refused);
    expectStatus(await send(c.speaking), 502, 'transcription failed');
    expectStatus(await send(c.noModel), 503, 'speech in not configured');
    c.transcribe.enqueue({ kind: 'results', events: [[{ text: 'lights on', partial: false }]] });
    expectStatus(await send(c.transcribing), 200, 'transcribed by Transcribe');
    for (const [status, errorType] of [
      [403, 'AccessDeniedException'],
      [403, 'ExpiredTokenException'],
      [429, 'LimitExceededException'],
    ] as const) {
      c.transcribe.enqueue({ kind: 'refusal', status, errorType, message: 'scripted' });
      expectStatus(await send(c.transcribing), 502, `Transcribe: ${errorType}`);
    }
  },
  'media-speak': (c) => speakOutcomes(c, apiRoute('media-speak')),
  'media-speak-stream': (c) => speakOutcomes(c, apiRoute('media-speak-stream')),
  'voice-command-stream': async (c) => {
    const route = apiRoute('voice-command-stream');
    // Without speech out: every turn is the 202 JSON of voice/command.
    await commandOutcomes(c, route, 202);
    const id = await started(c.speaking, 'spoken');
    const utter = { body: { conversation_id: id, voice_command: 'what is two and three' } };
    c.llm.enqueue(textReply(ANSWER));
    c.audio.enqueueSpeech(speech());
    expectStatus(await c.speaking(route, utter), 200, 'the answer spoken');
    c.llm.enqueue(textReply(ANSWER));
    c.audio.enqueueSpeech(refused);
    expectStatus(await c.speaking(route, utter), 202, 'the answer as JSON, speech failing');
  },
  'voice-command-continue-stream': async (c) => {
    const route = apiRoute('voice-command-continue-stream');
    // Without speech out: the 202 "use the blocking route", nothing read.
    expectStatus(await c.model(route, results('metrics-any')), 202, 'use the blocking route');
    const spoken = await pending(c, 'stream-spoken');
    c.llm.enqueue(textReply(ANSWER));
    c.audio.enqueueSpeech(speech());
    expectStatus(await c.speaking(route, results(spoken)), 200, 'the answer spoken');
    const other = { body: { ...results(spoken).body, tool_results: [] } };
    expectStatus(await c.speaking(route, other), 400, 'no results');
    const changed = results(spoken);
    changed.body.tool_results[0] = { tool_call_id: 'call_add', output: { result: 6 } };
    expectStatus(await c.speaking(route, changed), 409, 'nothing pending');
    const falling = await pending(c, 'stream-fallback');
    c.llm.enqueue(textReply(ANSWER));
    c.audio.enqueueSpeech(refused);
    expectStatus(await c.speaking(route, results(falling)), 202, 'the JSON, speech failing');
    const calling = await pending(c, 'stream-calls');
    c.llm.enqueue(callsReply(toolCall('get_current_time', {})));
    expectStatus(await c.speaking(route, results(calling)), 202, 'tool calls');
    const asking = await pending(c, 'stream-asks');
    c.llm.enqueue(INVALID_CALL, INVALID_CALL, INVALID_CALL);
    expectStatus(await c.speaking(route, results(asking)), 202, 'asks the user');
    const failing = await pending(c, 'stream-fails');
    c.llm.enqueue({ status: 400 });
    expectStatus(await c.speaking(route, results(failing)), 502, 'model failed');
    await modelFailureOutcomes(c, c.bedrockSpeaking, route, results(failing));
    expectStatus(await c.speaking(route, results('metrics-unknown')), 404, 'unknown');
    c.slowLlm.enqueue(HANG);
    expectStatus(await c.slow(route, results(failing)), 504, 'turn timed out');
  },
};
