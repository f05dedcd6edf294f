import { isTemporalType, scalarOf } from '../types/parameter-type';
import { describeReceived, describeValues } from './describe-expected';
import type { IssueFacts, ValidationIssueCode } from './validation-issue';

type MessageOf = (facts: IssueFacts) => string;

// The one wording of each issue: the node reads it in the response, the model in the tool result
// and in the retry message. A code without a row here does not compile.
const ISSUE_MESSAGES: { readonly [Code in ValidationIssueCode]: MessageOf } = {
  unknown_tool: (facts) =>
    `${facts.command}: there is no tool with this name. Call one of: ${listed(facts)}.`,
  arguments_too_large: (facts) =>
    `${where(facts)}: the arguments are too large: send ${facts.expected}; got ${String(facts.received)}.`,
  number_not_exact: (facts) =>
    `${where(facts)}: ${String(facts.received)} cannot be carried exactly as a JSON number; send ${facts.expected}.`,
  arguments_not_object: (facts) =>
    `${facts.command}: the arguments must be ${facts.expected}, got ${got(facts)}.`,
  unknown_parameter: (facts) =>
    `${where(facts)}: ${facts.command} has no parameter named ${JSON.stringify(facts.parameter)}. Its parameters are: ${listed(facts)}.`,
  missing_parameter: (facts) =>
    facts.received === undefined
      ? `${where(facts)}: this required parameter is missing; expected ${facts.expected}.${dateHint(facts)}`
      : `${where(facts)}: this required parameter needs a real value; expected ${facts.expected}, got ${got(facts)}.${dateHint(facts)}`,
  not_in_enum: (facts) =>
    `${where(facts)}: expected one of ${describeValues(facts.validValues ?? [], facts.parameterType)}, got ${got(facts)}.`,
  constraint: (facts) => `${where(facts)}: ${facts.expected}, got ${got(facts)}.`,
  unknown_entity: (facts) =>
    `${where(facts)}: ${got(facts)} is not in the device list; expected ${facts.expected}. Closest: ${listed(facts)}.`,
  wrong_type: (facts) => wrongValue(facts),
  invalid_format: (facts) => wrongValue(facts),
};

/** One sentence saying where, what was expected and what came, in the wording of the issue's code. */
export function issueMessage(facts: IssueFacts): string {
  return ISSUE_MESSAGES[facts.code](facts);
}

function wrongValue(facts: IssueFacts): string {
  return `${where(facts)}: expected ${facts.expected}, got ${got(facts)}.${dateHint(facts)}`;
}

function where({ command, parameter }: IssueFacts): string {
  return parameter === null ? command : `${command}.${parameter}`;
}

function got(facts: IssueFacts): string {
  return describeReceived(facts.received);
}

function listed({ validValues }: IssueFacts): string {
  return validValues === null || validValues.length === 0 ? 'none' : validValues.join(', ');
}

// resolve_relative_date gives dates and times, never durations.
function dateHint({ parameterType }: IssueFacts): string {
  const resolvable = isTemporalType(parameterType) && scalarOf(parameterType) !== 'timedelta';
  return resolvable ? ' Call resolve_relative_date to get one.' : '';
}
