import type { ToolDefinition } from '../../chat/chat-message';
import { ServerToolName } from './server-tool-names';

export const requestValidationTool: ToolDefinition = {
  type: 'function',
  function: {
    name: ServerToolName.requestValidation,
    description:
      'Ask the user one short question when a required value is missing or ambiguous and cannot ' +
      'be inferred.',
    parameters: {
      type: 'object',
      properties: {
        question: { type: 'string' },
        parameter_name: { type: 'string' },
        options: { type: 'array', items: { type: 'string' } },
      },
      required: ['question', 'parameter_name'],
    },
  },
};

export interface ClarificationQuestion {
  readonly question: string;
  readonly parameterName: string;
  readonly options: readonly string[] | null;
}

/** Reads the model's `request_validation` arguments, forgiving anything a person can still answer. */
export function readClarificationQuestion(args: unknown): ClarificationQuestion {
  const record = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  const question = typeof record.question === 'string' && record.question.trim() !== '';
  const options = Array.isArray(record.options)
    ? record.options.filter((option): option is string => typeof option === 'string')
    : [];
  return {
    question: question ? String(record.question).trim() : 'Could you tell me a bit more?',
    parameterName: typeof record.parameter_name === 'string' ? record.parameter_name : 'answer',
    options: options.length > 0 ? options : null,
  };
}
