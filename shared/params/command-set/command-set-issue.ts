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

/** The pattern the LLM APIs impose on tool names. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
