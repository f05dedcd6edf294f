/** A rule the real Chat Completions API enforces, broken by a request. */
export interface ProtocolIssue {
  readonly rule: string;
  readonly message: string;
  /** The offending field, OpenAI style (`messages[3].tool_call_id`). */
  readonly param: string;
}

type JsonObject = Readonly<Record<string, unknown>>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const roles = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

const isContent = (value: unknown): boolean => typeof value === 'string' || Array.isArray(value);

/**
 * The message-history rules of the real API: every assistant tool call is answered by exactly one
 * `tool` message, right after it and before any other message; a `tool` message answers a call of
 * the assistant message just before; tool call ids are unique; tool call arguments are strings;
 * contents are strings (or lists of parts), null only for an assistant message with tool calls.
 */
export function findHistoryIssues(messages: unknown): ProtocolIssue[] {
  if (!Array.isArray(messages) || messages.length === 0) {
    return [issue('invalid_messages', 'messages must be a non-empty array', 'messages')];
  }
  const issues: ProtocolIssue[] = [];
  const seenIds = new Set<string>();
  let pending: { index: number; ids: Set<string> } | null = null;
  for (const [index, message] of messages.entries()) {
    const param = `messages[${index}]`;
    if (!isObject(message) || typeof message.role !== 'string' || !roles.has(message.role)) {
      issues.push(issue('invalid_role', `${param} has no valid role`, `${param}.role`));
      continue;
    }
    if (message.role === 'tool') {
      const id = message.tool_call_id;
      if (typeof id !== 'string' || pending === null || !pending.ids.delete(id)) {
        issues.push(
          issue(
            'tool_result_without_call',
            `Invalid parameter: ${param} with role 'tool' must be a response to a preceding message with 'tool_calls' (tool_call_id ${JSON.stringify(id)} answers no pending call).`,
            `${param}.tool_call_id`,
          ),
        );
      }
      if (!isContent(message.content)) {
        issues.push(contentIssue(param, message.content));
      }
      continue;
    }
    if (pending !== null && pending.ids.size > 0) {
      issues.push(unanswered(pending.index, pending.ids));
    }
    pending = null;
    const hasToolCalls = message.tool_calls !== undefined && message.tool_calls !== null;
    const nullAllowed = message.role === 'assistant' && hasToolCalls;
    if (!isContent(message.content) && !(nullAllowed && message.content == null)) {
      issues.push(contentIssue(param, message.content));
    }
    if (message.role === 'assistant' && hasToolCalls) {
      const ids = checkToolCalls(message.tool_calls, param, seenIds, issues);
      pending = { index, ids };
    }
  }
  if (pending !== null && pending.ids.size > 0) {
    issues.push(unanswered(pending.index, pending.ids));
  }
  return issues;
}

function checkToolCalls(
  calls: unknown,
  param: string,
  seenIds: Set<string>,
  issues: ProtocolIssue[],
): Set<string> {
  const ids = new Set<string>();
  if (!Array.isArray(calls) || calls.length === 0) {
    issues.push(
      issue(
        'invalid_tool_call',
        `${param}.tool_calls must be a non-empty array`,
        `${param}.tool_calls`,
      ),
    );
    return ids;
  }
  for (const [index, call] of calls.entries()) {
    const callParam = `${param}.tool_calls[${index}]`;
    const callFunction = isObject(call) ? call.function : undefined;
    if (!isObject(call) || call.type !== 'function' || !isObject(callFunction)) {
      issues.push(
        issue(
          'invalid_tool_call',
          `${callParam} must be {type: 'function', function: {...}}`,
          callParam,
        ),
      );
      continue;
    }
    if (typeof callFunction.name !== 'string' || typeof callFunction.arguments !== 'string') {
      issues.push(
        issue(
          'invalid_tool_call',
          `${callParam}.function needs a string name and string arguments`,
          `${callParam}.function`,
        ),
      );
    }
    if (typeof call.id !== 'string' || call.id === '') {
      issues.push(
        issue('invalid_tool_call', `${callParam}.id must be a non-empty string`, `${callParam}.id`),
      );
      continue;
    }
    if (seenIds.has(call.id)) {
      issues.push(
        issue(
          'duplicate_tool_call_id',
          `Duplicate tool call id ${JSON.stringify(call.id)} at ${callParam}`,
          `${callParam}.id`,
        ),
      );
    }
    seenIds.add(call.id);
    ids.add(call.id);
  }
  return ids;
}

const unanswered = (index: number, ids: Set<string>): ProtocolIssue =>
  issue(
    'tool_calls_unanswered',
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...ids].join(', ')}`,
    `messages[${index}]`,
  );

const contentIssue = (param: string, content: unknown): ProtocolIssue =>
  issue(
    'invalid_content',
    `Invalid type for '${param}.content': expected a string or an array of parts, got ${content === null ? 'null' : typeof content}`,
    `${param}.content`,
  );

export const issue = (rule: string, message: string, param: string): ProtocolIssue => ({
  rule,
  message,
  param,
});
