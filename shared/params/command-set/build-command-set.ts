import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import { failure, type Result, success } from '../../result';
import { createSchemaCompiler } from '../formats/schema-compiler';
import { deepFreeze, type JsonObject } from '../types/json-value';
import { buildCommand } from './build-command';
import { IssueList, TOOL_NAME_PATTERN, withinSchemaLimits } from './command-set-issue';
import type { CommandSetIssue, CommandSetSource } from './command-spec';
import type { CompiledCommand } from './compiled-command';
import { type CompiledCommandSet, createCompiledCommandSet } from './compiled-command-set';
import { readAvailableCommand, type TypedCommand } from './read-available-command';
import { type ClientTool, readClientTool } from './read-client-tool';

/**
 * Compiles a registration without the cache:
 * 1. read every typed command and client tool (shape problems, unknown types, duplicates);
 * 2. check the names (tool-name pattern, server tools' names reserved);
 * 3. merge both sides of each name into one spec and render its OpenAI tool;
 * 4. check the merged schema against SCHEMA_LIMITS (each side was checked as it was read);
 * 5. compile one ajv validator per command, all in one ajv instance owned by the set.
 * Every problem of every step is collected, so the node hears about all of them at once.
 */
export function buildCommandSet(
  source: CommandSetSource,
  reservedNames: readonly string[],
  hash: string,
): Result<CompiledCommandSet, CommandSetIssue> {
  const issues = new IssueList();
  const typed = new Map<string, TypedCommand>();
  const clients = new Map<string, ClientTool>();
  for (const [index, entry] of entries(source.available_commands, 'available_commands', issues)) {
    const command = readAvailableCommand(entry, index, issues);
    if (command !== null) register(typed, command.name, command, 'available_commands', issues);
  }
  for (const [index, entry] of entries(source.client_tools, 'client_tools', issues)) {
    const tool = readClientTool(entry, index, issues);
    if (tool !== null) register(clients, tool.name, tool, 'client_tools', issues);
  }
  const names = [...new Set([...typed.keys(), ...clients.keys()])];
  const reserved = new Set(reservedNames);
  const ajv = createSchemaCompiler();
  const compiled = new Map<string, CompiledCommand>();
  for (const name of names) {
    checkName(name, reserved, issues);
    const built = buildCommand(name, typed.get(name) ?? null, clients.get(name) ?? null, issues);
    // The merged schema is what ajv compiles: typed and client sides are each within the limits,
    // but together they may not be.
    if (!withinSchemaLimits(name, built.validationSchema, issues)) continue;
    const validate = compileValidator(ajv, name, built.validationSchema, issues);
    if (validate === null) continue;
    const parameters = [...built.parameters.values()];
    compiled.set(name, {
      spec: deepFreeze(built.spec),
      validate,
      parameters: built.parameters,
      enumParameters: parameters.filter((parameter) => parameter.enumSet !== null),
      stringParameters: parameters.filter(
        ({ spec, enumSet }) =>
          enumSet === null && spec.type?.kind === 'scalar' && spec.type.scalar === 'string',
      ),
      defaultedParameters: parameters.filter(
        ({ spec }) => !spec.required && spec.defaultValue !== undefined,
      ),
    });
  }
  if (issues.all.length > 0) return failure(issues.all);
  return success(createCompiledCommandSet(hash, compiled));
}

function entries(value: unknown, field: string, issues: IssueList): [number, unknown][] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return [...value.entries()];
  issues.add('invalid_definition', field, null, `${field} must be an array`);
  return [];
}

function register<T>(
  registry: Map<string, T>,
  name: string,
  value: T,
  field: string,
  issues: IssueList,
): void {
  if (registry.has(name)) {
    issues.add('duplicate_name', name, null, `${name} appears more than once in ${field}`);
    return;
  }
  registry.set(name, value);
}

function checkName(name: string, reserved: ReadonlySet<string>, issues: IssueList): void {
  if (!TOOL_NAME_PATTERN.test(name)) {
    const message = `${JSON.stringify(name)} is not a valid tool name: 1 to 64 characters among a-z, A-Z, 0-9, _ and -`;
    issues.add('invalid_tool_name', name, null, message);
  }
  if (reserved.has(name)) {
    issues.add(
      'reserved_name',
      name,
      null,
      `${name} is the name of a server tool; choose another name`,
    );
  }
}

function compileValidator(
  ajv: Ajv,
  name: string,
  schema: JsonObject,
  issues: IssueList,
): ValidateFunction | null {
  try {
    return ajv.compile(schema);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    issues.add(
      'schema_does_not_compile',
      name,
      null,
      `${name}: the parameters schema does not compile: ${reason}`,
    );
    return null;
  }
}
