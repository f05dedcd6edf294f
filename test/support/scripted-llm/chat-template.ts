import type { ChatRequestBody, ScriptedToolCall, WireMessage, WireToolCall } from './script-types';

/**
 * A prompt as a model server lays it out before tokenizing, in pieces: text, or one of the two
 * special tokens (one token each). The layout is Qwen3's chat template (ChatML with its tool
 * block), the model issue 11 measured, roughly:
 * - the tools go in the system message, one JSON object a line inside `<tools>`, after the system
 *   prompt, so the prefix every turn shares is the system prompt followed by the tools;
 * - an assistant tool call is `<tool_call>\n{"name": ..., "arguments": ...}\n</tool_call>`;
 * - a tool result is a user message wrapped in `<tool_response>`.
 * Simplifications: JSON is compact (Jinja's `tojson` puts a space after `:` and `,`), consecutive
 * tool results are not merged into one user message, and there is no `<think>` block.
 */
export type PromptPiece = string | typeof IM_START | typeof IM_END;

export const IM_START = Symbol('<|im_start|>');
export const IM_END = Symbol('<|im_end|>');

const TOOLS_INTRO =
  '\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n' +
  'You are provided with function signatures within <tools></tools> XML tags:\n<tools>';
const TOOLS_OUTRO =
  '\n</tools>\n\nFor each function call, return a json object with function name and arguments ' +
  'within <tool_call></tool_call> XML tags:\n<tool_call>\n' +
  '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>';

const text = (content: unknown): string =>
  typeof content === 'string' ? content : content == null ? '' : JSON.stringify(content);

/** Each message as `<|im_start|>`, its role line, its body, `<|im_end|>`: pieces that tokenize alike wherever they stand. */
const message = (role: string, body: string): PromptPiece[] => [
  IM_START,
  `${role}\n`,
  body,
  IM_END,
  '\n',
];

/** What the model writes for a reply: its text, then each call in a `<tool_call>` block. */
export function assistantText(
  content: unknown,
  toolCalls: readonly (WireToolCall | ScriptedToolCall)[],
): string {
  const blocks = toolCalls.map((call) => {
    const { name, arguments: args } = 'function' in call ? call.function : call;
    const argumentsText = typeof args === 'string' ? args : JSON.stringify(args ?? {});
    return `<tool_call>\n{"name": ${JSON.stringify(name)}, "arguments": ${argumentsText}}\n</tool_call>`;
  });
  return [text(content), ...blocks].filter((part) => part !== '').join('\n');
}

function messagePieces(wire: WireMessage): PromptPiece[] {
  switch (wire.role) {
    case 'assistant':
      return message('assistant', assistantText(wire.content, wire.tool_calls ?? []));
    case 'tool':
      return message('user', `<tool_response>\n${text(wire.content)}\n</tool_response>`);
    default:
      return message(wire.role, text(wire.content));
  }
}

/** The whole prompt of a chat request, ending with the turn the model is to write. */
export function renderPrompt(body: ChatRequestBody | null): PromptPiece[] {
  const messages = body?.messages ?? [];
  const tools = body?.tools ?? [];
  const [first, ...rest] = messages;
  const hasSystem = first?.role === 'system';
  const toolBlock =
    tools.length === 0
      ? ''
      : `${TOOLS_INTRO}\n${tools.map((tool) => JSON.stringify(tool)).join('\n')}${TOOLS_OUTRO}`;
  const pieces: PromptPiece[] = [];
  if (hasSystem || toolBlock !== '') {
    pieces.push(...message('system', `${hasSystem ? text(first.content) : ''}${toolBlock}`));
  }
  for (const wire of hasSystem ? rest : messages) pieces.push(...messagePieces(wire));
  pieces.push(IM_START, 'assistant\n');
  return pieces;
}
