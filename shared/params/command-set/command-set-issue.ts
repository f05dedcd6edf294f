import {
  parameterAt,
  schemaLimitMessage,
  schemaLimitProblems,
} from '../limits/schema-limit-problems';
import type { JsonObject } from '../types/json-value';
import type { CommandSetIssue, CommandSetIssueCode } from './command-spec';

/** Collects the problems of a registration, so that all of them are reported at once. */
export class IssueList {
  readonly #issues: CommandSetIssue[] = [];

  add(code: CommandSetIssueCode, command: string, parameter: string | null, message: string): void {
    this.#issues.push({ code, command, parameter, message });
  }

  get all(): readonly CommandSetIssue[] {
    return this.#issues;
  }
}

/** Adds one `schema_limit_exceeded` issue per limit `schema` breaks; true when it breaks none. */
export function withinSchemaLimits(
  command: string,
  schema: JsonObject,
  issues: IssueList,
): boolean {
  const problems = schemaLimitProblems(schema);
  for (const problem of problems) {
    issues.add(
      'schema_limit_exceeded',
      command,
      parameterAt(problem.at),
      schemaLimitMessage(command, problem),
    );
  }
  return problems.length === 0;
}

/** The pattern the LLM APIs impose on tool names. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
