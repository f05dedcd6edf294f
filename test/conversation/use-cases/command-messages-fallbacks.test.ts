import { describe, expect, it } from 'vitest';
import { MAX_COMMAND_ANSWER_CHARACTERS } from '../../../shared/conversation/turn/command-messages';
import { continueConversation } from '../../../shared/conversation/use-cases/continue-conversation';
import { handleVoiceCommand } from '../../../shared/conversation/use-cases/handle-voice-command';
import {
  commandMessagesScenario,
  lightsCall,
  timerCall,
  timerSet,
} from './command-messages-fixtures';
import { NODE, useConversationHarness } from './conversation-harness';

const harness = useConversationHarness();

const { modelRequests, pending } = commandMessagesScenario(harness);

/**
 * What is not a command's spoken answer reaches the model as before (command-messages.ts): the
 * scripted server's log shows the second request.
 */
describe('anything else goes to the model, as before', () => {
  const longMessage = 'x'.repeat(MAX_COMMAND_ANSWER_CHARACTERS);
  it.each([
    ['a failure', { success: false, error: 'No timer service', context: null }],
    ['a success without a message', { success: true, context: { topic: 'cats' }, error: null }],
    ['an empty message', { ...timerSet, message: '  ' }],
    ['a message that is not text', { ...timerSet, message: { text: 'Timer set' } }],
    ['a success that also reports an error', { ...timerSet, error: 'partly failed' }],
    ['"success" as text', { ...timerSet, success: 'true' }],
    ['an object without success', { message: 'Timer set for 10 minutes' }],
    ['a string output', 'Timer set for 10 minutes'],
    ['an array', [timerSet]],
    ['a message past the limit with its stop', { ...timerSet, message: longMessage }],
  ])('%s', async (_case, output) => {
    // Prepare
    const { conversationId, dependencies } = await pending([timerCall]);
    harness.llm.enqueue({ reply: { content: 'Done.' } });

    // Act
    const answer = await continueConversation(dependencies, {
      node: NODE,
      conversationId,
      toolResults: [{ toolCallId: 'call_timer', output }],
    });

    // Assess
    expect(answer).toMatchObject({ assistantMessage: 'Done.', modelCalls: 1 });
    expect(answer.answeredByCommands).toBeUndefined();
    expect(modelRequests()).toHaveLength(2);
  });

  it('one call answered with a message and one without', async () => {
    const { conversationId, dependencies } = await pending([timerCall, lightsCall]);
    harness.llm.enqueue({ reply: { content: 'Done, both.' } });

    const answer = await continueConversation(dependencies, {
      node: NODE,
      conversationId,
      toolResults: [
        { toolCallId: 'call_timer', output: timerSet },
        { toolCallId: 'call_lights', output: { success: true, context: {}, error: null } },
      ],
    });

    expect(answer).toMatchObject({ assistantMessage: 'Done, both.', modelCalls: 1 });
  });

  it('the setting off: the model always writes the answer', async () => {
    const off = { answerFromCommandMessages: false };
    const { conversationId, dependencies } = await pending([timerCall], off);
    harness.llm.enqueue({ reply: { content: 'Your ten-minute timer is running.' } });

    const answer = await continueConversation(dependencies, {
      node: NODE,
      conversationId,
      toolResults: [{ toolCallId: 'call_timer', output: timerSet }],
    });

    expect(answer).toMatchObject({
      assistantMessage: 'Your ten-minute timer is running.',
      modelCalls: 1,
    });
    expect(modelRequests()).toHaveLength(2);
  });

  it("a clarification's answer is the user's, even shaped as a command's result", async () => {
    // Prepare: the model asks the user itself; the node sends the answer as a message.
    const conversationId = await harness.start();
    const dependencies = harness.dependencies();
    const args = { question: 'Which room?', parameter_name: 'device_name' };
    harness.llm.enqueue(
      {
        reply: {
          tool_calls: [
            { id: 'call_ask', name: 'request_validation', arguments: JSON.stringify(args) },
          ],
        },
      },
      { reply: { content: 'Which lights, then?' } },
    );
    const asked = await handleVoiceCommand(dependencies, {
      node: NODE,
      conversationId,
      utterance: 'lights on',
    });

    // Act
    const answer = await continueConversation(dependencies, {
      node: NODE,
      conversationId,
      toolResults: [{ toolCallId: 'call_ask', output: { success: true, message: 'the kitchen' } }],
    });

    // Assess
    expect(asked.stopReason).toBe('validation_required');
    expect(answer).toMatchObject({ assistantMessage: 'Which lights, then?', modelCalls: 1 });
    expect(modelRequests()).toHaveLength(2);
  });
});
