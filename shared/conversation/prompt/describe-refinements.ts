import type { CommandSpec } from '../../params';
import { refinableParameterNames } from '../refinement/refinable-call';

const REFINEMENTS =
  '- A request that only adjusts a refinable parameter (named below; "play it next", "louder") ' +
  'calls the same command again: the new value, the other arguments as last used (the ' +
  "user's message names that call), nothing added.";

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
  return `Refinable: ${names.join(', ')}.`;
}
