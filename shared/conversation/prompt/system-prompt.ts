import type { CommandSpec, CompiledCommandSet } from '../../params';
import { describeExample } from './describe-example';
import { describeRefinableParameters, describeRefinements } from './describe-refinements';

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
