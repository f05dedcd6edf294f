import { describe, expect, it } from 'vitest';
import {
  commandMessagesAnswer,
  MAX_COMMAND_ANSWER_CHARACTERS,
} from '../../../shared/conversation/turn/command-messages';

const success = (message: unknown) => ({ success: true, message, context: null, error: null });

describe('commandMessagesAnswer', () => {
  it.each([
    ['Timer set for 10 minutes', 'Timer set for 10 minutes.'],
    ['  Cancelled.  ', 'Cancelled.'],
    ['Which timer would you like to cancel?', 'Which timer would you like to cancel?'],
    ["Snoozed 'call mom' for 5 minutes.", "Snoozed 'call mom' for 5 minutes."],
    ['Reminder set: "call mom"', 'Reminder set: "call mom".'],
    ['Done!', 'Done!'],
  ])('speaks %j as %j', (message, spoken) => {
    expect(commandMessagesAnswer([{ name: 'set_timer', output: success(message) }])).toBe(spoken);
  });

  it('takes an answer of exactly the limit, and refuses one character more', () => {
    const atLimit = `${'x'.repeat(MAX_COMMAND_ANSWER_CHARACTERS - 1)}.`;
    const over = `${'x'.repeat(MAX_COMMAND_ANSWER_CHARACTERS)}.`;

    expect(commandMessagesAnswer([{ name: 'set_timer', output: success(atLimit) }])).toBe(atLimit);
    expect(commandMessagesAnswer([{ name: 'set_timer', output: success(over) }])).toBeNull();
  });

  it('counts the limit in characters (code points): an answer of emoji at the limit is taken', () => {
    const atLimit = `${'\u{1F44D}'.repeat(MAX_COMMAND_ANSWER_CHARACTERS - 1)}.`;
    const over = `${'\u{1F44D}'.repeat(MAX_COMMAND_ANSWER_CHARACTERS)}.`;

    expect(commandMessagesAnswer([{ name: 'set_timer', output: success(atLimit) }])).toBe(atLimit);
    expect(commandMessagesAnswer([{ name: 'set_timer', output: success(over) }])).toBeNull();
  });

  it('counts the limit over the joined messages', () => {
    const half = `${'x'.repeat(MAX_COMMAND_ANSWER_CHARACTERS / 2 - 1)}.`;
    const calls = [half, half].map((message) => ({ name: 'set_timer', output: success(message) }));

    expect(commandMessagesAnswer(calls)).toBeNull();
    expect(commandMessagesAnswer(calls.slice(1))).toBe(half);
  });

  it('answers nothing for no calls, or for a server tool among them', () => {
    expect(commandMessagesAnswer([])).toBeNull();
    expect(
      commandMessagesAnswer([{ name: 'request_validation', output: success('the kitchen') }]),
    ).toBeNull();
  });

  it.each([
    ['the reminders themselves', { reminders: [{ text: 'call mom' }], count: 1 }],
    ['timers one level down', { summary: { timers: [{ label: 'pasta' }] } }],
  ])('leaves the wording to the model when the context holds a list: %s', (_case, context) => {
    const output = { success: true, message: 'You have 1 reminder(s).', context, error: null };

    expect(commandMessagesAnswer([{ name: 'list_reminders', output }])).toBeNull();
  });

  it.each([
    ['an empty list', { reminders: [], count: 0 }],
    ['scalars only', { duration_seconds: 600, label: 'pasta' }],
    ['a list deeper than it looks', { a: { b: { c: [1] } } }],
  ])('speaks the message when the context holds no list within reach: %s', (_case, context) => {
    const output = { success: true, message: 'Done', context, error: null };

    expect(commandMessagesAnswer([{ name: 'set_timer', output }])).toBe('Done.');
  });
});
