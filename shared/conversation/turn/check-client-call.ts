import type { ToolCall } from '../../chat/chat-message';
import {
  argumentsNotObjectIssue,
  argumentsTextTooLargeIssue,
  checkEntityArgument,
  omitStrictNulls,
  type Repair,
  type ValidationIssue,
} from '../../params';
import type { ExtractedToolCall } from '../tool-calls';
import { recordedArguments } from './recorded-arguments';
import type { TurnContext } from './turn-state';

export type CheckedCall =
  | { readonly ok: true; readonly call: ToolCall; readonly repairs: readonly Repair[] }
  | {
      readonly ok: false;
      readonly call: ToolCall;
      readonly issues: readonly ValidationIssue[];
      readonly repairs: readonly Repair[];
    };

/**
 * Normalizes and validates one node tool call. A valid call comes back with its arguments as the
 * canonical JSON string that goes to the node; an invalid one with the issues for the retry.
 */
export function checkClientCall(extracted: ExtractedToolCall, context: TurnContext): CheckedCall {
  const { arguments: parsed } = extracted;
  if (!parsed.ok) {
    const call = {
      id: extracted.id,
      name: extracted.name,
      arguments: recordedArguments(parsed.raw),
    };
    const issue =
      parsed.tooLarge === true
        ? argumentsTextTooLargeIssue(extracted.name, parsed.reason)
        : argumentsNotObjectIssue(extracted.name, parsed.raw, parsed.reason);
    return { ok: false, call, issues: [issue], repairs: [] };
  }
  const jsonRepairs: Repair[] = parsed.repaired.map((rule) => ({
    command: extracted.name,
    parameter: '*',
    rule: `json_${rule}`,
    before: undefined,
    after: undefined,
  }));
  const check = context.commandSet.check(
    { name: extracted.name, arguments: asDeclared(extracted.name, parsed.value, context) },
    context.settings.normalization,
  );
  const rejected = (issues: readonly ValidationIssue[], repairs: readonly Repair[]) => {
    const call = {
      id: extracted.id,
      name: extracted.name,
      arguments: recordedArguments(parsed.value),
    };
    return { ok: false, call, issues, repairs } as const;
  };
  if (!check.ok) return rejected(check.issues, [...jsonRepairs, ...check.repairs]);
  // Valid by its schema: every entity id in it must also be one the node listed.
  const entity = checkEntity(extracted.name, check.arguments, context);
  if (entity !== null && !entity.ok) {
    return rejected(entity.issues, [...jsonRepairs, ...check.repairs]);
  }
  const repairs = [...jsonRepairs, ...check.repairs, ...(entity?.repairs ?? [])];
  const handed = entity?.arguments ?? check.arguments;
  // An id repaired into the listed one must still be what the node declared (its pattern, its
  // length, its enum): the node never gets arguments its schema refuses.
  if (entity !== null && entity.repairs.length > 0) {
    const again = context.commandSet.check({ name: extracted.name, arguments: handed }, 'strict');
    if (!again.ok) return rejected(again.issues, repairs);
  }
  const call = { id: extracted.id, name: extracted.name, arguments: JSON.stringify(handed) };
  return { ok: true, call, repairs };
}

/** In strict mode an omitted optional value arrives as null: taken out, as the node declared it. */
function asDeclared(name: string, value: unknown, context: TurnContext): unknown {
  if (!context.settings.strictToolSchemas) return value;
  const command = context.commandSet.commands.get(name);
  return command === undefined ? value : omitStrictNulls(value, command.tool.function.parameters);
}

/**
 * The device-list check of a valid call of any command, wherever its arguments hold an entity id
 * (shared/params/entities), when the node reported a device list; null when it did not.
 */
function checkEntity(
  name: string,
  args: Readonly<Record<string, unknown>>,
  context: TurnContext,
): ReturnType<typeof checkEntityArgument> | null {
  const entities = context.home?.entities ?? null;
  if (entities === null) return null;
  return checkEntityArgument(name, args, entities, context.settings.normalization);
}
