import { describe, expect, it } from 'vitest';
import { HOME_BLOCK_CLOSING } from '../../../shared/conversation/home/build-home-context';
import { handleVoiceCommand } from '../../../shared/conversation/use-cases/handle-voice-command';
import { startConversation } from '../../../shared/conversation/use-cases/start-conversation';
import { fixtureRegistration } from '../../support/engine-fixtures';
import { homeAgents } from '../../support/home-fixture';
import type { RecordedRequest } from '../../support/scripted-llm-server';
import { useConversationHarness } from './conversation-harness';

const harness = useConversationHarness();
const OFFICE = { nodeId: 'office', timezone: 'America/New_York', room: 'Office' } as const;

async function startHome(conversationId: string, agents: unknown, warmUpTimeoutMs = 0) {
  await startConversation(harness.dependencies({ warmUpTimeoutMs }), {
    node: OFFICE,
    conversationId,
    requestTimezone: null,
    commands: fixtureRegistration(),
    agents,
    speakerUserId: 7,
  });
}

/** What a prefix cache can share: the system message, the tools, the user text to the block's end. */
function cacheablePrefix(request: RecordedRequest | undefined): string {
  const messages = request?.body?.messages ?? [];
  const user = String(messages.find((message) => message.role === 'user')?.content ?? '');
  const blockEnd = user.indexOf(HOME_BLOCK_CLOSING) + HOME_BLOCK_CLOSING.length;
  return JSON.stringify([messages[0], request?.body?.tools, user.slice(0, blockEnd)]);
}

describe('the home block and the prompt cache', () => {
  it('is the same prefix in two conversations of a node whose devices did not change', async () => {
    // Prepare
    await startHome('home-one', homeAgents());
    await startHome('home-two', homeAgents());
    harness.llm.enqueue({ reply: { content: 'Hi.' } }, { reply: { content: 'Hi.' } });

    // Act
    const dependencies = harness.dependencies();
    await handleVoiceCommand(dependencies, {
      node: OFFICE,
      conversationId: 'home-one',
      utterance: 'hi',
    });
    await handleVoiceCommand(dependencies, {
      node: OFFICE,
      conversationId: 'home-two',
      utterance: 'what time is it',
    });

    // Assess
    const [first, second] = harness.llm.requests;
    expect(cacheablePrefix(first)).toContain('light.office_ceiling');
    expect(cacheablePrefix(second)).toBe(cacheablePrefix(first));
  });

  it('warms the model with the home block in front of the warm-up message', async () => {
    // Prepare
    harness.llm.enqueue({ reply: { content: '.' } }, { reply: { content: 'Hi.' } });

    // Act
    await startHome('home-warm', homeAgents(), 5_000);
    await handleVoiceCommand(harness.dependencies(), {
      node: OFFICE,
      conversationId: 'home-warm',
      utterance: 'hi',
    });

    // Assess
    const [warmUp, turn] = harness.llm.requests;
    expect(warmUp?.body?.max_tokens).toBe(1);
    expect(cacheablePrefix(warmUp)).toBe(cacheablePrefix(turn));
  });

  it('changes only after the tools when a device changed', async () => {
    // Prepare
    const changed = structuredClone(homeAgents()) as {
      home_assistant: { device_controls: { light: { state: string }[] } };
    };
    const [ceiling] = changed.home_assistant.device_controls.light;
    if (ceiling !== undefined) ceiling.state = 'off';
    await startHome('home-before', homeAgents());
    await startHome('home-after', changed);
    harness.llm.enqueue({ reply: { content: 'Hi.' } }, { reply: { content: 'Hi.' } });

    // Act
    const dependencies = harness.dependencies();
    for (const conversationId of ['home-before', 'home-after']) {
      await handleVoiceCommand(dependencies, { node: OFFICE, conversationId, utterance: 'hi' });
    }

    // Assess
    const [before, after] = harness.llm.requests;
    expect(after?.body?.messages?.[0]).toEqual(before?.body?.messages?.[0]);
    expect(after?.body?.tools).toEqual(before?.body?.tools);
    expect(cacheablePrefix(after)).not.toBe(cacheablePrefix(before));
  });
});
