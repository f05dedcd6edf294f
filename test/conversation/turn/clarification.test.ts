import { describe, expect, it } from 'vitest';
import { clarificationFor } from '../../../shared/conversation/turn/clarification';
import { compileOrThrow, typedCommand } from '../../params/support/command-sets';

const set = compileOrThrow({
  available_commands: [
    typedCommand('get_weather', [
      { name: 'city', type: 'string' },
      { name: 'resolved_datetimes', type: 'array<datetime>', required: true },
    ]),
  ],
});
const issuesOf = (args: Record<string, unknown>) => {
  const check = set.check({ name: 'get_weather', arguments: args }, 'lossless');
  return check.ok ? [] : check.issues;
};

// A name the command does not have was the model's mistake: the user was asked "Which town do
// you want: city or resolved datetimes?", offering parameter names as answers.
describe('the question after the retries (docs/parameters.md)', () => {
  it('never asks the user about a parameter the command does not have', () => {
    // Act
    const question = clarificationFor(
      issuesOf({ town: 'Paris', resolved_datetimes: ['tomorrow'] }),
    );

    // Assess
    expect(question).toEqual({
      question: 'Which exact resolved datetimes do you mean? Please name the day or the time.',
      parameterName: 'resolved_datetimes',
      options: null,
    });
  });

  it('only unknown names: the user is asked to say it another way', () => {
    const question = clarificationFor(
      issuesOf({ town: 'Paris', resolved_datetimes: ['2026-01-18T05:00:00Z'] }),
    );

    expect(question).toEqual({
      question: 'Sorry, could you say that another way?',
      parameterName: 'request',
      options: null,
    });
  });
});
