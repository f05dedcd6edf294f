import { describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { tonePcm } from '../support/speech-audio';
import { callsReply, messagesOf, textReply, toolCall } from './http-fixtures';
import { expectVoiceResponse } from './response-contract';
import { SPEECH_RATE, useSpeechApi } from './speech-api';
import { postJson, read, start } from './speech-exchange';

const api = useSpeechApi();

/** The timer's result as jarvis-node-setup sends it (tool_result_formatter.py). */
const timerResult = (id: string) => ({
  conversation_id: id,
  tool_results: [
    {
      tool_call_id: 'call_timer',
      output: {
        success: true,
        message: 'Timer set for 10 minutes for pasta',
        context: { timer_id: 't-1', duration_seconds: 600, label: 'pasta' },
        error: null,
      },
    },
  ],
});
const SPOKEN = 'Timer set for 10 minutes for pasta.';

/** A conversation whose turn waits on the node's set_timer call `call_timer`. */
async function timerPending(label: string): Promise<string> {
  const id = await start(api().speaking, label);
  api().llm.enqueue(
    callsReply(toolCall('set_timer', { duration_seconds: 600, label: 'pasta' }, 'call_timer')),
  );
  const called = await read(
    await postJson(api().speaking, ROUTES.command, {
      conversation_id: id,
      voice_command: 'set a ten minute pasta timer',
    }),
  );
  expect(expectVoiceResponse(called, 'tool_calls').tool_calls[0]?.id).toBe('call_timer');
  return id;
}

describe("a continue the node's commands answered, over HTTP", () => {
  it("answers their message with model_calls 0, counted and logged as the commands' answer", async () => {
    // Prepare
    const id = await timerPending('command-message-blocking');
    const from = api().output.length;

    // Act
    const response = await read(await postJson(api().speaking, ROUTES.continue, timerResult(id)));

    // Assess
    expect(expectVoiceResponse(response, 'complete')).toMatchObject({
      assistant_message: SPOKEN,
      model_calls: 0,
      usage: null,
      tool_calls: [],
      request_information: { voice_command: 'set a ten minute pasta timer' },
    });
    expect(api().llm.requests).toHaveLength(1);
    const written = api().output.slice(from).join('');
    expect(written).toContain('"command_answers":1');
    expect(written).toContain('"model_calls":0');
    expect(written).toContain('"answered_by":"commands"');
  });

  it('a later utterance carries on from it', async () => {
    // Prepare
    const id = await timerPending('command-message-follow-up');
    await read(await postJson(api().speaking, ROUTES.continue, timerResult(id)));
    api().llm.enqueue(textReply('About ten minutes.'));

    // Act
    const next = await read(
      await postJson(api().speaking, ROUTES.command, {
        conversation_id: id,
        voice_command: 'how long is left on it',
      }),
    );

    // Assess
    expect(expectVoiceResponse(next, 'complete').assistant_message).toBe('About ten minutes.');
    const history = messagesOf(api().llm.requests.at(-1));
    expect(history.slice(-3).map((message) => [message.role, message.content])).toEqual([
      ['tool', JSON.stringify(timerResult(id).tool_results[0]?.output)],
      ['assistant', SPOKEN],
      ['user', expect.stringContaining('how long is left on it')],
    ]);
    expect(api().llm.protocolViolations).toEqual([]);
  });

  it('continue/stream speaks it at once, and the blocking continue after it replays it', async () => {
    // Prepare
    const id = await timerPending('command-message-stream');
    api().audio.enqueueSpeech({ audio: tonePcm(0.2, SPEECH_RATE) });

    // Act
    const streamed = await read(
      await postJson(api().speaking, ROUTES.continueStream, timerResult(id)),
    );
    const blocking = await read(await postJson(api().speaking, ROUTES.continue, timerResult(id)));

    // Assess
    expect(streamed.status).toBe(200);
    expect(decodeURIComponent(streamed.headers.get('x-assistant-message') ?? '')).toBe(SPOKEN);
    expect(streamed.bytes.length).toBe(tonePcm(0.2, SPEECH_RATE).length);
    expect(api().audio.requests[0]?.speech).toMatchObject({ input: SPOKEN });
    expect(expectVoiceResponse(blocking, 'complete')).toMatchObject({
      assistant_message: SPOKEN,
      model_calls: 0,
    });
    expect(blocking.headers.get('idempotent-replayed')).toBe('true');
    expect(api().llm.requests).toHaveLength(1);
  });

  it('a failed command still goes to the model, which words the failure', async () => {
    // Prepare
    const id = await timerPending('command-message-failed');
    api().llm.enqueue(textReply("Sorry, I couldn't set that timer."));

    // Act
    const response = await read(
      await postJson(api().speaking, ROUTES.continue, {
        conversation_id: id,
        tool_results: [
          {
            tool_call_id: 'call_timer',
            output: { success: false, error: 'Timer error: no service', context: null },
          },
        ],
      }),
    );

    // Assess
    expect(expectVoiceResponse(response, 'complete')).toMatchObject({
      assistant_message: "Sorry, I couldn't set that timer.",
      model_calls: 1,
    });
    expect(api().llm.requests).toHaveLength(2);
  });
});
