import { describe, expect, it } from 'vitest';
import { buildRetryMessage } from '../../../shared/params';
import { compileOrThrow, loadFixture } from '../support/command-sets';

const fixture = compileOrThrow(loadFixture());
const WEATHER = 'get_weather';

describe('validation issues', () => {
  it('carry command, parameter, what was expected, what came and the valid values', () => {
    // Act
    const check = fixture.check(
      { name: 'control_device', arguments: { device_name: 'lamp', action: 'dim' } },
      'lossless',
    );

    // Assess
    expect(check).toEqual({
      ok: false,
      repairs: [],
      issues: [
        {
          code: 'not_in_enum',
          command: 'control_device',
          parameter: 'action',
          expected: 'one of "turn_on", "turn_off", "lock", "unlock" or "set"',
          received: 'dim',
          validValues: ['turn_on', 'turn_off', 'lock', 'unlock', 'set'],
          parameterType: { kind: 'scalar', scalar: 'string' },
          message:
            'control_device.action: expected one of "turn_on", "turn_off", "lock", "unlock" or "set", got "dim".',
        },
      ],
    });
  });

  it('give the message of the wire contract for a relative date', () => {
    // Act
    const check = fixture.check(
      { name: WEATHER, arguments: { resolved_datetimes: ['tomorrow'] } },
      'lossless',
    );

    // Assess
    expect(check.ok ? '' : check.issues[0]?.message).toBe(
      'get_weather.resolved_datetimes[0]: expected an absolute ISO-8601 date-time with a time zone (e.g. 2026-01-18T05:00:00Z), got "tomorrow". Call resolve_relative_date to get one.',
    );
  });

  it('report every item of an array on its own', () => {
    // Act
    const check = fixture.check(
      { name: WEATHER, arguments: { resolved_datetimes: ['2026-01-18T05:00:00Z', 'tonight', 7] } },
      'lossless',
    );

    // Assess
    expect(
      check.ok ? [] : check.issues.map((issue) => [issue.code, issue.parameter, issue.expected]),
    ).toEqual([
      [
        'invalid_format',
        'resolved_datetimes[1]',
        expect.stringContaining('date-time with a time zone'),
      ],
      [
        'wrong_type',
        'resolved_datetimes[2]',
        expect.stringContaining('date-time with a time zone'),
      ],
    ]);
  });

  it('name constraint failures of client schemas with their reason', () => {
    // Prepare
    const set = compileOrThrow({
      client_tools: [
        {
          type: 'function',
          function: {
            name: 'volume',
            description: 'v',
            parameters: {
              type: 'object',
              properties: { level: { type: 'integer', maximum: 100 } },
            },
          },
        },
      ],
    });

    // Act
    const check = set.check({ name: 'volume', arguments: { level: 150 } }, 'lossless');

    // Assess
    expect(check.ok ? [] : check.issues.map((issue) => issue.message)).toEqual([
      'volume.level: must be <= 100, got 150.',
    ]);
  });

  it('make the retry message of a relative date name resolve_relative_date', () => {
    // Prepare
    const check = fixture.check(
      { name: WEATHER, arguments: { resolved_datetimes: ['tomorrow'] } },
      'lossless',
    );

    // Act
    const message = buildRetryMessage(check.ok ? [] : check.issues, [...fixture.commands.keys()]);

    // Assess
    expect(message).toContain('resolve_relative_date');
    expect(message).toContain('absolute ISO-8601');
  });
});
