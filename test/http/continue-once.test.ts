import { describe, expect, it, vi } from 'vitest';
import { ROUTES } from '../support/api-client';
import { tonePcm } from '../support/speech-audio';
import { callsReply, messagesOf, textReply, toolCall } from './http-fixtures';
import { expectVoiceResponse } from './response-contract';
import { SPEECH_RATE, useSpeechApi } from './speech-api';
import { ANSWER, postJson, read, results, start, UTTERANCE } from './speech-exchange';

const api = useSpeechApi();

/** Each result of a large exchange: about the most a stored result keeps (8,000 bytes). */
const LARGE_OUTPUT = { success: true, result: 'x'.repeat(7_900) };
/** Four such results take about 32 KB: a handful of exchanges fill the 160 KB history. */
const LARGE_EXCHANGES = 6;

/** How often the model got a tool message for `callId` carrying `value`, in its latest request. */
const resultsReaching = (callId: string, value: number) =>
  messagesOf(api().llm.requests.at(-1)).filter(
    (message) =>
      message.role === 'tool' &&
      message.tool_call_id === callId &&
      String(message.content).includes(String(value)),
  ).length;

/** The utterance answered by one call `call_mul`: the conversation then waits on its result. */
async function askForCall(id: string): Promise<void> {
  api().llm.enqueue(
    callsReply(toolCall('calculate', { num1: 12, num2: 7, operation: 'multiply' }, 'call_mul')),
  );
  const asked = await read(
    await postJson(api().speaking, ROUTES.command, {
      conversation_id: id,
      voice_command: UTTERANCE,
    }),
  );
  expect(expectVoiceResponse(asked, 'tool_calls').tool_calls.map((call) => call.id)).toEqual([
    'call_mul',
  ]);
}

/** One exchange of four calls whose results take about 32 KB of history. */
async function largeExchange(id: string, round: number): Promise<void> {
  const callIds = [0, 1, 2, 3].map((index) => `call_big_${round}_${index}`);
  api().llm.enqueue(
    callsReply(
      ...callIds.map((callId, index) =>
        toolCall('calculate', { num1: round, num2: index, operation: 'add' }, callId),
      ),
    ),
    textReply('Done.'),
  );
  const asked = await read(
    await postJson(api().speaking, ROUTES.command, { conversation_id: id, voice_command: 'add' }),
  );
  expectVoiceResponse(asked, 'tool_calls');
  const answered = await read(
    await postJson(api().speaking, ROUTES.continue, {
      conversation_id: id,
      tool_results: callIds.map((callId) => ({ tool_call_id: callId, output: LARGE_OUTPUT })),
    }),
  );
  expectVoiceResponse(answered, 'complete');
}

describe('a continue replays only the exchange it answered', () => {
  it.each([
    { route: 'the blocking continue', path: ROUTES.continue },
    { route: 'continue/stream', path: ROUTES.continueStream },
  ])(
    'asks the model when a later exchange reuses a call id and output ($route)',
    async ({ path }) => {
      // Prepare: the first exchange ends through continue/stream, which records its outcome.
      const id = await start(api().speaking, 'continue-once-reused-id');
      await askForCall(id);
      api().llm.enqueue(textReply(ANSWER));
      api().audio.enqueueSpeech({ audio: tonePcm(0.1, SPEECH_RATE) });
      const streamed = await read(
        await postJson(api().speaking, ROUTES.continueStream, results(id, 'call_mul', 84)),
      );
      expect(streamed.status).toBe(200);
      for (let round = 0; round < LARGE_EXCHANGES; round += 1) await largeExchange(id, round);
      // The first exchange is out of the history, so the model may use its call id again.
      expect(resultsReaching('call_mul', 84)).toBe(0);
      await askForCall(id);
      const modelCalls = api().llm.requests.length;
      api().llm.enqueue(textReply('Still 84.'));
      api().audio.enqueueSpeech({ audio: tonePcm(0.1, SPEECH_RATE) });

      // Act
      const answered = await read(
        await postJson(api().speaking, path, results(id, 'call_mul', 84)),
      );

      // Assess: the model is asked, and the result of this exchange reaches it.
      expect(answered.status, answered.text).toBe(200);
      expect(answered.headers.get('idempotent-replayed')).toBeNull();
      expect(api().llm.requests).toHaveLength(modelCalls + 1);
      expect(resultsReaching('call_mul', 84)).toBe(1);
      if (path === ROUTES.continue) {
        expect(expectVoiceResponse(answered, 'complete').assistant_message).toBe('Still 84.');
      }
    },
  );
});

describe('two continues with the same results at once', () => {
  it('continue/stream and the blocking continue: one model call, the later one told to retry, then the replay', async () => {
    // Prepare: the model holds its answer to the stream's continue until the test releases it.
    const id = await start(api().speaking, 'continue-once-race');
    await askForCall(id);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    api().llm.enqueue({ ...textReply(ANSWER), heldUntil: held });
    api().audio.enqueueSpeech({ audio: tonePcm(0.1, SPEECH_RATE) });
    const streaming = postJson(api().speaking, ROUTES.continueStream, results(id, 'call_mul', 84));
    await vi.waitFor(() => expect(api().llm.requests).toHaveLength(2), { timeout: 10_000 });

    // Act: the node gives up on the stream and sends the blocking continue while the turn runs.
    const meanwhile = await read(
      await postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84)),
    );
    release();
    const streamed = await read(await streaming);
    const retried = await read(
      await postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84)),
    );

    // Assess
    expect(meanwhile.status, meanwhile.text).toBe(409);
    expect(meanwhile.json).toMatchObject({ error: { code: 'request_in_progress' } });
    expect(meanwhile.headers.get('retry-after')).toBe('1');
    expect(streamed.status).toBe(200);
    expect(expectVoiceResponse(retried, 'complete').assistant_message).toBe(ANSWER);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(api().llm.requests).toHaveLength(2);
  });

  it('two blocking continues, the second with a request id: one model call, then the replay', async () => {
    // Prepare
    const id = await start(api().speaking, 'continue-once-race-blocking');
    await askForCall(id);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    api().llm.enqueue({ ...textReply(ANSWER), heldUntil: held });
    const first = postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84));
    await vi.waitFor(() => expect(api().llm.requests).toHaveLength(2), { timeout: 10_000 });
    const withId = { ...results(id, 'call_mul', 84), request_id: 'node-retry-1' };

    // Act
    const meanwhile = await read(await postJson(api().speaking, ROUTES.continue, withId));
    release();
    const answered = await read(await first);
    const retried = await read(
      await postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84)),
    );

    // Assess
    expect(meanwhile.status, meanwhile.text).toBe(409);
    expect(meanwhile.json).toMatchObject({ error: { code: 'request_in_progress' } });
    expect(expectVoiceResponse(answered, 'complete').assistant_message).toBe(ANSWER);
    expect(expectVoiceResponse(retried, 'complete').assistant_message).toBe(ANSWER);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(api().llm.requests).toHaveLength(2);
  });
});
