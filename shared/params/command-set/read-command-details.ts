import { cloneJson, isJsonObject, type JsonObject, stringList } from '../types/json-value';
import type { Antipattern, CommandExample } from './command-spec';

/** The prompt material of a command; each field is null when the registration does not give it. */
export interface CommandDetails {
  readonly description: string | null;
  readonly rules: readonly string[] | null;
  readonly criticalRules: readonly string[] | null;
  readonly examples: readonly CommandExample[] | null;
  readonly antipatterns: readonly Antipattern[] | null;
  readonly keywords: readonly string[] | null;
}

/**
 * Reads the prompt material of a command (or the same fields beside a client tool's `function`).
 * Entries of the wrong shape are skipped: they only feed the prompt, never validation.
 */
export function readCommandDetails(entry: JsonObject, description: unknown): CommandDetails {
  return {
    description: typeof description === 'string' ? description : null,
    rules: stringList(entry.rules),
    criticalRules: stringList(entry.critical_rules),
    examples: readExamples(entry.examples),
    antipatterns: readAntipatterns(entry.antipatterns),
    keywords: stringList(entry.keywords),
  };
}

function readExamples(value: unknown): CommandExample[] | null {
  if (!Array.isArray(value)) return null;
  return value.filter(isJsonObject).flatMap((example) => {
    if (typeof example.voice_command !== 'string') return [];
    const expected = isJsonObject(example.expected_parameters) ? example.expected_parameters : {};
    return [
      {
        voiceCommand: example.voice_command,
        expectedParameters: cloneJson(expected),
        isPrimary: example.is_primary === true,
      },
    ];
  });
}

function readAntipatterns(value: unknown): Antipattern[] | null {
  if (!Array.isArray(value)) return null;
  return value.filter(isJsonObject).flatMap((antipattern) => {
    const { command_name: commandName, description } = antipattern;
    if (typeof commandName !== 'string' || typeof description !== 'string') return [];
    return [{ commandName, description }];
  });
}
