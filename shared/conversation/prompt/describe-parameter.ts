import type { ParameterSpec, ParameterType } from '../../params';

const DATE_SCALARS = new Set(['date', 'datetime', 'time', 'timedelta']);

/** `duration_seconds (int, required): Total duration in seconds` — one line per parameter. */
export function describeParameter(parameter: ParameterSpec): string {
  const facts = [typeName(parameter), parameter.required ? 'required' : 'optional'];
  // Before the enum: its values are joined with commas too.
  if (parameter.refinable) facts.push('refinable');
  if (parameter.enumValues !== null) facts.push(`one of: ${parameter.enumValues.join(', ')}`);
  if (parameter.defaultValue !== undefined) {
    facts.push(`default ${JSON.stringify(parameter.defaultValue)}`);
  }
  const description = parameter.description === null ? '' : `: ${parameter.description}`;
  return `- ${parameter.name} (${facts.join(', ')})${description}`;
}

/** True for parameters whose values are dates, times or durations, alone or in a list. */
export function isDateLike(type: ParameterType | null): boolean {
  if (type === null) return false;
  if (type.kind === 'scalar') return DATE_SCALARS.has(type.scalar);
  return type.kind === 'array' && type.items !== null && DATE_SCALARS.has(type.items);
}

function typeName(parameter: ParameterSpec): string {
  const { type } = parameter;
  if (type === null) {
    const schemaType = parameter.schema.type;
    return typeof schemaType === 'string' ? schemaType : 'any';
  }
  if (type.kind === 'scalar') return type.scalar;
  if (type.kind === 'dict') return 'object';
  return type.items === null ? 'array' : `array<${type.items}>`;
}
