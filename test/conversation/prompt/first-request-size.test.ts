import { describe, expect, it } from 'vitest';
import { buildHomeContext } from '../../../shared/conversation/home/build-home-context';
import { withHomeBlock } from '../../../shared/conversation/home/with-home-block';
import { withTurnContext } from '../../../shared/conversation/prompt/turn-context';
import { requestPrefixFor } from '../../../shared/conversation/turn/run-turn';
import { compile, fixtureRegistration } from '../../support/engine-fixtures';
import { homeAgents } from '../../support/home-fixture';

/** Issue 11: the first request for the real node's registration, as JSON, at most this long. */
const FIRST_REQUEST_BUDGET = 9_500;

const registration = fixtureRegistration();
const commandSet = compile(registration);
const { systemMessage, tools } = requestPrefixFor(commandSet);
const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('the first model request for the real node’s registration', () => {
  it(`is at most ${FIRST_REQUEST_BUDGET} characters of JSON (system and user message, tools)`, () => {
    const user = withTurnContext("what's the weather like in Los Angeles tomorrow afternoon", {
      timezone: 'America/New_York',
      now: Date.UTC(2026, 10, 23, 10, 20),
    });
    const messages = [systemMessage, { role: 'user', content: user }];

    const size = JSON.stringify(messages).length + JSON.stringify(tools).length;

    expect(size).toBeLessThanOrEqual(FIRST_REQUEST_BUDGET);
  });

  it('stays within 1.35 times issue 11’s 9,229 characters with the 50-device home (issue 20)', () => {
    const user = withTurnContext("what's the weather like in Los Angeles tomorrow afternoon", {
      timezone: 'America/New_York',
      now: Date.UTC(2026, 10, 23, 10, 20),
      room: 'Office',
      speakerUserId: 7,
    });
    const home = buildHomeContext(homeAgents(), 'Office');
    const messages = withHomeBlock(
      [systemMessage, { role: 'user', content: user }],
      home?.prompt ?? null,
    );

    // The bench's measure (bench/token-count.ts), which gave the 9,229: the texts as the model
    // reads them (no JSON escapes of the quoted names) plus the tools as JSON.
    const texts = messages.reduce((sum, message) => sum + (message.content ?? '').length, 0);
    const size = texts + JSON.stringify(tools).length;

    expect(home?.entityIds).toHaveLength(50);
    expect(size).toBeLessThanOrEqual(Math.floor(9_229 * 1.35));
  });

  it('still holds every rule, critical rule, primary example and antipattern, once', () => {
    for (const command of registration.available_commands as Record<string, unknown>[]) {
      const texts = [
        ...((command.rules as string[] | undefined) ?? []),
        ...((command.critical_rules as string[] | undefined) ?? []),
        ...(
          (command.examples as { voice_command: string; is_primary?: boolean }[] | undefined) ?? []
        )
          .filter((example) => example.is_primary)
          .map((example) => `"${example.voice_command}" ->`),
        ...((command.antipatterns as { description: string }[] | undefined) ?? []).map(
          (antipattern) => antipattern.description.replace(/[.!?]+$/, ''),
        ),
      ];
      for (const text of texts) expect(occurrences(systemMessage.content, text), text).toBe(1);
    }
  });

  it('says what the tool schemas say only there: no parameter list in the system prompt', () => {
    expect(systemMessage.content).not.toMatch(/Parameters:|\(int, required\)/);
    const toolText = JSON.stringify(tools);
    expect(occurrences(toolText, 'Total duration in seconds')).toBe(1);
    expect(occurrences(systemMessage.content, 'Total duration in seconds')).toBe(0);
  });
});
