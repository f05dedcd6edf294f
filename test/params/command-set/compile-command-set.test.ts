import { describe, expect, it } from 'vitest';
import { compileCommandSet } from '../../../shared/params';
import { compileOrThrow, loadFixture } from '../support/command-sets';

const FIXTURE_NAMES = [
  'set_timer',
  'cancel_timer',
  'check_timers',
  'calculate',
  'convert_measurement',
  'get_current_time',
  'answer_question',
  'tell_joke',
  'control_device',
  'reminder',
  'routine',
  'get_weather',
  'get_calendar_events',
  'get_sports',
  'search_web',
  'music',
];

describe('compileCommandSet on the real node registration', () => {
  it('compiles with no issue, one spec and one tool per name, in registration order', () => {
    // Act
    const compiled = compileCommandSet(loadFixture());

    // Assess
    expect(compiled.ok ? [] : compiled.issues).toEqual([]);
    expect(compiled.ok && [...compiled.value.commands.keys()]).toEqual(FIXTURE_NAMES);
    expect(compiled.ok && compiled.value.tools.map((tool) => tool.function.name)).toEqual(
      FIXTURE_NAMES,
    );
  });

  it('reads the prompt material of each command', () => {
    // Act
    const timer = compileOrThrow(loadFixture()).commands.get('set_timer');

    // Assess
    expect(timer).toMatchObject({
      description: 'Start a countdown timer for a duration, optionally labelled.',
      rules: [
        'Convert spoken durations to total seconds.',
        "Take the label from 'X timer' or 'timer for X'.",
      ],
      criticalRules: ['duration_seconds must be a positive integer.'],
      keywords: ['timer', 'countdown'],
      antipatterns: [
        { commandName: 'reminder', description: 'Reminders at a clock time are not timers' },
      ],
      allowDirectAnswer: false,
      allowsExtraParameters: false,
    });
    expect(timer?.examples[1]).toEqual({
      voiceCommand: 'Set a 10 minute timer for pasta',
      expectedParameters: { duration_seconds: 600, label: 'pasta' },
      isPrimary: false,
    });
  });

  it.each([
    ['get_weather', 'resolved_datetimes', 'array<datetime>'],
    ['get_calendar_events', 'resolved_datetimes', 'array[datetime]'],
    ['get_sports', 'resolved_datetimes', 'datetime[]'],
  ])('gives %s.%s (%s) the type array<datetime>', (command, parameter) => {
    // Act
    const spec = compileOrThrow(loadFixture()).commands.get(command);

    // Assess
    expect(spec?.parameters.find((candidate) => candidate.name === parameter)).toMatchObject({
      type: { kind: 'array', items: 'datetime' },
      required: true,
    });
  });

  it('keeps refinable parameters and their enums', () => {
    // Act
    const music = compileOrThrow(loadFixture()).commands.get('music');

    // Assess
    expect(music?.parameters.find((parameter) => parameter.name === 'queue_option')).toMatchObject({
      refinable: true,
      enumValues: ['play', 'next', 'add'],
      defaultValue: undefined,
      description: null,
    });
  });

  it('hands out frozen specs and tools, since the cache shares them', () => {
    // Act
    const set = compileOrThrow(loadFixture());

    // Assess
    expect(Object.isFrozen(set.tools[0]?.function.parameters)).toBe(true);
    expect(Object.isFrozen(set.commands.get('music')?.parameters[2]?.schema)).toBe(true);
  });
});
