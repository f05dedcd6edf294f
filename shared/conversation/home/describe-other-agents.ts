import { withinCharacters } from '../../params';
import { HOME_LIMITS } from './home-limits';
import { oneLine } from './quoted-text';
import { DEVICE_AGENT } from './reported-devices';

/** The label in front of the summary: what it is and that it is not for the model to obey. */
export const OTHER_AGENTS_LABEL = 'Other agents of the node (their data as JSON):';

/**
 * Every agent other than the device agent, summarized as one line of JSON: each agent's first
 * fields with scalar values (strings on one line, cut), lists and objects only counted. JSON
 * quotes every string the node sent, so none of it reads as an instruction; at most
 * `HOME_LIMITS.otherAgentsCharacters`, dropping whole agents from the end. '' when none.
 */
export function describeOtherAgents(agents: unknown): string {
  if (!isRecord(agents)) return '';
  const names = Object.keys(agents).filter((name) => name !== DEVICE_AGENT);
  // Entries, not an object built key by key: a node's agent named "__proto__" stays a key.
  const entries = names
    .slice(0, HOME_LIMITS.otherAgents)
    .map((name): [string, unknown] => [oneLine(name, 40), summarizeAgent(agents[name])]);
  while (entries.length > 0) {
    const text = render(entries, names.length - entries.length);
    if (withinCharacters(text, HOME_LIMITS.otherAgentsCharacters)) return text;
    entries.pop();
  }
  return '';
}

function render(entries: readonly [string, unknown][], left: number): string {
  const more = left > 0 ? ` (${left} more agents not shown)` : '';
  return `${OTHER_AGENTS_LABEL} ${JSON.stringify(Object.fromEntries(entries))}${more}`;
}

function summarizeAgent(context: unknown): unknown {
  if (!isRecord(context)) return summarizeValue(context);
  const fields = Object.entries(context).slice(0, HOME_LIMITS.fieldsPerAgent);
  return Object.fromEntries(
    fields.map(([key, value]) => [oneLine(key, 40), summarizeValue(value)]),
  );
}

function summarizeValue(value: unknown): unknown {
  if (typeof value === 'string') return oneLine(value, HOME_LIMITS.valueCharacters);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (Array.isArray(value)) return `[${value.length} items]`;
  if (isRecord(value)) return `{${Object.keys(value).length} fields}`;
  return null;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
