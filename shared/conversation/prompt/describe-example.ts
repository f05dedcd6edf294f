import { type CommandExample, type CommandSpec, isTemporalType } from '../../params';

const ABSOLUTE_DATE_OR_TIME = /^\d{4}-\d{2}-\d{2}|^\d{2}:\d{2}|^P/;

/**
 * `"Set a timer for 5 minutes" -> {"duration_seconds":300}` (under its command's name).
 *
 * Older nodes write date keys such as `tomorrow` into their examples. Shown as they are, they
 * would teach the model to send words where absolute values are required, so a relative value of
 * a date-typed parameter is rendered as a placeholder that says what to send instead.
 */
export function describeExample(command: CommandSpec, example: CommandExample): string {
  const shown: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(example.expectedParameters)) {
    const parameter = command.parameters.find((candidate) => candidate.name === name);
    shown[name] =
      parameter && isTemporalType(parameter.type) ? absoluteOrPlaceholder(value) : value;
  }
  return `"${example.voiceCommand}" -> ${JSON.stringify(shown)}`;
}

function absoluteOrPlaceholder(value: unknown): unknown {
  const values = Array.isArray(value) ? value : [value];
  const allAbsolute = values.every(
    (item) => typeof item === 'string' && ABSOLUTE_DATE_OR_TIME.test(item),
  );
  if (allAbsolute) return value;
  const words = values.map((item) => String(item).replaceAll('_', ' ')).join(', ');
  return `<${words} as ISO-8601>`;
}
