import { withinCharacters } from '../../params';
import { isServerToolName } from '../server-tools/server-tool-names';
import { type FinishedTurn, finishWithAnswer } from './finish';
import type { TurnState } from './turn-state';

/**
 * The most characters a spoken answer taken from the commands may have, all messages joined:
 * about half a minute of speech. A command whose message is longer wrote a report, not an answer
 * (the model summarizes it), and the answer stays far inside what every speech provider takes.
 */
export const MAX_COMMAND_ANSWER_CHARACTERS = 500;

/** A call the turn handed out, and what the node's command returned for it. */
export interface AnsweredCall {
  readonly name: string;
  readonly output: unknown;
}

/**
 * The final answer the node's commands already wrote, or null when the model must write it.
 * jarvis-node-setup sends each result as `{success, message, context, error}`, `message` promoted
 * from the command's `context_data`, which its SDK documents as "what gets spoken aloud". So the
 * answer is theirs when every result is such a success with a message, joined in call order, and
 * nothing else is pending: no clarification (its answer is the user's, not a command's). Anything
 * else (a failure, no message, a list in its context, a string, an object without `success`) goes
 * to the model.
 */
export function commandMessagesAnswer(calls: readonly AnsweredCall[]): string | null {
  if (calls.length === 0 || calls.some((call) => isServerToolName(call.name))) return null;
  const messages: string[] = [];
  for (const call of calls) {
    const message = spokenMessage(call.output);
    if (message === null) return null;
    messages.push(message);
  }
  const answer = messages.map(asSentence).join(' ');
  return withinCharacters(answer, MAX_COMMAND_ANSWER_CHARACTERS) ? answer : null;
}

/**
 * Ends the turn with the commands' answer, recorded as the model's would be (an assistant message
 * with no calls): the next utterance reads it as the reply it was, after the same prefix.
 */
export function finishWithCommandAnswer(state: TurnState, answer: string): FinishedTurn {
  const finished = finishWithAnswer(state, answer);
  return { ...finished, outcome: { ...finished.outcome, answeredByCommands: true } };
}

/** A node success's spoken message, trimmed; null for anything else. */
function spokenMessage(output: unknown): string | null {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return null;
  const result = output as Readonly<Record<string, unknown>>;
  if (result.success !== true) return null;
  // The SDK turns a response with error details into a failure; one that says both is not trusted.
  if (result.error !== undefined && result.error !== null) return null;
  if (typeof result.message !== 'string') return null;
  // A list beside the message ("You have 3 reminder(s).", the reminders in `context`) is what the
  // user asked to hear: the model words it.
  if (holdsList(result.context, LIST_SEARCH_DEPTH)) return null;
  const message = result.message.trim();
  return message === '' ? null : message;
}

/** How deep into a result's `context` a list is looked for: its fields, and theirs. */
const LIST_SEARCH_DEPTH = 2;

/** Whether `value` is, or holds within `depth` levels, an array with an element. */
function holdsList(value: unknown, depth: number): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (depth === 0 || typeof value !== 'object' || value === null) return false;
  return Object.values(value).some((field) => holdsList(field, depth - 1));
}

/** The node's messages often end without a stop ("Timer set for 10 minutes"): one is added. */
const asSentence = (message: string): string =>
  /[.!?…]["')\]]?$/u.test(message) ? message : `${message}.`;
