import type { ToolDefinition } from '../../chat/chat-message';
import { toStrictSchema } from './strict-schema';

/** A tool as sent in strict mode, or as it was with the reason it cannot be strict. */
export type StrictTool =
  | { readonly strict: true; readonly tool: ToolDefinition }
  | { readonly strict: false; readonly tool: ToolDefinition; readonly reason: string };

/**
 * Each tool in OpenAI's strict subset (`strict: true`), so a server with structured outputs or a
 * grammar cannot produce a malformed argument; a tool whose schema the subset cannot express
 * (a free-form object, `oneOf`...) is sent as it was, and the server's validation covers it.
 */
export function strictTools(tools: readonly ToolDefinition[]): readonly StrictTool[] {
  return tools.map((tool) => {
    const converted = toStrictSchema(tool.function.parameters, tool.function.name);
    if (!converted.ok) return { strict: false, tool, reason: converted.issues.join('; ') };
    return {
      strict: true,
      tool: { ...tool, function: { ...tool.function, parameters: converted.value, strict: true } },
    };
  });
}
