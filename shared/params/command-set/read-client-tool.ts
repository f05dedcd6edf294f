import { schemaProblem } from '../formats/schema-compiler';
import { cloneJson, isJsonObject, type JsonObject, omitKeys } from '../types/json-value';
import { type IssueList, withinSchemaLimits } from './command-set-issue';
import { type CommandDetails, readCommandDetails } from './read-command-details';

export interface ClientTool {
  readonly name: string;
  /** Property schemas in the client's order (copies, never the caller's objects). */
  readonly properties: ReadonlyMap<string, unknown>;
  readonly required: readonly string[];
  /** The client's `additionalProperties`, undefined when it says nothing. */
  readonly additionalProperties: unknown;
  /** Root keywords of the parameters schema other than type, properties, required, additionalProperties. */
  readonly rootKeywords: Readonly<Record<string, unknown>>;
  readonly details: CommandDetails;
  readonly allowDirectAnswer: boolean | null;
}

const MERGED_ROOT_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
]);

/**
 * Reads one `client_tools` entry (OpenAI tool format, `allow_direct_answer` and prompt material
 * beside `function`). Its parameters schema must be a valid JSON Schema for an object.
 */
export function readClientTool(
  entry: unknown,
  index: number,
  issues: IssueList,
): ClientTool | null {
  const label = `client_tools[${index}]`;
  if (!isJsonObject(entry) || !isJsonObject(entry.function)) {
    issues.add(
      'invalid_definition',
      label,
      null,
      `${label} must be {"type": "function", "function": {...}}`,
    );
    return null;
  }
  const definition = entry.function;
  if (typeof definition.name !== 'string') {
    issues.add('invalid_definition', label, null, `${label}: function.name must be a string`);
    return null;
  }
  const { name } = definition;
  if (entry.type !== undefined && entry.type !== 'function') {
    issues.add(
      'invalid_definition',
      name,
      null,
      `${name}: a client tool must have type "function"`,
    );
  }
  const allowDirectAnswer = entry.allow_direct_answer;
  if (
    allowDirectAnswer !== undefined &&
    allowDirectAnswer !== null &&
    typeof allowDirectAnswer !== 'boolean'
  ) {
    issues.add(
      'invalid_definition',
      name,
      null,
      `${name}: allow_direct_answer must be true, false or null`,
    );
  }
  const schema = readParametersSchema(name, definition.parameters, issues);
  return {
    name,
    properties: new Map(Object.entries(schema.properties)),
    required: schema.required,
    additionalProperties: schema.additionalProperties,
    rootKeywords: schema.rootKeywords,
    details: readCommandDetails(entry, definition.description),
    allowDirectAnswer: typeof allowDirectAnswer === 'boolean' ? allowDirectAnswer : null,
  };
}

interface ParametersSchema {
  readonly properties: JsonObject;
  readonly required: readonly string[];
  readonly additionalProperties: unknown;
  readonly rootKeywords: Readonly<Record<string, unknown>>;
}

const EMPTY_SCHEMA: ParametersSchema = {
  properties: {},
  required: [],
  additionalProperties: undefined,
  rootKeywords: {},
};

function readParametersSchema(name: string, value: unknown, issues: IssueList): ParametersSchema {
  if (value === undefined || value === null) return EMPTY_SCHEMA;
  if (!isJsonObject(value)) {
    issues.add(
      'invalid_definition',
      name,
      null,
      `${name}: function.parameters must be a JSON Schema object`,
    );
    return EMPTY_SCHEMA;
  }
  // Tools generated from other dialects name their meta-schema; we validate against draft-07
  // whatever it says, so the name would only make ajv look for a meta-schema it does not have.
  // The limits come first: the meta-schema check and the clone are what they protect.
  if (!withinSchemaLimits(name, value, issues)) return EMPTY_SCHEMA;
  const schema = cloneJson(omitKeys(value, new Set(['$schema'])));
  const problem = schemaProblem(schema);
  if (problem !== null) {
    issues.add(
      'schema_does_not_compile',
      name,
      null,
      `${name}: the parameters schema is invalid: ${problem}`,
    );
    return EMPTY_SCHEMA;
  }
  if (schema.type !== undefined && schema.type !== 'object') {
    issues.add(
      'invalid_definition',
      name,
      null,
      `${name}: the parameters schema must have type "object"`,
    );
    return EMPTY_SCHEMA;
  }
  return {
    properties: isJsonObject(schema.properties) ? schema.properties : {},
    required: Array.isArray(schema.required)
      ? schema.required.filter((item) => typeof item === 'string')
      : [],
    additionalProperties: schema.additionalProperties,
    rootKeywords: omitKeys(schema, MERGED_ROOT_KEYWORDS),
  };
}
