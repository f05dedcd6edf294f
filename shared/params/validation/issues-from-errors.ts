import type { ErrorObject } from 'ajv';
import type { CompiledCommand } from '../command-set/compiled-command';
import { isPlaceholder } from '../normalization/placeholder';
import type { JsonObject } from '../types/json-value';
import {
  describeFormat,
  describeJsonType,
  describeParameter,
  describeScalar,
} from './describe-expected';
import { makeIssue } from './make-issue';
import type { ValidationIssue, ValidationIssueCode } from './validation-issue';

/** An issue and the top-level parameter it is about (null for the call as a whole). */
export interface LocatedIssue {
  readonly issue: ValidationIssue;
  readonly topLevel: string | null;
}

/** Turns one ajv error into an issue a model can act on. */
export function issueFromError(
  command: CompiledCommand,
  args: JsonObject,
  error: ErrorObject,
): LocatedIssue {
  const segments = pointerSegments(error.instancePath);
  const [topLevel] = segments;
  if (topLevel === undefined) return { issue: callIssue(command, args, error), topLevel: null };
  const parameter = command.parameters.get(topLevel)?.spec;
  const received = valueAt(args, segments);
  const onParameter = segments.length === 1;
  const itemType =
    parameter?.type?.kind === 'array' && segments.length === 2 ? parameter.type.items : null;
  let code: ValidationIssueCode = 'constraint';
  let expected = error.message ?? `must pass ${error.keyword}`;
  let validValues: readonly string[] | null = onParameter ? (parameter?.enumValues ?? null) : null;
  if (error.keyword === 'type') {
    code = 'wrong_type';
    if (onParameter) expected = describeParameter(parameter);
    else
      expected = itemType === null ? describeJsonType(error.params.type) : describeScalar(itemType);
  } else if (error.keyword === 'format') {
    code = 'invalid_format';
    expected = describeFormat(error.params.format);
  } else if (error.keyword === 'enum' && Array.isArray(error.params.allowedValues)) {
    code = 'not_in_enum';
    validValues = error.params.allowedValues.map(String);
    expected = `one of ${validValues.join(', ')}`;
  }
  if (onParameter && parameter?.required === true && isPlaceholder(received)) {
    code = 'missing_parameter';
    expected = describeParameter(parameter);
  }
  const issue = makeIssue({
    code,
    command: command.spec.name,
    parameter: displayPath(segments),
    expected,
    received,
    validValues,
    parameterType: parameter?.type ?? null,
  });
  return { issue, topLevel };
}

function callIssue(
  command: CompiledCommand,
  args: JsonObject,
  error: ErrorObject,
): ValidationIssue {
  const { name } = command.spec;
  const names = command.spec.parameters.map((parameter) => parameter.name);
  if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') {
    const parameter = command.parameters.get(error.params.missingProperty)?.spec;
    return makeIssue({
      code: 'missing_parameter',
      command: name,
      parameter: error.params.missingProperty,
      expected: describeParameter(parameter),
      received: undefined,
      validValues: parameter?.enumValues ?? null,
      parameterType: parameter?.type ?? null,
    });
  }
  if (
    error.keyword === 'additionalProperties' &&
    typeof error.params.additionalProperty === 'string'
  ) {
    const unknown = error.params.additionalProperty;
    return makeIssue({
      code: 'unknown_parameter',
      command: name,
      parameter: unknown,
      expected: names.length === 0 ? 'no parameters' : `one of the parameters ${names.join(', ')}`,
      received: args[unknown],
      validValues: names,
      parameterType: null,
    });
  }
  return makeIssue({
    code: 'constraint',
    command: name,
    parameter: null,
    expected: `the arguments ${error.message ?? `must pass ${error.keyword}`}`,
    received: args,
    validValues: null,
    parameterType: null,
  });
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** `resolved_datetimes[1]`, `location.lat`: how a path reads in messages. */
export function displayPath(segments: readonly string[]): string {
  return segments
    .map((segment, index) => {
      if (index === 0) return segment;
      return /^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`;
    })
    .join('');
}

function valueAt(args: JsonObject, segments: readonly string[]): unknown {
  let current: unknown = args;
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Readonly<Record<string, unknown>>)[segment];
  }
  return current;
}
