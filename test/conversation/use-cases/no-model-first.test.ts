import { describe, expect, it } from 'vitest';
import { ModelNotConfiguredError } from '../../../shared/conversation/errors';
import { continueConversation } from '../../../shared/conversation/use-cases/continue-conversation';
import { handleVoiceCommand } from '../../../shared/conversation/use-cases/handle-voice-command';
import type { RequestLocks } from '../../../shared/ports/request-locks';
import { NODE, useConversationHarness } from './conversation-harness';

const harness = useConversationHarness();

/** The real request locks, with a record of every claim taken. */
function recordingLocks(locks: RequestLocks): { locks: RequestLocks; claims: string[] } {
  const claims: string[] = [];
  return {
    claims,
    locks: {
      acquire: (claim) => {
        claims.push(claim.requestId);
        return locks.acquire(claim);
      },
      release: (claim, token) => locks.release(claim, token),
    },
  };
}

describe('no model configured', () => {
  it.each(['voice/command', 'continue'] as const)(
    'is a 503 on %s before any request id is claimed or anything read',
    async (route) => {
      const conversationId = await harness.start();
      const real = harness.dependencies();
      const recorded = recordingLocks(real.requestLocks);
      const dependencies = { ...real, model: null, requestLocks: recorded.locks };

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
      expect(recorded.claims).toEqual([]);
    },
  );
});
