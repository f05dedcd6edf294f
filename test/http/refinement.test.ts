import { describe, expect, it } from 'vitest';
import { type ApiClient, ROUTES } from '../support/api-client';
import { fixtureRegistration } from '../support/engine-fixtures';
import { useLocalStack } from '../support/local-stack-harness';
import type { RecordedRequest } from '../support/scripted-llm-server';
import {
  callsReply,
  conversationIdFor,
  messagesOf,
  startWithFixture,
  textReply,
  toolCall,
} from './http-fixtures';
import {
  expectStarted,
  expectVoiceResponse,
  onlyCallOf,
  type VoiceResponse,
} from './response-contract';

const harness = useLocalStack();

type Refined = VoiceResponse & {
  readonly retries: readonly unknown[];
  readonly refinement: {
    command: string;
    tool_call_id: string;
    refines_tool_call_id: string;
    changed: string[];
  } | null;
};

const PLAY = { action: 'play', query: 'jazz' };
const PLAY_NEXT = { ...PLAY, queue_option: 'next' };
const LOUDER = { ...PLAY_NEXT, volume_level: 80 };
const LINE = '[Last call with refinable parameters: ';

const say = async (
  client: ApiClient,
  conversationId: string,
  utterance: string,
  requestId?: string,
) =>
  expectVoiceResponse(
    await client.post(ROUTES.command, {
      conversation_id: conversationId,
      voice_command: utterance,
      ...(requestId === undefined ? {} : { request_id: requestId }),
    }),
  ) as Refined;

const answer = async (client: ApiClient, conversationId: string, toolCallId: string) =>
  expectVoiceResponse(
    await client.post(ROUTES.continue, {
      conversation_id: conversationId,
      tool_results: [{ tool_call_id: toolCallId, output: { ok: true } }],
    }),
    'complete',
  ) as Refined;

const chatRequests = (): RecordedRequest[] =>
  harness.llm.requests.filter((request) => request.path.endsWith('/chat/completions'));
const systemPromptOf = (request: RecordedRequest | undefined) => messagesOf(request)[0]?.content;
/** The user message the model got last in `request`. */
const lastUserText = (request: RecordedRequest | undefined): string =>
  String(messagesOf(request).findLast((message) => message.role === 'user')?.content ?? '');

describe('refinable parameters over HTTP', () => {
  it('play, "play it next", "louder" reach the node as three calls of music, the last two refinements', async () => {
    // Prepare
    const client = harness.client();
    const conversationId = await startWithFixture(client, 'refine');
    harness.llm.enqueue(
      callsReply(toolCall('music', PLAY, 'call_play')),
      textReply('Playing jazz.'),
      callsReply(toolCall('music', PLAY_NEXT, 'call_next')),
      textReply('Jazz is next.'),
      // "louder" without the action: the server fills nothing in, the model is asked again.
      callsReply(toolCall('music', { volume_level: 80 }, 'call_partial')),
      callsReply(toolCall('music', LOUDER, 'call_louder')),
      textReply('Louder.'),
    );

    // Act
    const played = await say(client, conversationId, 'play some jazz');
    await answer(client, conversationId, 'call_play');
    const queued = await say(client, conversationId, 'actually, play it next');
    await answer(client, conversationId, 'call_next');
    const louder = await say(client, conversationId, 'louder');
    const done = await answer(client, conversationId, 'call_louder');

    // Assess
    const calls = [played, queued, louder].map(onlyCallOf);
    expect(calls.map((call) => [call.name, call.arguments])).toEqual([
      ['music', PLAY],
      ['music', PLAY_NEXT],
      ['music', LOUDER],
    ]);
    expect(played.refinement).toBeNull();
    expect(queued.refinement).toEqual({
      command: 'music',
      tool_call_id: 'call_next',
      refines_tool_call_id: 'call_play',
      changed: ['queue_option'],
    });
    expect(louder.refinement).toEqual({
      command: 'music',
      tool_call_id: 'call_louder',
      refines_tool_call_id: 'call_next',
      changed: ['volume_level'],
    });
    expect(louder.retries).toHaveLength(1);
    expect(done.refinement).toBeNull();
    expect(done.request_information.voice_command).toBe('louder');

    const requests = chatRequests();
    expect(requests).toHaveLength(7);
    expect(new Set(requests.map(systemPromptOf)).size).toBe(1);
    expect(String(systemPromptOf(requests[0]))).toContain('Refinable: queue_option, volume_level.');
    expect(lastUserText(requests[0])).not.toContain(LINE);
    expect(lastUserText(requests[2])).toContain(
      `${LINE}music(${JSON.stringify(PLAY)}); refinable: queue_option, volume_level.`,
    );
    expect(lastUserText(requests[2])).toMatch(/\nactually, play it next$/);
    expect(lastUserText(requests[4])).toContain(`${LINE}music(${JSON.stringify(PLAY_NEXT)});`);
    expect(harness.output.join('')).toMatch(/"refinements":1\b/);
    expect(harness.llm.protocolViolations).toEqual([]);
  });

  it('a call still pending when the user goes on is not named, and not refined', async () => {
    const client = harness.client();
    const conversationId = await startWithFixture(client, 'pending');
    harness.llm.enqueue(
      callsReply(toolCall('music', PLAY, 'call_play')),
      callsReply(toolCall('music', PLAY_NEXT, 'call_next')),
    );

    await say(client, conversationId, 'play some jazz');
    const queued = await say(client, conversationId, 'play it next');

    expect(lastUserText(chatRequests()[1])).not.toContain(LINE);
    expect(queued.refinement).toBeNull();
  });

  it('a replayed refinement answers with the same refinement', async () => {
    const client = harness.client();
    const conversationId = await startWithFixture(client, 'replay');
    harness.llm.enqueue(
      callsReply(toolCall('music', PLAY, 'call_play')),
      textReply('Playing jazz.'),
      callsReply(toolCall('music', PLAY_NEXT, 'call_next')),
    );
    await say(client, conversationId, 'play some jazz');
    await answer(client, conversationId, 'call_play');

    const first = await say(client, conversationId, 'play it next', 'req-next');
    const repeat = await say(client, conversationId, 'play it next', 'req-next');

    expect(first.refinement).toMatchObject({ refines_tool_call_id: 'call_play' });
    expect(repeat).toEqual(first);
    expect(chatRequests()).toHaveLength(3);
  });

  it('a registration without refinable parameters: no word of it in the prompt or the turn', async () => {
    // Prepare
    const client = harness.client();
    const conversationId = conversationIdFor('plain');
    const plain = JSON.parse(
      JSON.stringify(fixtureRegistration(), (key, value) =>
        key === 'refinable' || key === '_refinable' ? undefined : value,
      ),
    );
    expectStarted(
      await client.post(ROUTES.start, { ...plain, conversation_id: conversationId }),
      conversationId,
    );
    harness.llm.enqueue(
      callsReply(toolCall('music', PLAY, 'call_play')),
      textReply('Playing jazz.'),
      callsReply(toolCall('music', PLAY_NEXT, 'call_next')),
    );

    // Act
    await say(client, conversationId, 'play some jazz');
    await answer(client, conversationId, 'call_play');
    const queued = await say(client, conversationId, 'play it next');

    // Assess
    const requests = chatRequests();
    expect(String(systemPromptOf(requests[2]))).not.toMatch(/refin/i);
    expect(lastUserText(requests[2])).toMatch(
      /^\[[^\n]*time zone America\/New_York\]\nplay it next$/,
    );
    expect(queued.refinement).toBeNull();
    expect(onlyCallOf(queued).arguments).toEqual(PLAY_NEXT);
  });
});
