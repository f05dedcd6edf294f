import type { ParameterType } from '../types/parameter-type';
import { describeReceived, describeValues } from './describe-expected';
import type { ValidationIssue } from './validation-issue';

type IssueFacts = Omit<ValidationIssue, 'message' | 'parameterType'> & {
  readonly parameterType: ParameterType | null;
};

const RESOLVABLE: ReadonlySet<string> = new Set(['date', 'datetime', 'time']);

/** True when `resolve_relative_date` can produce a valid value for the type (date, datetime, time). */
export function isResolvableType(type: ParameterType | null | undefined): boolean {
  if (type === null || type === undefined) return false;
  if (type.kind === 'scalar') return RESOLVABLE.has(type.scalar);
  return type.kind === 'array' && type.items !== null && RESOLVABLE.has(type.items);
}

/** An issue with its message: one sentence saying where, what was expected and what came. */
export function makeIssue(facts: IssueFacts): ValidationIssue {
  return { ...facts, message: issueMessage(facts) };
}

function issueMessage(facts: IssueFacts): string {
  const { code, command, parameter, expected, received, validValues } = facts;
  const where = parameter === null ? command : `${command}.${parameter}`;
  const got = describeReceived(received);
  const values = validValues === null || validValues.length === 0 ? 'none' : validValues.join(', ');
  switch (code) {
    case 'unknown_tool':
      return `${command}: there is no tool with this name. Call one of: ${values}.`;
    case 'arguments_too_large':
      return `${where}: the arguments are too large: send ${expected}; got ${String(received)}.`;
    case 'arguments_not_object':
      return `${command}: the arguments must be one JSON object of named parameters, got ${got}.`;
    case 'unknown_parameter':
      return `${where}: ${command} has no parameter named ${JSON.stringify(parameter)}. Its parameters are: ${values}.`;
    case 'missing_parameter':
      return received === undefined
        ? `${where}: this required parameter is missing; expected ${expected}.${hint(facts)}`
        : `${where}: this required parameter needs a real value; expected ${expected}, got ${got}.${hint(facts)}`;
    case 'not_in_enum':
      return `${where}: expected one of ${describeValues(validValues ?? [])}, got ${got}.`;
    case 'constraint':
      return `${where}: ${expected}, got ${got}.`;
    case 'wrong_type':
    case 'invalid_format':
      return `${where}: expected ${expected}, got ${got}.${hint(facts)}`;
  }
}

function hint(facts: IssueFacts): string {
  return isResolvableType(facts.parameterType) ? ' Call resolve_relative_date to get one.' : '';
}
