import type { ToolDefinition } from '../../chat/chat-message';
import { argumentLimitIssue, inexactNumberIssue } from '../limits/argument-limits';
import { normalizeArguments } from '../normalization/normalize-arguments';
import type { NormalizationPolicy, Repair } from '../normalization/repair';
import { isJsonObject } from '../types/json-value';
import { argumentsNotObjectIssue, makeIssue } from '../validation/make-issue';
import type { CallCheck, ValidationIssue } from '../validation/validation-issue';
import type { CommandSpec } from './command-spec';
import type { CompiledCommand } from './compiled-command';

/** A tool call as the engine hands it over: arguments already JSON-parsed (an object normally). */
interface ToolCallArguments {
  readonly name: string;
  readonly arguments: unknown;
}

interface NormalizedCall {
  readonly arguments: unknown;
  readonly repairs: readonly Repair[];
}

export interface CompiledCommandSet {
  /** Content hash of the registration (see commandSetHash); the cache key. */
  readonly hash: string;
  /** In registration order. */
  readonly commands: ReadonlyMap<string, CommandSpec>;
  /** One OpenAI tool per command, in registration order. */
  readonly tools: readonly ToolDefinition[];
  /** Check ARGUMENT_LIMITS, normalize under `policy`, then validate. */
  check(call: ToolCallArguments, policy: NormalizationPolicy): CallCheck;
  /** Normalize only: the arguments as repaired (valid or not) and the repairs made. */
  normalize(call: ToolCallArguments, policy: NormalizationPolicy): NormalizedCall;
}

/** Wraps compiled commands into the public set; validators were compiled once, before. */
export function createCompiledCommandSet(
  hash: string,
  compiled: ReadonlyMap<string, CompiledCommand>,
): CompiledCommandSet {
  const commands = new Map([...compiled].map(([name, command]) => [name, command.spec]));
  const tools = Object.freeze([...compiled.values()].map((command) => command.spec.tool));
  const toolNames = Object.freeze([...compiled.keys()]);

  const callProblem = (call: ToolCallArguments): ValidationIssue | null => {
    if (!compiled.has(call.name)) return unknownTool(call.name, toolNames);
    return isJsonObject(call.arguments) ? null : argumentsNotObjectIssue(call.name, call.arguments);
  };

  return {
    hash,
    commands,
    tools,
    check(call, policy) {
      const tooLarge =
        argumentLimitIssue(call.name, call.arguments) ??
        inexactNumberIssue(call.name, call.arguments);
      if (tooLarge !== null) return { ok: false, issues: [tooLarge], repairs: [] };
      const command = compiled.get(call.name);
      if (command === undefined || !isJsonObject(call.arguments)) {
        const issue = callProblem(call);
        return { ok: false, issues: issue === null ? [] : [issue], repairs: [] };
      }
      const normalized = normalizeArguments(command, call.arguments, policy);
      if (normalized.issues.length > 0) {
        return { ok: false, issues: normalized.issues, repairs: normalized.repairs };
      }
      return { ok: true, arguments: normalized.arguments, repairs: normalized.repairs };
    },
    normalize(call, policy) {
      const command = compiled.get(call.name);
      const tooLarge =
        argumentLimitIssue(call.name, call.arguments) !== null ||
        inexactNumberIssue(call.name, call.arguments) !== null;
      if (command === undefined || !isJsonObject(call.arguments) || tooLarge) {
        return { arguments: call.arguments, repairs: [] };
      }
      const normalized = normalizeArguments(command, call.arguments, policy);
      return { arguments: normalized.arguments, repairs: normalized.repairs };
    },
  };
}

function unknownTool(name: string, toolNames: readonly string[]): ValidationIssue {
  return makeIssue({
    code: 'unknown_tool',
    command: name,
    parameter: null,
    expected: `one of the tools ${toolNames.join(', ')}`,
    received: name,
    validValues: toolNames,
    parameterType: null,
  });
}
