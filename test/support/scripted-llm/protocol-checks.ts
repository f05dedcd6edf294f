import { findHistoryIssues, isObject, issue, type ProtocolIssue } from './history-checks';

export type { ProtocolIssue } from './history-checks';

/** The tool-name rule of the real API, also the rule for command names in the wire contract. */
const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

const namedChoices = new Set(['none', 'auto', 'required']);

/**
 * Every rule of the real Chat Completions API this server enforces on a request body: a model,
 * the history rules (`findHistoryIssues`), tool declarations with valid names and never an empty
 * list, a `tool_choice` only with tools and naming a declared one, and no streaming (this server
 * only answers whole replies).
 */
export function findProtocolIssues(body: unknown): ProtocolIssue[] {
  if (!isObject(body)) {
    return [issue('invalid_body', 'The request body must be a JSON object', 'body')];
  }
  const issues: ProtocolIssue[] = [];
  if (typeof body.model !== 'string' || body.model === '') {
    issues.push(issue('missing_model', 'you must provide a model parameter', 'model'));
  }
  issues.push(...findHistoryIssues(body.messages));
  const toolNames = checkTools(body.tools, issues);
  checkToolChoice(body.tool_choice, toolNames, issues);
  if (body.stream === true) {
    issues.push(issue('stream_unsupported', 'the scripted server does not stream', 'stream'));
  }
  return issues;
}

/** The declared tool names, or null when no `tools` field was sent. */
function checkTools(tools: unknown, issues: ProtocolIssue[]): Set<string> | null {
  if (tools === undefined || tools === null) {
    return null;
  }
  const names = new Set<string>();
  if (!Array.isArray(tools) || tools.length === 0) {
    issues.push(
      issue(
        'empty_tools',
        "Invalid 'tools': empty array. Expected an array with minimum length 1",
        'tools',
      ),
    );
    return names;
  }
  for (const [index, tool] of tools.entries()) {
    const param = `tools[${index}]`;
    const toolFunction = isObject(tool) ? tool.function : undefined;
    if (!isObject(tool) || tool.type !== 'function' || !isObject(toolFunction)) {
      issues.push(
        issue('invalid_tool', `${param} must be {type: 'function', function: {...}}`, param),
      );
      continue;
    }
    const name = toolFunction.name;
    if (typeof name !== 'string' || !toolNamePattern.test(name)) {
      issues.push(
        issue(
          'invalid_tool_name',
          `Invalid '${param}.function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$' of at most 64 characters, got ${JSON.stringify(name)}`,
          `${param}.function.name`,
        ),
      );
      continue;
    }
    names.add(name);
  }
  return names;
}

function checkToolChoice(
  choice: unknown,
  toolNames: Set<string> | null,
  issues: ProtocolIssue[],
): void {
  if (choice === undefined || choice === null) {
    return;
  }
  if (toolNames === null) {
    issues.push(
      issue(
        'tool_choice_without_tools',
        "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
        'tool_choice',
      ),
    );
    return;
  }
  if (typeof choice === 'string' && namedChoices.has(choice)) {
    return;
  }
  const named = isObject(choice) && isObject(choice.function) ? choice.function.name : undefined;
  if (
    !isObject(choice) ||
    choice.type !== 'function' ||
    typeof named !== 'string' ||
    !toolNames.has(named)
  ) {
    issues.push(
      issue(
        'invalid_tool_choice',
        `Invalid value for 'tool_choice': ${JSON.stringify(choice)} names no declared tool`,
        'tool_choice',
      ),
    );
  }
}
