import type { ModelReply, TokenUsage } from '../../ports/language-model';
import type { Result } from '../../result';
import { readChatReply } from '../openai/read-chat-reply';

/** What the embedded model wrote for one request, in its own chat-template format. */
export interface GeneratedText {
  readonly text: string;
  /** `length`: cut at max tokens; `stop`: the model ended its turn (or a grammar completed). */
  readonly ended: 'stop' | 'length';
  readonly usage: TokenUsage;
}

/** Qwen's and Hermes' tool-call block, as Qwen3's chat template describes it to the model. */
const TOOL_CALL = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g;
/** A thinking block (MODEL_THINKING=on), or the empty one a thinking-off template leaves. */
const THINKING = /<think>[\s\S]*?(?:<\/think>|$)/g;
const NAME = /"name"\s*:\s*"((?:[^"\\]|\\.)*)"/;
const ARGUMENTS = /"arguments"\s*:\s*([\s\S]*)}\s*$/;

/**
 * The model's text as a Chat Completions body, read by `readChatReply` as every server's reply
 * is: the same limits, the same tolerance. Each `<tool_call>` block holding
 * `{"name": ..., "arguments": ...}` becomes a call; a block that is not JSON keeps what can be
 * read of it (its name, the arguments' text) so the engine answers it as it answers broken
 * arguments from a server, with a retry. The text outside the blocks is the content.
 */
export function readModelFormatReply(generated: GeneratedText): Result<ModelReply, string> {
  const withoutThinking = generated.text.replace(THINKING, '');
  const toolCalls: unknown[] = [];
  let cutCall = false;
  const content = withoutThinking.replace(TOOL_CALL, (block: string, inner: string) => {
    const closed = block.endsWith('</tool_call>');
    // An unclosed block cut at max tokens is text, as a server's parser leaves it.
    if (!closed && generated.ended === 'length') {
      cutCall = true;
      return block;
    }
    toolCalls.push({ type: 'function', function: readCallBlock(inner.trim()) });
    return '';
  });
  const text = content.trim();
  const calls = toolCalls.length > 0;
  return readChatReply({
    choices: [
      {
        message: {
          role: 'assistant',
          content: text === '' ? null : text,
          ...(calls ? { tool_calls: toolCalls } : {}),
        },
        finish_reason:
          generated.ended === 'length' || cutCall ? 'length' : calls ? 'tool_calls' : 'stop',
      },
    ],
    usage: {
      prompt_tokens: generated.usage.promptTokens,
      completion_tokens: generated.usage.completionTokens,
      prompt_tokens_details: { cached_tokens: generated.usage.cachedTokens },
    },
  });
}

function readCallBlock(inner: string): { name: unknown; arguments: unknown } {
  try {
    const parsed: unknown = JSON.parse(inner);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const call = parsed as Record<string, unknown>;
      const args = call.arguments ?? call.parameters;
      return {
        name: call.name,
        // The wire carries arguments as a JSON string; the template shows them as an object.
        arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
      };
    }
  } catch {
    // Read what can be read below.
  }
  const name = NAME.exec(inner)?.[1];
  return { name: name ?? '', arguments: ARGUMENTS.exec(inner)?.[1]?.trim() ?? inner };
}
