import { issueMessage } from './issue-messages';
import type { IssueFacts, ValidationIssue } from './validation-issue';

const ONE_OBJECT = 'one JSON object of named parameters';

/** An issue with its message, written from its facts by the one wording of its code. */
export function makeIssue(facts: IssueFacts): ValidationIssue {
  return { ...facts, message: issueMessage(facts) };
}

/**
 * The issue of arguments that are not one JSON object: a parsed non-object, or text that is not
 * JSON at all (`parseError` then says why).
 */
export function argumentsNotObjectIssue(
  command: string,
  received: unknown,
  parseError: string | null = null,
): ValidationIssue {
  return makeIssue({
    code: 'arguments_not_object',
    command,
    parameter: null,
    expected: parseError === null ? ONE_OBJECT : `${ONE_OBJECT} (not valid JSON: ${parseError})`,
    received,
    validValues: null,
    parameterType: null,
  });
}
