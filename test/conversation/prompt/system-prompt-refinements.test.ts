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

const sectionOf = (prompt: string, heading: string): string => {
  const start = prompt.indexOf(heading);
  const end = prompt.indexOf('\n\n', start);
  return prompt.slice(start, end < 0 ? undefined : end);
};

describe('the system prompt of a registration with refinable parameters', () => {
  const prompt = buildSystemPrompt(compile(fixtureRegistration()));

  it('says once what a refinement is, before the commands', () => {
    expect(sectionOf(prompt, 'Refinements:')).toBe(
      [
        'Refinements:',
        '- A parameter marked refinable can be adjusted after its command ran. When the user\'s next request only adjusts one (for example "actually, play it next" or "make it louder"), it refines the last call of that command and is not a new request: call the same command again with the refined value and every other argument as the user last had it.',
        "- The user's message names the last call with refinable parameters when there is one. A refinement adds nothing the user did not ask for.",
      ].join('\n'),
    );
    expect(prompt.indexOf('Refinements:')).toBeLessThan(prompt.indexOf('Commands:'));
    expect(prompt.split('Refinements:')).toHaveLength(2);
  });

  it('marks the refinable parameters of music and names them under the command', () => {
    expect(sectionOf(prompt, '## music')).toBe(
      [
        '## music',
        'Play and control music.',
        'Parameters:',
        '- action (string, required, one of: play, pause, resume, next, previous, volume)',
        '- query (string, optional)',
        '- queue_option (string, optional, refinable, one of: play, next, add)',
        '- volume_level (int, optional, refinable): Volume 0-100',
        'Refinable: queue_option, volume_level. A follow-up that adjusts only these calls music again with the other arguments unchanged.',
        'Examples:',
        '- "Play some jazz" -> music({"action":"play","query":"jazz"})',
      ].join('\n'),
    );
  });

  it('says nothing of refinements for commands without refinable parameters', () => {
    expect(sectionOf(prompt, '## set_timer')).not.toMatch(/refin/i);
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
      .replace(/\n\nRefinements:[\s\S]*?(?=\n\nCommands:)/, '')
      .replaceAll(', refinable', '')
      .replace(/\nRefinable: [^\n]*/, '');
    expect(prompt).toBe(marksTakenOut);
  });
});
