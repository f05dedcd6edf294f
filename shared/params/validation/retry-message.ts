import { describeReceived } from './describe-expected';
import { isResolvableType } from './make-issue';
import type { ValidationIssue } from './validation-issue';

const OPENING =
  'Your previous tool call(s) were invalid and were NOT executed. Fix these problems:';
const CLOSING = 'Call the tool again with corrected arguments.';
const DATE_HINT =
  ' Relative terms such as "tomorrow" are not accepted: call resolve_relative_date to get an' +
  ' absolute ISO-8601 value with a time zone.';
const VALUE_CODES: ReadonlySet<string> = new Set([
  'missing_parameter',
  'wrong_type',
  'invalid_format',
  'not_in_enum',
  'constraint',
]);

/**
 * The system message that sends invalid calls back to the model: one line per invalid parameter
 * (what it must be, what came, the valid values), the resolve_relative_date hint for dates and
 * times, the tool list for unknown tools. Deterministic: the same issues give the same text.
 */
export function buildRetryMessage(
  issues: readonly ValidationIssue[],
  toolNames: readonly string[],
): string {
  const lines = [...new Set(issues.map((issue) => `- ${issueLine(issue, toolNames)}`))];
  return [OPENING, ...lines, CLOSING].join('\n');
}

function issueLine(issue: ValidationIssue, toolNames: readonly string[]): string {
  const { code, command, parameter, received } = issue;
  const where = parameter === null ? command : `${command}.${parameter}`;
  const got = describeReceived(received);
  if (code === 'unknown_tool') {
    const names = toolNames.length > 0 ? toolNames : (issue.validValues ?? []);
    return `${command}: there is no such tool. Available tools: ${names.join(', ')}.`;
  }
  if (code === 'arguments_too_large') return issue.message;
  if (code === 'arguments_not_object') {
    return `${command}: the arguments must be one JSON object of named parameters; got ${got}.`;
  }
  if (code === 'unknown_parameter') {
    const names = issue.validValues ?? [];
    const valid =
      names.length === 0
        ? `${command} takes no parameters`
        : `Valid parameters: ${names.join(', ')}`;
    return `${where}: ${command} has no such parameter. ${valid}.`;
  }
  return `${valueProblem(issue, where, got)}${validValues(issue)}${dateHint(issue)}`;
}

function valueProblem(issue: ValidationIssue, where: string, got: string): string {
  switch (issue.code) {
    case 'missing_parameter':
      return issue.received === undefined
        ? `${where}: required but missing; it must be ${issue.expected}.`
        : `${where}: required; it must be ${issue.expected}; got ${got}.`;
    case 'constraint':
      return `${where}: ${issue.expected}; got ${got}.`;
    case 'not_in_enum':
      return `${where}: must be one of the valid values; got ${got}.`;
    default:
      return `${where}: must be ${issue.expected}; got ${got}.`;
  }
}

function validValues(issue: ValidationIssue): string {
  const values = issue.validValues;
  return values === null || values.length === 0 ? '' : ` Valid values: ${values.join(', ')}.`;
}

function dateHint(issue: ValidationIssue): string {
  return VALUE_CODES.has(issue.code) && isResolvableType(issue.parameterType) ? DATE_HINT : '';
}
