import { issueMessage } from './issue-messages';
import type { ValidationIssue } from './validation-issue';

const OPENING =
  'Your previous tool call(s) were invalid and were NOT executed. Fix these problems:';
const CLOSING = 'Call the tool again with corrected arguments.';

/**
 * The system message that sends invalid calls back to the model: one line per issue, in the
 * issue's own message (where, what it must be, what came, the valid values, the
 * resolve_relative_date hint for dates and times); an unknown tool lists `toolNames`, the tools
 * the model was offered. Deterministic: the same issues give the same text, a repeated line once.
 */
export function buildRetryMessage(
  issues: readonly ValidationIssue[],
  toolNames: readonly string[],
): string {
  const lines = [...new Set(issues.map((issue) => `- ${retryLine(issue, toolNames)}`))];
  return [OPENING, ...lines, CLOSING].join('\n');
}

function retryLine(issue: ValidationIssue, toolNames: readonly string[]): string {
  if (issue.code !== 'unknown_tool' || toolNames.length === 0) return issue.message;
  return issueMessage({ ...issue, validValues: toolNames, parameterType: null });
}
