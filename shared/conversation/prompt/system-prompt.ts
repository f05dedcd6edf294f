import {
  type CommandExample,
  type CommandSpec,
  type CompiledCommandSet,
  isTemporalType,
} from '../../params';
import { refinableParameterNames } from '../refinement/refinable-call';

const ROLE = `You are a smart-home voice assistant; the device's commands are your tools.
- Call the command that fits, every value in its arguments; only the listed tools and \
parameters, never invented ones.
- Spoken replies: one or two plain sentences, no markdown.
- Dates and times: absolute ISO-8601 in the user's time zone: date YYYY-MM-DD; datetime with \
offset (2026-01-18T09:00:00-05:00) or Z; time HH:MM; timedelta e.g. PT90M. Never words like \
"tomorrow" (a whole day is its start); unsure, call resolve_relative_date.`;

/**
 * The system prompt for a command set. It depends on the command set alone, so it is identical,
 * byte for byte, on every turn of a conversation and providers' prompt caches hit; everything that
 * changes per turn (local time, zone, the last refinable call) travels with the user's message.
 *
 * What the tool schemas carry (descriptions, parameters, types, enums, defaults) is not repeated
 * here: each command adds only what its schema cannot say — its rules, critical rules, primary
 * example and antipatterns. Other examples stay behind get_command_utterance_examples.
 */
export function buildSystemPrompt(commandSet: CompiledCommandSet): string {
  const commands = [...commandSet.commands.values()];
  const policy = [directAnswerPolicy(commands), describeRefinements(commands)].filter(Boolean);
  const guidance = commands.map(describeCommand).filter((line) => line !== '');
  const sections = [[ROLE, ...policy].join('\n')];
  if (guidance.length > 0) {
    sections.push(['Commands:', ...guidance].join('\n'));
  }
  return sections.join('\n\n');
}

function directAnswerPolicy(commands: readonly CommandSpec[]): string {
  const mustCall = commands.filter((command) => command.allowDirectAnswer === false);
  const mayAnswer = commands.filter((command) => command.allowDirectAnswer === true);
  if (mustCall.length > 0 && mustCall.length === commands.length) {
    return '- Always call a command, never answer from your own knowledge: every request ends in a tool call.';
  }
  // Every command says which way it goes: name the shorter list only.
  if (mayAnswer.length > 0 && mustCall.length + mayAnswer.length === commands.length) {
    return `- Call a command rather than answer from your own knowledge, except (when you know the answer): ${names(mayAnswer)}.`;
  }
  const lines: string[] = [];
  if (mustCall.length > 0)
    lines.push(`- Always call, never answer from your own knowledge: ${names(mustCall)}.`);
  if (mayAnswer.length > 0)
    lines.push(`- You may answer directly when you know the answer: ${names(mayAnswer)}.`);
  return lines.join('\n');
}

/** `- set_timer: <rules> CRITICAL: <rules> E.g. "..." -> {...}. Not for ...`, or '' when nothing to add. */
function describeCommand(command: CommandSpec): string {
  const parts = [...command.rules.map(sentence)];
  if (command.criticalRules.length > 0) {
    parts.push(`CRITICAL: ${command.criticalRules.map(sentence).join(' ')}`);
  }
  for (const example of command.examples.filter((candidate) => candidate.isPrimary)) {
    parts.push(`E.g. ${describeExample(command, example)}.`);
  }
  for (const antipattern of command.antipatterns) {
    parts.push(`Not for: ${unsentence(antipattern.description)} (use ${antipattern.commandName}).`);
  }
  const refinable = describeRefinableParameters(command);
  if (refinable !== '') parts.push(refinable);
  return parts.length === 0 ? '' : `- ${command.name}: ${parts.join(' ')}`;
}

/** A rule as a sentence: ends with a stop. */
const sentence = (text: string): string =>
  /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;

/** An antipattern's description inside a sentence: no stop of its own. */
const unsentence = (text: string): string => text.trim().replace(/[.!?]+$/, '');

function names(commands: readonly CommandSpec[]): string {
  return commands.map((command) => command.name).join(', ');
}

const REFINEMENTS =
  '- A request that only adjusts a refinable parameter (named below; "play it next", "louder") ' +
  'calls the same command again: the new value, the other arguments as last used (the ' +
  "user's message names that call), nothing added.";

/**
 * What a refinement is, once for the whole prompt; '' when no command has refinable parameters,
 * so the prompt of such a registration is what it was before refinements existed.
 */
function describeRefinements(commands: readonly CommandSpec[]): string {
  const anyRefinable = commands.some((command) => refinableParameterNames(command).length > 0);
  return anyRefinable ? REFINEMENTS : '';
}

/** The line `describeCommand` adds for a command with refinable parameters; '' for others. */
function describeRefinableParameters(command: CommandSpec): string {
  const names = refinableParameterNames(command);
  if (names.length === 0) return '';
  return `Refinable: ${names.join(', ')}.`;
}

const ABSOLUTE_DATE_OR_TIME = /^\d{4}-\d{2}-\d{2}|^\d{2}:\d{2}|^P/;

/**
 * `"Set a timer for 5 minutes" -> {"duration_seconds":300}` (under its command's name).
 *
 * Older nodes write date keys such as `tomorrow` into their examples. Shown as they are, they
 * would teach the model to send words where absolute values are required, so a relative value of
 * a date-typed parameter is rendered as a placeholder that says what to send instead.
 */
function describeExample(command: CommandSpec, example: CommandExample): string {
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
