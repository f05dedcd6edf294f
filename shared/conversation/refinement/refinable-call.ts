import { type CommandSpec, isJsonObject } from '../../params';

/** A node call of a command that has refinable parameters, as the node executed it. */
export interface RefinableCall {
  readonly id: string;
  readonly name: string;
  /** The arguments the node got: validated, and normalized where the policy repaired them. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The command's refinable parameters, in declared order. */
  readonly refinableParameters: readonly string[];
}

/** The names of a command's refinable parameters, in declared order; empty when it has none. */
export function refinableParameterNames(command: CommandSpec): readonly string[] {
  return command.parameters
    .filter((parameter) => parameter.refinable)
    .map((parameter) => parameter.name);
}

/** A call's arguments (a JSON string) as an object; null for anything else. */
export function argumentsObject(text: string): Readonly<Record<string, unknown>> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}
