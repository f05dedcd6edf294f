import type { CommandSpec } from '../../params';
import { refinableParameterNames } from '../refinement/refinable-call';

const REFINEMENTS = `Refinements:
- A parameter marked refinable can be adjusted after its command ran. When the user's next \
request only adjusts one (for example "actually, play it next" or "make it louder"), it refines \
the last call of that command and is not a new request: call the same command again with the \
refined value and every other argument as the user last had it.
- The user's message names the last call with refinable parameters when there is one. A \
refinement adds nothing the user did not ask for.`;

/**
 * What a refinement is, once for the whole prompt; '' when no command has refinable parameters,
 * so the prompt of such a registration is what it was before refinements existed.
 */
export function describeRefinements(commands: readonly CommandSpec[]): string {
  const anyRefinable = commands.some((command) => refinableParameterNames(command).length > 0);
  return anyRefinable ? REFINEMENTS : '';
}

/** The line `describeCommand` adds for a command with refinable parameters; '' for others. */
export function describeRefinableParameters(command: CommandSpec): string {
  const names = refinableParameterNames(command);
  if (names.length === 0) return '';
  return `Refinable: ${names.join(', ')}. A follow-up that adjusts only these calls ${command.name} \
again with the other arguments unchanged.`;
}
