import type { BuiltParameter } from '../command-set/build-parameter';
import type { CompiledCommand } from '../command-set/compiled-command';
import { isPlaceholder } from '../normalization/placeholder';
import type { JsonObject } from '../types/json-value';
import { describeParameter, describeValues } from './describe-expected';
import { issueFromError } from './issues-from-errors';
import { makeIssue } from './make-issue';
import type { ValidationIssue } from './validation-issue';

/** The issues of a call's arguments, and the present parameters whose values caused them. */
export interface Evaluation {
  readonly issues: readonly ValidationIssue[];
  /** Top-level names of present parameters with an invalid value: what normalization may repair. */
  readonly failing: ReadonlySet<string>;
}

const VALID: Evaluation = Object.freeze({ issues: [], failing: new Set<string>() });

/**
 * Validates arguments against a compiled command: ajv (types, formats, required, unknown names,
 * the client's constraints), then placeholders for string parameters, then enums compared as
 * strings, item by item for arrays.
 */
export function evaluateArguments(command: CompiledCommand, args: JsonObject): Evaluation {
  const schemaValid = command.validate(args) === true;
  const issues: ValidationIssue[] = [];
  const failing = new Set<string>();
  const seen = new Set<string>();
  for (const error of schemaValid ? [] : (command.validate.errors ?? [])) {
    const { issue, topLevel } = issueFromError(command, args, error);
    const key = `${issue.code}\u0000${issue.parameter}\u0000${issue.expected}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
    if (topLevel !== null && Object.hasOwn(args, topLevel)) failing.add(topLevel);
  }
  const flagged = new Set(issues.map((issue) => issue.parameter));
  for (const parameter of command.stringParameters) {
    const { name } = parameter.spec;
    if (!Object.hasOwn(args, name) || flagged.has(name)) continue;
    const issue = placeholderIssue(command.spec.name, parameter, args[name]);
    if (issue === null) continue;
    issues.push(issue);
    flagged.add(name);
    failing.add(name);
  }
  for (const parameter of command.enumParameters) {
    const { name } = parameter.spec;
    if (!Object.hasOwn(args, name) || flagged.has(name)) continue;
    const misses = enumMisses(command.spec.name, parameter, args[name], flagged);
    if (misses.length === 0) continue;
    issues.push(...misses);
    failing.add(name);
  }
  return issues.length === 0 ? VALID : { issues, failing };
}

// "None" is a string, but never the value a string parameter was asked for (llm-failure-modes.md):
// required, it is missing; optional, it is to be left out (the repair does so, strict retries).
// A declared enum value is a real value, and an enum miss is reported by the enum check.
function placeholderIssue(
  command: string,
  parameter: BuiltParameter,
  value: unknown,
): ValidationIssue | null {
  const { spec, enumSet } = parameter;
  if (typeof value !== 'string' || !isPlaceholder(value) || enumSet !== null) return null;
  return makeIssue({
    code: spec.required ? 'missing_parameter' : 'constraint',
    command,
    parameter: spec.name,
    expected: spec.required
      ? describeParameter(spec)
      : 'must be a real value; leave the parameter out when there is none',
    received: value,
    validValues: null,
    parameterType: spec.type,
  });
}

// Items already reported (a wrong type) are not reported again as enum misses.
function enumMisses(
  command: string,
  parameter: BuiltParameter,
  value: unknown,
  flagged: ReadonlySet<string | null>,
): ValidationIssue[] {
  const { spec, enumSet } = parameter;
  if (enumSet === null) return [];
  const validValues = spec.enumValues ?? [];
  const miss = (path: string, received: unknown): ValidationIssue => {
    const placeholder = path === spec.name && spec.required && isPlaceholder(received);
    return makeIssue({
      code: placeholder ? 'missing_parameter' : 'not_in_enum',
      command,
      parameter: path,
      expected: placeholder
        ? describeParameter(spec)
        : `one of ${describeValues(validValues, spec.type)}`,
      received,
      validValues,
      parameterType: spec.type,
    });
  };
  if (spec.type?.kind !== 'array')
    return enumSet.has(String(value)) ? [] : [miss(spec.name, value)];
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown, index) => {
    const path = `${spec.name}[${index}]`;
    return enumSet.has(String(item)) || flagged.has(path) ? [] : [miss(path, item)];
  });
}
