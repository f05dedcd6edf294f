import type { ToolDefinition } from '../../../chat/chat-message';
import { ServerToolName } from '../server-tool-names';

/** The tool as the model sees it (OpenAI function format). */
export const resolveRelativeDateTool: ToolDefinition = {
  type: 'function',
  function: {
    name: ServerToolName.resolveRelativeDate,
    description:
      "A relative date or time as absolute ISO-8601 in the user's time zone (`utcValues` fit " +
      'datetime parameters).',
    parameters: {
      type: 'object',
      properties: {
        relative_term: {
          type: 'string',
          description: 'e.g. tomorrow, next_monday, tonight, in_20_minutes, "next Friday at 3pm".',
        },
      },
      required: ['relative_term'],
    },
  },
};
