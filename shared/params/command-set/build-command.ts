import type { ToolDefinition } from '../../chat/chat-message';
import { isJsonObject, type JsonObject } from '../types/json-value';
import { type BuiltParameter, clientParameter, typedParameter } from './build-parameter';
import type { IssueList } from './command-set-issue';
import type { CommandSpec } from './command-spec';
import type { TypedCommand } from './read-available-command';
import type { ClientTool } from './read-client-tool';
import type { CommandDetails } from './read-command-details';
import { typeConflict } from './type-conflict';

/** A command ready to compile: its public spec and the object schema ajv checks. */
export interface BuiltCommand {
  readonly spec: CommandSpec;
  readonly validationSchema: JsonObject;
  readonly parameters: ReadonlyMap<string, BuiltParameter>;
}

/**
 * Merges the typed command and the client tool of one name into one spec. Typed parameters come
 * first in declared order, then properties only the client names; a parameter is required when
 * either side requires it. A parameter neither declares follows the schema the node gave: a
 * client tool alone follows JSON Schema (allowed unless `additionalProperties` says otherwise);
 * a typed command's parameter list is the whole call, so an unknown name is refused (a retry)
 * unless its client schema explicitly allows more.
 */
export function buildCommand(
  name: string,
  typed: TypedCommand | null,
  client: ClientTool | null,
  issues: IssueList,
): BuiltCommand {
  const required = requiredNames(typed, client);
  const parameters = new Map<string, BuiltParameter>();
  for (const parameter of typed?.parameters ?? []) {
    if (parameters.has(parameter.name)) {
      issues.add(
        'duplicate_name',
        name,
        parameter.name,
        `${name}: parameter ${parameter.name} is declared twice`,
      );
      continue;
    }
    const property = client?.properties.get(parameter.name);
    const clientSchema = isJsonObject(property) ? property : null;
    const conflict = clientSchema === null ? null : typeConflict(parameter.type, clientSchema);
    if (conflict !== null)
      issues.add('type_conflict', name, parameter.name, `${name}.${parameter.name}: ${conflict}`);
    parameters.set(
      parameter.name,
      typedParameter(parameter, clientSchema, required.has(parameter.name)),
    );
  }
  for (const [propertyName, property] of client?.properties ?? []) {
    if (parameters.has(propertyName)) continue;
    parameters.set(
      propertyName,
      clientParameter(propertyName, property, required.has(propertyName)),
    );
  }
  const built = [...parameters.values()];
  const additionalProperties = client?.additionalProperties;
  const rootKeywords = client?.rootKeywords ?? {};
  const toolParameters: Record<string, unknown> = {
    type: 'object',
    properties: Object.fromEntries(built.map(({ spec }) => [spec.name, spec.schema])),
    // An empty list says nothing: left out, it costs the prompt nothing on every request.
    ...(required.size === 0 ? {} : { required: [...required] }),
    ...(additionalProperties === undefined ? {} : { additionalProperties }),
    ...rootKeywords,
  };
  const validationSchema: JsonObject = {
    ...rootKeywords,
    type: 'object',
    properties: Object.fromEntries(
      built.map(({ spec, validationSchema: schema }) => [spec.name, schema]),
    ),
    required: [...required],
    additionalProperties: additionalProperties ?? typed === null,
  };
  const details = mergedDetails(typed?.details ?? null, client?.details ?? null);
  const tool: ToolDefinition = {
    type: 'function',
    function: { name, description: details.description, parameters: toolParameters },
  };
  const spec: CommandSpec = {
    name,
    ...details,
    parameters: built.map((parameter) => parameter.spec),
    allowDirectAnswer: typed?.allowDirectAnswer ?? client?.allowDirectAnswer ?? null,
    allowsExtraParameters:
      additionalProperties === true ||
      isJsonObject(additionalProperties) ||
      (additionalProperties === undefined && typed === null),
    tool,
  };
  return { spec, validationSchema, parameters };
}

function requiredNames(typed: TypedCommand | null, client: ClientTool | null): Set<string> {
  const names = new Set<string>();
  for (const parameter of typed?.parameters ?? [])
    if (parameter.required) names.add(parameter.name);
  for (const name of client?.required ?? []) names.add(name);
  return names;
}

type MergedDetails = Pick<
  CommandSpec,
  'description' | 'rules' | 'criticalRules' | 'examples' | 'antipatterns' | 'keywords'
>;

// The command's own material wins; the client tool's fills what the command does not give.
function mergedDetails(typed: CommandDetails | null, client: CommandDetails | null): MergedDetails {
  return {
    description: typed?.description ?? client?.description ?? '',
    rules: typed?.rules ?? client?.rules ?? [],
    criticalRules: typed?.criticalRules ?? client?.criticalRules ?? [],
    examples: typed?.examples ?? client?.examples ?? [],
    antipatterns: typed?.antipatterns ?? client?.antipatterns ?? [],
    keywords: typed?.keywords ?? client?.keywords ?? [],
  };
}
