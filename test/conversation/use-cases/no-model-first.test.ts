import { describe, expect, it } from 'vitest';
import { ModelNotConfiguredError } from '../../../shared/conversation/errors';
import { continueConversation } from '../../../shared/conversation/use-cases/continue-conversation';
import { handleVoiceCommand } from '../../../shared/conversation/use-cases/handle-voice-command';
import type { ConversationStore } from '../../../shared/ports/conversation-store';
import { NODE, useConversationHarness } from './conversation-harness';

const harness = useConversationHarness();

/** The real store, with a record of every claim taken and every read. */
function recordingStore(store: ConversationStore): { store: ConversationStore; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    store: {
      load: (nodeId, conversationId) => {
        calls.push('load');
        return store.load(nodeId, conversationId);
      },
      claim: (nodeId, conversationId, claim) => {
        calls.push('claim');
        return store.claim(nodeId, conversationId, claim);
      },
      release: (nodeId, conversationId, token) => store.release(nodeId, conversationId, token),
      replace: (record) => store.replace(record),
      save: (record, expectedVersion) => store.save(record, expectedVersion),
    },
  };
}

describe('no model configured', () => {
  it.each(['voice/command', 'continue'] as const)(
    'is a 503 on %s before any request id is claimed or anything read',
    async (route) => {
      const conversationId = await harness.start();
      const real = harness.dependencies();
      const recorded = recordingStore(real.store);
      const dependencies = { ...real, model: null, store: recorded.store };

      const answer =
        route === 'voice/command'
          ? handleVoiceCommand(dependencies, {
              node: NODE,
              conversationId,
              utterance: 'hello',
              requestId: 'request-1',
            })
          : continueConversation(dependencies, {
              node: NODE,
              conversationId,
              toolResults: [{ toolCallId: 'call_1', output: 'x' }],
              requestId: 'request-1',
            });

      await expect(answer).rejects.toBeInstanceOf(ModelNotConfiguredError);
      expect(recorded.calls).toEqual([]);
    },
  );
});
