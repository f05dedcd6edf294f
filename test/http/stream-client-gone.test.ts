import { describe, expect, it } from 'vitest';
import { routePath } from '../../functions/http/contract/api-routes';
import { ROUTES } from '../support/api-client';
import { apiKeyOf, NODE_A } from '../support/local-stack-harness';
import { releasable, tonePcm } from '../support/speech-audio';
import { callsReply, textReply, toolCall } from './http-fixtures';
import { SPEECH_RATE, useSpeechApi } from './speech-api';
import { ANSWER, nodeControl, postJson, read, results, start, UTTERANCE } from './speech-exchange';

const api = useSpeechApi();
const SPEAK_STREAM = routePath('media-speak-stream');

/** A request the test can hang up on, as a node that stops listening does. */
function leavable(path: string, body: unknown) {
  const client = new AbortController();
  const response = fetch(`${api().speaking.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKeyOf(NODE_A), 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: client.signal,
  });
  // Settled by the test's hang-up; read where it matters.
  response.catch(() => undefined);
  return { response, leave: () => client.abort() };
}

/** Resolves once the speech provider has been asked `count` times. */
const speechRequested = (count: number) =>
  expect
    .poll(() => api().audio.requests.filter((request) => request.speech !== null).length)
    .toBe(count);

/** Resolves once the provider's request to speak `text` was ended by our side before its end. */
const speechStopped = (text: string) =>
  expect
    .poll(() => api().audio.cancelled.filter((request) => request.speech?.input === text).length, {
      timeout: 10_000,
    })
    .toBe(1);

// The deadline (TURN_DEADLINE_MS, 25 s) is far past these polls: only the client leaving can
// stop the provider's request in time.
describe('a client that leaves a stream route stops its speech', () => {
  it('media/tts/speak/stream, before the first byte: the provider’s request is ended', async () => {
    // Prepare: a provider that has not answered yet.
    const never = releasable();
    api().audio.enqueueSpeech({
      audio: tonePcm(0.4, SPEECH_RATE),
      holdBeforeHeaders: never.promise,
    });
    const request = leavable(SPEAK_STREAM, { text: 'Before the first byte.' });
    await speechRequested(1);

    // Act
    request.leave();

    // Assess
    await speechStopped('Before the first byte.');
    never.release();
  });

  it('media/tts/speak/stream, after the first bytes: the provider’s request is ended while it holds the rest', async () => {
    // Prepare
    const rest = releasable();
    api().audio.enqueueSpeech({
      audio: tonePcm(0.4, SPEECH_RATE),
      chunks: 4,
      holdAfterFirstChunk: rest.promise,
    });
    const request = leavable(SPEAK_STREAM, { text: 'After the first bytes.' });
    const response = await request.response;
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();

    // Act
    request.leave();

    // Assess
    expect(response.status).toBe(200);
    await speechStopped('After the first bytes.');
    rest.release();
    // Stopped by the client, not failed by the provider: no failure logged or counted.
    expect(api().output.join('')).not.toContain('speech failed after its first bytes');
  });

  it('voice/command/stream: the answer’s synthesis is ended; the turn is kept', async () => {
    // Prepare
    const id = await start(api().speaking, 'gone-command-stream');
    const never = releasable();
    api().llm.enqueue(textReply(ANSWER));
    api().audio.enqueueSpeech({
      audio: tonePcm(0.4, SPEECH_RATE),
      holdBeforeHeaders: never.promise,
    });
    const request = leavable(ROUTES.commandStream, {
      conversation_id: id,
      voice_command: UTTERANCE,
    });
    await speechRequested(1);

    // Act
    request.leave();

    // Assess
    await speechStopped(ANSWER);
    never.release();
    expect(api().llm.requests).toHaveLength(1);
  });

  it('voice/command/continue/stream: the answer’s synthesis is ended', async () => {
    // Prepare: a turn waiting on the node's call, then its result sent to the stream route.
    const id = await start(api().speaking, 'gone-continue-stream');
    api().llm.enqueue(
      callsReply(toolCall('calculate', { num1: 12, num2: 7, operation: 'multiply' }, 'call_mul')),
    );
    nodeControl(
      await read(
        await postJson(api().speaking, ROUTES.commandStream, {
          conversation_id: id,
          voice_command: UTTERANCE,
        }),
      ),
    );
    const never = releasable();
    api().llm.enqueue(textReply(ANSWER));
    api().audio.enqueueSpeech({
      audio: tonePcm(0.4, SPEECH_RATE),
      holdBeforeHeaders: never.promise,
    });
    const request = leavable(ROUTES.continueStream, results(id, 'call_mul', 84));
    await speechRequested(1);

    // Act
    request.leave();

    // Assess
    await speechStopped(ANSWER);
    never.release();
  });

  it('voice/command/stream, left during the turn: no synthesis; the turn is recorded and replayed without the model', async () => {
    // Prepare: a model that answers when the test says.
    const id = await start(api().speaking, 'gone-during-turn');
    const model = releasable();
    api().llm.enqueue({ ...textReply(ANSWER), heldUntil: model.promise });
    const turn = { conversation_id: id, voice_command: UTTERANCE, request_id: 'req-gone-turn' };
    const request = leavable(ROUTES.commandStream, turn);
    await expect.poll(() => api().llm.requests.length).toBe(1);

    // Act: the client leaves, then the model answers.
    request.leave();
    model.release();
    const handled = () =>
      api().output.filter(
        (line) =>
          line.includes('"route":"voice-command-stream"') &&
          line.includes(`"conversation_id":"${id}"`) &&
          line.includes('request handled'),
      );
    await expect.poll(() => handled().length).toBe(1);
    const replay = await read(await postJson(api().speaking, ROUTES.command, turn));

    // Assess: nothing asked of the speech provider; the node's retry gets the recorded turn.
    expect(api().audio.requests).toEqual([]);
    expect(replay.status, replay.text).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(api().llm.requests).toHaveLength(1);
  });
});
