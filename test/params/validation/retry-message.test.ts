import { describe, expect, it } from 'vitest';
import { buildRetryMessage, type ValidationIssue } from '../../../shared/params';
import { compileOrThrow, loadFixture } from '../support/command-sets';

const set = compileOrThrow(loadFixture());
const TOOL_NAMES = ['get_weather', 'calculate', 'resolve_relative_date'];

function issuesOf(name: string, args: unknown): readonly ValidationIssue[] {
  const check = set.check({ name, arguments: args }, 'lossless');
  if (check.ok) throw new Error('expected issues');
  return check.issues;
}

describe('buildRetryMessage', () => {
  it('writes one line per invalid parameter between an opening and a closing', () => {
    // Prepare
    const issues = [
      ...issuesOf('get_weather', { resolved_datetimes: ['tomorrow'] }),
      ...issuesOf('calculate', { num1: 'five', num2: 2, operation: 'modulo' }),
      ...issuesOf('get_location', {}),
      ...issuesOf('answer_question', { question: 'why' }),
    ];

    // Act
    const message = buildRetryMessage(issues, TOOL_NAMES);

    // Assess
    expect(message.split('\n')).toEqual([
      'Your previous tool call(s) were invalid and were NOT executed. Fix these problems:',
      '- get_weather.resolved_datetimes[0]: expected an absolute ISO-8601 date-time with a time zone (e.g. 2026-01-18T05:00:00Z), got "tomorrow". Call resolve_relative_date to get one.',
      '- calculate.num1: expected a number, got "five".',
      '- calculate.operation: expected one of "add", "subtract", "multiply" or "divide", got "modulo".',
      '- get_location: there is no tool with this name. Call one of: get_weather, calculate, resolve_relative_date.',
      '- answer_question.query: this required parameter is missing; expected a string.',
      '- answer_question.question: answer_question has no parameter named "question". Its parameters are: query.',
      'Call the tool again with corrected arguments.',
    ]);
  });

  it.each([
    ['reminder', { action: 'set', time: 'at three' }, true],
    ['get_sports', { team_name: 'Giants', resolved_datetimes: 'yesterday' }, true],
    ['set_timer', { duration_seconds: 'five minutes' }, false],
  ])('gives the date hint for %s only when the parameter is a date type', (name, args, hinted) => {
    // Act
    const message = buildRetryMessage(issuesOf(name, args), TOOL_NAMES);

    // Assess
    expect(message.includes('resolve_relative_date')).toBe(hinted);
  });

  it('says what came for a placeholder in a required parameter', () => {
    // Act
    const message = buildRetryMessage(
      issuesOf('set_timer', { duration_seconds: 'none' }),
      TOOL_NAMES,
    );

    // Assess
    expect(message).toContain(
      '- set_timer.duration_seconds: this required parameter needs a real value; expected an integer, got "none".',
    );
  });

  it('is deterministic and does not repeat a line', () => {
    // Prepare
    const issues = issuesOf('get_weather', { resolved_datetimes: ['tomorrow'] });

    // Act
    const once = buildRetryMessage(issues, TOOL_NAMES);
    const twice = buildRetryMessage([...issues, ...issues], TOOL_NAMES);

    // Assess
    expect(twice).toBe(once);
  });
});
