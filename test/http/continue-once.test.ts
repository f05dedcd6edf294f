import { describe, expect, it, vi } from 'vitest';
import { ROUTES } from '../support/api-client';
import { apiKeyOf, NODE_A } from '../support/local-stack-harness';
import { releasable, tonePcm } from '../support/speech-audio';
import { callsReply, fixtureStartBody, messagesOf, textReply, toolCall } from './http-fixtures';
import { expectStarted, expectVoiceResponse } from './response-contract';
import { postRaw, SPEECH_RATE, useSpeechApi } from './speech-api';
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

/** A reply the test releases when it chooses: the turn it answers runs until then. */
function heldReply(): { held: Promise<void>; release: () => void } {
  const { promise: held, release } = releasable();
  return { held, release };
}

/**
 * continue/stream with the results of `call_mul` while the model holds its answer: resolves once
 * the model was asked, with the pending response and what releases the answer.
 */
async function heldContinueStream(
  id: string,
  body: object = results(id, 'call_mul', 84),
): Promise<{ streaming: Promise<Response>; release: () => void }> {
  const { held, release } = heldReply();
  api().llm.enqueue({ ...textReply(ANSWER), heldUntil: held });
  api().audio.enqueueSpeech({ audio: tonePcm(0.1, SPEECH_RATE) });
  const streaming = postJson(api().speaking, ROUTES.continueStream, body);
  await vi.waitFor(() => expect(api().llm.requests).toHaveLength(2), { timeout: 10_000 });
  return { streaming, release };
}

/**
 * The node's blocking continue sent while the held stream's turn runs, the stream released and
 * read, then the continue sent again: the three answers.
 */
async function blockingContinueDuring(
  id: string,
  streaming: Promise<Response>,
  release: () => void,
): Promise<Record<'meanwhile' | 'streamed' | 'retried', Awaited<ReturnType<typeof read>>>> {
  const continued = () => postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84));
  const meanwhile = await read(await continued());
  release();
  const streamed = await read(await streaming);
  const retried = await read(await continued());
  return { meanwhile, streamed, retried };
}

/** A copy refused while the first request's turn runs: 409, retry it. */
function expectToldToRetry(response: Awaited<ReturnType<typeof read>>): void {
  expect(response.status, response.text).toBe(409);
  expect(response.json).toMatchObject({ error: { code: 'request_in_progress' } });
}

/** A retry answered with the first request's recorded answer, not a new turn. */
function expectReplayOfAnswer(response: Awaited<ReturnType<typeof read>>): void {
  expect(expectVoiceResponse(response, 'complete').assistant_message).toBe(ANSWER);
  expect(response.headers.get('idempotent-replayed')).toBe('true');
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
    const { streaming, release } = await heldContinueStream(id);

    // Act: the node gives up on the stream and sends the blocking continue while the turn runs.
    const { meanwhile, streamed, retried } = await blockingContinueDuring(id, streaming, release);

    // Assess
    expectToldToRetry(meanwhile);
    expect(meanwhile.headers.get('retry-after')).toBe('1');
    expect(streamed.status).toBe(200);
    expectReplayOfAnswer(retried);
    expect(api().llm.requests).toHaveLength(2);
  });

  it('two blocking continues, the second with a request id: one model call, then the replay', async () => {
    // Prepare
    const id = await start(api().speaking, 'continue-once-race-blocking');
    await askForCall(id);
    const { held, release } = heldReply();
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
    expectToldToRetry(meanwhile);
    expect(expectVoiceResponse(answered, 'complete').assistant_message).toBe(ANSWER);
    expectReplayOfAnswer(retried);
    expect(api().llm.requests).toHaveLength(2);
  });
});

describe('more copies of one continue, from outside', () => {
  it('continue/stream, the blocking continue and one with a request id at once: one model call, each copy then replayed', async () => {
    // Prepare
    const id = await start(api().speaking, 'continue-once-three');
    await askForCall(id);
    const { streaming, release } = await heldContinueStream(id);
    const withId = { ...results(id, 'call_mul', 84), request_id: 'node-three-1' };

    // Act
    const copies = await Promise.all([
      postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84)).then(read),
      postJson(api().speaking, ROUTES.continue, withId).then(read),
      postJson(api().speaking, ROUTES.continueStream, results(id, 'call_mul', 84)).then(read),
    ]);
    release();
    const streamed = await read(await streaming);
    const retried = await Promise.all([
      postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84)).then(read),
      postJson(api().speaking, ROUTES.continue, withId).then(read),
    ]);

    // Assess
    for (const copy of copies) expectToldToRetry(copy);
    expect(streamed.status).toBe(200);
    for (const answer of retried) expectReplayOfAnswer(answer);
    expect(api().llm.requests).toHaveLength(2);
    expect(api().llm.protocolViolations).toEqual([]);
  });

  it('the first fails at the model while a copy waits: the copy’s retry runs the turn once, the conversation goes on', async () => {
    // Prepare: the model fails the stream's turn only when the test says so.
    const id = await start(api().speaking, 'continue-once-first-fails');
    await askForCall(id);
    const { held, release } = heldReply();
    api().llm.enqueue({ status: 400, heldUntil: held });
    const streaming = postJson(api().speaking, ROUTES.continueStream, results(id, 'call_mul', 84));
    await vi.waitFor(() => expect(api().llm.requests).toHaveLength(2), { timeout: 10_000 });

    // Act
    const meanwhile = await read(
      await postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84)),
    );
    release();
    const failed = await read(await streaming);
    const modelCallsAfterFailure = api().llm.requests.length;
    api().llm.enqueue(textReply(ANSWER), textReply('You are welcome.'));
    const retried = await read(
      await postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84)),
    );
    const next = await read(
      await postJson(api().speaking, ROUTES.command, {
        conversation_id: id,
        voice_command: 'thanks',
      }),
    );

    // Assess: a clear answer each time, the results added once, the model asked once per turn
    expectToldToRetry(meanwhile);
    expect(failed.status, failed.text).toBe(502);
    expect(failed.json).toMatchObject({ error: { code: 'llm_failed' } });
    expect(expectVoiceResponse(retried, 'complete').assistant_message).toBe(ANSWER);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(api().llm.requests).toHaveLength(modelCallsAfterFailure + 2);
    expect(resultsReaching('call_mul', 84)).toBe(1);
    expect(expectVoiceResponse(next, 'complete').assistant_message).toBe('You are welcome.');
    expect(api().llm.protocolViolations).toEqual([]);
  });

  it('a node that hangs up on continue/stream and sends continue at once: told to retry, then the replay', async () => {
    // Prepare
    const id = await start(api().speaking, 'continue-once-hang-up');
    await askForCall(id);
    const { held, release } = heldReply();
    api().llm.enqueue({ ...textReply(ANSWER), heldUntil: held });
    api().audio.enqueueSpeech({ audio: tonePcm(0.1, SPEECH_RATE) });
    const hangUp = new AbortController();
    const streaming = fetch(`${api().speaking.url}${ROUTES.continueStream}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKeyOf(NODE_A), 'content-type': 'application/json' },
      body: JSON.stringify(results(id, 'call_mul', 84)),
      signal: hangUp.signal,
    }).catch((error: unknown) => error);
    await vi.waitFor(() => expect(api().llm.requests).toHaveLength(2), { timeout: 10_000 });

    // Act
    hangUp.abort();
    await streaming;
    const meanwhile = await read(
      await postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84)),
    );
    release();
    const retried = await vi.waitFor(
      async () => {
        const answer = await read(
          await postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84)),
        );
        expect(answer.status).toBe(200);
        return answer;
      },
      { timeout: 10_000, interval: 50 },
    );

    // Assess
    expectToldToRetry(meanwhile);
    expectReplayOfAnswer(retried);
    expect(api().llm.requests).toHaveLength(2);
  });

  it('voice/command/stream and voice/command with one request id at once: one model call, then the replay', async () => {
    // Prepare
    const id = await start(api().speaking, 'command-once-race');
    const { held, release } = heldReply();
    api().llm.enqueue({
      ...callsReply(toolCall('calculate', { num1: 12, num2: 7, operation: 'multiply' }, 'call_r')),
      heldUntil: held,
    });
    const body = { conversation_id: id, voice_command: UTTERANCE, request_id: 'node-utterance-1' };
    const streaming = postJson(api().speaking, ROUTES.commandStream, body);
    await vi.waitFor(() => expect(api().llm.requests).toHaveLength(1), { timeout: 10_000 });

    // Act
    const meanwhile = await read(await postJson(api().speaking, ROUTES.command, body));
    release();
    const streamed = await read(await streaming);
    const retried = await read(await postJson(api().speaking, ROUTES.command, body));

    // Assess
    expectToldToRetry(meanwhile);
    expect(streamed.status).toBe(202);
    expect(expectVoiceResponse(retried, 'tool_calls').tool_calls.map((call) => call.id)).toEqual([
      'call_r',
    ]);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(api().llm.requests).toHaveLength(1);
  });
});

describe('a request id that gets continue/stream’s answer', () => {
  it('replays it again after the conversation moved on, as any request id', async () => {
    // Prepare: continue/stream answers the results; the node's continue with its own id gets
    // that answer replayed; then the conversation moves on.
    const id = await start(api().speaking, 'continue-once-id-after-handoff');
    await askForCall(id);
    api().llm.enqueue(textReply(ANSWER), textReply('You are welcome.'));
    api().audio.enqueueSpeech({ audio: tonePcm(0.1, SPEECH_RATE) });
    const streamed = await read(
      await postJson(api().speaking, ROUTES.continueStream, results(id, 'call_mul', 84)),
    );
    const withId = { ...results(id, 'call_mul', 84), request_id: 'node-after-handoff' };
    const first = await read(await postJson(api().speaking, ROUTES.continue, withId));
    const movedOn = await read(
      await postJson(api().speaking, ROUTES.command, {
        conversation_id: id,
        voice_command: 'thanks',
      }),
    );

    // Act
    const resent = await read(await postJson(api().speaking, ROUTES.continue, withId));

    // Assess
    expect(streamed.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBe('true');
    expectVoiceResponse(movedOn, 'complete');
    expect(resent.status, resent.text).toBe(200);
    expect(resent.json).toEqual(first.json);
    expect(resent.headers.get('idempotent-replayed')).toBe('true');
    expect(api().llm.requests).toHaveLength(3);
  });
});

/** A JSON post with headers of the node's own (`Idempotency-Key`). */
const postWith = (path: string, body: unknown, headers: Record<string, string>) =>
  postRaw(api().speaking, path, JSON.stringify(body), {
    'content-type': 'application/json',
    ...headers,
  });

describe('continue/stream with the node’s own request id', () => {
  it.each([
    { resend: 'continue/stream', path: ROUTES.continueStream, header: false },
    { resend: 'continue', path: ROUTES.continue, header: false },
    {
      resend: 'continue/stream, the id in Idempotency-Key',
      path: ROUTES.continueStream,
      header: true,
    },
  ])(
    'its answer is recorded under the id: a resend after the conversation moved on replays it ($resend)',
    async ({ path, header }) => {
      // Prepare: continue/stream with an id answers; then the conversation moves on.
      const id = await start(api().speaking, `continue-stream-own-id-${path.length}-${header}`);
      await askForCall(id);
      api().llm.enqueue(textReply(ANSWER), textReply('You are welcome.'));
      api().audio.enqueueSpeech({ audio: tonePcm(0.1, SPEECH_RATE) });
      api().audio.enqueueSpeech({ audio: tonePcm(0.1, SPEECH_RATE) });
      const withId = header
        ? results(id, 'call_mul', 84)
        : { ...results(id, 'call_mul', 84), request_id: 'node-stream-own-1' };
      const headers = header ? { 'idempotency-key': 'node-stream-own-1' } : {};
      const streamed = await read(await postWith(ROUTES.continueStream, withId, headers));
      const movedOn = await read(
        await postJson(api().speaking, ROUTES.command, {
          conversation_id: id,
          voice_command: 'thanks',
        }),
      );

      // Act
      const resent = await read(await postWith(path, withId, headers));

      // Assess: the answer the model gave once, never a 409 nothing_pending.
      expect(streamed.status, streamed.text).toBe(200);
      expectVoiceResponse(movedOn, 'complete');
      expect(resent.status, resent.text).toBe(200);
      expect(resent.headers.get('idempotent-replayed')).toBe('true');
      if (path === ROUTES.continue) {
        expect(expectVoiceResponse(resent, 'complete').assistant_message).toBe(ANSWER);
      }
      expect(api().llm.requests).toHaveLength(3);
    },
  );
});

describe('continue/stream with an id, raced by the blocking continue without one', () => {
  it('one model call: the copy told to retry, then replayed by its results', async () => {
    // Prepare
    const id = await start(api().speaking, 'continue-stream-id-raced');
    await askForCall(id);
    const withId = { ...results(id, 'call_mul', 84), request_id: 'node-stream-raced' };
    const { streaming, release } = await heldContinueStream(id, withId);

    // Act
    const { meanwhile, streamed, retried } = await blockingContinueDuring(id, streaming, release);

    // Assess
    expect(meanwhile.status, meanwhile.text).toBe(409);
    expect(meanwhile.json).toMatchObject({ error: { code: 'request_in_progress' } });
    expect(streamed.status).toBe(200);
    expect(expectVoiceResponse(retried, 'complete').assistant_message).toBe(ANSWER);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(api().llm.requests).toHaveLength(2);
    expect(resultsReaching('call_mul', 84)).toBe(1);
  });
});

describe('a node that hangs up on voice/command/stream', () => {
  it.each([
    { resend: 'voice/command', path: ROUTES.command },
    { resend: 'voice/command/stream', path: ROUTES.commandStream },
  ])(
    'and resends its request id at once ($resend): told to retry, then the replay, one model call',
    async ({ path }) => {
      // Prepare
      const id = await start(api().speaking, `command-stream-hang-up-${path.length}`);
      const { held, release } = heldReply();
      api().llm.enqueue({
        ...callsReply(
          toolCall('calculate', { num1: 12, num2: 7, operation: 'multiply' }, 'call_h'),
        ),
        heldUntil: held,
      });
      const body = { conversation_id: id, voice_command: UTTERANCE, request_id: 'node-hang-up-1' };
      const hangUp = new AbortController();
      const streaming = fetch(`${api().speaking.url}${ROUTES.commandStream}`, {
        method: 'POST',
        headers: { 'x-api-key': apiKeyOf(NODE_A), 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: hangUp.signal,
      }).catch((error: unknown) => error);
      await vi.waitFor(() => expect(api().llm.requests).toHaveLength(1), { timeout: 10_000 });

      // Act
      hangUp.abort();
      await streaming;
      const meanwhile = await read(await postJson(api().speaking, path, body));
      release();
      const retried = await vi.waitFor(
        async () => {
          const answer = await read(await postJson(api().speaking, path, body));
          expect(answer.status).not.toBe(409);
          return answer;
        },
        { timeout: 10_000, interval: 50 },
      );

      // Assess: the turn ran to its end once; the resend gets its calls.
      expect(meanwhile.status, meanwhile.text).toBe(409);
      expect(meanwhile.json).toMatchObject({ error: { code: 'request_in_progress' } });
      const status = path === ROUTES.command ? 200 : 202;
      const calls = expectVoiceResponse(retried, 'tool_calls', status).tool_calls;
      expect(calls.map((call) => call.id)).toEqual(['call_h']);
      expect(retried.headers.get('idempotent-replayed')).toBe('true');
      expect(api().llm.requests).toHaveLength(1);
    },
  );
});

describe('a reused call id in other exchanges', () => {
  it('after a restart under the same conversation id, the same results reach the model', async () => {
    // Prepare: continue/stream records an answer, then the node starts the conversation again.
    const id = await start(api().speaking, 'continue-once-restart');
    await askForCall(id);
    api().llm.enqueue(textReply(ANSWER));
    api().audio.enqueueSpeech({ audio: tonePcm(0.1, SPEECH_RATE) });
    await read(await postJson(api().speaking, ROUTES.continueStream, results(id, 'call_mul', 84)));
    const restarted = await read(
      await postJson(api().speaking, ROUTES.start, fixtureStartBody(id)),
    );
    expectStarted(restarted, id);
    await askForCall(id);
    api().llm.enqueue(textReply('Again 84.'));

    // Act
    const answered = await read(
      await postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84)),
    );

    // Assess
    expect(expectVoiceResponse(answered, 'complete').assistant_message).toBe('Again 84.');
    expect(answered.headers.get('idempotent-replayed')).toBeNull();
    expect(resultsReaching('call_mul', 84)).toBe(1);
  });

  it('within the stored history, a reused id is renamed: the old results are refused, the new ones answer', async () => {
    // Prepare: the model uses call_mul again while the first exchange is still stored.
    const id = await start(api().speaking, 'continue-once-window');
    await askForCall(id);
    api().llm.enqueue(textReply(ANSWER));
    await read(await postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84)));
    api().llm.enqueue(
      callsReply(toolCall('calculate', { num1: 12, num2: 7, operation: 'multiply' }, 'call_mul')),
    );
    const asked = expectVoiceResponse(
      await read(
        await postJson(api().speaking, ROUTES.command, {
          conversation_id: id,
          voice_command: UTTERANCE,
        }),
      ),
      'tool_calls',
    );
    const [renamed] = asked.tool_calls.map((call) => call.id);
    api().llm.enqueue(textReply('Still 84.'));

    // Act
    const old = await read(
      await postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84)),
    );
    const answered = await read(
      await postJson(api().speaking, ROUTES.continue, results(id, String(renamed), 84)),
    );

    // Assess
    expect(renamed).not.toBe('call_mul');
    expect(old.status, old.text).toBe(400);
    expect(old.json).toMatchObject({ error: { code: 'tool_results_mismatch' } });
    expect(expectVoiceResponse(answered, 'complete').assistant_message).toBe('Still 84.');
    expect(answered.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('a copy of a continue that carries a request id', () => {
  it.each([
    { copy: 'continue/stream', path: ROUTES.continueStream, requestId: null },
    { copy: 'a continue with another request id', path: ROUTES.continue, requestId: 'node-b' },
    { copy: 'a continue without a request id', path: ROUTES.continue, requestId: null },
  ])(
    'is told to retry while it runs, and its retry gets the replay ($copy)',
    async ({ path, requestId }) => {
      // Prepare: the blocking continue with the node's own id holds the model.
      const id = await start(api().speaking, `continue-once-id-first-${path.length}-${requestId}`);
      await askForCall(id);
      const { held, release } = heldReply();
      api().llm.enqueue({ ...textReply(ANSWER), heldUntil: held });
      api().audio.enqueueSpeech({ audio: tonePcm(0.1, SPEECH_RATE) });
      const withId = { ...results(id, 'call_mul', 84), request_id: 'node-a' };
      const first = postJson(api().speaking, ROUTES.continue, withId);
      await vi.waitFor(() => expect(api().llm.requests).toHaveLength(2), { timeout: 10_000 });
      const copy = {
        ...results(id, 'call_mul', 84),
        ...(requestId === null ? {} : { request_id: requestId }),
      };

      // Act
      const meanwhile = await read(await postJson(api().speaking, path, copy));
      release();
      const answered = await read(await first);
      const retried = await read(await postJson(api().speaking, path, copy));

      // Assess: one model call; the copy's retry gets the answer the first request got.
      expectToldToRetry(meanwhile);
      expect(expectVoiceResponse(answered, 'complete').assistant_message).toBe(ANSWER);
      expect(retried.status, retried.text).toBe(200);
      if (path === ROUTES.continue) {
        expect(retried.json).toEqual(answered.json);
        expect(retried.headers.get('idempotent-replayed')).toBe('true');
      }
      expect(api().llm.requests).toHaveLength(2);
      expect(resultsReaching('call_mul', 84)).toBe(1);
    },
  );
});

describe('a copy sent to another container during the model call', () => {
  it('continue/stream on one, the blocking continue on the other: one model call, then the replay', async () => {
    // Prepare: two servers, each its own dependencies and caches, on one database.
    const id = await start(api().speaking, 'continue-once-two-containers');
    await askForCall(id);
    const { streaming, release } = await heldContinueStream(id);
    const withId = { ...results(id, 'call_mul', 84), request_id: 'node-other-container' };

    // Act
    const meanwhile = await Promise.all([
      postJson(api().silent, ROUTES.continue, results(id, 'call_mul', 84)).then(read),
      postJson(api().silent, ROUTES.continue, withId).then(read),
    ]);
    release();
    const streamed = await read(await streaming);
    const retried = await Promise.all([
      postJson(api().silent, ROUTES.continue, results(id, 'call_mul', 84)).then(read),
      postJson(api().silent, ROUTES.continue, withId).then(read),
    ]);

    // Assess
    for (const copy of meanwhile) expectToldToRetry(copy);
    expect(streamed.status).toBe(200);
    for (const answer of retried) expectReplayOfAnswer(answer);
    expect(api().llm.requests).toHaveLength(2);
  });
});

describe('another request on a conversation whose turn runs, from outside', () => {
  it.each([
    { second: 'voice/command', path: ROUTES.command },
    { second: 'voice/command/stream', path: ROUTES.commandStream },
  ])(
    'the same words under a new request id ($second): 409 conversation_conflict, then a turn of its own',
    async ({ path }) => {
      // Prepare: voice/command with the node's id holds the model.
      const id = await start(api().speaking, `command-new-id-same-words-${path.length}`);
      const { held, release } = heldReply();
      api().llm.enqueue({ ...textReply(ANSWER), heldUntil: held });
      const first = { conversation_id: id, voice_command: UTTERANCE, request_id: 'node-words-1' };
      const running = postJson(api().speaking, ROUTES.command, first);
      await vi.waitFor(() => expect(api().llm.requests).toHaveLength(1), { timeout: 10_000 });
      const second = { ...first, request_id: 'node-words-2' };

      // Act
      const meanwhile = await read(await postJson(api().speaking, path, second));
      release();
      const answered = await read(await running);
      api().llm.enqueue(textReply('Again: 84.'));
      api().audio.enqueueSpeech({ audio: tonePcm(0.1, SPEECH_RATE) });
      const retried = await read(await postJson(api().speaking, ROUTES.command, second));

      // Assess: not a copy (its retry would not replay the first answer), another request.
      expect(meanwhile.status, meanwhile.text).toBe(409);
      expect(meanwhile.json).toMatchObject({ error: { code: 'conversation_conflict' } });
      expect(meanwhile.headers.get('retry-after')).toBe('1');
      expect(expectVoiceResponse(answered, 'complete').assistant_message).toBe(ANSWER);
      expect(expectVoiceResponse(retried, 'complete').assistant_message).toBe('Again: 84.');
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
      expect(api().llm.requests).toHaveLength(2);
    },
  );
});
