import type { CommandSpec, CompiledCommandSet } from '../../params';
import { describeExample } from './describe-example';
import { describeParameter } from './describe-parameter';
import { describeRefinableParameters, describeRefinements } from './describe-refinements';

const ROLE = `You are the voice assistant of a smart-home device. You turn what the user says into calls \
of the device's commands, which are your tools.

How to act:
- When a command fits, call it. Put every value in the tool call's arguments, never in your text.
- Use only the tools listed, with only their parameters. Never invent a tool, a parameter or a value.
- Fill required parameters from what the user said. If a required value is missing and cannot be \
inferred, call request_validation with one short question.
- Spoken replies are brief: one or two plain sentences, no markdown, no lists.`;

const DATES = `Dates and times:
- Date-typed arguments are absolute ISO-8601 values for the user's time zone, which is given with \
each request: date = YYYY-MM-DD; datetime = YYYY-MM-DDTHH:MM:SS with the zone offset (for example \
2026-01-18T09:00:00-05:00) or Z; time = HH:MM; timedelta = an ISO-8601 duration such as PT90M.
- Never pass words such as "tomorrow" or "next week" as values. For a whole day, pass that day's start.
- When unsure of a date, call resolve_relative_date with the phrase and use the values it returns.`;

/**
 * The system prompt for a command set. It depends on the command set alone, so it is identical,
 * byte for byte, on every turn of a conversation and providers' prompt caches hit; everything that
 * changes per turn (local time, zone, the last refinable call) travels with the user's message.
 */
export function buildSystemPrompt(commandSet: CompiledCommandSet): string {
  const commands = [...commandSet.commands.values()];
  const sections = [
    ROLE,
    DATES,
    directAnswerPolicy(commands),
    describeRefinements(commands),
    'Commands:',
  ];
  for (const command of commands) sections.push(describeCommand(command));
  return sections.filter((section) => section !== '').join('\n\n');
}

function directAnswerPolicy(commands: readonly CommandSpec[]): string {
  const mustCall = commands.filter((command) => command.allowDirectAnswer === false);
  const mayAnswer = commands.filter((command) => command.allowDirectAnswer === true);
  const lines = ['Direct answers:'];
  if (mustCall.length > 0) {
    lines.push(
      `- Always call these; never answer them from your own knowledge: ${names(mustCall)}.`,
    );
  }
  if (mayAnswer.length > 0) {
    lines.push(`- You may answer these directly when you know the answer: ${names(mayAnswer)}.`);
  }
  if (mustCall.length === commands.length) {
    lines.push('- Every request must end in a tool call.');
  }
  return lines.length > 1 ? lines.join('\n') : '';
}

function describeCommand(command: CommandSpec): string {
  const lines = [`## ${command.name}`, command.description];
  if (command.parameters.length > 0) {
    lines.push('Parameters:', ...command.parameters.map(describeParameter));
  }
  const refinable = describeRefinableParameters(command);
  if (refinable !== '') lines.push(refinable);
  if (command.rules.length > 0) lines.push('Rules:', ...command.rules.map((rule) => `- ${rule}`));
  if (command.criticalRules.length > 0) {
    lines.push('CRITICAL rules:', ...command.criticalRules.map((rule) => `- ${rule}`));
  }
  const primary = command.examples.filter((example) => example.isPrimary);
  if (primary.length > 0) {
    lines.push('Examples:', ...primary.map((example) => describeExample(command, example)));
  }
  if (command.antipatterns.length > 0) {
    lines.push(
      'Not for:',
      ...command.antipatterns.map(
        (antipattern) => `- ${antipattern.description}: use ${antipattern.commandName} instead.`,
      ),
    );
  }
  return lines.join('\n');
}

function names(commands: readonly CommandSpec[]): string {
  return commands.map((command) => command.name).join(', ');
}
