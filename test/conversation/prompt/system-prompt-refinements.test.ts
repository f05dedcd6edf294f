import { describe, expect, it } from 'vitest';
import { buildSystemPrompt } from '../../../shared/conversation/prompt/system-prompt';
import type { CommandSetSource } from '../../../shared/params';
import { compile, fixtureRegistration } from '../../support/engine-fixtures';

/** The fixture with every `refinable` and `_refinable` mark taken out. */
function withoutRefinable(source: CommandSetSource): CommandSetSource {
  return JSON.parse(
    JSON.stringify(source, (key, value) =>
      key === 'refinable' || key === '_refinable' ? undefined : value,
    ),
  ) as CommandSetSource;
}

const lineOf = (prompt: string, start: string): string =>
  prompt.split('\n').find((line) => line.startsWith(start)) ?? '';

describe('the system prompt of a registration with refinable parameters', () => {
  const prompt = buildSystemPrompt(compile(fixtureRegistration()));

  it('says once what a refinement is, before the commands', () => {
    const rule = lineOf(prompt, '- A request that only adjusts a refinable parameter');
    expect(rule).toBe(
      '- A request that only adjusts a refinable parameter (named below; "play it next", "louder") calls the same command again: the new value, the other arguments as last used (the user\'s message names that call), nothing added.',
    );
    expect(prompt.indexOf(rule)).toBeLessThan(prompt.indexOf('Commands:'));
    expect(prompt.split('refinable parameter')).toHaveLength(2);
  });

  it('names the refinable parameters of music on its line (the tool schema marks them too)', () => {
    expect(lineOf(prompt, '- music:')).toBe(
      '- music: E.g. "Play some jazz" -> {"action":"play","query":"jazz"}. Refinable: queue_option, volume_level.',
    );
  });

  it('says nothing of refinements for commands without refinable parameters', () => {
    expect(lineOf(prompt, '- set_timer:')).not.toMatch(/refin/i);
  });
});

describe('the system prompt of a registration without refinable parameters', () => {
  it('has no word of refinements, and is otherwise the same prompt', () => {
    // Prepare
    const withMarks = buildSystemPrompt(compile(fixtureRegistration()));

    // Act
    const prompt = buildSystemPrompt(compile(withoutRefinable(fixtureRegistration())));

    // Assess
    expect(prompt).not.toMatch(/refin/i);
    const marksTakenOut = withMarks
      .replace(/\n- A request that only adjusts a refinable parameter[^\n]*/, '')
      .replace(/ Refinable: [^\n]*/, '');
    expect(prompt).toBe(marksTakenOut);
  });
});
