import type { ChatMessage } from '../../chat/chat-message';

/**
 * The request's messages with the home block in front of the first user message.
 *
 * Why there: OpenAI-compatible servers render the tool definitions inside the system turn, after
 * the system message (Qwen, Llama and Hermes templates; OpenAI's own caching counts tools as part
 * of the prefix too), so the first text after the tools is the first user turn. A second system
 * message would be rejected by templates that allow one only at the start (Mistral, Gemma). The
 * block is not stored in the history but added to every request from the conversation, so it is
 * the same bytes on every turn: system + tools + home block is a prefix every request of the
 * conversation shares, and every conversation of a node whose devices did not change.
 */
export function withHomeBlock(
  messages: readonly ChatMessage[],
  homePrompt: string | null,
): readonly ChatMessage[] {
  if (homePrompt === null || homePrompt === '') return messages;
  const first = messages.findIndex((message) => message.role === 'user');
  const user = messages[first];
  if (user === undefined || user.role !== 'user') return messages;
  const withBlock: ChatMessage = { ...user, content: `${homePrompt}\n${user.content}` };
  return [...messages.slice(0, first), withBlock, ...messages.slice(first + 1)];
}
