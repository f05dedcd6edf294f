import { SCHEMA_LIMITS } from '../limits/limits';
import { cloneJson, isJsonObject, type JsonObject } from '../types/json-value';
import { type ParameterType, parseParameterType } from '../types/parameter-type';
import type { IssueList } from './command-set-issue';
import { declaredDefault, declaredScalar } from './declared-values';
import { type CommandDetails, readCommandDetails } from './read-command-details';

export interface TypedParameter {
  readonly name: string;
  readonly type: ParameterType;
  readonly required: boolean;
  readonly description: string | null;
  readonly enumValues: readonly string[] | null;
  readonly defaultValue: unknown;
  readonly refinable: boolean;
}

export interface TypedCommand {
  readonly name: string;
  readonly parameters: readonly TypedParameter[];
  readonly details: CommandDetails;
  readonly allowDirectAnswer: boolean | null;
}

/**
 * Reads one `available_commands` entry. Problems go to `issues`; the command comes back with the
 * parameters that could be read so later checks (duplicates, conflicts) still run.
 */
export function readAvailableCommand(
  entry: unknown,
  index: number,
  issues: IssueList,
): TypedCommand | null {
  const label = `available_commands[${index}]`;
  if (!isJsonObject(entry)) {
    issues.add('invalid_definition', label, null, `${label} must be an object`);
    return null;
  }
  if (typeof entry.command_name !== 'string') {
    issues.add('invalid_definition', label, null, `${label} has no command_name string`);
    return null;
  }
  const name = entry.command_name;
  const allowDirectAnswer = readOptionalBoolean(entry.allow_direct_answer);
  if (allowDirectAnswer === undefined) {
    issues.add(
      'invalid_definition',
      name,
      null,
      `${name}: allow_direct_answer must be true, false or null`,
    );
  }
  return {
    name,
    parameters: readParameters(name, entry.parameters, issues),
    details: readCommandDetails(entry, entry.description),
    allowDirectAnswer: allowDirectAnswer ?? null,
  };
}

function readParameters(command: string, value: unknown, issues: IssueList): TypedParameter[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    issues.add('invalid_definition', command, null, `${command}: parameters must be an array`);
    return [];
  }
  return value.flatMap((entry, index) => {
    const parameter = readParameter(command, entry, index, issues);
    return parameter === null ? [] : [parameter];
  });
}

function readParameter(
  command: string,
  entry: unknown,
  index: number,
  issues: IssueList,
): TypedParameter | null {
  if (!isJsonObject(entry) || typeof entry.name !== 'string' || entry.name === '') {
    const message = `${command}: parameters[${index}] must be an object with a non-empty name`;
    issues.add('invalid_definition', command, null, message);
    return null;
  }
  const { name } = entry;
  if (typeof entry.type !== 'string') {
    issues.add('unknown_type', command, name, `${command}.${name}: the type must be a string`);
    return null;
  }
  const type = parseParameterType(entry.type);
  if (!type.ok) {
    for (const problem of type.issues)
      issues.add('unknown_type', command, name, `${command}.${name}: ${problem}`);
    return null;
  }
  const required = readOptionalBoolean(entry.required);
  const enumValues = readEnumValues(entry.enum_values);
  if (required === undefined) {
    issues.add(
      'invalid_definition',
      command,
      name,
      `${command}.${name}: required must be true or false`,
    );
  }
  if (enumValues === undefined) {
    issues.add(
      'invalid_definition',
      command,
      name,
      `${command}.${name}: enum_values must be a list of strings`,
    );
  } else if (enumValues !== null && enumValues.length > SCHEMA_LIMITS.enumValues) {
    issues.add(
      'schema_limit_exceeded',
      command,
      name,
      `${command}.${name}: enum_values breaks the limit enumValues = ${SCHEMA_LIMITS.enumValues}: ${enumValues.length} values`,
    );
  } else if (enumValues !== null && type.value.kind === 'dict') {
    issues.add(
      'invalid_definition',
      command,
      name,
      `${command}.${name}: a dict parameter cannot have enum_values`,
    );
  }
  const declared = `${command}.${name}`;
  const typedEnum = typedEnumValues(type.value, enumValues ?? null, (problem) =>
    issues.add('invalid_definition', command, name, `${declared}: enum_values${problem}`),
  );
  const defaultValue = readDefault(entry);
  const typedDefault =
    defaultValue === undefined ? undefined : declaredDefault(type.value, defaultValue);
  if (typedDefault !== undefined && !typedDefault.ok) {
    issues.add('invalid_definition', command, name, `${declared}: default ${typedDefault.problem}`);
  }
  return {
    name,
    type: type.value,
    required: required ?? false,
    description: typeof entry.description === 'string' ? entry.description : null,
    enumValues: typedEnum,
    defaultValue: typedDefault?.ok === true ? typedDefault.value : undefined,
    refinable: entry.refinable === true,
  };
}

/**
 * The enum values as their parameter's type reads them (declared-values.ts), written back as the
 * strings arguments are compared with: `["1.0", "2.0"]` for a float is `["1", "2"]`, shown to the
 * model as `[1, 2]`. The first value the type cannot read is reported through `refuse`.
 */
function typedEnumValues(
  type: ParameterType,
  values: readonly string[] | null,
  refuse: (problem: string) => void,
): readonly string[] | null {
  const scalar = type.kind === 'scalar' ? type.scalar : type.kind === 'array' ? type.items : null;
  if (values === null || scalar === null) return values;
  const typed = new Set<string>();
  for (const [index, value] of values.entries()) {
    const read = declaredScalar(scalar, value);
    if (!read.ok) {
      // The first one is named: a list of thousands would say nothing more.
      refuse(`[${index}]: ${read.problem}`);
      return values;
    }
    typed.add(String(read.value));
  }
  return [...typed];
}

/** true/false; null or absent read as null; undefined marks a value of the wrong type. */
function readOptionalBoolean(value: unknown): boolean | null | undefined {
  if (value === undefined || value === null) return null;
  return typeof value === 'boolean' ? value : undefined;
}

/** The strings, or null for none (absent, null or empty); undefined marks a malformed list. */
function readEnumValues(value: unknown): readonly string[] | null | undefined {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return undefined;
  return value.length === 0 ? null : [...value];
}

// `default` wins over `default_value`; a null in either means "no default", never a null default.
function readDefault(entry: JsonObject): unknown {
  const value = entry.default ?? entry.default_value;
  return value === null ? undefined : cloneJson(value);
}
