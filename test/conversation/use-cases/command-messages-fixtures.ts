import { handleVoiceCommand } from '../../../shared/conversation/use-cases/handle-voice-command';
import { type ConversationHarness, NODE } from './conversation-harness';

export const timerCall = {
  id: 'call_timer',
  name: 'set_timer',
  arguments: '{"duration_seconds": 600}',
};
export const lightsCall = {
  id: 'call_lights',
  name: 'control_device',
  arguments: '{"device_name": "kitchen lights", "action": "turn_on"}',
};
/** What jarvis-node-setup sends for its timer (tool_result_formatter.py): the message on top. */
export const timerSet = {
  success: true,
  message: 'Timer set for 10 minutes',
  context: { timer_id: 't1', duration_seconds: 600, label: null },
  error: null,
};

/** The scripted model's chat requests, and a conversation waiting on the node's calls. */
export function commandMessagesScenario(harness: ConversationHarness) {
  return {
    modelRequests: () =>
      harness.llm.requests.filter((request) => request.path.endsWith('/chat/completions')),
    /** A conversation whose turn waits on the node's `calls`, the model asked once for them. */
    async pending(calls: readonly (typeof timerCall)[], settings = {}) {
      const conversationId = await harness.start();
      const dependencies = harness.dependencies(settings);
      harness.llm.enqueue({ reply: { tool_calls: [...calls] } });
      await handleVoiceCommand(dependencies, {
        node: NODE,
        conversationId,
        utterance: 'set it up',
      });
      return { conversationId, dependencies };
    },
  };
}
