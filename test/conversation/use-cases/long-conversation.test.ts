import { describe, expect, it } from 'vitest';
import { MAX_CONVERSATION_ITEM_BYTES } from '../../../shared/adapters/dynamodb';
import { compressText } from '../../../shared/adapters/dynamodb/compression';
import { continueConversation } from '../../../shared/conversation/use-cases/continue-conversation';
import { handleVoiceCommand } from '../../../shared/conversation/use-cases/handle-voice-command';
import { assertValidHistory } from '../../support/engine-fixtures';
import { NODE, useConversationHarness } from './conversation-harness';

const harness = useConversationHarness();
const TURNS = 200;

describe('a long conversation stays bounded', () => {
  it(`${TURNS} exchanges with large tool outputs: the item stays far below 400 KB and the history valid`, async () => {
    // Prepare
    const conversationId = await harness.start();
    const dependencies = harness.dependencies();
    // Incompressible output, so compression cannot hide a missing bound.
    const largeOutput = (turn: number) => ({
      turn,
      forecast: Array.from({ length: 400 }, (_, index) =>
        ((turn * 7919 + index * 104729) % 1_000_003).toString(36),
      ),
    });

    // Act
    for (let turn = 0; turn < TURNS; turn += 1) {
      const id = `call_weather_${turn}`;
      harness.llm.enqueue(
        {
          reply: {
            tool_calls: [
              {
                id,
                name: 'get_weather',
                arguments: '{"resolved_datetimes":["2026-01-17T05:00:00Z"]}',
              },
            ],
          },
        },
        { reply: { content: `Forecast number ${turn}.` } },
      );
      await handleVoiceCommand(dependencies, {
        node: NODE,
        conversationId,
        utterance: `weather ${turn}`,
      });
      await continueConversation(dependencies, {
        node: NODE,
        conversationId,
        toolResults: [{ toolCallId: id, output: largeOutput(turn) }],
      });
    }

    // Assess
    const stored = await dependencies.store.load(NODE.nodeId, conversationId);
    if (stored === null) throw new Error('conversation lost');
    const historyCharacters = JSON.stringify(stored.messages).length;
    const storedBytes =
      compressText(JSON.stringify(stored.messages)).length +
      compressText(stored.commandSource).length;
    expect(stored.version).toBe(1 + 2 * TURNS);
    expect(historyCharacters).toBeLessThanOrEqual(dependencies.settings.maxHistoryBytes);
    expect(storedBytes).toBeLessThan(MAX_CONVERSATION_ITEM_BYTES / 2);
    expect(stored.messages[0]?.role).toBe('user');
    expect(stored.messages.at(-1)).toMatchObject({
      role: 'assistant',
      content: `Forecast number ${TURNS - 1}.`,
    });
    assertValidHistory(stored.messages);
    expect(harness.llm.protocolViolations).toEqual([]);
  }, 120_000);
});
